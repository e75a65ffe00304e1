/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernel file: kernels only. Compiled as C, or as CUDA when the CUDA backend is on
 * (docs/kernels.md), so it is written in the common subset of C11 and C++. */
#include "random_pi_kernels.h"

PX_REDUCE(pi_hits, pi_args, a, i, int64_t, sum, acc) { *acc += pi_hits_of(a, i); }
