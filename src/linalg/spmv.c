/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* px_csr_spmv and px_graph_add_csr_spmv: the arguments checked, then the algorithm's
 * dispatches on an instance or nodes in a graph. */
#include "args.h"
#include "csr.h"
#include "spmv_kernels.h"
#include "target.h"

/* One dispatcher per value and index type: the spans filled by type (px_view_get_span
   checks each against its view), then the algorithm's league. */
#define LA_SPMV_DISPATCH(V, I, VT)                                                              \
    static px_status spmv_##V##_##I(const char *func, la_target *t, px_spmv_alg alg, px_csr *A, \
                                    px_view *x, px_view *y, double alpha, double beta)          \
    {                                                                                           \
        la_spmv_args_##V##_##I a;                                                               \
        px_status st;                                                                           \
        LA_CSR_SPANS(st, A, a);                                                                 \
        if (st == PX_OK) st = px_view_get_span(x, &a.x);                                        \
        if (st == PX_OK) st = px_view_get_span(y, &a.y);                                        \
        if (st != PX_OK) return st;                                                             \
        a.alpha = alpha;                                                                        \
        a.beta = beta;                                                                          \
        if (alg == PX_SPMV_ROWS) {                                                              \
            px_instance *shaper;                                                                \
            px_team_rows *rows;                                                                 \
            st = la_target_instance(t, &shaper);                                                \
            if (st == PX_OK) st = la_csr_rows(func, shaper, A, &rows);                          \
            return st != PX_OK ? st                                                             \
                               : la_for_team(t, func, px_teams_rows(rows),                      \
                                             PX_KERNEL(la_spmv_rows_##V##_##I), &a);            \
        }                                                                                       \
        const px_team_policy p = px_team_policy_scratch(px_teams(A->tiles, LA_TILE_TEAM, 1), 0, \
                                                        LA_TILE_SCRATCH(sizeof(VT)), 0);        \
        st = la_for_team(t, func, p, PX_KERNEL(la_spmv_tiles_##V##_##I), &a);                   \
        if (st != PX_OK || A->chunks == 0 || la_zero(alpha, A->value_type)) return st;          \
        return la_for_team(t, func, px_teams(A->chunks, LA_TILE_TEAM, 1),                       \
                           PX_KERNEL(la_spmv_chunks_##V##_##I), &a);                            \
    }

LA_SPMV_DISPATCH(f32, i32, float)
LA_SPMV_DISPATCH(f32, i64, float)
LA_SPMV_DISPATCH(f64, i32, double)
LA_SPMV_DISPATCH(f64, i64, double)

/* Both calls: the operands checked against A and the memory the kernels use (is), then the
   algorithm the matrix runs there. */
static px_status spmv(const char *func, la_target *t, px_space is, double alpha, const px_csr *A,
                      px_view *x, double beta, px_view *y)
{
    la_vec xv, yv;
    px_status st = la_csr_operand(func, A, is, "x", x, A->ncols, &xv);
    if (st == PX_OK) st = la_csr_operand(func, A, is, "y", y, A->nrows, &yv);
    if (st != PX_OK) return st;
    if ((st = la_distinct(func, "x", &xv, "y", &yv)) != PX_OK) return st;
    if ((st = la_scalar(func, "alpha", alpha, A->value_type)) != PX_OK) return st;
    if ((st = la_scalar(func, "beta", beta, A->value_type)) != PX_OK) return st;
    if (A->nrows == 0) return PX_OK;
    const px_spmv_alg alg = A->set != PX_SPMV_AUTO ? A->set : la_csr_choice(A, is);
    /* The matrix's contents never change; its rows' leagues per backend are made on first
       use (one thread at a time per matrix, as the header says). A graph holds the views
       its nodes read. */
    px_csr *M = (px_csr *)A;
    px_view *views[] = {x, y, A->row, A->col, A->val, A->tile, A->chunk};
    for (size_t k = 0; k < sizeof views / sizeof views[0]; ++k) la_target_uses(t, views[k]);
    const bool f32 = A->value_type == PX_F32, i32 = A->index_type == PX_I32;
    if (f32)
        st = i32 ? spmv_f32_i32(func, t, alg, M, x, y, alpha, beta)
                 : spmv_f32_i64(func, t, alg, M, x, y, alpha, beta);
    else
        st = i32 ? spmv_f64_i32(func, t, alg, M, x, y, alpha, beta)
                 : spmv_f64_i64(func, t, alg, M, x, y, alpha, beta);
    return la_named(func, st); /* a refusal inside portex names the call too */
}

px_status px_csr_spmv(px_instance *inst, double alpha, const px_csr *A, px_view *x, double beta,
                      px_view *y)
{
    static const char func[] = "px_csr_spmv";
    px_space is;
    la_target t = la_on_instance(inst);
    const px_status st = la_csr_begin(func, inst, A, &is);
    return st != PX_OK ? st : spmv(func, &t, is, alpha, A, x, beta, y);
}

px_status px_graph_add_csr_spmv(px_graph *graph, px_graph_node *const *deps, int ndeps,
                                double alpha, const px_csr *A, px_view *x, double beta, px_view *y,
                                px_graph_node **out)
{
    static const char func[] = "px_graph_add_csr_spmv";
    px_space is;
    la_target t;
    px_status st = la_named(func, la_in_graph(func, graph, deps, ndeps, &t, &is));
    if (st == PX_OK) st = la_named(func, la_csr_check(func, A));
    if (st == PX_OK) st = la_named(func, la_reachable(func, "A", is, A->space));
    if (st == PX_OK) st = spmv(func, &t, is, alpha, A, x, beta, y);
    return st != PX_OK ? st : la_named(func, la_target_done(&t, out));
}
