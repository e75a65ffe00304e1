/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The kernel file: compiled as C where portex has no CUDA, as CUDA where it has. */
#include "kernels.h"

PX_FOR(odd_fill, odd_args, args, i) { PX_AT1(args->x, i) = 2 * i + 1; }

PX_REDUCE(odd_sum, odd_args, args, i, int64_t, sum, acc) { *acc += PX_AT1(args->x, i); }
