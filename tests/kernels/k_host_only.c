/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernel file that the build always compiles as C, never as CUDA: its descriptor has no
 * CUDA entry, so dispatching it on a CUDA instance must return PX_ERR_NOT_COMPILED. */
#include "kernels.h"

PX_FOR(host_only_set, host_only_args, args, i) { PX_AT1(args->y, i) = args->v; }
