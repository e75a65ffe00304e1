/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Whole-array sorts: cub::DeviceRadixSort on double buffers (cub.h), one instantiation per
 * key type, value word and order, chosen from the px__cub_sort's run-time key type and value
 * word. */
#include <cstdint>

#include <cub/device/device_radix_sort.cuh>

#include "backends/cuda/sort/cub.h"
#include "portex/view.h"

namespace {

/* The buffers CUB left the result in, back into the struct. */
template <class K> void px__cub_selected(px__cub_sort *s, cub::DoubleBuffer<K> &keys)
{
    s->ksel = keys.Current() == s->k[0] ? 0 : 1;
}

template <class K, class V>
void px__cub_selected(px__cub_sort *s, cub::DoubleBuffer<K> &keys, cub::DoubleBuffer<V> &values)
{
    px__cub_selected(s, keys);
    s->vsel = values.Current() == s->v[0] ? 0 : 1;
}

template <template <class, class> class Sort, class K>
cudaError_t px__cub_by_values(px__cub_sort *s, void *temp, size_t *bytes, cudaStream_t st)
{
    switch (s->values) {
    case PX__CUB_U32: return Sort<K, uint32_t>::run(s, temp, bytes, st);
    case PX__CUB_U64: return Sort<K, uint64_t>::run(s, temp, bytes, st);
    default: return Sort<K, void>::run(s, temp, bytes, st);
    }
}

template <template <class, class> class Sort>
cudaError_t px__cub_dispatch(px__cub_sort *s, void *temp, size_t *bytes, cudaStream_t st)
{
    switch (s->key_dtype) {
    case PX_U8: return px__cub_by_values<Sort, uint8_t>(s, temp, bytes, st);
    case PX_I32: return px__cub_by_values<Sort, int32_t>(s, temp, bytes, st);
    case PX_I64: return px__cub_by_values<Sort, int64_t>(s, temp, bytes, st);
    case PX_U32: return px__cub_by_values<Sort, uint32_t>(s, temp, bytes, st);
    case PX_U64: return px__cub_by_values<Sort, uint64_t>(s, temp, bytes, st);
    case PX_F32: return px__cub_by_values<Sort, float>(s, temp, bytes, st);
    case PX_F64: return px__cub_by_values<Sort, double>(s, temp, bytes, st);
    default: return cudaErrorInvalidValue;
    }
}


template <class K> int end_bit(const px__cub_sort *s)
{
    return s->bits > 0 && s->bits < int(sizeof(K) * 8) ? s->bits : int(sizeof(K) * 8);
}

template <class K, class V> struct radix {
    static cudaError_t run(px__cub_sort *s, void *temp, size_t *bytes, cudaStream_t st)
    {
        cub::DoubleBuffer<K> keys(static_cast<K *>(s->k[s->ksel]),
                                  static_cast<K *>(s->k[1 - s->ksel]));
        cub::DoubleBuffer<V> values(static_cast<V *>(s->v[s->vsel]),
                                    static_cast<V *>(s->v[1 - s->vsel]));
        const cudaError_t e =
            s->descending ? cub::DeviceRadixSort::SortPairsDescending(temp, *bytes, keys, values,
                                                                      s->n, 0, end_bit<K>(s), st)
                          : cub::DeviceRadixSort::SortPairs(temp, *bytes, keys, values, s->n, 0,
                                                            end_bit<K>(s), st);
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
            s->descending
                ? cub::DeviceRadixSort::SortKeysDescending(temp, *bytes, keys, s->n, 0,
                                                           end_bit<K>(s), st)
                : cub::DeviceRadixSort::SortKeys(temp, *bytes, keys, s->n, 0, end_bit<K>(s), st);
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
