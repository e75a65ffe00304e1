/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* px_csr_spmv: the arguments checked, then one dispatch of the algorithm the matrix runs. */
#include "args.h"
#include "csr.h"
#include "spmv_kernels.h"

static const char SPMV[] = "px_csr_spmv";

/* One dispatcher per value and index type: the spans filled by type (px_view_get_span
   checks each against its view), then the algorithm's league. */
#define LA_SPMV_DISPATCH(V, I, VT)                                                              \
    static px_status spmv_##V##_##I(px_instance *inst, px_spmv_alg alg, px_csr *A, px_view *x,  \
                                    px_view *y, double alpha, double beta)                      \
    {                                                                                           \
        la_spmv_args_##V##_##I a;                                                               \
        px_status st = px_view_get_span(A->row, &a.row);                                        \
        if (st == PX_OK) st = px_view_get_span(A->col, &a.col);                                 \
        if (st == PX_OK) st = px_view_get_span(A->tile, &a.tile);                               \
        if (st == PX_OK) st = px_view_get_span(A->chunk, &a.chunk);                             \
        if (st == PX_OK) st = px_view_get_span(A->val, &a.val);                                 \
        if (st == PX_OK) st = px_view_get_span(x, &a.x);                                        \
        if (st == PX_OK) st = px_view_get_span(y, &a.y);                                        \
        if (st != PX_OK) return st;                                                             \
        a.alpha = alpha;                                                                        \
        a.beta = beta;                                                                          \
        if (alg == PX_SPMV_ROWS) {                                                              \
            px_team_rows *rows;                                                                 \
            st = la_csr_rows(SPMV, inst, A, &rows);                                             \
            return st != PX_OK ? st                                                             \
                               : px_parallel_for_team(inst, SPMV, px_teams_rows(rows),          \
                                                      PX_KERNEL(la_spmv_rows_##V##_##I), &a);   \
        }                                                                                       \
        const px_team_policy p = px_team_policy_scratch(px_teams(A->tiles, LA_TILE_TEAM, 1), 0, \
                                                        LA_TILE_SCRATCH(sizeof(VT)), 0);        \
        st = px_parallel_for_team(inst, SPMV, p, PX_KERNEL(la_spmv_tiles_##V##_##I), &a);       \
        if (st != PX_OK || A->chunks == 0 || la_zero(alpha, A->value_type)) return st;          \
        return px_parallel_for_team(inst, SPMV, px_teams(A->chunks, LA_TILE_TEAM, 1),           \
                                    PX_KERNEL(la_spmv_chunks_##V##_##I), &a);                   \
    }

LA_SPMV_DISPATCH(f32, i32, float)
LA_SPMV_DISPATCH(f32, i64, float)
LA_SPMV_DISPATCH(f64, i32, double)
LA_SPMV_DISPATCH(f64, i64, double)

px_status px_csr_spmv(px_instance *inst, double alpha, const px_csr *A, px_view *x, double beta,
                      px_view *y)
{
    px_space is;
    la_vec xv, yv;
    px_status st = la_csr_begin(SPMV, inst, A, &is);
    if (st == PX_OK) st = la_csr_operand(SPMV, A, is, "x", x, A->ncols, &xv);
    if (st == PX_OK) st = la_csr_operand(SPMV, A, is, "y", y, A->nrows, &yv);
    if (st != PX_OK) return st;
    if ((st = la_distinct(SPMV, "x", &xv, "y", &yv)) != PX_OK) return st;
    if ((st = la_scalar(SPMV, "alpha", alpha, A->value_type)) != PX_OK) return st;
    if ((st = la_scalar(SPMV, "beta", beta, A->value_type)) != PX_OK) return st;
    if (A->nrows == 0) return PX_OK;
    const px_spmv_alg alg = A->set != PX_SPMV_AUTO ? A->set : la_csr_choice(A, is);
    /* The matrix's contents never change; its rows' leagues per backend are made on first
       use (one thread at a time per matrix, as the header says). */
    px_csr *M = (px_csr *)A;
    const bool f32 = A->value_type == PX_F32, i32 = A->index_type == PX_I32;
    if (f32)
        st = i32 ? spmv_f32_i32(inst, alg, M, x, y, alpha, beta)
                 : spmv_f32_i64(inst, alg, M, x, y, alpha, beta);
    else
        st = i32 ? spmv_f64_i32(inst, alg, M, x, y, alpha, beta)
                 : spmv_f64_i64(inst, alg, M, x, y, alpha, beta);
    return la_named(SPMV, st); /* a refusal inside portex names px_csr_spmv too */
}
