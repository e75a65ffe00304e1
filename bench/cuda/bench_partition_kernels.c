/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernel file of bench_partition (valid C11 and CUDA C++). */
#include "bench_partition_kernels.h"

#include "gpu_spin.h"

PX_FOR(bp_spin, bp_spin_args, args, i)
{
    gpu_spin_ns(args->ns);
    if (i == 0) args->sink.data[0] = 1;
}
