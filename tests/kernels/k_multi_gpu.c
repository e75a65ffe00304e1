/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernel file of test_multi_gpu (compiled as CUDA: the test exists only with CUDA). */
#include "k_multi_gpu.h"

PX_FOR(mg_spin, mg_spin_args, args, i)
{
    (void)i;
#ifdef __CUDA_ARCH__
    unsigned long long t0, t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    do {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    } while (t - t0 < (unsigned long long)args->ns);
#else
    (void)args;
#endif
}

PX_FOR(mg_produce, mg_produce_args, args, i)
{
    args->y.data[i] = args->x.data[i] * args->mul + args->add;
}
