/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* heat2d: the kernel's arguments and declaration, shared by the kernel file and main.
 * Included by C and (with CUDA on) by CUDA C++: keep it valid in both. */
#ifndef HEAT2D_KERNELS_H
#define HEAT2D_KERNELS_H

#include <portex.h>

typedef struct heat_args {
    double alpha; /* diffusion number: dt * k / h^2, at most 1/4 for stability */
    px_span_f64_right_restrict in, out; /* 2-D, row-major: before and after the step */
} heat_args;

/* One explicit Euler step of the heat equation at interior point (i, j):
 * out = in + alpha * (sum of the 4 neighbours - 4 * in) */
PX_DECLARE_KERNEL(heat_step);

#endif
