/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The small kernels around the CUB sorts (cub.h): indices to sort with the keys, values
 * moved by the sorted indices, the ranks of segmented sorts (segments.c). Grid-stride loops
 * over 64-bit counts, a grid of at most 4096 blocks: these are bandwidth-bound and short. */
#include <cstdint>

#include "backends/cuda/sort/cub.h"

namespace {

constexpr int BLOCK = 256;

unsigned grid_of(uint64_t n)
{
    const uint64_t g = (n + BLOCK - 1) / BLOCK;
    return (unsigned)(g < 4096 ? (g > 0 ? g : 1) : 4096);
}

template <class T> __global__ void iota_kernel(T *out, uint64_t n)
{
    const uint64_t stride = (uint64_t)gridDim.x * BLOCK;
    for (uint64_t i = (uint64_t)blockIdx.x * BLOCK + threadIdx.x; i < n; i += stride) out[i] = (T)i;
}

/* Element i is `words` words W; thread k moves word k % words of element lo + k / words.
   Elements [lo, hi): all of them without offsets, else [off[0], off[segments]) clamped to
   [0, n) (read here, on the GPU). idx NULL: element i from element i. */
template <class W, class I, class O>
__global__ void gather_kernel(W *out, const W *in, const I *idx, uint64_t n, uint64_t words,
                              const O *off, int64_t segments)
{
    uint64_t lo = 0, hi = n;
    if (off) {
        const int64_t a = (int64_t)off[0], b = (int64_t)off[segments];
        lo = a < 0 ? 0 : (uint64_t)a > n ? n : (uint64_t)a;
        hi = b < (int64_t)lo ? lo : (uint64_t)b > n ? n : (uint64_t)b;
    }
    const uint64_t total = (hi - lo) * words, stride = (uint64_t)gridDim.x * BLOCK;
    for (uint64_t k = (uint64_t)blockIdx.x * BLOCK + threadIdx.x; k < total; k += stride) {
        const uint64_t i = lo + k / words, w = k % words;
        out[i * words + w] = in[(idx ? (uint64_t)idx[i] : i) * words + w];
    }
}

/* Segment s is [off[s], off[s + 1]); the largest s with off[s] <= p holds p when p is in
   [off[0], off[segments]) (empty segments share their start with the next). */
template <class W, class O>
__global__ void ranks_kernel(W *rank, const W *pos, const O *off, int64_t segments, uint64_t n)
{
    const uint64_t stride = (uint64_t)gridDim.x * BLOCK;
    for (uint64_t i = (uint64_t)blockIdx.x * BLOCK + threadIdx.x; i < n; i += stride) {
        const int64_t p = pos ? (int64_t)pos[i] : (int64_t)i;
        int64_t r = 0;
        if (p >= (int64_t)off[segments]) {
            r = segments + 1;
        } else if (p >= (int64_t)off[0]) {
            int64_t lo = 0, hi = segments; /* offsets out of order: some rank, in range */
            while (lo < hi) {
                const int64_t mid = lo + (hi - lo + 1) / 2;
                if ((int64_t)off[mid] <= p)
                    lo = mid;
                else
                    hi = mid - 1;
            }
            r = lo + 1;
        }
        rank[i] = (W)r;
    }
}

template <class W>
cudaError_t ranks_as(void *rank, const void *pos, const void *offsets, size_t offset_size,
                     int64_t segments, int64_t n, cudaStream_t st)
{
    const unsigned g = grid_of((uint64_t)n);
    if (offset_size == 4)
        ranks_kernel<W, int32_t>
            <<<g, BLOCK, 0, st>>>(static_cast<W *>(rank), static_cast<const W *>(pos),
                                  static_cast<const int32_t *>(offsets), segments, (uint64_t)n);
    else
        ranks_kernel<W, int64_t>
            <<<g, BLOCK, 0, st>>>(static_cast<W *>(rank), static_cast<const W *>(pos),
                                  static_cast<const int64_t *>(offsets), segments, (uint64_t)n);
    return cudaGetLastError();
}

template <class W, class I>
cudaError_t gather_as(void *out, const void *in, const void *idx, int64_t n, size_t elem_size,
                      const px__cuda_segments *range, cudaStream_t st)
{
    const uint64_t words = elem_size / sizeof(W);
    const unsigned g = grid_of((uint64_t)n * words);
    W *o = static_cast<W *>(out);
    const W *from = static_cast<const W *>(in);
    const I *ix = static_cast<const I *>(idx);
    if (range && range->offset_size == 4)
        gather_kernel<W, I, int32_t>
            <<<g, BLOCK, 0, st>>>(o, from, ix, (uint64_t)n, words,
                                  static_cast<const int32_t *>(range->offsets), range->segments);
    else
        gather_kernel<W, I, int64_t>
            <<<g, BLOCK, 0, st>>>(o, from, ix, (uint64_t)n, words,
                                  range ? static_cast<const int64_t *>(range->offsets) : nullptr,
                                  range ? range->segments : 0);
    return cudaGetLastError();
}

template <class I>
cudaError_t gather_by(void *out, const void *in, const void *idx, int64_t n, size_t elem_size,
                      const px__cuda_segments *range, cudaStream_t st)
{
    /* The widest word that divides the element size and both addresses. */
    const uintptr_t a = (uintptr_t)out | (uintptr_t)in | (uintptr_t)elem_size;
    if (a % 8 == 0) return gather_as<uint64_t, I>(out, in, idx, n, elem_size, range, st);
    if (a % 4 == 0) return gather_as<uint32_t, I>(out, in, idx, n, elem_size, range, st);
    if (a % 2 == 0) return gather_as<uint16_t, I>(out, in, idx, n, elem_size, range, st);
    return gather_as<uint8_t, I>(out, in, idx, n, elem_size, range, st);
}

} // namespace

extern "C" cudaError_t px__cuda_iota(void *out, int64_t n, size_t word, cudaStream_t st)
{
    if (n <= 0) return cudaSuccess;
    if (word == 4)
        iota_kernel<uint32_t>
            <<<grid_of((uint64_t)n), BLOCK, 0, st>>>(static_cast<uint32_t *>(out), (uint64_t)n);
    else
        iota_kernel<uint64_t>
            <<<grid_of((uint64_t)n), BLOCK, 0, st>>>(static_cast<uint64_t *>(out), (uint64_t)n);
    return cudaGetLastError();
}

extern "C" cudaError_t px__cuda_gather(void *out, const void *in, const void *idx, size_t idx_size,
                                       int64_t n, size_t elem_size, const px__cuda_segments *range,
                                       cudaStream_t st)
{
    if (n <= 0) return cudaSuccess;
    return idx_size == 4 ? gather_by<uint32_t>(out, in, idx, n, elem_size, range, st)
                         : gather_by<uint64_t>(out, in, idx, n, elem_size, range, st);
}

extern "C" cudaError_t px__cuda_segment_ranks(void *rank, const void *pos, size_t word,
                                              const px__cuda_segments *r, int64_t n,
                                              cudaStream_t st)
{
    if (n <= 0) return cudaSuccess;
    return word == 4
               ? ranks_as<uint32_t>(rank, pos, r->offsets, r->offset_size, r->segments, n, st)
               : ranks_as<uint64_t>(rank, pos, r->offsets, r->offset_size, r->segments, n, st);
}
