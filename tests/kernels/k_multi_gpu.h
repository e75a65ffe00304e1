/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernels of test_multi_gpu: a producer that is still running when the copy after it is
 * issued. Included by the kernel file (CUDA C++) and the C test: valid in both. */
#ifndef PX_TESTS_K_MULTI_GPU_H
#define PX_TESTS_K_MULTI_GPU_H

#include "portex/kernel.h"
#include "portex/view.h"

/* Waits `ns` nanoseconds of the GPU's global timer (one index is enough); nothing on the
   host. Queued before mg_produce on the same instance, it keeps the producer from
   starting until well after the host has issued the next copy. */
typedef struct mg_spin_args {
    int64_t ns;
} mg_spin_args;
PX_DECLARE_KERNEL(mg_spin);

/* y[i] = x[i] * mul + add */
typedef struct mg_produce_args {
    uint32_t mul, add;
    px_span_u32 x, y;
} mg_produce_args;
PX_DECLARE_KERNEL(mg_produce);

#endif
