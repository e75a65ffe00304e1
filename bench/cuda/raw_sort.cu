/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* CUB's radix sorts as a CUDA user calls them (raw_sort.h): DoubleBuffer forms, temporary
 * storage allocated once by the caller. */
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_segmented_sort.cuh>

#include "raw_sort.h"

namespace {

template <class K> int selected(cub::DoubleBuffer<K> &b, void *k0)
{
    return b.Current() == k0 ? 0 : 1;
}

template <class K>
cudaError_t keys(bool desc, void *k0, void *k1, int64_t n, void *temp, size_t *bytes,
                 cudaStream_t s, int *sel)
{
    cub::DoubleBuffer<K> k(static_cast<K *>(k0), static_cast<K *>(k1));
    const cudaError_t e =
        desc
            ? cub::DeviceRadixSort::SortKeysDescending(temp, *bytes, k, n, 0, int(8 * sizeof(K)), s)
            : cub::DeviceRadixSort::SortKeys(temp, *bytes, k, n, 0, int(8 * sizeof(K)), s);
    *sel = selected(k, k0);
    return e;
}

template <class K, class V>
cudaError_t pairs(void *k0, void *k1, void *v0, void *v1, int64_t n, void *temp, size_t *bytes,
                  cudaStream_t s, int *sel)
{
    cub::DoubleBuffer<K> k(static_cast<K *>(k0), static_cast<K *>(k1));
    cub::DoubleBuffer<V> v(static_cast<V *>(v0), static_cast<V *>(v1));
    const cudaError_t e =
        cub::DeviceRadixSort::SortPairs(temp, *bytes, k, v, n, 0, int(8 * sizeof(K)), s);
    *sel = selected(k, k0);
    return e;
}

} // namespace

extern "C" cudaError_t raw_sort(raw_sort_kind kind, void *k0, void *k1, void *v0, void *v1,
                                int64_t n, int64_t segments, const int64_t *offsets, void *temp,
                                size_t *bytes, cudaStream_t s, int *sel)
{
    switch (kind) {
    case RAW_U32: return keys<uint32_t>(false, k0, k1, n, temp, bytes, s, sel);
    case RAW_U64: return keys<uint64_t>(false, k0, k1, n, temp, bytes, s, sel);
    case RAW_F64_DESC: return keys<double>(true, k0, k1, n, temp, bytes, s, sel);
    case RAW_U32_U32: return pairs<uint32_t, uint32_t>(k0, k1, v0, v1, n, temp, bytes, s, sel);
    case RAW_U64_U64: return pairs<uint64_t, uint64_t>(k0, k1, v0, v1, n, temp, bytes, s, sel);
    case RAW_SEG_U32: {
        cub::DoubleBuffer<uint32_t> k(static_cast<uint32_t *>(k0), static_cast<uint32_t *>(k1));
        const cudaError_t e = cub::DeviceSegmentedSort::StableSortKeys(temp, *bytes, k, n, segments,
                                                                       offsets, offsets + 1, s);
        *sel = selected(k, k0);
        return e;
    }
    default: return cudaErrorInvalidValue;
    }
}
