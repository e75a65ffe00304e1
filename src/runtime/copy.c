/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* deep_copy and fill, the public entry points: the spaces layer plans the op (checks the
 * views, chooses the path, asking the backend that owns device memory), and the
 * instance's backend runs it. Copies whose two sides share memory go through a
 * temporary: no path promises an element order. */
#include <string.h>

#include "backends/backends.h"
#include "base/error.h"
#include "observability/profile.h"
#include "px_config.h"
#include "runtime/capture.h"
#include "runtime/copy_path.h"
#include "runtime/instance.h"
#include "spaces/copy_plan.h"
#include "spaces/view.h"
#if PX_HAVE_CUDA
#include "backends/cuda/api.h"
#endif

/* The side of op a backend of its own must move (the one the CPU cannot reach). */
static const px__copy_side *device_side(const px__copy_op *op, bool fill)
{
    return fill || !px__space_ops_get(op->dst.space.kind)->host_access ? &op->dst : &op->src;
}

/* inst's backend can run op. */
static px_status run_op_check(const px_instance *inst, const px__copy_op *op,
                              const px__copy_plan_info *info, bool fill)
{
    if (info->owner != PX_EXEC_COUNT && inst->exec != info->owner) {
        const px__copy_side *side = device_side(op, fill);
        return px__error(PX_ERR_INVALID_ARGUMENT,
                         "the %s involves %s(%d) memory, which instance '%s' (%s) cannot reach; "
                         "use a %s instance",
                         fill ? "fill" : "copy", px_space_kind_string(side->space.kind),
                         side->space.device, inst->label, px_exec_space_string(inst->exec),
                         px_exec_space_string(info->owner));
    }
    return PX_OK;
}

static px_status run_op(px_instance *inst, px__copy_op *op, const px__copy_plan_info *info,
                        bool fill)
{
    if (op->path == PX_COPY_NONE) return PX_OK;
    PX__TRY(run_op_check(inst, op, info, fill));
    return fill ? inst->be->fill(inst->queue, op) : inst->be->copy(inst->queue, op);
}

/* Runs a planned copy or fill (src NULL) on inst, or records it when inst is being
   captured by a host backend (a native capture records it itself; the graph notes it and
   holds the memory). Releases the op; the path taken in *path. */
static px_status run_or_record(px_instance *inst, px__copy_op *op, const px__copy_plan_info *info,
                               px_view *dst, const px_view *src, px_copy_path *path)
{
    const bool fill = src == NULL;
    px_status st;
    if (op->path != PX_COPY_NONE && px__capture_records(inst)) {
        st = run_op_check(inst, op, info, fill);
        if (st == PX_OK) st = px__capture_copy(inst, op, dst, src);
    } else {
        st = run_op(inst, op, info, fill);
        if (st == PX_OK && op->path != PX_COPY_NONE && px__capture_active(inst)) {
            char label[96];
            snprintf(label, sizeof label, "%s %s", fill ? "fill" : "copy",
                     px_copy_path_string(op->path));
            const px__gnode_desc note = {
                .kind = fill ? PX__GNODE_FILL : PX__GNODE_COPY, .label = label, .op = *op};
            st = px__capture_note(inst, &note, dst, src);
        }
    }
    px__copy_op_release(op);
    if (st == PX_OK) *path = op->path; /* a backend that fell back says so */
    return st;
}

/* Runs a planned copy (and releases the op); the path taken in *path. */
static px_status run_copy(px_instance *inst, px__copy_op *op, const px__copy_plan_info *info,
                          px_view *dst, const px_view *src, px_copy_path *path)
{
    if (!info->overlap) return run_or_record(inst, op, info, dst, src, path);
    /* src into a contiguous temporary in dst's space, then into dst; both on inst, so in
       order. Releasing the temporary is ordered after the queued copies by its space. The
       copy reports the path planned for it, as px_deep_copy_query does. */
    const px_copy_path planned = op->path;
    px__copy_op_release(op);
    px_view_desc desc = {
        .label = "portex overlap temporary",
        .space = dst->alloc->space,
        .dtype = src->dtype,
        .elem_size = src->dtype == PX_USER ? src->elem_size : 0,
        .rank = src->rank,
        .flags = PX_VIEW_NO_INIT,
    };
    memcpy(desc.extent, src->extent, sizeof desc.extent);
    px_view *tmp = NULL;
    PX__TRY(px__view_create(&tmp, &desc));
    px__copy_plan_info tinfo;
    px_copy_path step = PX_COPY_NONE;
    px_status st = px__copy_plan(op, &tinfo, tmp, src);
    if (st == PX_OK) st = run_copy(inst, op, &tinfo, tmp, src, &step);
    if (st == PX_OK) st = px__copy_plan(op, &tinfo, dst, tmp);
    if (st == PX_OK) st = run_copy(inst, op, &tinfo, dst, tmp, &step);
    px__view_release(tmp);
    if (st == PX_OK) *path = planned;
    return st;
}

/* A view's side of a copy or fill, as the observers see it. */
static px__prof_side observed_side(const px_view *v)
{
    return (px__prof_side){.label = v->label, .data = v->data, .space = v->alloc->space};
}

/* A copy (run_copy) or a fill (src NULL, value its value), told to the observers. */
static px_status run_observed(px_instance *inst, px__copy_op *op, const px__copy_plan_info *info,
                              px_view *dst, const px_view *src, const void *value,
                              px_copy_path *path)
{
    const bool fill = src == NULL;
    if (!px__prof_on())
        return fill ? run_or_record(inst, op, info, dst, NULL, path)
                    : run_copy(inst, op, info, dst, src, path);
    const px_copy_path planned = op->path;
    const px__observed on = px__instance_observed(inst);
    const px__prof_side dst_side = observed_side(dst);
    const px__prof_side src_side = src ? observed_side(src) : (px__prof_side){0};
    px__prof p;
    px__prof_copy_begin(&p, &on, &dst_side, src ? &src_side : NULL, value,
                        (uint64_t)px__view_size(dst) * dst->elem_size, planned);
    px_status st = fill ? run_or_record(inst, op, info, dst, NULL, path)
                        : run_copy(inst, op, info, dst, src, path);
    const px_status end = px__prof_copy_end(&p, &on, st == PX_OK ? *path : planned);
    return st == PX_OK ? end : st;
}

/* The ordered forms: op issued on inst (run_observed), counted, its path told. */
static px_status run_async(px_instance *inst, px__copy_op *op, const px__copy_plan_info *info,
                           px_view *dst, const px_view *src, const void *value, px_copy_path *path)
{
    px_copy_path p = PX_COPY_NONE;
    PX__TRY(run_observed(inst, op, info, dst, src, value, &p));
    px__copy_count(p);
    if (path) *path = p;
    return PX_OK;
}

px_status px_deep_copy_async(px_instance *inst, px_view *dst, const px_view *src,
                             px_copy_path *path)
{
    PX__ENTER;
    PX__TRY(px__instance_check(inst));
    px__copy_op op;
    px__copy_plan_info info;
    PX__TRY(px__copy_plan(&op, &info, dst, src));
    return run_async(inst, &op, &info, dst, src, NULL, path);
}

px_status px_deep_copy_query(const px_view *dst, const px_view *src, px_copy_path *path)
{
    PX__ENTER;
    PX__ARG(path, "path must not be NULL");
    px__copy_op op;
    px__copy_plan_info info;
    PX__TRY(px__copy_plan(&op, &info, (px_view *)dst, src));
    *path = op.path;
    px__copy_op_release(&op);
    return PX_OK;
}

/* The instance a blocking copy or fill runs on: the default instance of the backend that
   owns the device side, on that side's device (dst's when both are), else that of the
   backend whose threads run host work (large host copies on every core:
   px__backend_host_team). */
static px_status blocking_instance(const px__copy_op *op, const px__copy_plan_info *info, bool fill,
                                   px_instance **out)
{
    if (info->owner == PX_EXEC_COUNT)
        return px__instance_default(px__backend_host_team()->exec, 0, out);
    return px__instance_default(info->owner, device_side(op, fill)->space.device, out);
}


/* The blocking forms: after all work issued so far on any instance (Kokkos semantics), on
   the default instance of the memory's backend, finished when it returns. A fill when src
   is NULL. Releases the op. */
static px_status run_blocking(px__copy_op *op, const px__copy_plan_info *info, px_view *dst,
                              const px_view *src, const void *value, px_copy_path *path)
{
    const bool fill = src == NULL;
    px_instance *inst = NULL;
    px_status st = blocking_instance(op, info, fill, &inst);
    if (st == PX_OK)
        st = px__instance_refuse_capturing(inst,
                                           fill ? "px_fill (a wait)" : "px_deep_copy (a wait)");
    if (st == PX_OK) st = px__fence_all();
    if (st != PX_OK) {
        px__copy_op_release(op);
        return st;
    }
    px_copy_path p = PX_COPY_NONE;
    PX__TRY(run_observed(inst, op, info, dst, src, value, &p));
    PX__TRY(inst->be->fence(inst->queue));
    px__copy_count(p);
    if (path) *path = p;
    return PX_OK;
}

px_status px_deep_copy(px_view *dst, const px_view *src, px_copy_path *path)
{
    PX__ENTER;
    px__copy_op op;
    px__copy_plan_info info;
    PX__TRY(px__copy_plan(&op, &info, dst, src));
    return run_blocking(&op, &info, dst, src, NULL, path);
}

/* ---- Fill --------------------------------------------------------------------------------- */

px_status px_fill_async(px_instance *inst, px_view *dst, const void *value, px_copy_path *path)
{
    PX__ENTER;
    PX__TRY(px__instance_check(inst));
    px__copy_op op;
    px__copy_plan_info info;
    PX__TRY(px__fill_plan(&op, &info, dst, value));
    return run_async(inst, &op, &info, dst, NULL, value, path);
}

px_status px_fill(px_view *dst, const void *value, px_copy_path *path)
{
    PX__ENTER;
    px__copy_op op;
    px__copy_plan_info info;
    PX__TRY(px__fill_plan(&op, &info, dst, value));
    return run_blocking(&op, &info, dst, NULL, value, path);
}

/* ---- The staging pool's configuration (CUDA_STAGED) ------------------------------------- */

px_status px_staging_get(px_staging_config *out)
{
    PX__ENTER;
    PX__ARG(out, "out must not be NULL");
#if PX_HAVE_CUDA
    return px__cuda_staging_get(out);
#else
    return PX__FAIL(PX_ERR_UNSUPPORTED,
                    "staging needs the CUDA backend, which is not compiled into this build");
#endif
}

px_status px_staging_set(const px_staging_config *config)
{
    PX__ENTER;
    PX__ARG(config, "config must not be NULL");
    PX__ARG(config->chunk_bytes == 0 || config->chunk_bytes >= ((size_t)64 << 10),
            "config->chunk_bytes is %zu; expected 0 (keep) or at least 64 KiB",
            config->chunk_bytes);
    PX__ARG(config->buffers == 0 || config->buffers >= 2,
            "config->buffers is %d; expected 0 (keep) or at least 2", config->buffers);
    PX__ARG(config->threads >= 0 && config->threads <= 64,
            "config->threads is %d; expected 0 (keep) to 64", config->threads);
#if PX_HAVE_CUDA
    return px__cuda_staging_set(config);
#else
    return PX__FAIL(PX_ERR_UNSUPPORTED,
                    "staging needs the CUDA backend, which is not compiled into this build");
#endif
}
