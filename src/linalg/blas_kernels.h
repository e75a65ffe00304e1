/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The BLAS-1 and GEMV kernels of libportex_linalg, behind one call per kernel and element
 * type that fills the kernel's arguments and dispatches it (blas_kernels.c, a kernel file:
 * C, or CUDA from a .cu copy, so this header is in the common subset of C11 and C++17).
 * blas.c checks every argument first (args.h) and calls the f32 or f64 form; these trust
 * what they are given. `label` names the dispatch (the public call). */
#ifndef PX_LINALG_BLAS_KERNELS_H
#define PX_LINALG_BLAS_KERNELS_H

#include <stdbool.h>
#include <stdint.h>

#include "args.h"
#include "target.h"

/* op(A) of px_blas_gemv as the kernels read it: `rows` x `cols` (y has rows elements, x
   cols), element (r, c) at data[r * row_stride + c * col_stride]. rows_contiguous: a row is
   contiguous (col_stride 1), so each y element is the dot product of a row with x; else a
   column is (row_stride 1), and consecutive y elements read consecutive memory. */
typedef struct la_op_matrix {
    void *data;
    int64_t rows, cols;
    int64_t row_stride, col_stride;
    bool rows_contiguous;
} la_op_matrix;

PX_EXTERN_C_BEGIN

/* One element type's calls (S: f32 or f64; those taking a la_target run on an instance or
   go into a graph):
     la_axpby_S     y = a * x + b * y; a zero coefficient drops its term (NaN times 0 too)
     la_scal_S      x = a * x
     la_dot_S       *result = x . y, waiting for inst
     la_dot_view_S  element 0 of `out` (a T) = x . y, asynchronous
     la_nrm2_S      *result = ||x||, waiting for inst
     la_nrm2_view_S element 0 of `out` (a T) = ||x||, asynchronous
     la_gemv_S      y = alpha * op(A) * x + beta * y; beta = 0 drops y's old values, and
                    alpha = 0 with A->cols = 0 reads neither A nor x */
#define LA_BLAS_CALLS(S)                                                                          \
    px_status la_axpby_##S(la_target *t, const char *label, double a, const la_vec *x, double b,  \
                           const la_vec *y);                                                      \
    px_status la_scal_##S(px_instance *inst, const char *label, double a, const la_vec *x);       \
    px_status la_dot_##S(px_instance *inst, const char *label, const la_vec *x, const la_vec *y,  \
                         double *result);                                                         \
    px_status la_dot_view_##S(la_target *t, const char *label, const la_vec *x, const la_vec *y,  \
                              px_view *out);                                                      \
    px_status la_nrm2_##S(px_instance *inst, const char *label, const la_vec *x, double *result); \
    px_status la_nrm2_view_##S(px_instance *inst, const char *label, const la_vec *x,             \
                               px_view *out);                                                     \
    px_status la_gemv_##S(px_instance *inst, const char *label, double alpha,                     \
                          const la_op_matrix *A, const la_vec *x, double beta, const la_vec *y);

LA_BLAS_CALLS(f32)
LA_BLAS_CALLS(f64)

PX_EXTERN_C_END

#endif /* PX_LINALG_BLAS_KERNELS_H */
