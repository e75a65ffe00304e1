/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernel file: kernels only. Compiled as C, or as CUDA when the CUDA backend is on
 * (docs/kernels.md), so it is written in the common subset of C11 and C++. */
#include "graph_interop_kernels.h"

PX_FOR(interop_affine, interop_affine_args, args, i)
{
    PX_AT1(args->y, i) = args->a * PX_AT1(args->x, i) + (double)i;
}
