/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* graph_interop: the portex kernel's arguments and declaration, shared by the kernel file,
 * graph_interop.c and graph_interop_torch.c. Included by C and (with CUDA on) by CUDA
 * C++: keep it valid in both. */
#ifndef GRAPH_INTEROP_KERNELS_H
#define GRAPH_INTEROP_KERNELS_H

#include <portex.h>

typedef struct interop_affine_args {
    double a;
    px_span_f64_1d x;
    px_span_f64_1d_restrict y; /* not x's view */
} interop_affine_args;

/* y(i) = a * x(i) + i */
PX_DECLARE_KERNEL(interop_affine);

#endif
