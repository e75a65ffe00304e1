/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Whole-array sorts: cub::DeviceRadixSort on double buffers (cub.h), one instantiation per
 * key type, value word and order. */
#include <cub/device/device_radix_sort.cuh>

#include "backends/cuda/sort/cub.h"
#include "backends/cuda/sort/cub_types.cuh"

namespace {

template <class K, class V> struct radix {
    static cudaError_t run(px__cub_sort *s, void *temp, size_t *bytes, cudaStream_t st)
    {
        cub::DoubleBuffer<K> keys(static_cast<K *>(s->k[s->ksel]),
                                  static_cast<K *>(s->k[1 - s->ksel]));
        cub::DoubleBuffer<V> values(static_cast<V *>(s->v[s->vsel]),
                                    static_cast<V *>(s->v[1 - s->vsel]));
        const cudaError_t e =
            s->descending ? cub::DeviceRadixSort::SortPairsDescending(
                                temp, *bytes, keys, values, s->n, 0, int(sizeof(K) * 8), st)
                          : cub::DeviceRadixSort::SortPairs(temp, *bytes, keys, values, s->n, 0,
                                                            int(sizeof(K) * 8), st);
        px__cub_selected(s, keys, values);
        return e;
    }
};

template <class K> struct radix<K, void> {
    static cudaError_t run(px__cub_sort *s, void *temp, size_t *bytes, cudaStream_t st)
    {
        cub::DoubleBuffer<K> keys(static_cast<K *>(s->k[s->ksel]),
                                  static_cast<K *>(s->k[1 - s->ksel]));
        const cudaError_t e =
            s->descending ? cub::DeviceRadixSort::SortKeysDescending(temp, *bytes, keys, s->n, 0,
                                                                     int(sizeof(K) * 8), st)
                          : cub::DeviceRadixSort::SortKeys(temp, *bytes, keys, s->n, 0,
                                                           int(sizeof(K) * 8), st);
        px__cub_selected(s, keys);
        return e;
    }
};

} // namespace

extern "C" cudaError_t px__cub_radix_sort(px__cub_sort *s, void *temp, size_t *temp_bytes,
                                          cudaStream_t st)
{
    return px__cub_dispatch<radix>(s, temp, temp_bytes, st);
}
