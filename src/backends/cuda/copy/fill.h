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

/* The kernel px__cuda_fill_launch queues alone, one thread a word, for `elem_size`-byte
   elements at dst: fill_value_kernel, whose parameters are (dst, count as uint64_t, the
   value's bytes), or NULL when it takes another (an element of several words, or one byte,
   or an unaligned dst). A graph's fill node changes its value through that parameter. */
const void *px__cuda_fill_value_kernel(const void *dst, size_t elem_size);

#ifdef __cplusplus
}
#endif

#endif /* PX_BACKENDS_CUDA_COPY_FILL_H */
