/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The checks and the instance of the library's algorithms over views (view_algorithm.h). */
#include "runtime/view_algorithm.h"

#include "backends/backends.h"
#include "base/error.h"
#include "runtime/dispatch.h"
#include "spaces/space.h"
#include "spaces/view.h"

px_status px__algo_check_vector(const px_view *v, const char *what)
{
    PX__TRY(px__view_check(v, what));
    if (v->rank != 1 || !px__view_contiguous(v))
        return px__error(PX_ERR_INVALID_ARGUMENT, "%s '%s' must be a contiguous rank-1 view", what,
                         v->label);
    return PX_OK;
}

px_status px__algo_check_beside(const px_view *v, const char *what, const px_view *ref,
                                const char *ref_what)
{
    PX__TRY(px__algo_check_vector(v, what));
    if (v->extent[0] != ref->extent[0])
        return px__error(PX_ERR_INVALID_ARGUMENT,
                         "%s '%s' has %lld elements and %s '%s' %lld: they must be equal", what,
                         v->label, (long long)v->extent[0], ref_what, ref->label,
                         (long long)ref->extent[0]);
    if (!px__space_same(v->alloc->space, ref->alloc->space))
        return px__error(PX_ERR_INVALID_ARGUMENT,
                         "%s '%s' lives in %s(%d) and %s '%s' in %s(%d): they must share a space",
                         what, v->label, px_space_kind_string(v->alloc->space.kind),
                         v->alloc->space.device, ref_what, ref->label,
                         px_space_kind_string(ref->alloc->space.kind), ref->alloc->space.device);
    return PX_OK;
}

bool px__algo_overlap(const px_view *a, const px_view *b)
{
    const char *a0 = a->data, *b0 = b->data;
    const char *a1 = a0 + (size_t)px__view_size(a) * a->elem_size;
    const char *b1 = b0 + (size_t)px__view_size(b) * b->elem_size;
    return a0 < b1 && b0 < a1 && a1 > a0 && b1 > b0;
}

/* The default instance for memory of space s: the host team's backend for memory the CPU
   reaches, else the space's own backend on its device. */
static px_status default_instance(px_space s, px_instance **out)
{
    const px__space_ops *ops = px__space_ops_get(s.kind);
    if (ops->host_access) return px__instance_default(px__backend_host_team()->exec, 0, out);
    return px__instance_default(ops->owner, s.device, out);
}

px_status px__algo_begin(const px__algo_call *c, px_instance **inst, bool *wait)
{
    *wait = *inst == NULL;
    if (*inst)
        PX__TRY(px__instance_check(*inst));
    else
        PX__TRY(default_instance(c->views[0]->alloc->space, inst));
    const px_instance *in = *inst;
    PX__TRY(px__instance_refuse_capturing(in, c->what));
    for (int i = 0; i < c->nviews; ++i) {
        const px_view *v = c->views[i];
        if (v && !px__backend_writes(in->be, in->device, v->alloc->space))
            return px__error(PX_ERR_INVALID_ARGUMENT,
                             "%s '%s' lives in %s(%d), which instance '%s' (%s) cannot reach",
                             c->names[i], v->label, px_space_kind_string(v->alloc->space.kind),
                             v->alloc->space.device, in->label, in->be->name);
    }
    if (*wait) PX__TRY(px__fence_all());
    return PX_OK;
}

px_status px__algo_finish(px_instance *inst, bool wait)
{
    return wait ? inst->be->fence(inst->queue) : PX_OK;
}
