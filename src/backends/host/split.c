/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Host copies and fills on a team of host threads (the OpenMP and threads backends): the
 * op is cut into slices, one per thread, each run by the host backends' own copy and fill.
 * Contiguous ops are cut by elements, as a 1-D loop over them is (launch.c: part p of
 * the team's parts to thread p); strided ones along the destination's outermost dimension,
 * so that every slice still walks memory in order. Small ops stay on the calling thread: a
 * team costs more than it saves below a few hundred kilobytes. A new view's zero-fill is
 * such a fill, on the team of the default instance: the threads that will loop over the
 * view touch its pages first. */
#include "backends/host/split.h"

#include "backends/host/copy.h"
#include "backends/services.h"

#define PARALLEL_BYTES (256 * 1024)

typedef struct slice_ctx {
    const px__copy_op *op;
    int nparts;
    int outer; /* strided: the dimension cut */
    bool fill;
} slice_ctx;

static void run_slice(void *vc, int part)
{
    const slice_ctx *c = vc;
    const px__copy_op *op = c->op;
    px__copy_op s = *op;
    if (op->flat) {
        int64_t lo, hi;
        px__host_share(op->count, part, c->nparts, &lo, &hi);
        const int64_t n = hi - lo;
        const size_t off = (size_t)lo * op->elem_size;
        s.dst.data += off;
        if (!c->fill) s.src.data += off;
        s.count = n;
        s.bytes = (size_t)n * op->elem_size;
        s.extent[0] = n;
        s.rank = 1;
    } else {
        const int d = c->outer;
        const int64_t e = op->extent[d];
        int64_t lo, hi;
        px__host_share(e, part, c->nparts, &lo, &hi);
        const int64_t n = hi - lo;
        s.dst.data += lo * op->dst.stride[d] * (int64_t)op->elem_size;
        if (!c->fill) s.src.data += lo * op->src.stride[d] * (int64_t)op->elem_size;
        s.extent[d] = n;
        s.count = op->count / e * n;
        s.bytes = (size_t)s.count * op->elem_size;
    }
    if (s.count == 0) return;
    if (c->fill)
        px__host_fill(&s);
    else
        px__host_copy(&s);
}

void px__host_split(const px__host_runner *r, const px__copy_op *op, bool fill)
{
    slice_ctx c = {.op = op, .nparts = r->nthreads, .fill = fill};
    bool split = r->nthreads > 1 && op->bytes >= PARALLEL_BYTES && op->rank > 0;
    if (split && !op->flat) {
        int order[PX_MAX_RANK];
        px__dims_by_stride(op->rank, op->dst.stride, order);
        c.outer = order[op->rank - 1];
        split = op->extent[c.outer] > 1;
    }
    if (!split) {
        if (fill)
            px__host_fill(op);
        else
            px__host_copy(op);
        return;
    }
    r->run(r->team, &(px__host_job){.nparts = c.nparts, .pass = {run_slice, NULL}, .ctx = &c});
}

/* Elements up to this size are zeroed as elements, so that the shares match a loop's; a
   larger (PX_USER) element is cut by bytes, the shares then differ by less than one. */
#define ZERO_ELEMENT_MAX 64

void px__host_split_zero(const px__host_runner *r, void *ptr, size_t bytes, size_t elem_size)
{
    static const unsigned char zeros[ZERO_ELEMENT_MAX];
    const size_t es =
        elem_size >= 1 && elem_size <= ZERO_ELEMENT_MAX && bytes % elem_size == 0 ? elem_size : 1;
    const px__copy_op op = {
        .path = PX_COPY_HOST_FILL,
        .rank = 1,
        .extent = {(int64_t)(bytes / es)},
        .elem_size = es,
        .count = (int64_t)(bytes / es),
        .bytes = bytes,
        .flat = true,
        .dst = {.data = ptr, .space = {PX_SPACE_HOST, 0}, .stride = {1}},
        .value = zeros,
    };
    px__host_split(r, &op, true);
}

px_status px__host_split_copy(const px__host_runner *r, px__copy_op *op, const char *backend)
{
    if (op->path != PX_COPY_HOST_MEMCPY && op->path != PX_COPY_HOST_STRIDED)
        return px__error(PX_ERR_UNSUPPORTED, "the %s backend cannot run copy path %s", backend,
                         px_copy_path_string(op->path));
    px__host_split(r, op, false);
    return PX_OK;
}

px_status px__host_split_fill(const px__host_runner *r, px__copy_op *op, const char *backend)
{
    if (op->path != PX_COPY_HOST_FILL)
        return px__error(PX_ERR_UNSUPPORTED, "the %s backend cannot run fill path %s", backend,
                         px_copy_path_string(op->path));
    px__host_split(r, op, true);
    return PX_OK;
}
