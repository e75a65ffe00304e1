/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: CUB's radix sorts and the small kernels around them (the .cu files of sort/), callable from
 * C: sort.c and segments.c lay out the buffers and call these in order on one stream. */
#ifndef PX_BACKENDS_CUDA_SORT_CUB_H
#define PX_BACKENDS_CUDA_SORT_CUB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What moves with the keys through CUB: nothing, or 32- or 64-bit words. */
typedef enum px__cub_values { PX__CUB_NONE = 0, PX__CUB_U32, PX__CUB_U64 } px__cub_values;

/* A stable sort of n keys of px_dtype key_dtype (not PX_USER) in CUB's double buffers:
   keys in buffer *ksel of {k0, k1}, the other free; values likewise ({v0, v1}, *vsel)
   unless `values` is NONE. On return *ksel and *vsel name the buffers holding the result.
   temp NULL: *temp_bytes is set to what the call needs and nothing runs. bits: how many of
   the keys' low bits to sort on (0: all); unsigned keys below 2^bits sort in fewer passes. */
typedef struct px__cub_sort {
    int key_dtype;
    int bits;
    px__cub_values values;
    bool descending;
    int64_t n;
    void *k[2];
    int ksel;
    void *v[2];
    int vsel;
} px__cub_sort;

cudaError_t px__cub_radix_sort(px__cub_sort *s, void *temp, size_t *temp_bytes, cudaStream_t st);

/* out[i] = i for i < n, as 32-bit (word 4) or 64-bit (word 8) integers. */
cudaError_t px__cuda_iota(void *out, int64_t n, size_t word, cudaStream_t st);
/* The segments of a segmented sort, in GPU memory: segments + 1 offsets of offset_size (4
   or 8) bytes, read by the kernels. */
typedef struct px__cuda_segments {
    const void *offsets;
    size_t offset_size;
    int64_t segments;
} px__cuda_segments;

/* out[i] = in[idx[i]] (idx NULL: in[i]) for i < n, or with range not NULL only for i in
   [offsets[0], offsets[segments]) (clamped to [0, n)), the others left as they are; elements
   of elem_size bytes (any size and alignment), indices 32-bit (idx_size 4) or 64-bit. */
cudaError_t px__cuda_gather(void *out, const void *in, const void *idx, size_t idx_size, int64_t n,
                            size_t elem_size, const px__cuda_segments *range, cudaStream_t st);
/* rank[i] = the rank of the part of [0, n) that position pos[i] (pos NULL: i) is in: 0
   before offsets[0], s + 1 in segment s = [offsets[s], offsets[s + 1]), segments + 1 from
   offsets[segments] on; rank and pos words of `word` bytes (4 or 8). A stable sort by rank
   puts each segment's elements in the segment's range (nondecreasing offsets), in the order
   they had. */
cudaError_t px__cuda_segment_ranks(void *rank, const void *pos, size_t word,
                                   const px__cuda_segments *range, int64_t n, cudaStream_t st);

#ifdef __cplusplus
}
#endif

#endif /* PX_BACKENDS_CUDA_SORT_CUB_H */
