/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* gpu_spin_ns(ns): in a kernel on a GPU, busy-waits ns nanoseconds of the GPU's global
 * timer; on the host, returns at once. For the kernel files of tests and benchmarks that
 * need a kernel to take a known time whatever the clocks and memory do (a producer still
 * running when the next call is issued, an instance kept busy). Valid C11 and CUDA C++;
 * kernel files find it on their include path (their CUDA copies live in the build
 * directory, where a path relative to the source would not lead here). */
#ifndef PX_GPU_SPIN_H
#define PX_GPU_SPIN_H

#include <stdint.h>

#include <portex/export.h>

PX_FUNCTION void gpu_spin_ns(int64_t ns)
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

#endif /* PX_GPU_SPIN_H */
