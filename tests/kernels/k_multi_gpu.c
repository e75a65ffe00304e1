/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernel file of test_multi_gpu (compiled as CUDA: the test exists only with CUDA). */
#include "k_multi_gpu.h"

#include "gpu_spin.h"

PX_FOR(mg_spin, mg_spin_args, args, i)
{
    (void)i;
    gpu_spin_ns(args->ns);
}

PX_FOR(mg_produce, mg_produce_args, args, i)
{
    args->y.data[i] = args->x.data[i] * args->mul + args->add;
}
