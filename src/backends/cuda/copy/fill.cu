/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Fill kernels for px_fill on device memory when the value's bytes differ (equal bytes
 * go to cudaMemsetAsync, see copy/copy.c), and for every fill portex records into a graph
 * (so that another value changes a node's parameters, never its type).
 *
 * The buffer is seen as words U, the widest of 8, 4, 2, 1 bytes that divides both the
 * element size and the address. An element of one word is a plain store per thread; a
 * wider element repeats a pattern of W words, which travels as a kernel parameter
 * (PATTERN_BYTES at a time: longer elements take one launch per slice). Word k of the
 * slice is element k / len, word k % len, with 32-bit arithmetic when the count allows. */
#include "backends/cuda/copy/fill.h"

#include <atomic>
#include <cstdint>
#include <cstring>

namespace {

constexpr size_t PATTERN_BYTES = 1024;
constexpr int MAX_DEVICES = 64;

template <class U> struct pattern {
    U w[PATTERN_BYTES / sizeof(U)];
};

template <class U> __global__ void fill_value_kernel(U *dst, uint64_t n, U v)
{
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t k = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; k < n; k += stride)
        dst[k] = v;
}

/* Writes words [off, off + len) of each of `count` elements of `words` words. */
template <class U, class I>
__global__ void fill_pattern_kernel(U *dst, I count, I words, I off, I len,
                                    const __grid_constant__ pattern<U> p)
{
    const I n = count * len;
    const I stride = (I)gridDim.x * (I)blockDim.x;
    for (I k = (I)blockIdx.x * (I)blockDim.x + (I)threadIdx.x; k < n; k += stride) {
        const I e = k / len;
        const I w = k - e * len;
        dst[e * words + off + w] = p.w[w];
    }
}

/* Block size from the occupancy API, once per kernel and device; a grid that fills the
   SMs once (grid-stride loops). */
template <class K>
cudaError_t grid_for(K kernel, int device, uint64_t n, std::atomic<unsigned long long> *cache,
                     unsigned *grid, int *block)
{
    unsigned long long v = device < MAX_DEVICES ? cache[device].load(std::memory_order_relaxed) : 0;
    if (v == 0) {
        int min_grid = 0, b = 0;
        cudaError_t e = cudaOccupancyMaxPotentialBlockSize(&min_grid, &b, kernel, 0, 0);
        if (e != cudaSuccess) return e;
        if (b <= 0 || min_grid <= 0) return cudaErrorLaunchOutOfResources;
        v = ((unsigned long long)(unsigned)min_grid << 32) | (unsigned)b;
        if (device < MAX_DEVICES) cache[device].store(v, std::memory_order_relaxed);
    }
    *block = (int)(v & 0xffffffffu);
    const uint64_t wave = v >> 32;
    const uint64_t need = (n + (uint64_t)*block - 1) / (uint64_t)*block;
    *grid = (unsigned)(need < wave ? (need > 0 ? need : 1) : wave);
    return cudaSuccess;
}

template <class U>
cudaError_t fill_value(cudaStream_t s, int device, void *dst, uint64_t n, const void *value)
{
    static std::atomic<unsigned long long> cache[MAX_DEVICES];
    U v;
    memcpy(&v, value, sizeof v);
    unsigned grid;
    int block;
    cudaError_t e = grid_for(fill_value_kernel<U>, device, n, cache, &grid, &block);
    if (e != cudaSuccess) return e;
    fill_value_kernel<U><<<grid, block, 0, s>>>(static_cast<U *>(dst), n, v);
    return cudaGetLastError();
}

template <class U, class I>
cudaError_t fill_slices(cudaStream_t s, int device, void *dst, uint64_t count, size_t elem_size,
                        const unsigned char *value)
{
    static std::atomic<unsigned long long> cache[MAX_DEVICES];
    const uint64_t words = elem_size / sizeof(U);
    const uint64_t slice = PATTERN_BYTES / sizeof(U);
    for (uint64_t off = 0; off < words; off += slice) {
        const uint64_t len = words - off < slice ? words - off : slice;
        pattern<U> p;
        memset(&p, 0, sizeof p);
        memcpy(p.w, value + off * sizeof(U), len * sizeof(U));
        unsigned grid;
        int block;
        cudaError_t e =
            grid_for(fill_pattern_kernel<U, I>, device, count * len, cache, &grid, &block);
        if (e != cudaSuccess) return e;
        fill_pattern_kernel<U, I>
            <<<grid, block, 0, s>>>(static_cast<U *>(dst), (I)count, (I)words, (I)off, (I)len, p);
        e = cudaGetLastError();
        if (e != cudaSuccess) return e;
    }
    return cudaSuccess;
}

template <class U>
cudaError_t fill_words(cudaStream_t s, int device, void *dst, uint64_t count, size_t elem_size,
                       const unsigned char *value)
{
    /* 32-bit index arithmetic while every word index (and one stride past it) fits. */
    const uint64_t total = count * (elem_size / sizeof(U));
    if (total < ((uint64_t)1 << 31))
        return fill_slices<U, uint32_t>(s, device, dst, count, elem_size, value);
    return fill_slices<U, uint64_t>(s, device, dst, count, elem_size, value);
}

/* The element size when an element is one word at dst's alignment (fill_value_kernel),
   else 0 (a pattern of words). */
size_t value_word(const void *dst, size_t elem_size)
{
    const uintptr_t addr = reinterpret_cast<uintptr_t>(dst);
    const bool word = elem_size == 16 || elem_size == 8 || elem_size == 4 || elem_size == 2;
    return word && addr % elem_size == 0 ? elem_size : 0;
}

} /* namespace */

extern "C" const void *px__cuda_fill_value_kernel(const void *dst, size_t elem_size)
{
    switch (value_word(dst, elem_size)) {
    case 16: return reinterpret_cast<const void *>(fill_value_kernel<uint4>);
    case 8: return reinterpret_cast<const void *>(fill_value_kernel<uint64_t>);
    case 4: return reinterpret_cast<const void *>(fill_value_kernel<uint32_t>);
    case 2: return reinterpret_cast<const void *>(fill_value_kernel<uint16_t>);
    default: return nullptr;
    }
}

extern "C" cudaError_t px__cuda_fill_launch(cudaStream_t stream, int device, void *dst,
                                            size_t count, size_t elem_size, const void *value)
{
    if (count == 0 || elem_size == 0) return cudaSuccess;
    const uintptr_t addr = reinterpret_cast<uintptr_t>(dst);
    const unsigned char *v = static_cast<const unsigned char *>(value);
    switch (value_word(dst, elem_size)) {
    case 16: return fill_value<uint4>(stream, device, dst, count, value);
    case 8: return fill_value<uint64_t>(stream, device, dst, count, value);
    case 4: return fill_value<uint32_t>(stream, device, dst, count, value);
    case 2: return fill_value<uint16_t>(stream, device, dst, count, value);
    default: break;
    }
    if (elem_size % 8 == 0 && addr % 8 == 0)
        return fill_words<uint64_t>(stream, device, dst, count, elem_size, v);
    if (elem_size % 4 == 0 && addr % 4 == 0)
        return fill_words<uint32_t>(stream, device, dst, count, elem_size, v);
    if (elem_size % 2 == 0 && addr % 2 == 0)
        return fill_words<uint16_t>(stream, device, dst, count, elem_size, v);
    return fill_words<uint8_t>(stream, device, dst, count, elem_size, v);
}
