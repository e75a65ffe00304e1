/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernels of test_spans: one body per accessor, instantiated for every span form (strided,
 * right, left, 1-D, and their restrict forms), so that each form's index arithmetic is
 * checked against the same expected values. Valid C11 and CUDA C++. */
#ifndef PX_TESTS_K_SPANS_H
#define PX_TESTS_K_SPANS_H

#include "portex/kernel.h"
#include "portex/view.h"

/* 1-D: out(i) = 7 i + 1; y(i) += a x(i). */
#define SP_ARGS1(sfx, S)               \
    typedef struct sp1_args_##sfx {    \
        double a;                      \
        S x, y;                        \
    } sp1_args_##sfx;                  \
    PX_DECLARE_KERNEL(sp_fill1_##sfx); \
    PX_DECLARE_KERNEL(sp_axpy_##sfx);
SP_ARGS1(strided, px_span_f64)
SP_ARGS1(right, px_span_f64_right)
SP_ARGS1(left, px_span_f64_left)
SP_ARGS1(1d, px_span_f64_1d)
SP_ARGS1(1d_restrict, px_span_f64_1d_restrict)

/* Ranks 2 to 4 (4: a 3-D loop over the first three indices, the fourth in the body):
   out(i, j[, k[, l]]) = 1000 i + 100 j + 10 k + l, and the sum of in over the range. */
#define SP_ARGSN(sfx, S)               \
    typedef struct spn_args_##sfx {    \
        S in, out;                     \
        int64_t n3;                    \
    } spn_args_##sfx;                  \
    PX_DECLARE_KERNEL(sp_fill2_##sfx); \
    PX_DECLARE_KERNEL(sp_fill3_##sfx); \
    PX_DECLARE_KERNEL(sp_fill4_##sfx); \
    PX_DECLARE_KERNEL(sp_sum2_##sfx);  \
    PX_DECLARE_KERNEL(sp_sum3_##sfx);
SP_ARGSN(strided, px_span_i64)
SP_ARGSN(right, px_span_i64_right)
SP_ARGSN(left, px_span_i64_left)
SP_ARGSN(strided_restrict, px_span_i64_restrict)
SP_ARGSN(right_restrict, px_span_i64_right_restrict)
SP_ARGSN(left_restrict, px_span_i64_left_restrict)

/* Ranks 5 and 6: a 3-D loop over the first three indices, the rest in the body;
   out(i, j, k, l, m, n) = 100000 i + 10000 j + 1000 k + 100 l + 10 m + n, and the 5-D
   view in5 (the first five extents) gets what PX_AT6 wrote at n = 0, read back. */
#define SP_ARGS6(sfx, S)            \
    typedef struct sp6_args_##sfx { \
        S out, in5;                 \
        int64_t n3, n4, n5;         \
    } sp6_args_##sfx;               \
    PX_DECLARE_KERNEL(sp_fill6_##sfx);
SP_ARGS6(strided, px_span_i64)
SP_ARGS6(right, px_span_i64_right)
SP_ARGS6(left, px_span_i64_left)

/* px_view_get_span called from the kernel file, which is C++ when CUDA is on: the C++ form
   of the getter, for a sample of span types. */
PX_EXTERN_C_BEGIN
px_status sp_get_any(const px_view *v, px_span *out);
px_status sp_get_u8(const px_view *v, px_span_u8 *out);
px_status sp_get_i32_right(const px_view *v, px_span_i32_right *out);
px_status sp_get_u32_left_restrict(const px_view *v, px_span_u32_left_restrict *out);
px_status sp_get_f32_1d(const px_view *v, px_span_f32_1d *out);
px_status sp_get_u64_1d_restrict(const px_view *v, px_span_u64_1d_restrict *out);
PX_EXTERN_C_END

#endif /* PX_TESTS_K_SPANS_H */
