/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* dlpack_torch: the portex kernels the PyTorch example runs, shared by the kernel file and
 * dlpack_torch.c. Included by C and (with CUDA on) by CUDA C++: keep it valid in both. */
#ifndef DLPACK_TORCH_KERNELS_H
#define DLPACK_TORCH_KERNELS_H

#include <portex.h>

/* Strided spans: a tensor from PyTorch may have any strides (a transpose, a slice). */
typedef struct dlt_axpy_args {
    float a;
    px_span_f32 x, y;
} dlt_axpy_args;

/* y(i, j) = a * x(i, j) + y(i, j) */
PX_DECLARE_KERNEL(dlt_axpy);

typedef struct dlt_iota_args {
    px_span_f64 z;
} dlt_iota_args;

/* z(i, j) = 1000 i + j */
PX_DECLARE_KERNEL(dlt_iota);

#endif
