/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernel file: kernels only. Compiled as C, or as CUDA when the CUDA backend is on
 * (docs/kernels.md), so it is written in the common subset of C11 and C++. */
#include "multi_gpu_kernels.h"

PX_FOR(lcg_step, lcg_args, args, i) { args->x.data[i] = args->x.data[i] * args->mul + args->add; }
