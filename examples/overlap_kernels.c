/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* overlap: the kernel file (compiled as C, or as CUDA when CUDA is on). */
#include "overlap_kernels.h"

PX_FOR(overlap_scale, overlap_args, args, i)
{
    args->x.data[i] = args->a * args->x.data[i] + args->b;
}
