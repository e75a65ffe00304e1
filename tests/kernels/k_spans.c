/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernel file of test_spans (valid C11 and CUDA C++). */
#include "k_spans.h"

#define SP_KERNELS1(sfx)                                    \
    PX_FOR(sp_fill1_##sfx, sp1_args_##sfx, args, i)         \
    {                                                       \
        PX_AT1(args->y, i) = 7.0 * (double)i + 1.0;         \
    }                                                       \
    PX_FOR(sp_axpy_##sfx, sp1_args_##sfx, args, i)          \
    {                                                       \
        PX_AT1(args->y, i) += args->a * PX_AT1(args->x, i); \
    }
SP_KERNELS1(strided)
SP_KERNELS1(right)
SP_KERNELS1(left)
SP_KERNELS1(1d)
SP_KERNELS1(1d_restrict)

#define SP_KERNELSN(sfx)                                                          \
    PX_FOR_2D(sp_fill2_##sfx, spn_args_##sfx, args, i, j)                         \
    {                                                                             \
        PX_AT2(args->out, i, j) = 1000 * i + 100 * j;                             \
    }                                                                             \
    PX_FOR_3D(sp_fill3_##sfx, spn_args_##sfx, args, i, j, k)                      \
    {                                                                             \
        PX_AT3(args->out, i, j, k) = 1000 * i + 100 * j + 10 * k;                 \
    }                                                                             \
    PX_FOR_3D(sp_fill4_##sfx, spn_args_##sfx, args, i, j, k)                      \
    {                                                                             \
        for (int64_t l = 0; l < args->n3; ++l)                                    \
            PX_AT4(args->out, i, j, k, l) = 1000 * i + 100 * j + 10 * k + l;      \
    }                                                                             \
    PX_REDUCE_2D(sp_sum2_##sfx, spn_args_##sfx, args, i, j, int64_t, sum, acc)    \
    {                                                                             \
        *acc += PX_AT2(args->in, i, j);                                           \
    }                                                                             \
    PX_REDUCE_3D(sp_sum3_##sfx, spn_args_##sfx, args, i, j, k, int64_t, sum, acc) \
    {                                                                             \
        *acc += PX_AT3(args->in, i, j, k);                                        \
    }
SP_KERNELSN(strided)
SP_KERNELSN(right)
SP_KERNELSN(left)
SP_KERNELSN(strided_restrict)
SP_KERNELSN(right_restrict)
SP_KERNELSN(left_restrict)

#define SP_KERNELS6(sfx)                                                          \
    PX_FOR_3D(sp_fill6_##sfx, sp6_args_##sfx, a, i, j, k)                         \
    {                                                                             \
        for (int64_t l = 0; l < a->n3; ++l)                                       \
            for (int64_t m = 0; m < a->n4; ++m) {                                 \
                for (int64_t n = 0; n < a->n5; ++n)                               \
                    PX_AT6(a->out, i, j, k, l, m, n) =                            \
                        100000 * i + 10000 * j + 1000 * k + 100 * l + 10 * m + n; \
                PX_AT5(a->in5, i, j, k, l, m) = PX_AT6(a->out, i, j, k, l, m, 0); \
            }                                                                     \
    }
SP_KERNELS6(strided)
SP_KERNELS6(right)
SP_KERNELS6(left)

/* Host functions, for the test (a kernel file holds kernels only, as a rule). */
px_status sp_get_any(const px_view *v, px_span *out) { return px_view_get_span(v, out); }
px_status sp_get_u8(const px_view *v, px_span_u8 *out) { return px_view_get_span(v, out); }
px_status sp_get_i32_right(const px_view *v, px_span_i32_right *out)
{
    return px_view_get_span(v, out);
}
px_status sp_get_u32_left_restrict(const px_view *v, px_span_u32_left_restrict *out)
{
    return px_view_get_span(v, out);
}
px_status sp_get_f32_1d(const px_view *v, px_span_f32_1d *out) { return px_view_get_span(v, out); }
px_status sp_get_u64_1d_restrict(const px_view *v, px_span_u64_1d_restrict *out)
{
    return px_view_get_span(v, out);
}
