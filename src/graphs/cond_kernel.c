/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The kernel behind px_graph_cond_from_view: one index sets the condition from a scalar
 * in memory the graph's kernels reach. */
#include "graphs/cond_kernel.h"

#include "portex/graph.h"

PX_FOR(px__cond_from_scalar, px__cond_from_scalar_args, args, i)
{
    (void)i;
    const double v = args->scalar[0];
    const double t = args->threshold;
    bool r = false;
    switch (args->cmp) {
    case PX_CMP_LT: r = v < t; break;
    case PX_CMP_LE: r = v <= t; break;
    case PX_CMP_GT: r = v > t; break;
    case PX_CMP_GE: r = v >= t; break;
    case PX_CMP_EQ: r = v == t; break;
    case PX_CMP_NE: r = v != t; break;
    default: break;
    }
    px_cond_set(args->cond, r ? 1u : 0u);
}
