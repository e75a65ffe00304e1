/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: from a px__cub_sort's run-time key type and value word to a sort template's
 * instantiation (Sort<K, V>::run, V void when no values move), for cub_radix.cu; and the buffers CUB left the result in, back into the struct. */
#ifndef PX_BACKENDS_CUDA_SORT_CUB_TYPES_CUH
#define PX_BACKENDS_CUDA_SORT_CUB_TYPES_CUH

#include <cstdint>

#include <cub/util_type.cuh>

#include "backends/cuda/sort/cub.h"
#include "portex/view.h"

template <class K> void px__cub_selected(px__cub_sort *s, cub::DoubleBuffer<K> &keys)
{
    s->ksel = keys.Current() == s->k[0] ? 0 : 1;
}

template <class K, class V>
void px__cub_selected(px__cub_sort *s, cub::DoubleBuffer<K> &keys,
                      cub::DoubleBuffer<V> &values)
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

#endif /* PX_BACKENDS_CUDA_SORT_CUB_TYPES_CUH */
