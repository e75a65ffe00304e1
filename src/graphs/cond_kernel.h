/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: the kernel behind px_graph_cond_from_view. Its file is a kernel file (compiled
 * as CUDA where CUDA is on), so it holds nothing else. */
#ifndef PX_GRAPHS_COND_KERNEL_H
#define PX_GRAPHS_COND_KERNEL_H

#include "portex/kernel.h"

typedef struct px__cond_from_scalar_args {
    px_cond cond;
    const double *scalar; /* element 0 is compared */
    double threshold;
    int cmp; /* px_compare */
} px__cond_from_scalar_args;

PX_DECLARE_KERNEL(px__cond_from_scalar);

#endif /* PX_GRAPHS_COND_KERNEL_H */
