/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernel file: the sparse matrix product with several vectors, written once (spmm_body.h)
 * and made for each group width, value type and index type (for_each_pair.h). Compiled as
 * C, or as CUDA with the CUDA backend on (docs/kernels.md). */
#include "spmm_kernels.h"

/* The group sums' join: element-wise addition (custom joins come before the kernels). */
#define LA_SUM_JOIN(W, V, VT)                           \
    PX_JOIN(vsum, la_sum_##W##_##V, d, s)               \
    {                                                   \
        for (int j = 0; j < W; ++j) d->v[j] += s->v[j]; \
    }                                                   \
    PX_IDENTITY(vsum, la_sum_##W##_##V, z)              \
    {                                                   \
        for (int j = 0; j < W; ++j) z->v[j] = (VT)0;    \
    }
LA_SUM_JOIN(4, f32, float)
LA_SUM_JOIN(8, f32, float)
LA_SUM_JOIN(4, f64, double)
LA_SUM_JOIN(8, f64, double)

#define LA_W 4
#define LA_BODY "spmm_body.h"
#include "for_each_pair.h"
#undef LA_W

#define LA_W 8
#define LA_BODY "spmm_body.h"
#include "for_each_pair.h"
#undef LA_W
