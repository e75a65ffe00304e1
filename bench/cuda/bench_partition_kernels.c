/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernel file of bench_partition (valid C11 and CUDA C++). */
#include "bench_partition_kernels.h"

/* Busy-waits ns nanoseconds of the global timer; nothing on the host. */
PX_FUNCTION void bp_spin_for(int64_t ns)
{
#ifdef __CUDA_ARCH__
    unsigned long long t0, t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    do {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    } while ((long long)(t - t0) < (long long)ns);
#else
    (void)ns;
#endif
}

PX_FOR(bp_spin, bp_spin_args, args, i)
{
    bp_spin_for(args->ns);
    if (i == 0) args->sink.data[0] = 1;
}
