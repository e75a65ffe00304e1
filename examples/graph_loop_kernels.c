/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernel file: kernels only. Compiled as C, or as CUDA when the CUDA backend is on
 * (docs/kernels.md), so it is written in the common subset of C11 and C++. */
#include "graph_loop_kernels.h"

PX_FOR(loop_stage, loop_stage_args, args, i)
{
    const int64_t left = i == 0 ? args->n - 1 : i - 1;
    const int64_t right = i == args->n - 1 ? 0 : i + 1;
    PX_AT1(args->out, i) = 0.5 * PX_AT1(args->in, i) +
                           0.25 * (PX_AT1(args->in, left) + PX_AT1(args->in, right)) + args->c;
}
