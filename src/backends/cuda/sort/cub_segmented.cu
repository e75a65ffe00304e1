/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Segmented sorts: cub::DeviceSegmentedSort's stable sorts from one of the double buffers
 * (cub.h) into the other, one instantiation per key type, value word and order. */
#include <cub/device/device_segmented_sort.cuh>

#include "backends/cuda/sort/cub.h"
#include "backends/cuda/sort/cub_types.cuh"

namespace {

/* Segmented sorts read one buffer and write the other (the in-to-out forms: the DoubleBuffer
   forms gave wrong keys for some small segments in testing), so the result is always in
   the second buffer. */
template <class K, class V> struct segmented {
    static cudaError_t run(px__cub_sort *s, void *temp, size_t *bytes, cudaStream_t st)
    {
        const K *kin = static_cast<const K *>(s->k[s->ksel]);
        K *kout = static_cast<K *>(s->k[1 - s->ksel]);
        const V *vin = static_cast<const V *>(s->v[s->vsel]);
        V *vout = static_cast<V *>(s->v[1 - s->vsel]);
        const cudaError_t e =
            s->descending
                ? cub::DeviceSegmentedSort::StableSortPairsDescending(
                      temp, *bytes, kin, kout, vin, vout, s->n, s->segments, s->begin,
                      s->end, st)
                : cub::DeviceSegmentedSort::StableSortPairs(temp, *bytes, kin, kout, vin, vout,
                                                            s->n, s->segments, s->begin,
                                                            s->end, st);
        if (temp) {
            s->ksel = 1 - s->ksel;
            s->vsel = 1 - s->vsel;
        }
        return e;
    }
};

template <class K> struct segmented<K, void> {
    static cudaError_t run(px__cub_sort *s, void *temp, size_t *bytes, cudaStream_t st)
    {
        const K *kin = static_cast<const K *>(s->k[s->ksel]);
        K *kout = static_cast<K *>(s->k[1 - s->ksel]);
        const cudaError_t e =
            s->descending
                ? cub::DeviceSegmentedSort::StableSortKeysDescending(
                      temp, *bytes, kin, kout, s->n, s->segments, s->begin, s->end, st)
                : cub::DeviceSegmentedSort::StableSortKeys(temp, *bytes, kin, kout, s->n,
                                                           s->segments, s->begin,
                                                           s->end, st);
        if (temp) s->ksel = 1 - s->ksel;
        return e;
    }
};

} // namespace

extern "C" cudaError_t px__cub_segmented_sort(px__cub_sort *s, void *temp, size_t *temp_bytes,
                                          cudaStream_t st)
{
    return px__cub_dispatch<segmented>(s, temp, temp_bytes, st);
}
