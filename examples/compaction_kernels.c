/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernel file: kernels only. Compiled as C, or as CUDA when the CUDA backend is on
 * (docs/kernels.md), so it is written in the common subset of C11 and C++. */
#include "compaction_kernels.h"

/* A scan of int64_t with the built-in join `sum`. *pos arrives holding the sum of the
 * flags of all elements before i (the exclusive scan): that is where element i goes.
 * The body may run more than once per index (first with final false, to count), so it
 * stores only when `final` is true. */
PX_SCAN(compact, compact_args, args, i, int64_t, sum, pos, final)
{
    const double v = PX_AT1(args->in, i);
    if (v > args->threshold) {
        if (final) PX_AT1(args->out, *pos) = v;
        *pos += 1;
    }
}
