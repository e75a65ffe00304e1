/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The COO kernel that sums runs of equal keys, for one value type and one index type, as
 * for_each_pair.h defines them. Included once per pair (coo_kernels.c). */

/* PX_FOR pastes its name: give it one already expanded. */
#define LA_FOR(name, Args, args, i) PX_FOR(name, Args, args, i)

/* The head of each run sums it in sorted order, which the stable sort made the triplets'
   order: the same sums on every backend. */
LA_FOR(LA_NAME(la_coo_sum), LA_NAME(la_coo_sum_args), a, i)
{
    if (!PX_AT1(a->head, i)) return;
    const int64_t key = PX_AT1(a->key, PX_AT1(a->perm, i));
    LA_VT s = PX_AT1(a->val, PX_AT1(a->perm, i));
    for (int64_t j = i + 1; j < a->n && !PX_AT1(a->head, j); ++j)
        s += PX_AT1(a->val, PX_AT1(a->perm, j));
    const int64_t u = PX_AT1(a->pos, i) - 1;
    PX_AT1(a->col_out, u) = (LA_IT)(key % a->ncols);
    PX_AT1(a->val_out, u) = s;
    PX_AT1(a->key_out, u) = key;
}

#undef LA_FOR
