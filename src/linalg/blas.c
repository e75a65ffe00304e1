/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* BLAS-1 and GEMV over views (portex/linalg.h): the front ends. Each checks its instance,
 * views and scalars (args.h), decides what work there is, and hands it to the f32 or f64
 * call of blas_kernels.h, which dispatches a portex kernel on the instance. Every error
 * names the public call, a failure inside portex (a dispatch, a view) included. */
#include <string.h>

#include "args.h"
#include "blas_kernels.h"
#include "portex/linalg.h"

/* The f32 or f64 form of a blas_kernels.h call: LA_TYPED(PX_F64, la_dot, ...) is
   la_dot_f64(...). */
#define LA_TYPED(dtype, call, ...) \
    ((dtype) == PX_F32 ? call##_f32(__VA_ARGS__) : call##_f64(__VA_ARGS__))

/* Returns from the calling front end, whose name is in `func`, when expr fails. */
#define LA_TRY(expr)                                        \
    do {                                                    \
        const px_status la_st_ = (expr);                    \
        if (la_st_ != PX_OK) return la_named(func, la_st_); \
    } while (0)

/* x and y are vectors of one element type and length, distinct where `distinct`. */
static px_status two_vectors(const char *func, px_space space, px_view *x, px_view *y,
                             bool distinct, la_vec *vx, la_vec *vy)
{
    LA_TRY(la_vector(func, "x", space, x, vx));
    LA_TRY(la_vector(func, "y", space, y, vy));
    LA_TRY(la_match(func, "x", vx, "y", vy, true));
    if (distinct) LA_TRY(la_distinct(func, "x", vx, "y", vy));
    return PX_OK;
}

/* `result` of a *_view call: a contiguous view of at least one element of `dtype` in memory
   the instance's kernels write (px_parallel_reduce_view's rule). */
static px_status result_view(const char *func, px_space space, px_dtype dtype, px_view *result)
{
    if (!result) return px_set_error(PX_ERR_INVALID_ARGUMENT, func, "result is NULL");
    px_view_info in;
    LA_TRY(px_view_info_get(result, &in));
    if (in.dtype != dtype)
        return px_set_error(PX_ERR_TYPE_MISMATCH, func, "result holds %s but x holds %s",
                            px_dtype_string(in.dtype), px_dtype_string(dtype));
    if (in.size < 1 || !in.contiguous)
        return px_set_error(PX_ERR_INVALID_ARGUMENT, func,
                            "result must be contiguous with at least one element (it has %lld%s)",
                            (long long)in.size, in.contiguous ? "" : ", not contiguous");
    return la_reachable(func, "result", space, in.space);
}

/* ---- BLAS-1 --------------------------------------------------------------------------- */

px_status px_blas_axpy(px_instance *inst, double a, px_view *x, px_view *y)
{
    const char *func = __func__;
    px_space space;
    la_vec vx, vy;
    LA_TRY(la_instance(func, inst, &space));
    LA_TRY(two_vectors(func, space, x, y, true, &vx, &vy));
    LA_TRY(la_scalar(func, "a", a, vx.dtype));
    /* a = 0 adds nothing and reads nothing, as BLAS's axpy returns at once. */
    if (vx.n == 0 || a == 0) return PX_OK;
    la_target t = la_on_instance(inst);
    LA_TRY(LA_TYPED(vx.dtype, la_axpby, &t, func, a, &vx, 1.0, &vy));
    return PX_OK;
}

/* y = a x + b y on t: px_blas_axpby and its graph form. */
static px_status axpby(const char *func, la_target *t, px_space space, double a, px_view *x,
                       double b, px_view *y)
{
    la_vec vx, vy;
    LA_TRY(two_vectors(func, space, x, y, true, &vx, &vy));
    LA_TRY(la_scalar(func, "a", a, vx.dtype));
    LA_TRY(la_scalar(func, "b", b, vx.dtype));
    if (vx.n == 0) return PX_OK;
    la_target_uses(t, x);
    la_target_uses(t, y);
    LA_TRY(LA_TYPED(vx.dtype, la_axpby, t, func, a, &vx, b, &vy));
    return PX_OK;
}

px_status px_blas_axpby(px_instance *inst, double a, px_view *x, double b, px_view *y)
{
    const char *func = __func__;
    px_space space;
    la_target t = la_on_instance(inst);
    LA_TRY(la_instance(func, inst, &space));
    return axpby(func, &t, space, a, x, b, y);
}

px_status px_graph_add_blas_axpby(px_graph *graph, px_graph_node *const *deps, int ndeps, double a,
                                  px_view *x, double b, px_view *y, px_graph_node **out)
{
    const char *func = __func__;
    px_space space;
    la_target t;
    LA_TRY(la_in_graph(func, graph, deps, ndeps, &t, &space));
    LA_TRY(axpby(func, &t, space, a, x, b, y));
    LA_TRY(la_target_done(&t, out));
    return PX_OK;
}

px_status px_blas_scal(px_instance *inst, double a, px_view *x)
{
    const char *func = __func__;
    px_space space;
    la_vec vx;
    LA_TRY(la_instance(func, inst, &space));
    LA_TRY(la_vector(func, "x", space, x, &vx));
    LA_TRY(la_scalar(func, "a", a, vx.dtype));
    if (vx.n == 0 || a == 1) return PX_OK; /* a = 1 changes no value, NaN included */
    LA_TRY(LA_TYPED(vx.dtype, la_scal, inst, func, a, &vx));
    return PX_OK;
}

/* An empty x still dispatches: the reduction gives 0, and the call waits for inst as the
   header says. */
px_status px_blas_dot(px_instance *inst, px_view *x, px_view *y, double *result)
{
    const char *func = __func__;
    px_space space;
    la_vec vx, vy;
    LA_TRY(la_instance(func, inst, &space));
    LA_TRY(two_vectors(func, space, x, y, false, &vx, &vy));
    if (!result) return px_set_error(PX_ERR_INVALID_ARGUMENT, func, "result is NULL");
    LA_TRY(LA_TYPED(vx.dtype, la_dot, inst, func, &vx, &vy, result));
    return PX_OK;
}

/* element 0 of result = x . y on t: px_blas_dot_view and its graph form. */
static px_status dot_view(const char *func, la_target *t, px_space space, px_view *x, px_view *y,
                          px_view *result)
{
    la_vec vx, vy;
    LA_TRY(two_vectors(func, space, x, y, false, &vx, &vy));
    LA_TRY(result_view(func, space, vx.dtype, result));
    la_target_uses(t, x);
    la_target_uses(t, y);
    LA_TRY(LA_TYPED(vx.dtype, la_dot_view, t, func, &vx, &vy, result));
    return PX_OK;
}

px_status px_blas_dot_view(px_instance *inst, px_view *x, px_view *y, px_view *result)
{
    const char *func = __func__;
    px_space space;
    la_target t = la_on_instance(inst);
    LA_TRY(la_instance(func, inst, &space));
    return dot_view(func, &t, space, x, y, result);
}

px_status px_graph_add_blas_dot(px_graph *graph, px_graph_node *const *deps, int ndeps, px_view *x,
                                px_view *y, px_view *result, px_graph_node **out)
{
    const char *func = __func__;
    px_space space;
    la_target t;
    LA_TRY(la_in_graph(func, graph, deps, ndeps, &t, &space));
    LA_TRY(dot_view(func, &t, space, x, y, result));
    LA_TRY(la_target_done(&t, out));
    return PX_OK;
}

px_status px_blas_nrm2(px_instance *inst, px_view *x, double *result)
{
    const char *func = __func__;
    px_space space;
    la_vec vx;
    LA_TRY(la_instance(func, inst, &space));
    LA_TRY(la_vector(func, "x", space, x, &vx));
    if (!result) return px_set_error(PX_ERR_INVALID_ARGUMENT, func, "result is NULL");
    LA_TRY(LA_TYPED(vx.dtype, la_nrm2, inst, func, &vx, result));
    return PX_OK;
}

px_status px_blas_nrm2_view(px_instance *inst, px_view *x, px_view *result)
{
    const char *func = __func__;
    px_space space;
    la_vec vx;
    LA_TRY(la_instance(func, inst, &space));
    LA_TRY(la_vector(func, "x", space, x, &vx));
    LA_TRY(result_view(func, space, vx.dtype, result));
    LA_TRY(LA_TYPED(vx.dtype, la_nrm2_view, inst, func, &vx, result));
    return PX_OK;
}

/* ---- GEMV ------------------------------------------------------------------------------- */

/* A, for GEMV: as la_matrix, of either contiguous layout. */
static px_status matrix_arg(const char *func, px_space space, px_view *A, px_view_info *in,
                            la_vec *whole)
{
    LA_TRY(la_matrix(func, "A", space, A, in, whole));
    if (in->layout != PX_LAYOUT_RIGHT && in->layout != PX_LAYOUT_LEFT)
        return px_set_error(PX_ERR_INVALID_ARGUMENT, func,
                            "A has layout %s (strides %lld, %lld), not right or left; copy it "
                            "into a contiguous view",
                            px_layout_string(in->layout), (long long)in->stride[0],
                            (long long)in->stride[1]);
    return PX_OK;
}

/* op(A) of an m x n view: element (r, c) of op(A) is A(r, c) for PX_BLAS_N, A(c, r) for
   PX_BLAS_T. Its rows are contiguous for a RIGHT A not transposed and a LEFT A transposed. */
static la_op_matrix op_matrix(const px_view_info *in, px_blas_op op)
{
    const bool t = op == PX_BLAS_T;
    la_op_matrix m;
    m.data = in->data;
    m.rows = in->extent[t ? 1 : 0];
    m.cols = in->extent[t ? 0 : 1];
    m.row_stride = in->stride[t ? 1 : 0];
    m.col_stride = in->stride[t ? 0 : 1];
    m.rows_contiguous = (in->layout == PX_LAYOUT_RIGHT) != t;
    return m;
}

px_status px_blas_gemv(px_instance *inst, px_blas_op op, double alpha, px_view *A, px_view *x,
                       double beta, px_view *y)
{
    const char *func = __func__;
    px_space space;
    px_view_info in;
    la_vec va, vx, vy;
    LA_TRY(la_instance(func, inst, &space));
    if (op != PX_BLAS_N && op != PX_BLAS_T)
        return px_set_error(PX_ERR_INVALID_ARGUMENT, func,
                            "op is %d, not PX_BLAS_N (0) or PX_BLAS_T (1)", (int)op);
    LA_TRY(matrix_arg(func, space, A, &in, &va));
    LA_TRY(la_vector(func, "x", space, x, &vx));
    LA_TRY(la_vector(func, "y", space, y, &vy));
    LA_TRY(la_match(func, "A", &va, "x", &vx, false));
    LA_TRY(la_match(func, "A", &va, "y", &vy, false));
    la_op_matrix opa = op_matrix(&in, op);
    if (vx.n != opa.cols || vy.n != opa.rows)
        return px_set_error(PX_ERR_EXTENTS_MISMATCH, func,
                            "op(A) is %lld x %lld (A is %lld x %lld, op %s), so x needs %lld "
                            "elements and y %lld; they have %lld and %lld",
                            (long long)opa.rows, (long long)opa.cols, (long long)in.extent[0],
                            (long long)in.extent[1], op == PX_BLAS_T ? "T" : "N",
                            (long long)opa.cols, (long long)opa.rows, (long long)vx.n,
                            (long long)vy.n);
    LA_TRY(la_scalar(func, "alpha", alpha, va.dtype));
    LA_TRY(la_scalar(func, "beta", beta, va.dtype));
    LA_TRY(la_distinct(func, "A", &va, "x", &vx));
    LA_TRY(la_distinct(func, "A", &va, "y", &vy));
    LA_TRY(la_distinct(func, "x", &vx, "y", &vy));
    /* BLAS's quick return: nothing to write, or y = 0 * op(A) x + 1 * y. */
    if (vy.n == 0 || (alpha == 0 && beta == 1)) return PX_OK;
    /* With no column, or alpha = 0, y = beta * y: the column kernel over no column reads
       neither A nor x (BLAS does not read them for alpha = 0 either). */
    if (opa.cols == 0 || alpha == 0) {
        opa.cols = 0;
        opa.rows_contiguous = false;
        alpha = 0;
    }
    LA_TRY(LA_TYPED(va.dtype, la_gemv, inst, func, alpha, &opa, &vx, beta, &vy));
    return PX_OK;
}
