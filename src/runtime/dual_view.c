/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Dual views (portex/dual_view.h): two views of the same elements and a modification count
 * per side, Kokkos' DualView. modify gives its side the next count; a side is out of date
 * while the other's count is higher; sync copies the other side in and makes the counts
 * equal. One view for both sides (the same space) is always in sync. */
#include <stdlib.h>

#include "base/error.h"
#include "base/util.h"
#include "portex.h"
#include "spaces/space.h"
#include "spaces/view.h"

#define DUAL_MAGIC 0x50584456u /* "PXDV" */

struct px_dual_view {
    uint32_t magic;
    px_view *side[2];
    uint64_t count[2]; /* modification counts */
};

static px_status dual_check(const px_dual_view *dv)
{
    if (dv == NULL) return px__error(PX_ERR_INVALID_ARGUMENT, "dv is NULL");
    if (dv->magic != DUAL_MAGIC)
        return px__error(PX_ERR_INVALID_ARGUMENT, "dv is not a live dual view");
    return PX_OK;
}

/* The index of `side` in dv (0 when both sides are that view), or an error. */
static px_status side_of(const px_dual_view *dv, const px_view *side, int *k)
{
    PX__TRY(dual_check(dv));
    if (side == dv->side[0]) {
        *k = 0;
        return PX_OK;
    }
    if (side == dv->side[1]) {
        *k = 1;
        return PX_OK;
    }
    PX__TRY(px__view_check(side, "side"));
    return px__error(
        PX_ERR_INVALID_ARGUMENT,
        "view '%s' is neither side of the dual view of '%s' and '%s' (px_dual_view_get "
        "gives a side)",
        side->label, dv->side[0]->label, dv->side[1]->label);
}

static px_status make(px_dual_view **out, px_view *a, px_view *b)
{
    px_dual_view *dv = px__calloc(1, sizeof *dv);
    if (dv == NULL) return px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory for a dual view");
    px_status st = px_view_retain(a);
    if (st == PX_OK) {
        st = px_view_retain(b);
        if (st != PX_OK) (void)px_view_release(&a);
    }
    if (st != PX_OK) {
        free(dv);
        return st;
    }
    dv->magic = DUAL_MAGIC;
    dv->side[0] = a;
    dv->side[1] = b;
    *out = dv;
    return PX_OK;
}

px_status px_dual_view_create(px_dual_view **out, px_view *view, px_space other)
{
    PX__ENTER;
    PX__ARG(out, "out must not be NULL");
    *out = NULL;
    px_view *m = NULL;
    PX__TRY(px_view_create_mirror_view(&m, other, view));
    const px_status st = make(out, view, m);
    (void)px_view_release(&m); /* the dual view holds its own reference */
    return st;
}

px_status px_dual_view_wrap(px_dual_view **out, px_view *a, px_view *b)
{
    PX__ENTER;
    PX__ARG(out, "out must not be NULL");
    *out = NULL;
    PX__TRY(px__view_check(a, "a"));
    PX__TRY(px__view_check(b, "b"));
    PX__ARG(a->dtype == b->dtype && a->elem_size == b->elem_size,
            "views '%s' and '%s' hold different element types", a->label, b->label);
    PX__ARG(a->rank == b->rank, "view '%s' has rank %d but '%s' rank %d", a->label, a->rank,
            b->label, b->rank);
    for (int d = 0; d < a->rank; ++d)
        PX__ARG(a->extent[d] == b->extent[d],
                "views '%s' and '%s' differ in dimension %d (%lld against %lld)", a->label,
                b->label, d, (long long)a->extent[d], (long long)b->extent[d]);
    return make(out, a, b);
}

px_status px_dual_view_destroy(px_dual_view **dv)
{
    PX__ENTER;
    PX__ARG(dv, "dv must not be NULL");
    PX__TRY(dual_check(*dv));
    px_dual_view *d = *dv;
    d->magic = 0;
    (void)px_view_release(&d->side[0]);
    (void)px_view_release(&d->side[1]);
    free(d);
    *dv = NULL;
    return PX_OK;
}

px_status px_dual_view_get(const px_dual_view *dv, px_space space, px_view **out)
{
    PX__ENTER;
    PX__ARG(out, "out must not be NULL");
    *out = NULL;
    PX__TRY(dual_check(dv));
    for (int k = 0; k < 2; ++k)
        if (px__space_same(dv->side[k]->alloc->space, space)) {
            *out = dv->side[k];
            return PX_OK;
        }
    const px_space s0 = dv->side[0]->alloc->space, s1 = dv->side[1]->alloc->space;
    return px__error(PX_ERR_INVALID_ARGUMENT,
                     "neither side of the dual view lives in %s(%d): '%s' is in %s(%d), '%s' in "
                     "%s(%d)",
                     px_space_kind_string(space.kind), space.device, dv->side[0]->label,
                     px_space_kind_string(s0.kind), s0.device, dv->side[1]->label,
                     px_space_kind_string(s1.kind), s1.device);
}

px_status px_dual_view_modify(px_dual_view *dv, const px_view *side)
{
    PX__ENTER;
    int k = 0;
    PX__TRY(side_of(dv, side, &k));
    if (dv->side[0] == dv->side[1]) return PX_OK;
    if (dv->count[1 - k] > dv->count[k])
        return px__error(PX_ERR_INVALID_ARGUMENT,
                         "'%s' was modified and not synced into '%s': modifying '%s' now would "
                         "lose one side's changes (px_dual_view_sync it first)",
                         dv->side[1 - k]->label, dv->side[k]->label, dv->side[k]->label);
    dv->count[k] = dv->count[1 - k] + 1;
    return PX_OK;
}

px_status px_dual_view_need_sync(const px_dual_view *dv, const px_view *side, bool *out)
{
    PX__ENTER;
    PX__ARG(out, "out must not be NULL");
    int k = 0;
    PX__TRY(side_of(dv, side, &k));
    *out = dv->count[1 - k] > dv->count[k];
    return PX_OK;
}

px_status px_dual_view_sync(px_dual_view *dv, const px_view *side, px_instance *inst,
                            px_dual_sync *done)
{
    PX__ENTER;
    int k = 0;
    PX__TRY(side_of(dv, side, &k));
    px_dual_sync did = {.copied = false, .path = PX_COPY_NONE};
    if (dv->count[1 - k] > dv->count[k]) {
        px_view *dst = dv->side[k], *src = dv->side[1 - k];
        px_copy_path path = PX_COPY_NONE;
        PX__TRY(inst ? px_deep_copy_async(inst, dst, src, &path) : px_deep_copy(dst, src, &path));
        dv->count[k] = dv->count[1 - k];
        did.copied = true;
        did.from = src->alloc->space;
        did.to = dst->alloc->space;
        did.path = path;
    }
    if (done) *done = did;
    return PX_OK;
}
