/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Planning deep_copy and fill: validation, the op, and the path; see copy_plan.h.
 *
 *   one side \ other   same element order           strided / differing layouts
 *   HOST*  - HOST*      HOST_MEMCPY                  HOST_STRIDED
 *   anything else       the owning backend's choice (CUDA: DMA, STAGED, D2D, PEER,
 *                       STRIDED, STRIDED_STAGED; docs/cuda.md) */
#include "spaces/copy_plan.h"

#include <string.h>

#include "backends/backends.h"
#include "base/error.h"
#include "spaces/view.h"

static px_status check_pair(const px_view *dst, const px_view *src)
{
    PX__TRY(px__view_check(dst, "dst"));
    PX__TRY(px__view_check(src, "src"));
    if (dst->rank != src->rank)
        return px__error(PX_ERR_EXTENTS_MISMATCH, "ranks differ: dst '%s' %d, src '%s' %d",
                         dst->label, dst->rank, src->label, src->rank);
    for (int d = 0; d < dst->rank; ++d)
        if (dst->extent[d] != src->extent[d])
            return px__error(
                PX_ERR_EXTENTS_MISMATCH, "extents differ: dst '%s'[%d] = %lld, src '%s'[%d] = %lld",
                dst->label, d, (long long)dst->extent[d], src->label, d, (long long)src->extent[d]);
    /* Element sizes must agree; the types may differ (a byte copy, as documented). */
    if (dst->elem_size != src->elem_size)
        return px__error(PX_ERR_TYPE_MISMATCH,
                         "element sizes differ: dst '%s' %s (%zu bytes), src '%s' %s (%zu bytes)",
                         dst->label, px_dtype_string(dst->dtype), dst->elem_size, src->label,
                         px_dtype_string(src->dtype), src->elem_size);
    return PX_OK;
}

/* Both contiguous with their elements in the same order: one flat byte copy will do. */
static bool same_flat_order(const px_view *a, const px_view *b)
{
    if (!px__view_contiguous(a) || !px__view_contiguous(b)) return false;
    for (int d = 0; d < a->rank; ++d)
        if (a->extent[d] > 1 && a->stride[d] != b->stride[d]) return false;
    return true;
}

/* The bytes [*lo, *hi) a non-empty view's elements lie in. */
static void byte_range(const px_view *v, uintptr_t *lo, uintptr_t *hi)
{
    size_t last = 0; /* offset of the last element, in elements; fits: validated at creation */
    for (int d = 0; d < v->rank; ++d) last += (size_t)(v->extent[d] - 1) * (size_t)v->stride[d];
    *lo = (uintptr_t)v->data;
    *hi = *lo + (last + 1) * v->elem_size;
}

/* Whether copying src into dst element by element could read an element it already
   wrote: their memory intersects and they are not one and the same. */
static bool overlap(const px_view *dst, const px_view *src, bool flat)
{
    if (dst->data == src->data && flat) return false; /* the same memory: nothing to do */
    uintptr_t dlo, dhi, slo, shi;
    byte_range(dst, &dlo, &dhi);
    byte_range(src, &slo, &shi);
    return dlo < shi && slo < dhi;
}

static void hold_drop_alloc(void *alloc) { px__alloc_release(alloc); }

static void fill_side(px__copy_side *side, const px_view *v)
{
    side->data = v->data;
    side->space = v->alloc->space;
    for (int d = 0; d < PX_MAX_RANK; ++d) side->stride[d] = d < v->rank ? v->stride[d] : 0;
    px__alloc_retain(v->alloc);
    side->hold.drop = hold_drop_alloc;
    side->hold.obj = v->alloc;
}

static void make_op(px__copy_op *op, const px_view *dst, const px_view *src, const void *value)
{
    memset(op, 0, sizeof *op);
    op->rank = dst->rank;
    for (int d = 0; d < dst->rank; ++d) op->extent[d] = dst->extent[d];
    op->elem_size = dst->elem_size;
    op->count = px__view_size(dst);
    op->bytes = (size_t)op->count * dst->elem_size;
    op->flat = src ? same_flat_order(dst, src) : px__view_contiguous(dst);
    fill_side(&op->dst, dst);
    if (src) fill_side(&op->src, src);
    op->value = value;
}

void px__copy_op_release(px__copy_op *op)
{
    px__hold_drop(&op->dst.hold);
    px__hold_drop(&op->src.hold);
}

/* The backend that owns memory the CPU cannot reach, or PX_EXEC_COUNT when it reaches
   both sides. */
static px_status device_owner(const px__copy_op *op, bool with_src, px_exec_space *owner)
{
    const px__space_ops *d = px__space_ops_get(op->dst.space.kind);
    const px__space_ops *s = with_src ? px__space_ops_get(op->src.space.kind) : d;
    *owner = PX_EXEC_COUNT;
    if (!d->host_access) *owner = d->owner;
    if (!s->host_access) {
        if (*owner != PX_EXEC_COUNT && *owner != s->owner)
            return px__error(PX_ERR_UNSUPPORTED, "no backend copies between %s and %s memory",
                             d->name, s->name);
        *owner = s->owner;
    }
    return PX_OK;
}

px_status px__copy_plan(px__copy_op *op, px__copy_plan_info *info, px_view *dst, const px_view *src)
{
    PX__TRY(check_pair(dst, src));
    make_op(op, dst, src, NULL);
    info->overlap = false;
    px_status st = device_owner(op, true, &info->owner);
    if (st == PX_OK) {
        if (op->count == 0 || (dst->data == src->data && op->flat)) {
            op->path = PX_COPY_NONE;
        } else if (info->owner == PX_EXEC_COUNT) {
            op->path = op->flat ? PX_COPY_HOST_MEMCPY : PX_COPY_HOST_STRIDED;
        } else {
            const px__backend *be = px__backend_get(info->owner);
            st = be->copy_path(op, &op->path);
        }
        if (st == PX_OK && op->path != PX_COPY_NONE) info->overlap = overlap(dst, src, op->flat);
    }
    if (st != PX_OK) px__copy_op_release(op);
    return st;
}

px_status px__fill_plan(px__copy_op *op, px__copy_plan_info *info, px_view *dst, const void *value)
{
    PX__TRY(px__view_check(dst, "dst"));
    if (!value) return px__error(PX_ERR_INVALID_ARGUMENT, "value must not be NULL");
    make_op(op, dst, NULL, value);
    info->overlap = false;
    px_status st = device_owner(op, false, &info->owner);
    if (st == PX_OK) {
        if (op->count == 0)
            op->path = PX_COPY_NONE;
        else if (info->owner == PX_EXEC_COUNT)
            op->path = PX_COPY_HOST_FILL;
        else
            st = px__backend_get(info->owner)->copy_path(op, &op->path);
    }
    if (st != PX_OK) px__copy_op_release(op);
    return st;
}
