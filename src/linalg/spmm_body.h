/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The SpMM kernel for one group width LA_W, value type and index type, as spmm_kernels.c
 * and for_each_pair.h define them (LA_W, LA_V, LA_VT, LA_I, LA_IT, LA_NAME). No include
 * guard: it is included once per width and pair. */

/* The kernel macros paste their names: give them names already expanded. */
#define LA_PASTE_W_(a, w) a##w
#define LA_PASTE_W(a, w) LA_PASTE_W_(a, w)
#define LA_SUM LA_PASTE(la_sum, LA_W, LA_V)
#define LA_TEAM_FOR(name, Args, args, team) PX_TEAM_FOR(name, Args, args, team)
#define LA_GROUP_REDUCE(team, k, begin, end, T, acc, result) \
    PX_ROW_VECTOR_REDUCE(team, k, begin, end, T, vsum, acc, result)

/* *y_ from a row's sum s, as px_csr_spmv stores: alpha = 0 ignores the sum, beta = 0 y's
   old value (NaN or infinity in either too). */
#define LA_STORE_AT(a, y_, s)                                             \
    do {                                                                  \
        const LA_VT alpha_ = (LA_VT)(a)->alpha, beta_ = (LA_VT)(a)->beta; \
        const LA_VT ax_ = alpha_ == 0 ? (LA_VT)0 : alpha_ * (s);          \
        *(y_) = beta_ == 0 ? ax_ : ax_ + beta_ * *(y_);                   \
    } while (0)

/* The rows of PX_SPMV_ROWS' league (px_team_rows); for each group of up to LA_W vectors,
   the row's entries over its lanes, each entry's value and column read once for the
   group, its LA_W loads from X issued together (a row-major X: one run of memory), the
   group's sums folded across the lanes as one value. Then one lane stores the group. */
LA_TEAM_FOR(LA_NAME(LA_PASTE_W(la_spmm, LA_W)), LA_NAME(la_spmm_args), a, team)
{
    const int64_t k = a->x.extent[1];
    PX_TEAM_ROW_FOR(team, r)
    {
        const int64_t b = PX_AT1(a->row, r), e = PX_AT1(a->row, r + 1);
        for (int64_t j0 = 0; j0 < k; j0 += LA_W) {
            const int64_t left = k - j0; /* this group's vectors: LA_W, or fewer last */
            LA_SUM s;
            LA_GROUP_REDUCE(team, p, b, e, LA_SUM, acc, s)
            {
                const LA_VT v = PX_AT1(a->val, p);
                const int64_t c = PX_AT1(a->col, p);
                for (int j = 0; j < LA_W; ++j)
                    if (j < left) acc->v[j] += v * PX_AT2(a->x, c, j0 + j);
            }
            PX_SINGLE_PER_ROW(team)
            {
                for (int j = 0; j < LA_W; ++j)
                    if (j < left) LA_STORE_AT(a, &PX_AT2(a->y, r, j0 + j), s.v[j]);
            }
        }
    }
}

#undef LA_STORE_AT
#undef LA_GROUP_REDUCE
#undef LA_TEAM_FOR
#undef LA_SUM
#undef LA_PASTE_W
#undef LA_PASTE_W_
