/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The COO kernels that depend on the index type alone, as for_each_index.h defines it.
 * Included once per index type (coo_kernels.c). */

/* PX_FOR pastes its name: give it one already expanded. */
#define LA_FOR(name, Args, args, i) PX_FOR(name, Args, args, i)

LA_FOR(LA_NAME(la_coo_keys), LA_NAME(la_coo_keys_args), a, i)
{
    PX_AT1(a->key, i) = (int64_t)PX_AT1(a->row, i) * a->ncols + (int64_t)PX_AT1(a->col, i);
}

/* Rows (key[u - 1] / ncols, key[u] / ncols] start at entry u: each row is written once. */
LA_FOR(LA_NAME(la_coo_offsets), LA_NAME(la_coo_offsets_args), a, u)
{
    const int64_t prev = u == 0 ? -1 : PX_AT1(a->key, u - 1) / a->ncols;
    const int64_t cur = u == a->entries ? a->nrows : PX_AT1(a->key, u) / a->ncols;
    for (int64_t r = prev + 1; r <= cur; ++r) PX_AT1(a->offsets, r) = (LA_IT)u;
}

#undef LA_FOR
