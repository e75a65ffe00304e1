/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* What a CSR matrix does besides y = alpha A x + beta y (spmv.c): the transposed product
 * and a Jacobi step. Both are a flat loop over rows (spmv_body.h). */
#include <string.h>

#include "csr.h"
#include "portex/copy.h"
#include "spmv_kernels.h"

static const char TRANSPOSED[] = "px_csr_spmv_transposed", JACOBI[] = "px_csr_jacobi";

/* The rows' scatter into y (already scaled by beta), by type. */
#define LA_OPS_DISPATCH(V, I)                                                                     \
    static px_status transposed_##V##_##I(px_instance *inst, const px_csr *A, px_view *x,         \
                                          px_view *y, double alpha)                               \
    {                                                                                             \
        la_spmv_args_##V##_##I a;                                                                 \
        memset(&a, 0, sizeof a);                                                                  \
        px_status st = px_view_get_span(A->row, &a.row);                                          \
        if (st == PX_OK) st = px_view_get_span(A->col, &a.col);                                   \
        if (st == PX_OK) st = px_view_get_span(A->val, &a.val);                                   \
        if (st == PX_OK) st = px_view_get_span(x, &a.x);                                          \
        if (st == PX_OK) st = px_view_get_span(y, &a.y);                                          \
        a.alpha = alpha;                                                                          \
        return st != PX_OK ? st                                                                   \
                           : px_parallel_for(inst, TRANSPOSED, px_range(0, A->nrows),             \
                                             PX_KERNEL(la_spmv_transposed_##V##_##I), &a);        \
    }                                                                                             \
    static px_status jacobi_##V##_##I(px_instance *inst, const px_csr *A, px_view *b, px_view *x, \
                                      px_view *x_new, double omega)                               \
    {                                                                                             \
        la_jacobi_args_##V##_##I a;                                                               \
        px_status st = px_view_get_span(A->row, &a.row);                                          \
        if (st == PX_OK) st = px_view_get_span(A->col, &a.col);                                   \
        if (st == PX_OK) st = px_view_get_span(A->val, &a.val);                                   \
        if (st == PX_OK) st = px_view_get_span(b, &a.b);                                          \
        if (st == PX_OK) st = px_view_get_span(x, &a.x);                                          \
        if (st == PX_OK) st = px_view_get_span(x_new, &a.x_new);                                  \
        a.omega = omega;                                                                          \
        return st != PX_OK ? st                                                                   \
                           : px_parallel_for(inst, JACOBI, px_range(0, A->nrows),                 \
                                             PX_KERNEL(la_jacobi_##V##_##I), &a);                 \
    }

LA_OPS_DISPATCH(f32, i32)
LA_OPS_DISPATCH(f32, i64)
LA_OPS_DISPATCH(f64, i32)
LA_OPS_DISPATCH(f64, i64)

/* y = beta * y as BLAS has it: beta = 0 ignores y's old values, beta = 1 leaves y. */
static px_status scale(px_instance *inst, double beta, px_view *y, px_dtype type)
{
    if (beta == 1) return PX_OK;
    if (!la_zero(beta, type)) return px_blas_scal(inst, beta, y);
    const float zero32 = 0;
    const double zero64 = 0;
    return px_fill_async(inst, y, type == PX_F32 ? (const void *)&zero32 : (const void *)&zero64,
                         NULL);
}

px_status px_csr_spmv_transposed(px_instance *inst, double alpha, const px_csr *A, px_view *x,
                                 double beta, px_view *y)
{
    px_space is;
    la_vec xv, yv;
    px_status st = la_csr_begin(TRANSPOSED, inst, A, &is);
    if (st == PX_OK) st = la_csr_operand(TRANSPOSED, A, is, "x", x, A->nrows, &xv);
    if (st == PX_OK) st = la_csr_operand(TRANSPOSED, A, is, "y", y, A->ncols, &yv);
    if (st == PX_OK) st = la_distinct(TRANSPOSED, "x", &xv, "y", &yv);
    if (st == PX_OK) st = la_scalar(TRANSPOSED, "alpha", alpha, A->value_type);
    if (st == PX_OK) st = la_scalar(TRANSPOSED, "beta", beta, A->value_type);
    if (st != PX_OK) return st;
    st = scale(inst, beta, y, A->value_type);
    if (st == PX_OK && !la_zero(alpha, A->value_type) && A->nnz > 0) {
        const bool f32 = A->value_type == PX_F32, i32 = A->index_type == PX_I32;
        st = f32 ? (i32 ? transposed_f32_i32(inst, A, x, y, alpha)
                        : transposed_f32_i64(inst, A, x, y, alpha))
                 : (i32 ? transposed_f64_i32(inst, A, x, y, alpha)
                        : transposed_f64_i64(inst, A, x, y, alpha));
    }
    return la_named(TRANSPOSED, st);
}

px_status px_csr_jacobi(px_instance *inst, double omega, const px_csr *A, px_view *b, px_view *x,
                        px_view *x_new)
{
    px_space is;
    la_vec bv, xv, nv;
    px_status st = la_csr_begin(JACOBI, inst, A, &is);
    if (st == PX_OK && A->nrows != A->ncols)
        st = px_set_error(PX_ERR_INVALID_ARGUMENT, JACOBI, "A is %lld x %lld, not square",
                          (long long)A->nrows, (long long)A->ncols);
    if (st == PX_OK) st = la_csr_operand(JACOBI, A, is, "b", b, A->nrows, &bv);
    if (st == PX_OK) st = la_csr_operand(JACOBI, A, is, "x", x, A->nrows, &xv);
    if (st == PX_OK) st = la_csr_operand(JACOBI, A, is, "x_new", x_new, A->nrows, &nv);
    if (st == PX_OK) st = la_distinct(JACOBI, "x", &xv, "x_new", &nv);
    if (st == PX_OK) st = la_distinct(JACOBI, "b", &bv, "x_new", &nv);
    if (st == PX_OK) st = la_scalar(JACOBI, "omega", omega, A->value_type);
    if (st != PX_OK || A->nrows == 0) return st;
    const bool f32 = A->value_type == PX_F32, i32 = A->index_type == PX_I32;
    st = f32 ? (i32 ? jacobi_f32_i32(inst, A, b, x, x_new, omega)
                    : jacobi_f32_i64(inst, A, b, x, x_new, omega))
             : (i32 ? jacobi_f64_i32(inst, A, b, x, x_new, omega)
                    : jacobi_f64_i64(inst, A, b, x, x_new, omega));
    return la_named(JACOBI, st);
}
