/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* px_csr_spmm: the arguments checked, then the algorithm px_csr_spmv runs, for several
 * vectors. */
#include "args.h"
#include "csr.h"
#include "spmm_kernels.h"

static const char SPMM[] = "px_csr_spmm";

/* A team dispatch of the kernel `kind` (la_spmm, la_spmm_tiles, la_spmm_chunks) in its
   width: groups of 4 vectors (`narrow`) or 8. */
#define LA_SPMM_RUN(kind, V, I, narrow, inst, policy, args)                                  \
    ((narrow) ? px_parallel_for_team(inst, SPMM, policy, PX_KERNEL(kind##4_##V##_##I), args) \
              : px_parallel_for_team(inst, SPMM, policy, PX_KERNEL(kind##8_##V##_##I), args))

/* One dispatcher per value and index type: the spans filled by type (px_view_get_span
   checks each against its view), then the algorithm's league (as px_csr_spmv's), then the
   long rows' chunks. */
#define LA_SPMM_DISPATCH(V, I, VT)                                                             \
    static px_status spmm_##V##_##I(px_instance *inst, px_spmv_alg alg, px_csr *A, px_view *X, \
                                    px_view *Y, double alpha, double beta, bool narrow)        \
    {                                                                                          \
        la_spmm_args_##V##_##I a;                                                              \
        px_status st;                                                                          \
        LA_CSR_SPANS(st, A, a);                                                                \
        if (st == PX_OK) st = px_view_get_span(X, &a.x);                                       \
        if (st == PX_OK) st = px_view_get_span(Y, &a.y);                                       \
        if (st != PX_OK) return st;                                                            \
        a.alpha = alpha;                                                                       \
        a.beta = beta;                                                                         \
        if (alg == PX_SPMV_TILES) {                                                            \
            const size_t scratch =                                                             \
                LA_SPMM_TILE_SCRATCH(narrow ? LA_SPMM_NARROW : LA_SPMM_GROUP, sizeof(VT));     \
            const px_team_policy p =                                                           \
                px_team_policy_scratch(px_teams(A->tiles, LA_TILE_TEAM, 1), 0, scratch, 0);    \
            st = LA_SPMM_RUN(la_spmm_tiles, V, I, narrow, inst, p, &a);                        \
        } else {                                                                               \
            px_team_rows *rows;                                                                \
            st = la_csr_rows(SPMM, inst, A, &rows);                                            \
            if (st == PX_OK)                                                                   \
                st = LA_SPMM_RUN(la_spmm, V, I, narrow, inst, px_teams_rows(rows), &a);        \
        }                                                                                      \
        if (st != PX_OK || A->chunks == 0 || la_zero(alpha, A->value_type)) return st;         \
        return LA_SPMM_RUN(la_spmm_chunks, V, I, narrow, inst,                                 \
                           px_teams(A->chunks, LA_TILE_TEAM, 1), &a);                          \
    }

LA_SPMM_DISPATCH(f32, i32, float)
LA_SPMM_DISPATCH(f32, i64, float)
LA_SPMM_DISPATCH(f64, i32, double)
LA_SPMM_DISPATCH(f64, i64, double)

/* The dense operand `name` of A's value type with `rows` rows; *k its columns. */
static px_status dense_operand(const px_csr *A, px_space is, const char *name, px_view *v,
                               int64_t rows, px_view_info *in, la_vec *whole)
{
    px_status st = la_named(SPMM, la_matrix(SPMM, name, is, v, in, whole));
    if (st != PX_OK) return st;
    if (in->dtype != A->value_type)
        return px_set_error(PX_ERR_TYPE_MISMATCH, SPMM, "A holds %s but %s holds %s",
                            px_dtype_string(A->value_type), name, px_dtype_string(in->dtype));
    if (in->extent[0] != rows)
        return px_set_error(PX_ERR_EXTENTS_MISMATCH, SPMM,
                            "%s has %lld rows; A (%lld x %lld) needs %lld there", name,
                            (long long)in->extent[0], (long long)A->nrows, (long long)A->ncols,
                            (long long)rows);
    return PX_OK;
}

px_status px_csr_spmm(px_instance *inst, double alpha, const px_csr *A, px_view *X, double beta,
                      px_view *Y)
{
    px_space is;
    px_view_info xi, yi;
    la_vec xv, yv;
    px_status st = la_csr_begin(SPMM, inst, A, &is);
    if (st == PX_OK) st = dense_operand(A, is, "X", X, A->ncols, &xi, &xv);
    if (st == PX_OK) st = dense_operand(A, is, "Y", Y, A->nrows, &yi, &yv);
    if (st != PX_OK) return st;
    if (xi.extent[1] != yi.extent[1])
        return px_set_error(PX_ERR_EXTENTS_MISMATCH, SPMM,
                            "X has %lld columns (vectors) but Y has %lld", (long long)xi.extent[1],
                            (long long)yi.extent[1]);
    if ((st = la_distinct(SPMM, "X", &xv, "Y", &yv)) != PX_OK) return st;
    if ((st = la_scalar(SPMM, "alpha", alpha, A->value_type)) != PX_OK) return st;
    if ((st = la_scalar(SPMM, "beta", beta, A->value_type)) != PX_OK) return st;
    const int64_t k = yi.extent[1];
    if (A->nrows == 0 || k == 0) return PX_OK;
    /* The matrix's contents never change; its rows' leagues per backend are made on first
       use (one thread at a time per matrix, as the header says). */
    px_csr *M = (px_csr *)A;
    /* AUTO: px_csr_spmv's choice, except that on a GPU a skewed matrix runs in tiles only
       for at most 4 vectors of a row-major X (a row's values side by side) and in ROWS'
       league otherwise: on the power-law matrices (H200, docs/linalg.md) tiles ran
       1.17-1.32x cuSPARSE there against ROWS' 0.87-1.03, and ROWS was ahead with 8
       vectors or a column-major X (0.76-0.98 against 0.58-0.94). Groups of 8 vectors read
       each entry once for 8; ROWS on those matrices gathered from X 1.11-1.18x faster in
       groups of 4 with k = 8 and a row-major X, the same with a column-major one. */
    const px_spmv_alg choice = la_csr_choice(A, is);
    const bool gathers_rows = k <= LA_SPMM_NARROW && (k == 1 || xi.stride[1] == 1);
    const px_spmv_alg alg = A->set != PX_SPMV_AUTO                     ? A->set
                            : choice == PX_SPMV_TILES && !gathers_rows ? PX_SPMV_ROWS
                                                                       : choice;
    const bool narrow = k <= LA_SPMM_NARROW || (alg == PX_SPMV_ROWS && choice == PX_SPMV_TILES);
    const bool f32 = A->value_type == PX_F32, i32 = A->index_type == PX_I32;
    if (f32)
        st = i32 ? spmm_f32_i32(inst, alg, M, X, Y, alpha, beta, narrow)
                 : spmm_f32_i64(inst, alg, M, X, Y, alpha, beta, narrow);
    else
        st = i32 ? spmm_f64_i32(inst, alg, M, X, Y, alpha, beta, narrow)
                 : spmm_f64_i64(inst, alg, M, X, Y, alpha, beta, narrow);
    return la_named(SPMM, st); /* a refusal inside portex names px_csr_spmm too */
}
