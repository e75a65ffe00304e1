/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernel file: kernels only. Compiled as C, or as CUDA when the CUDA backend is on
 * (docs/kernels.md), so it is written in the common subset of C11 and C++. */
#include "dlpack_torch_kernels.h"

PX_FOR_2D(dlt_axpy, dlt_axpy_args, args, i, j)
{
    PX_AT2(args->y, i, j) = args->a * PX_AT2(args->x, i, j) + PX_AT2(args->y, i, j);
}

PX_FOR_2D(dlt_iota, dlt_iota_args, args, i, j)
{
    PX_AT2(args->z, i, j) = 1000.0 * (double)i + (double)j;
}
