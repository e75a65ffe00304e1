/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* overlap: the per-chunk compute kernel, shared by the kernel file and the pipeline.
 * Included by C and (with CUDA on) by CUDA C++: keep it valid in both. */
#ifndef OVERLAP_KERNELS_H
#define OVERLAP_KERNELS_H

#include <portex.h>

typedef struct overlap_args {
    px_span_f32_1d x; /* one chunk, transformed in place */
    float a, b;
} overlap_args;

PX_DECLARE_KERNEL(overlap_scale); /* x(i) = a * x(i) + b: light compute, memory bound */

#endif
