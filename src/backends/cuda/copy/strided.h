/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: copies and fills of non-contiguous memory on the device (copy/strided.cu),
 * callable from C.
 *
 * The views are described by their extents and each side's strides in elements (>= 0);
 * the launcher turns that into a copy of words (16, 8, 4, 2 or 1 bytes, the widest the
 * element size, the addresses and the strides allow), with the dimensions ordered by the
 * destination's strides (the fastest-varying one on threadIdx.x, so that stores
 * coalesce) and merged where both sides are contiguous across them. A dimension that is
 * contiguous in the destination and another that is contiguous in the source (a layout
 * change, RIGHT <-> LEFT) go through 32 x 32 tiles in shared memory, so that loads
 * coalesce as well as stores. Indices are 32-bit when the word count allows, 64-bit
 * otherwise. */
#ifndef PX_BACKENDS_CUDA_COPY_STRIDED_H
#define PX_BACKENDS_CUDA_COPY_STRIDED_H

#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* PX_MAX_RANK (portex/view.h); copy/copy.c checks that they agree. */
#define PX__CUDA_STRIDED_MAX_RANK 8

/* One strided copy (src) or fill (value). Pointers are addresses the current device can
   dereference: its own memory, a peer's that it has access to, or mapped pinned memory.
   Strides of 0 are allowed: a source read repeatedly, or a destination written
   repeatedly (the last index wins, as in a sequential loop). */
typedef struct px__cuda_strided {
    int rank; /* 0 to PX__CUDA_STRIDED_MAX_RANK */
    int64_t extent[PX__CUDA_STRIDED_MAX_RANK];
    int64_t dst_stride[PX__CUDA_STRIDED_MAX_RANK]; /* elements */
    int64_t src_stride[PX__CUDA_STRIDED_MAX_RANK]; /* elements; copies only */
    size_t elem_size;                              /* any size >= 1 */
    void *dst;
    const void *src;   /* copies */
    const void *value; /* fills: one element */
} px__cuda_strided;

/* Queue on `stream` (device `device` current) the copy of op->src to op->dst. Returns the
   first CUDA error (0: queued), none left pending. */
cudaError_t px__cuda_strided_copy_launch(cudaStream_t stream, int device,
                                         const px__cuda_strided *op);

/* Queue on `stream` the fill of every element of op->dst with the op->elem_size bytes at
   op->value. Same contract. */
cudaError_t px__cuda_strided_fill_launch(cudaStream_t stream, int device,
                                         const px__cuda_strided *op);

#ifdef __cplusplus
}
#endif

#endif /* PX_BACKENDS_CUDA_COPY_STRIDED_H */
