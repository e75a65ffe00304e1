/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernel file of bench_graph: kernels only, compiled as C, or as CUDA when the CUDA
 * backend is on (docs/kernels.md); the serial benchmark runs their host entries. */
#include "bench_graph_kernels.h"

PX_FOR(bgs_axpy, bgs_axpy_args, args, i) { PX_AT1(args->y, i) += args->a * PX_AT1(args->x, i); }

PX_FOR(bgs_touch, bgs_touch_args, args, i) { PX_AT1(args->count, i) += 1; }
