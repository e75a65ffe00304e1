/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* graph_loop: the kernel's arguments and declaration, shared by the kernel file and main.
 * Included by C and (with CUDA on) by CUDA C++: keep it valid in both. */
#ifndef GRAPH_LOOP_KERNELS_H
#define GRAPH_LOOP_KERNELS_H

#include <portex.h>

typedef struct loop_stage_args {
    double c;                        /* this stage's source term */
    int64_t n;                       /* the ring's length */
    px_span_f64_1d_restrict in, out; /* two different views */
} loop_stage_args;

/* One small stage on a ring of n points (periodic neighbours):
 * out(i) = 0.5 * in(i) + 0.25 * (in(i - 1) + in(i + 1)) + c */
PX_DECLARE_KERNEL(loop_stage);

#endif
