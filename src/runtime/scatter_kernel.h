/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: the kernels behind px_scatter_contribute, one per element type: the copies of a
 * PX_SCATTER_DUPLICATED scatter added into its target, in part order, and zeroed. Their
 * file is a kernel file compiled as C always: copies live on the host, so only the host
 * backends run them. */
#ifndef PX_RUNTIME_SCATTER_KERNEL_H
#define PX_RUNTIME_SCATTER_KERNEL_H

#include "portex/kernel.h"

/* Elements per index of the kernels: a block of each copy in turn, so that the inner
   loops are unit-stride and vectorize. */
#define PX__SCATTER_BLOCK 2048

typedef struct px__scatter_contribute_args {
    void *target; /* size elements */
    void *copies; /* ncopies, stride elements apart */
    int64_t size;
    int64_t stride;
    int32_t ncopies;
} px__scatter_contribute_args;

PX_DECLARE_KERNEL_FOR(px__scatter_contribute_i32);
PX_DECLARE_KERNEL_FOR(px__scatter_contribute_u32);
PX_DECLARE_KERNEL_FOR(px__scatter_contribute_i64);
PX_DECLARE_KERNEL_FOR(px__scatter_contribute_u64);
PX_DECLARE_KERNEL_FOR(px__scatter_contribute_f32);
PX_DECLARE_KERNEL_FOR(px__scatter_contribute_f64);

#endif /* PX_RUNTIME_SCATTER_KERNEL_H */
