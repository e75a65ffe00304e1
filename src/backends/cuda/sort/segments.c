/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Segmented sorts on CUDA as two stable whole-array radix sorts (cub.h), not CUB's
 * DeviceSegmentedSort, which gave wrong keys in a medium-sized segment of portex's tests
 * (CUDA 13.0's CUB 3.0.1). First by key, then by rank: the part of the array each element
 * was in (before the first segment, segment s, after the last; cub.h). Each part holds as
 * many elements after the sorts as before, so the stable sort by rank puts each segment's
 * elements in its range, in key order; only the range [offsets[0], offsets[segments]) is
 * then written back, and the elements outside every segment stay where they are. Ranks
 * need only as many bits as the segment count, so the second sort makes one or two passes
 * where a position would take three or four.
 *
 * Keys of 4 or 8 bytes without values carry their ranks through the first sort and ride the
 * second as its values. Otherwise the keys carry their indices, the ranks come from those,
 * and keys and values are gathered by the positions the second sort leaves. Indices and
 * ranks are 32-bit below 2^32 keys and 2^32 - 1 segments. Scratch: two copies of the keys;
 * keys alone, two rank arrays; otherwise five index arrays and a copy of the values; and
 * CUB's temporary storage. */
#include "backends/cuda/sort/segments.h"

#include <string.h>

#include "backends/cuda/check.h"
#include "backends/cuda/memory/memory.h"
#include "backends/cuda/sort/cub.h"

static px__cub_sort cub_sort(int key_dtype, bool descending, int64_t n, px__cub_values values)
{
    px__cub_sort s;
    memset(&s, 0, sizeof s);
    s.key_dtype = key_dtype;
    s.values = values;
    s.descending = descending;
    s.n = n;
    return s;
}

/* The bits that hold every rank up to segments + 1. */
static int rank_bits(int64_t segments)
{
    int bits = 1;
    while (bits < 63 && ((uint64_t)segments + 1) >> bits) ++bits;
    return bits;
}

typedef struct seg_plan {
    size_t w;       /* index and rank word: 4 or 8 bytes */
    int rank_dtype; /* PX_U32 or PX_U64 */
    px__cub_values words;
} seg_plan;

static seg_plan plan_of(const px__sort_op *op)
{
    seg_plan p;
    p.w = (uint64_t)op->n <= UINT32_MAX && (uint64_t)op->segments < UINT32_MAX ? 4 : 8;
    p.rank_dtype = p.w == 4 ? PX_U32 : PX_U64;
    p.words = p.w == 4 ? PX__CUB_U32 : PX__CUB_U64;
    return p;
}

/* The two sorts, by key (its values: p's words) and by rank (its values: rank_values), and
   the temporary storage the larger of them needs. */
static px_status two_sorts(const px__sort_op *op, const seg_plan *p, px__cub_values rank_values,
                           px__cub_sort *by_key, px__cub_sort *by_rank, size_t *temp_bytes)
{
    *by_key = cub_sort((int)op->key_dtype, op->descending, op->n, p->words);
    *by_rank = cub_sort(p->rank_dtype, false, op->n, rank_values);
    by_rank->bits = rank_bits(op->segments);
    size_t t1 = 0, t2 = 0;
    PX__TRY(PX__CU(px__cub_radix_sort(by_key, NULL, &t1, 0)));
    PX__TRY(PX__CU(px__cub_radix_sort(by_rank, NULL, &t2, 0)));
    *temp_bytes = t1 > t2 ? t1 : t2;
    return PX_OK;
}

/* A copy of the keys to sort from (the sort writes the segments back in place). */
static px_status copy_keys(const px__sort_op *op, void *copy, cudaStream_t st)
{
    return PX__CU(
        cudaMemcpyAsync(copy, op->keys_in, (size_t)op->n * op->key_size, cudaMemcpyDefault, st));
}

/* Keys of 4 or 8 bytes, no values. */
static px_status keys_only(px__cuda_queue *q, const px__sort_op *op, const seg_plan *p,
                           const px__cuda_segments *range, const px__cuda_ctx *ctx)
{
    const size_t n = (size_t)op->n, ks = op->key_size;
    px__cub_sort by_key, by_rank;
    size_t temp_bytes;
    PX__TRY(two_sorts(op, p, ks == 4 ? PX__CUB_U32 : PX__CUB_U64, &by_key, &by_rank, &temp_bytes));
    size_t at = 0;
    const size_t k0 = px__cuda_scratch_take(&at, n * ks), k1 = px__cuda_scratch_take(&at, n * ks);
    const size_t r0 = px__cuda_scratch_take(&at, n * p->w),
                 r1 = px__cuda_scratch_take(&at, n * p->w);
    const size_t temp = px__cuda_scratch_take(&at, temp_bytes);
    void *scratch = NULL;
    PX__TRY(px__cuda_scratch(q, at, &scratch));
    char *b = scratch;
    const cudaStream_t st = q->stream;

    PX__TRY(copy_keys(op, b + k0, st));
    PX__TRY(PX__CU_AT(px__cuda_segment_ranks(b + r0, NULL, p->w, range, op->n, st), ctx));
    by_key.k[0] = b + k0;
    by_key.k[1] = b + k1;
    by_key.v[0] = b + r0;
    by_key.v[1] = b + r1;
    size_t bytes = temp_bytes;
    PX__TRY(PX__CU_AT(px__cub_radix_sort(&by_key, b + temp, &bytes, st), ctx));

    by_rank.k[0] = by_key.v[by_key.vsel];
    by_rank.k[1] = by_key.v[1 - by_key.vsel];
    by_rank.v[0] = by_key.k[by_key.ksel];
    by_rank.v[1] = by_key.k[1 - by_key.ksel];
    bytes = temp_bytes;
    PX__TRY(PX__CU_AT(px__cub_radix_sort(&by_rank, b + temp, &bytes, st), ctx));
    PX__TRY(PX__CU_AT(
        px__cuda_gather(op->keys_out, by_rank.v[by_rank.vsel], NULL, p->w, op->n, ks, range, st),
        ctx));
    return PX_OK;
}

/* Any keys, with or without values: by indices and gathers. */
static px_status by_index(px__cuda_queue *q, const px__sort_op *op, const seg_plan *p,
                          const px__cuda_segments *range, const px__cuda_ctx *ctx)
{
    const size_t n = (size_t)op->n, ks = op->key_size, vs = op->value_size, w = p->w;
    px__cub_sort by_key, by_rank;
    size_t temp_bytes;
    PX__TRY(two_sorts(op, p, p->words, &by_key, &by_rank, &temp_bytes));
    size_t at = 0;
    const size_t k0 = px__cuda_scratch_take(&at, n * ks), k1 = px__cuda_scratch_take(&at, n * ks);
    size_t ix[5];
    for (int i = 0; i < 5; ++i) ix[i] = px__cuda_scratch_take(&at, n * w);
    const size_t vcopy = vs ? px__cuda_scratch_take(&at, n * vs) : 0;
    const size_t temp = px__cuda_scratch_take(&at, temp_bytes);
    void *scratch = NULL;
    PX__TRY(px__cuda_scratch(q, at, &scratch));
    char *b = scratch;
    const cudaStream_t st = q->stream;

    PX__TRY(copy_keys(op, b + k0, st));
    if (vs)
        PX__TRY(PX__CU(cudaMemcpyAsync(b + vcopy, op->values_in, n * vs, cudaMemcpyDefault, st)));
    PX__TRY(PX__CU_AT(px__cuda_iota(b + ix[0], op->n, w, st), ctx));
    by_key.k[0] = b + k0;
    by_key.k[1] = b + k1;
    by_key.v[0] = b + ix[0];
    by_key.v[1] = b + ix[1];
    size_t bytes = temp_bytes;
    PX__TRY(PX__CU_AT(px__cub_radix_sort(&by_key, b + temp, &bytes, st), ctx));
    const void *keys = by_key.k[by_key.ksel], *index = by_key.v[by_key.vsel];

    /* ix[2], ix[3]: ranks; ix[4] and the free one of ix[0], ix[1]: positions. */
    PX__TRY(PX__CU_AT(px__cuda_segment_ranks(b + ix[2], index, w, range, op->n, st), ctx));
    by_rank.k[0] = b + ix[2];
    by_rank.k[1] = b + ix[3];
    by_rank.v[0] = by_key.v[1 - by_key.vsel];
    by_rank.v[1] = b + ix[4];
    PX__TRY(PX__CU_AT(px__cuda_iota(by_rank.v[0], op->n, w, st), ctx));
    bytes = temp_bytes;
    PX__TRY(PX__CU_AT(px__cub_radix_sort(&by_rank, b + temp, &bytes, st), ctx));
    const void *position = by_rank.v[by_rank.vsel];

    PX__TRY(PX__CU_AT(px__cuda_gather(op->keys_out, keys, position, w, op->n, ks, range, st), ctx));
    if (vs) {
        void *final_index = by_rank.k[1 - by_rank.ksel]; /* the ranks are no longer needed */
        PX__TRY(
            PX__CU_AT(px__cuda_gather(final_index, index, position, w, op->n, w, NULL, st), ctx));
        PX__TRY(PX__CU_AT(
            px__cuda_gather(op->values_out, b + vcopy, final_index, w, op->n, vs, range, st), ctx));
    }
    return PX_OK;
}

px_status px__cuda_sort_segments(px__cuda_queue *q, const px__sort_op *op)
{
    const seg_plan p = plan_of(op);
    const px__cuda_segments range = {op->offsets, op->offset_size, op->segments};
    const px__cuda_ctx c = px__cuda_ctx_kernel("segmented sort (CUB radix sorts)");
    if (op->value_size == 0 && (op->key_size == 4 || op->key_size == 8))
        return keys_only(q, op, &p, &range, &c);
    return by_index(q, op, &p, &range, &c);
}
