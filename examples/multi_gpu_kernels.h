/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* multi_gpu: the kernel's arguments and declaration, shared by the kernel file and main.
 * Included by C and (with CUDA on) by CUDA C++: keep it valid in both. */
#ifndef MULTI_GPU_KERNELS_H
#define MULTI_GPU_KERNELS_H

#include <portex.h>

typedef struct lcg_args {
    uint64_t mul, add;
    px_span_u64_1d x;
} lcg_args;

PX_DECLARE_KERNEL(lcg_step); /* x(i) = x(i) * mul + add, modulo 2^64: exact on every backend */

#endif
