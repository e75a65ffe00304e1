/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernel file: the sparse matrix-vector product's kernels, written once (spmv_body.h) and
 * made for each value and index type. Compiled as C, or as CUDA with the CUDA backend on
 * (docs/kernels.md). */
#include "spmv_kernels.h"

#define LA_V f32
#define LA_VT float
#define LA_I i32
#define LA_IT int32_t
#include "spmv_body.h"

#define LA_V f32
#define LA_VT float
#define LA_I i64
#define LA_IT int64_t
#include "spmv_body.h"

#define LA_V f64
#define LA_VT double
#define LA_I i32
#define LA_IT int32_t
#include "spmv_body.h"

#define LA_V f64
#define LA_VT double
#define LA_I i64
#define LA_IT int64_t
#include "spmv_body.h"
