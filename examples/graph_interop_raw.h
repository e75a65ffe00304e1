/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* graph_interop: a kernel in raw CUDA, launched by the user on the user's stream (the
 * work portex did not issue but captures all the same). Included by C and CUDA C++. */
#ifndef GRAPH_INTEROP_RAW_H
#define GRAPH_INTEROP_RAW_H

#include <stdint.h>

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* x[i] += v for 0 <= i < n, on `stream`; returns the launch's cudaError_t. */
int graph_interop_raw_add(cudaStream_t stream, double *x, int64_t n, double v);

#ifdef __cplusplus
}
#endif

#endif
