/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The CUDA backend's sorts (portex/sort.h): CUB's stable radix sorts, queued on the
 * instance's stream. CUB sorts between two buffers (its DoubleBuffer): the user's output and
 * a second one in the queue's scratch; the result is copied back when CUB leaves it in the
 * second. How values travel:
 *   none         keys alone;
 *   direct       4- or 8-byte aligned values move as words with their keys;
 *   indices      a permutation (values_in NULL): 0, 1, ... written into the output first;
 *   gathered     any other value (1, 2, 12 bytes...): indices sort with the keys, then a
 *                kernel moves each value to its place (from a copy when sorting in place).
 * Segmented sorts are segments.c's. Everything is queued on one stream: nothing here waits
 * for the GPU. */
#include <string.h>

#include "backends/cuda/check.h"
#include "backends/cuda/device.h"
#include "backends/cuda/hooks.h"
#include "backends/cuda/memory/memory.h"
#include "backends/cuda/queue/track.h"
#include "backends/cuda/sort/cub.h"
#include "backends/cuda/sort/segments.h"

typedef enum values_how { NONE, DIRECT, INDICES, GATHERED } values_how;

/* Where each buffer sits in the scratch (byte offsets, 256-aligned), and its size. */
typedef struct sort_plan {
    values_how how;
    size_t word; /* the bytes of what CUB moves with the keys */
    size_t key_alt, key_own, value_alt, value_own, value_copy, temp;
    size_t temp_bytes, total;
} sort_plan;

static bool aligned(const void *p, size_t a) { return ((uintptr_t)p & (a - 1)) == 0; }

static values_how values_of(const px__sort_op *op, size_t *word)
{
    const size_t vs = op->value_size;
    if (vs == 0) return NONE;
    if (!op->values_in) {
        *word = vs;
        return INDICES;
    }
    if ((vs == 4 || vs == 8) && aligned(op->values_in, vs) && aligned(op->values_out, vs)) {
        *word = vs;
        return DIRECT;
    }
    *word = (uint64_t)op->n <= UINT32_MAX ? 4 : 8;
    return GATHERED;
}

static px__cub_sort cub_of(const px__sort_op *op, const sort_plan *p)
{
    px__cub_sort s;
    memset(&s, 0, sizeof s);
    s.key_dtype = (int)op->key_dtype;
    s.values = p->how == NONE ? PX__CUB_NONE : p->word == 4 ? PX__CUB_U32 : PX__CUB_U64;
    s.descending = op->descending;
    s.n = op->n;
    return s;
}

static px_status plan_of(const px__sort_op *op, sort_plan *p)
{
    memset(p, 0, sizeof *p);
    const size_t n = (size_t)op->n, ks = op->key_size;
    p->how = values_of(op, &p->word);
    size_t at = 0;
    p->key_alt = px__cuda_scratch_take(&at, n * ks);
    if (!op->keys_out) p->key_own = px__cuda_scratch_take(&at, n * ks);
    if (p->how != NONE) p->value_alt = px__cuda_scratch_take(&at, n * p->word);
    if (p->how == GATHERED) p->value_own = px__cuda_scratch_take(&at, n * p->word);
    if (p->how == GATHERED && op->values_in == op->values_out)
        p->value_copy = px__cuda_scratch_take(&at, n * op->value_size);
    px__cub_sort s = cub_of(op, p);
    PX__TRY(PX__CU(px__cub_radix_sort(&s, NULL, &p->temp_bytes, 0)));
    p->temp = px__cuda_scratch_take(&at, p->temp_bytes);
    p->total = at;
    return PX_OK;
}

/* Queues the copies and kernels that put keys and values where CUB wants them. */
static px_status stage(const px__sort_op *op, const sort_plan *p, char *b, px__cub_sort *s,
                       cudaStream_t st, const px__cuda_ctx *ctx)
{
    const size_t n = (size_t)op->n;
    s->k[0] = op->keys_out ? op->keys_out : b + p->key_own;
    s->k[1] = b + p->key_alt;
    if (s->k[0] != op->keys_in)
        PX__TRY(
            PX__CU(cudaMemcpyAsync(s->k[0], op->keys_in, n * op->key_size, cudaMemcpyDefault, st)));
    if (p->how != NONE) {
        s->v[0] = p->how == GATHERED ? b + p->value_own : op->values_out;
        s->v[1] = b + p->value_alt;
        if (p->how == DIRECT && op->values_in != op->values_out)
            PX__TRY(PX__CU(
                cudaMemcpyAsync(s->v[0], op->values_in, n * p->word, cudaMemcpyDefault, st)));
        if (p->how != DIRECT) PX__TRY(PX__CU_AT(px__cuda_iota(s->v[0], op->n, p->word, st), ctx));
        if (p->value_copy)
            PX__TRY(PX__CU(cudaMemcpyAsync(b + p->value_copy, op->values_in, n * op->value_size,
                                           cudaMemcpyDefault, st)));
    }
    return PX_OK;
}

/* Moves the results out of CUB's second buffers where it left them there. */
static px_status finish(const px__sort_op *op, const sort_plan *p, char *b, const px__cub_sort *s,
                        cudaStream_t st, const px__cuda_ctx *ctx)
{
    const size_t n = (size_t)op->n;
    if (op->keys_out && s->ksel == 1)
        PX__TRY(PX__CU(
            cudaMemcpyAsync(op->keys_out, s->k[1], n * op->key_size, cudaMemcpyDefault, st)));
    if ((p->how == DIRECT || p->how == INDICES) && s->vsel == 1)
        PX__TRY(
            PX__CU(cudaMemcpyAsync(op->values_out, s->v[1], n * p->word, cudaMemcpyDefault, st)));
    if (p->how == GATHERED) {
        const void *from = p->value_copy ? b + p->value_copy : op->values_in;
        PX__TRY(PX__CU_AT(px__cuda_gather(op->values_out, from, s->v[s->vsel], p->word, op->n,
                                          op->value_size, NULL, st),
                          ctx));
    }
    return PX_OK;
}

static px_status sort_on(px__cuda_queue *q, const px__sort_op *op)
{
    if (op->segments >= 0) return px__cuda_sort_segments(q, op);
    sort_plan p;
    PX__TRY(plan_of(op, &p));
    void *scratch = NULL;
    PX__TRY(px__cuda_scratch(q, p.total, &scratch));
    char *b = scratch;
    const px__cuda_ctx ctx = px__cuda_ctx_kernel("sort (CUB radix sort)");
    px__cub_sort s = cub_of(op, &p);
    PX__TRY(stage(op, &p, b, &s, q->stream, &ctx));
    size_t bytes = p.temp_bytes;
    PX__TRY(PX__CU_AT(px__cub_radix_sort(&s, b + p.temp, &bytes, q->stream), &ctx));
    return finish(op, &p, b, &s, q->stream, &ctx);
}

px_status px__cuda_sort(px__queue *queue, const px__sort_op *op)
{
    px__cuda_queue *q = px__cuda_queue_of(queue);
    if (op->n == 0 || op->segments == 0) return PX_OK;
    int saved;
    PX__TRY(px__cuda_enter(q->device, &saved));
    const px_status st = sort_on(q, op);
    px__cuda_leave(saved);
    return st;
}
