/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernels of bench_partition (bench_partition_kernels.c, compiled as CUDA): a kernel
 * whose threads each busy-wait a given time on the GPU's global timer, so that its length
 * and the SMs it holds are known without depending on clocks or memory. Valid C11 and
 * CUDA C++. */
#ifndef BENCH_PARTITION_KERNELS_H
#define BENCH_PARTITION_KERNELS_H

#include <portex.h>

typedef struct bp_spin_args {
    int64_t ns;       /* each thread spins this long (GPU only; nothing on the host) */
    px_span_i32 sink; /* sink(0) = 1 by the thread of index 0 */
} bp_spin_args;
PX_DECLARE_KERNEL(bp_spin);

#endif /* BENCH_PARTITION_KERNELS_H */
