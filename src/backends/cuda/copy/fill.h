/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: the fill kernels (copy/fill.cu), callable from C. */
#ifndef PX_BACKENDS_CUDA_COPY_FILL_H
#define PX_BACKENDS_CUDA_COPY_FILL_H

#include <stddef.h>

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Queues on `stream` (device current) the fill of `count` elements of `elem_size` bytes
   at dst with the bytes at `value`: any element size and alignment. Returns the launch's
   error (0: queued), none left pending. */
cudaError_t px__cuda_fill_launch(cudaStream_t stream, int device, void *dst, size_t count,
                                 size_t elem_size, const void *value);

#ifdef __cplusplus
}
#endif

#endif /* PX_BACKENDS_CUDA_COPY_FILL_H */
