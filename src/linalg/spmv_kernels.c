/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernel file: the sparse matrix-vector product's kernels, written once (spmv_body.h) and
 * made for each value and index type (for_each_pair.h). Compiled as C, or as CUDA with the
 * CUDA backend on (docs/kernels.md). */
#include "spmv_kernels.h"

#define LA_BODY "spmv_body.h"
#include "for_each_pair.h"
