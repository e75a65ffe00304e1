/* Instances: ordered queues of work, one backend each. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/internal.h"
#include "core/lifetime.h"

/* The default instance of every (execution space, device), made on first use. */
static pthread_mutex_t defaults_lock = PTHREAD_MUTEX_INITIALIZER;
static px_instance *defaults[PX_EXEC_COUNT][PX__MAX_DEVICES];

px_status px__instance_check(const px_instance *inst, const char *func)
{
    if (!inst) return px__error(PX_ERR_INVALID_ARGUMENT, func, "inst is NULL (a destroyed instance?)");
    if (inst->magic != PX__INSTANCE_MAGIC)
        return px__error(PX_ERR_INVALID_ARGUMENT, func, "inst is not a live instance");
    return PX_OK;
}

static px_status check_exec_device(px_exec_space exec, int device, const px__backend **be,
                                   const char *func)
{
    if ((int)exec < 0 || exec >= PX_EXEC_COUNT)
        return px__error(PX_ERR_INVALID_ARGUMENT, func, "exec is %d; expected a px_exec_space",
                         (int)exec);
    *be = px__backend_get(exec);
    if (!*be)
        return px__error(PX_ERR_UNSUPPORTED, func,
                         "execution space %s is not compiled into this build",
                         px_exec_space_string(exec));
    int count = 0;
    px_status st = (*be)->device_count(&count);
    if (st != PX_OK) return st;
    if (device < 0 || device >= count || device >= PX__MAX_DEVICES)
        return px__error(PX_ERR_NO_DEVICE, func,
                         "device %d of %s does not exist (%d device(s) here)", device,
                         px_exec_space_string(exec), count);
    return PX_OK;
}

/* Allocates the handle and runs the backend's create or wrap hook. */
static px_status instance_new(px_instance **out, const px__backend *be, px_exec_space exec,
                              int device, int priority, const char *label, void *native,
                              bool is_default, const char *func)
{
    px_instance *inst = calloc(1, sizeof *inst);
    char name[64];
    if (!label) {
        snprintf(name, sizeof name, "%s:%d%s", px_exec_space_string(exec), device,
                 is_default ? ":default" : "");
        label = name;
    }
    char *lab = px__strdup(label);
    if (!inst || !lab) {
        free(inst);
        free(lab);
        return px__error(PX_ERR_OUT_OF_MEMORY, func, "out of host memory");
    }
    inst->magic = PX__INSTANCE_MAGIC;
    inst->be = be;
    inst->exec = exec;
    inst->device = device;
    inst->priority = priority;
    inst->is_default = is_default;
    inst->external = native != NULL;
    inst->label = lab;
    px_status st;
    if (native)
        st = be->instance_wrap ? be->instance_wrap(inst, native)
                               : px__error(PX_ERR_UNSUPPORTED, func, "%s cannot wrap a native queue",
                                           be->name);
    else
        st = be->instance_create(inst);
    if (st != PX_OK) {
        free(lab);
        free(inst);
        return st;
    }
    if (!is_default) px__live_add(&inst->live, PX__OBJ_INSTANCE, inst->label);
    *out = inst;
    return PX_OK;
}

static void instance_free(px_instance *inst)
{
    if (!inst->is_default) px__live_remove(&inst->live);
    inst->magic = 0;
    free(inst->label);
    free(inst);
}

px_status px_instance_default(px_exec_space exec, int device, px_instance **out)
{
    PX__ARG(out, "out must not be NULL");
    *out = NULL;
    PX__TRY(px__require_init(__func__));
    const px__backend *be;
    PX__TRY(check_exec_device(exec, device, &be, __func__));
    px_status st = PX_OK;
    pthread_mutex_lock(&defaults_lock);
    if (!defaults[exec][device])
        st = instance_new(&defaults[exec][device], be, exec, device, 0, NULL, NULL, true, __func__);
    *out = defaults[exec][device];
    pthread_mutex_unlock(&defaults_lock);
    return st;
}

px_status px_instance_create(px_instance **out, const px_instance_desc *desc)
{
    PX__ARG(out, "out must not be NULL");
    *out = NULL;
    PX__ARG(desc, "desc must not be NULL");
    PX__TRY(px__require_init(__func__));
    const px__backend *be;
    PX__TRY(check_exec_device(desc->exec, desc->device, &be, __func__));
    return instance_new(out, be, desc->exec, desc->device, desc->priority, desc->label, NULL, false,
                        __func__);
}

px_status px__instance_wrap(px_instance **out, px_exec_space exec, int device, void *native,
                            const char *label, const char *func)
{
    if (!out) return px__error(PX_ERR_INVALID_ARGUMENT, func, "out must not be NULL");
    *out = NULL;
    PX__TRY(px__require_init(func));
    const px__backend *be;
    PX__TRY(check_exec_device(exec, device, &be, func));
    return instance_new(out, be, exec, device, 0, label, native, false, func);
}

px_status px_instance_destroy(px_instance **inst)
{
    PX__ARG(inst, "inst must not be NULL (pass the address of your handle)");
    PX__TRY(px__instance_check(*inst, __func__));
    px_instance *p = *inst;
    PX__ARG(!p->is_default, "'%s' is a default instance: it belongs to portex", p->label);
    px_status st = p->be->instance_destroy(p);
    if (st != PX_OK) return st;
    *inst = NULL;
    instance_free(p);
    return PX_OK;
}

px_status px_instance_fence(px_instance *inst)
{
    PX__TRY(px__instance_check(inst, __func__));
    return inst->be->fence(inst);
}

px_status px_fence_all(void)
{
    PX__TRY(px__require_init(__func__));
    for (int e = 0; e < PX_EXEC_COUNT; ++e) {
        const px__backend *be = px__backend_get((px_exec_space)e);
        if (be && be->fence_all) PX__TRY(be->fence_all());
    }
    return PX_OK;
}

px_status px_instance_exec_space(const px_instance *inst, px_exec_space *out)
{
    PX__TRY(px__instance_check(inst, __func__));
    PX__ARG(out, "out must not be NULL");
    *out = inst->exec;
    return PX_OK;
}

px_status px_instance_device(const px_instance *inst, int *out)
{
    PX__TRY(px__instance_check(inst, __func__));
    PX__ARG(out, "out must not be NULL");
    *out = inst->device;
    return PX_OK;
}

px_status px_instance_label(const px_instance *inst, const char **out)
{
    PX__TRY(px__instance_check(inst, __func__));
    PX__ARG(out, "out must not be NULL");
    *out = inst->label;
    return PX_OK;
}

px_status px__instance_for_space(px_space space, px_instance **out)
{
    if (space.kind == PX_SPACE_DEVICE) return px_instance_default(PX_EXEC_CUDA, space.device, out);
    return px_instance_default(PX_EXEC_SERIAL, 0, out);
}

px_status px__instances_finalize(void)
{
    px_status first = PX_OK;
    pthread_mutex_lock(&defaults_lock);
    for (int e = 0; e < PX_EXEC_COUNT; ++e)
        for (int d = 0; d < PX__MAX_DEVICES; ++d) {
            px_instance *inst = defaults[e][d];
            if (!inst) continue;
            px_status st = inst->be->instance_destroy(inst);
            if (st != PX_OK && first == PX_OK) first = st;
            instance_free(inst);
            defaults[e][d] = NULL;
        }
    pthread_mutex_unlock(&defaults_lock);
    return first;
}
