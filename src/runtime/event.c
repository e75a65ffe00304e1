/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Events: points in an instance's queue that other instances (or the host) can wait for. */
#include <stdlib.h>

#include "base/error.h"
#include "base/util.h"
#include "runtime/instance.h"

static px_status event_check(const px_event *ev, const char *what)
{
    if (!ev) return px__error(PX_ERR_INVALID_ARGUMENT, "%s is NULL (a destroyed event?)", what);
    if (ev->magic != PX__EVENT_MAGIC)
        return px__error(PX_ERR_INVALID_ARGUMENT, "%s is not a live event", what);
    return PX_OK;
}

/* The event and the instance must belong to one backend and one device. */
static px_status same_queue_family(const px_event *ev, const px_instance *inst)
{
    if (ev->exec != inst->exec || ev->device != inst->device)
        return px__error(PX_ERR_INVALID_ARGUMENT,
                         "the event belongs to %s:%d but instance '%s' to %s:%d",
                         px_exec_space_string(ev->exec), ev->device, inst->label,
                         px_exec_space_string(inst->exec), inst->device);
    return PX_OK;
}

px_status px_event_create(px_event **out, px_instance *inst, unsigned flags)
{
    PX__ENTER;
    PX__ARG(out, "out must not be NULL");
    *out = NULL;
    PX__TRY(px__instance_check(inst));
    PX__ARG((flags & ~(unsigned)PX_EVENT_TIMING) == 0, "flags 0x%x holds unknown bits", flags);
    px_event *ev = px__calloc(1, sizeof *ev);
    if (!ev) return PX__FAIL(PX_ERR_OUT_OF_MEMORY, "out of host memory");
    ev->magic = PX__EVENT_MAGIC;
    ev->be = inst->be;
    ev->exec = inst->exec;
    ev->device = inst->device;
    ev->flags = flags;
    px_status st = ev->be->event_create(ev->device, flags, &ev->impl);
    if (st != PX_OK) {
        free(ev);
        return st;
    }
    px__live_add(&ev->live, PX__OBJ_EVENT, "event");
    *out = ev;
    return PX_OK;
}

px_status px_event_destroy(px_event **ev)
{
    PX__ENTER;
    PX__ARG(ev, "ev must not be NULL (pass the address of your handle)");
    PX__TRY(event_check(*ev, "*ev"));
    px_event *e = *ev;
    *ev = NULL;
    e->be->event_destroy(e->impl);
    px__live_remove(&e->live);
    e->magic = 0;
    free(e);
    return PX_OK;
}

px_status px_event_record(px_event *ev, px_instance *inst)
{
    PX__ENTER;
    PX__TRY(event_check(ev, "ev"));
    PX__TRY(px__instance_check(inst));
    PX__TRY(same_queue_family(ev, inst));
    PX__TRY(px__instance_refuse_capturing(
        inst, "recording an event (order a graph's work with dependencies)"));
    PX__TRY(ev->be->event_record(ev->impl, inst->queue));
    ev->recorded = true;
    return PX_OK;
}

px_status px_instance_wait_event(px_instance *inst, px_event *ev)
{
    PX__ENTER;
    PX__TRY(px__instance_check(inst));
    PX__TRY(event_check(ev, "ev"));
    PX__TRY(px__instance_refuse_capturing(
        inst, "waiting for an event (order a graph's work with dependencies)"));
    if (ev->exec == inst->exec) return inst->be->event_wait(inst->queue, ev->impl);
    /* Across execution spaces the waiting side cannot enqueue a wait on the other's
       queue: wait on the host, which is correct if not asynchronous. */
    return ev->be->event_synchronize(ev->impl);
}

px_status px_event_query(px_event *ev, bool *done)
{
    PX__ENTER;
    PX__TRY(event_check(ev, "ev"));
    PX__ARG(done, "done must not be NULL");
    if (!ev->recorded) {
        *done = true;
        return PX_OK;
    }
    return ev->be->event_query(ev->impl, done);
}

px_status px_event_synchronize(px_event *ev)
{
    PX__ENTER;
    PX__TRY(event_check(ev, "ev"));
    if (!ev->recorded) return PX_OK;
    return ev->be->event_synchronize(ev->impl);
}

px_status px_event_elapsed_ms(px_event *start, px_event *end, float *ms)
{
    PX__ENTER;
    PX__TRY(event_check(start, "start"));
    PX__TRY(event_check(end, "end"));
    PX__ARG(ms, "ms must not be NULL");
    PX__ARG((start->flags & end->flags & PX_EVENT_TIMING) != 0, "both events need PX_EVENT_TIMING");
    PX__ARG(start->recorded && end->recorded, "both events must have been recorded");
    PX__ARG(start->exec == end->exec && start->device == end->device,
            "the events belong to different devices");
    return start->be->event_elapsed(start->impl, end->impl, ms);
}
