/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Instances: ordered queues of work, one backend each. */
#include "runtime/instance.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "backends/backends.h"
#include "base/error.h"
#include "base/limits.h"
#include "base/state.h"
#include "base/util.h"
#include "observability/profiling.h"

/* The default instance of every (execution space, device), made on first use. */
static pthread_mutex_t defaults_lock = PTHREAD_MUTEX_INITIALIZER;
static px_instance *defaults[PX_EXEC_COUNT][PX__MAX_DEVICES];

px_status px__instance_check(const px_instance *inst)
{
    if (!inst) return px__error(PX_ERR_INVALID_ARGUMENT, "inst is NULL (a destroyed instance?)");
    if (inst->magic != PX__INSTANCE_MAGIC)
        return px__error(PX_ERR_INVALID_ARGUMENT, "inst is not a live instance");
    return PX_OK;
}

static px_status check_exec_device(px_exec_space exec, int device, const px__backend **be)
{
    if ((int)exec < 0 || exec >= PX_EXEC_COUNT)
        return px__error(PX_ERR_INVALID_ARGUMENT, "exec is %d; expected a px_exec_space",
                         (int)exec);
    *be = px__backend_get(exec);
    if (!*be)
        return px__error(PX_ERR_UNSUPPORTED, "execution space %s is not compiled into this build",
                         px_exec_space_string(exec));
    int count = 0;
    PX__TRY((*be)->device_count(&count));
    if (device < 0 || device >= count || device >= PX__MAX_DEVICES)
        return px__error(PX_ERR_NO_DEVICE, "device %d of %s does not exist (%d device(s) here)",
                         device, px_exec_space_string(exec), count);
    return PX_OK;
}

px_status px__instance_alloc(px_instance **out, const px__backend *be, int device, int priority,
                             const char *label, bool is_default)
{
    char name[64];
    if (!label) {
        snprintf(name, sizeof name, "%s:%d%s", px_exec_space_string(be->exec), device,
                 is_default ? ":default" : "");
        label = name;
    }
    char *lab = NULL;
    px_instance *inst = px__calloc_labelled(sizeof *inst, label, &lab);
    if (!inst) return px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory for the instance");
    inst->magic = PX__INSTANCE_MAGIC;
    inst->be = be;
    inst->exec = be->exec;
    inst->device = device;
    inst->priority = priority;
    inst->is_default = is_default;
    inst->label = lab;
    static atomic_uint numbers;
    inst->number = atomic_fetch_add_explicit(&numbers, 1, memory_order_relaxed) + 1;
    *out = inst;
    return PX_OK;
}

px__queue_desc px__instance_queue_desc(const px_instance *inst)
{
    return (px__queue_desc){.device = inst->device,
                            .priority = inst->priority,
                            .label = inst->label,
                            .tools_name = (px__prof_mask & PX__PROF_NVTX) != 0};
}

void px__instance_register(px_instance *inst)
{
    if (!inst->is_default) px__live_add(&inst->live, PX__OBJ_INSTANCE, inst->label);
}

void px__instance_free(px_instance *inst)
{
    px__live_remove(&inst->live);
    inst->magic = 0;
    free(inst->label);
    free(inst);
}

/* A handle with its queue (created, or wrapping `native`), registered. */
static px_status instance_new(px_instance **out, const px__backend *be, int device, int priority,
                              const char *label, void *native, bool is_default)
{
    px_instance *inst = NULL;
    PX__TRY(px__instance_alloc(&inst, be, device, priority, label, is_default));
    const px__queue_desc desc = px__instance_queue_desc(inst);
    px_status st;
    if (native)
        st = be->queue_wrap
                 ? be->queue_wrap(&desc, native, &inst->queue)
                 : px__error(PX_ERR_UNSUPPORTED, "%s cannot wrap a native queue", be->name);
    else
        st = be->queue_create(&desc, &inst->queue);
    if (st != PX_OK) {
        px__instance_free(inst);
        return st;
    }
    inst->external = native != NULL;
    px__instance_register(inst);
    *out = inst;
    return PX_OK;
}

px_status px__instance_default(px_exec_space exec, int device, px_instance **out)
{
    *out = NULL;
    PX__TRY(px__require_init());
    const px__backend *be = NULL;
    PX__TRY(check_exec_device(exec, device, &be));
    px_status st = PX_OK;
    pthread_mutex_lock(&defaults_lock);
    if (!defaults[exec][device])
        st = instance_new(&defaults[exec][device], be, device, 0, NULL, NULL, true);
    *out = defaults[exec][device];
    pthread_mutex_unlock(&defaults_lock);
    return st;
}

px_status px_instance_default(px_exec_space exec, int device, px_instance **out)
{
    PX__ENTER;
    PX__ARG(out, "out must not be NULL");
    return px__instance_default(exec, device, out);
}

px_status px_instance_create(px_instance **out, const px_instance_desc *desc)
{
    PX__ENTER;
    PX__ARG(out, "out must not be NULL");
    *out = NULL;
    PX__ARG(desc, "desc must not be NULL");
    PX__TRY(px__require_init());
    const px__backend *be = NULL;
    PX__TRY(check_exec_device(desc->exec, desc->device, &be));
    return instance_new(out, be, desc->device, desc->priority, desc->label, NULL, false);
}

px_status px__instance_wrap(px_instance **out, px_exec_space exec, int device, void *native,
                            const char *label)
{
    *out = NULL;
    PX__TRY(px__require_init());
    const px__backend *be = NULL;
    PX__TRY(check_exec_device(exec, device, &be));
    return instance_new(out, be, device, 0, label, native, false);
}

px_status px__instance_refuse_capturing(const px_instance *inst, const char *what)
{
    if (inst->capture == NULL) return PX_OK;
    return px__error(PX_ERR_CAPTURING,
                     "%s is not allowed while instance '%s' is being captured into a graph "
                     "(px_graph_capture_end first); the capture goes on",
                     what, inst->label);
}

px_status px__instance_create(px_instance **out, px_exec_space exec, int device, const char *label)
{
    *out = NULL;
    const px__backend *be = NULL;
    PX__TRY(check_exec_device(exec, device, &be));
    return instance_new(out, be, device, 0, label, NULL, false);
}

px_status px__instance_destroy(px_instance *inst, bool *released)
{
    *released = false;
    PX__TRY(px__instance_refuse_capturing(inst, "destroying the instance"));
    const px_status st = inst->be->queue_destroy(inst->queue, released);
    /* Refused: the instance still works. Released: the handle goes too, with the error
       the wait met, if any. */
    if (*released) px__instance_free(inst);
    return st;
}

px_status px_instance_destroy(px_instance **inst)
{
    PX__ENTER;
    PX__ARG(inst, "inst must not be NULL (pass the address of your handle)");
    PX__TRY(px__instance_check(*inst));
    px_instance *p = *inst;
    PX__ARG(!p->is_default, "'%s' is a default instance: it belongs to portex", p->label);
    if (p->lent)
        return PX__FAIL(PX_ERR_CAPTURING,
                        "instance '%s' is the one px_graph_add_captured lends its callback: portex "
                        "ends its capture "
                        "and destroys it when the callback returns",
                        p->label);
    bool released = false;
    const px_status st = px__instance_destroy(p, &released);
    if (released) *inst = NULL;
    return st;
}

px_status px__fence_all_quiet(void)
{
    PX__TRY(px__require_init());
    px_status first = PX_OK;
    for (int e = 0; e < PX_EXEC_COUNT; ++e) {
        const px__backend *be = px__backend_get((px_exec_space)e);
        if (!be || !be->fence_all) continue;
        const px_status st = be->fence_all();
        if (first == PX_OK) first = st;
    }
    return first;
}

px_status px_instance_exec_space(const px_instance *inst, px_exec_space *out)
{
    PX__ENTER;
    PX__TRY(px__instance_check(inst));
    PX__ARG(out, "out must not be NULL");
    *out = inst->exec;
    return PX_OK;
}

px_status px_instance_device(const px_instance *inst, int *out)
{
    PX__ENTER;
    PX__TRY(px__instance_check(inst));
    PX__ARG(out, "out must not be NULL");
    *out = inst->device;
    return PX_OK;
}

px_status px_instance_space(const px_instance *inst, px_space *out)
{
    PX__ENTER;
    PX__TRY(px__instance_check(inst));
    PX__ARG(out, "out must not be NULL");
    /* Kernels of a backend that runs on the host reach host memory; a GPU's reach its own
       device's memory. */
    *out = inst->be->runs_on_host ? px_host() : px_device(inst->device);
    return PX_OK;
}

px_status px_instance_label(const px_instance *inst, const char **out)
{
    PX__ENTER;
    PX__TRY(px__instance_check(inst));
    PX__ARG(out, "out must not be NULL");
    *out = inst->label;
    return PX_OK;
}

px_status px__instances_finalize(bool *all_released)
{
    px_instance *taken[PX_EXEC_COUNT][PX__MAX_DEVICES];
    /* Taken out under the lock, destroyed outside it: no lock is held while a queue drains. */
    pthread_mutex_lock(&defaults_lock);
    for (int e = 0; e < PX_EXEC_COUNT; ++e)
        for (int d = 0; d < PX__MAX_DEVICES; ++d) {
            taken[e][d] = defaults[e][d];
            defaults[e][d] = NULL;
        }
    pthread_mutex_unlock(&defaults_lock);
    px_status first = PX_OK;
    *all_released = true;
    for (int e = 0; e < PX_EXEC_COUNT; ++e)
        for (int d = 0; d < PX__MAX_DEVICES; ++d) {
            px_instance *inst = taken[e][d];
            if (!inst) continue;
            bool released = false;
            const px_status st = px__instance_destroy(inst, &released);
            if (st != PX_OK && first == PX_OK) first = st;
            if (released) continue;
            /* Refused (its queue is being captured): it stays the default. */
            *all_released = false;
            pthread_mutex_lock(&defaults_lock);
            defaults[e][d] = inst;
            pthread_mutex_unlock(&defaults_lock);
        }
    return first;
}
