/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The kernels behind px_scatter_contribute (scatter_kernel.h): index b takes the elements
 * [b * PX__SCATTER_BLOCK, ...) of the target, adds each copy's block in copy order (the
 * same sums, bit for bit, for a given thread count) and zeroes it. */
#include "runtime/scatter_kernel.h"

#include "portex/scatter.h"

#define SCATTER_CONTRIBUTE(sfx, T)                                                             \
    PX_FOR(px__scatter_contribute_##sfx, px__scatter_contribute_args, a, b)                    \
    {                                                                                          \
        T *restrict t = (T *)a->target;                                                        \
        const int64_t lo = b * PX__SCATTER_BLOCK;                                              \
        const int64_t n = a->size - lo < PX__SCATTER_BLOCK ? a->size - lo : PX__SCATTER_BLOCK; \
        for (int32_t c = 0; c < a->ncopies; ++c) {                                             \
            T *restrict d = (T *)a->copies + (int64_t)c * a->stride + lo;                      \
            for (int64_t k = 0; k < n; ++k) {                                                  \
                t[lo + k] = px__scatter_sum_##sfx(t[lo + k], d[k]);                            \
                d[k] = 0;                                                                      \
            }                                                                                  \
        }                                                                                      \
    }

SCATTER_CONTRIBUTE(i32, int32_t)
SCATTER_CONTRIBUTE(u32, uint32_t)
SCATTER_CONTRIBUTE(i64, int64_t)
SCATTER_CONTRIBUTE(u64, uint64_t)
SCATTER_CONTRIBUTE(f32, float)
SCATTER_CONTRIBUTE(f64, double)
