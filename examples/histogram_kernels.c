/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernel file: kernels only. Compiled as C, or as CUDA when the CUDA backend is on
 * (docs/kernels.md), so it is written in the common subset of C11 and C++. */
#include "histogram_kernels.h"

PX_FOR(histogram, hist_args, a, i) { px_scatter_add(&a->counts, hist_bin(a, hist_value(a, i)), 1); }
