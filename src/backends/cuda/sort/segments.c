/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Segmented sorts on CUDA as two stable whole-array radix sorts (cub.h), not CUB's
 * DeviceSegmentedSort, which gave wrong keys in a medium-sized segment of portex's tests
 * (CUDA 13.0's CUB 3.0.1). First by key, each key carrying its index; then by slot: the
 * first position of the segment the key's element is in, or its own position when it is in
 * none. Slots count the elements before them, so a stable sort by slot puts each segment's
 * elements back in its range, in key order, and elements outside every segment where they
 * were. Keys and values are then gathered to their places. Indices are 32-bit below 2^32
 * keys. Scratch: two copies of the keys, five index arrays, a copy of the values when they
 * are sorted in place, and CUB's temporary storage. */
#include "backends/cuda/sort/segments.h"

#include <string.h>

#include "backends/cuda/check.h"
#include "backends/cuda/memory/memory.h"
#include "backends/cuda/sort/cub.h"

static px__cub_sort cub_sort(int key_dtype, bool descending, int64_t n, size_t word)
{
    px__cub_sort s;
    memset(&s, 0, sizeof s);
    s.key_dtype = key_dtype;
    s.values = word == 4 ? PX__CUB_U32 : PX__CUB_U64;
    s.descending = descending;
    s.n = n;
    return s;
}

px_status px__cuda_sort_segments(px__cuda_queue *q, const px__sort_op *op)
{
    const size_t n = (size_t)op->n, ks = op->key_size, vs = op->value_size;
    const size_t w = (uint64_t)op->n <= UINT32_MAX ? 4 : 8;
    const int slot_dtype = w == 4 ? PX_U32 : PX_U64;
    px__cub_sort by_key = cub_sort((int)op->key_dtype, op->descending, op->n, w);
    px__cub_sort by_slot = cub_sort(slot_dtype, false, op->n, w);
    size_t t1 = 0, t2 = 0;
    PX__TRY(PX__CU(px__cub_radix_sort(&by_key, NULL, &t1, 0)));
    PX__TRY(PX__CU(px__cub_radix_sort(&by_slot, NULL, &t2, 0)));
    size_t at = 0;
    const size_t k0 = px__cuda_scratch_take(&at, n * ks), k1 = px__cuda_scratch_take(&at, n * ks);
    size_t ix[5];
    for (int i = 0; i < 5; ++i) ix[i] = px__cuda_scratch_take(&at, n * w);
    const bool copy = vs && op->values_in == op->values_out;
    const size_t vcopy = copy ? px__cuda_scratch_take(&at, n * vs) : 0;
    const size_t temp_bytes = t1 > t2 ? t1 : t2, temp = px__cuda_scratch_take(&at, temp_bytes);
    void *scratch = NULL;
    PX__TRY(px__cuda_scratch(q, at, &scratch));
    char *b = scratch;
    const cudaStream_t st = q->stream;
    const px__cuda_ctx c = px__cuda_ctx_kernel("segmented sort (CUB radix sorts)");
    const px__cuda_ctx *ctx = &c;

    PX__TRY(PX__CU(cudaMemcpyAsync(b + k0, op->keys_in, n * ks, cudaMemcpyDefault, st)));
    if (copy)
        PX__TRY(PX__CU(cudaMemcpyAsync(b + vcopy, op->values_in, n * vs, cudaMemcpyDefault, st)));
    PX__TRY(PX__CU_AT(px__cuda_iota(b + ix[0], op->n, w, st), ctx));
    by_key.k[0] = b + k0;
    by_key.k[1] = b + k1;
    by_key.v[0] = b + ix[0];
    by_key.v[1] = b + ix[1];
    size_t bytes = temp_bytes;
    PX__TRY(PX__CU_AT(px__cub_radix_sort(&by_key, b + temp, &bytes, st), ctx));
    const void *keys = by_key.k[by_key.ksel], *index = by_key.v[by_key.vsel];

    /* ix[2], ix[3]: slots; ix[4] and the free one of ix[0], ix[1]: positions. */
    PX__TRY(PX__CU_AT(px__cuda_segment_slots(b + ix[2], index, w, op->offsets, op->offset_size,
                                             op->segments, op->n, st),
                      ctx));
    by_slot.k[0] = b + ix[2];
    by_slot.k[1] = b + ix[3];
    by_slot.v[0] = by_key.v[1 - by_key.vsel];
    by_slot.v[1] = b + ix[4];
    PX__TRY(PX__CU_AT(px__cuda_iota(by_slot.v[0], op->n, w, st), ctx));
    bytes = temp_bytes;
    PX__TRY(PX__CU_AT(px__cub_radix_sort(&by_slot, b + temp, &bytes, st), ctx));
    const void *position = by_slot.v[by_slot.vsel];

    PX__TRY(PX__CU_AT(px__cuda_gather(op->keys_out, keys, position, w, op->n, ks, st), ctx));
    if (vs) {
        void *final_index = by_slot.k[1 - by_slot.ksel]; /* the slots are no longer needed */
        PX__TRY(PX__CU_AT(px__cuda_gather(final_index, index, position, w, op->n, w, st), ctx));
        const void *from = copy ? b + vcopy : op->values_in;
        PX__TRY(
            PX__CU_AT(px__cuda_gather(op->values_out, from, final_index, w, op->n, vs, st), ctx));
    }
    return PX_OK;
}
