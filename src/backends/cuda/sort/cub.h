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
   temp NULL: *temp_bytes is set to what the call needs and nothing runs. */
typedef struct px__cub_sort {
    int key_dtype;
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
/* out[i] = in[idx[i]] for i < n, elements of elem_size bytes (any size and alignment),
   indices 32-bit (idx_size 4) or 64-bit. */
cudaError_t px__cuda_gather(void *out, const void *in, const void *idx, size_t idx_size, int64_t n,
                            size_t elem_size, cudaStream_t st);
/* slot[i] = the first position of the segment that position pos[i] is in, or pos[i] itself
   when it is in none: segments given by offsets (segments + 1 entries of offset_size 4 or 8
   bytes); slot and pos words of `word` bytes (4 or 8). */
cudaError_t px__cuda_segment_slots(void *slot, const void *pos, size_t word, const void *offsets,
                                   size_t offset_size, int64_t segments, int64_t n,
                                   cudaStream_t st);

#ifdef __cplusplus
}
#endif

#endif /* PX_BACKENDS_CUDA_SORT_CUB_H */
