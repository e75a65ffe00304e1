/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernel dispatch: the core validates everything once, then hands the backend a
 * px__dispatch it can trust. */
#include <stdio.h>

#include "runtime/dispatch.h"

#include "backends/backends.h"
#include "base/bounds.h"
#include "base/error.h"
#include "base/util.h"
#include "observability/profile.h"
#include "runtime/capture.h"
#include "runtime/instance.h"
#include "runtime/team_rows.h"
#include "spaces/view.h"

static const char *kind_name(px_kernel_kind kind)
{
    switch (kind) {
    case PX_KERNEL_FOR: return "PX_FOR";
    case PX_KERNEL_REDUCE: return "PX_REDUCE";
    case PX_KERNEL_SCAN: return "PX_SCAN";
    }
    return "unknown";
}

/* ---- Bounds checking of PX_AT* on the host (PX_BOUNDS_CHECK builds of kernel files) --- */

px_status px__take_bounds_violation(const char *label)
{
    char msg[PX__BOUNDS_MSG];
    if (!px__bounds_take(msg)) return PX_OK;
    return px__error(PX_ERR_INVALID_ARGUMENT, "kernel '%s': %s", label, msg);
}

/* ---- Validation ------------------------------------------------------------------------ */

static px_status check_policy(const px_policy *p, const px_kernel *k)
{
    if (p->rank < 1 || p->rank > PX_POLICY_MAX_RANK)
        return px__error(PX_ERR_INVALID_ARGUMENT, "policy.rank is %d; expected 1 to %d", p->rank,
                         PX_POLICY_MAX_RANK);
    if (p->rank != k->rank)
        return px__error(PX_ERR_INVALID_ARGUMENT, "kernel '%s' is %d-D but the policy has rank %d",
                         k->name, k->rank, p->rank);
    if (p->iterate != PX_ITERATE_RIGHT && p->iterate != PX_ITERATE_LEFT)
        return px__error(PX_ERR_INVALID_ARGUMENT, "policy.iterate is %d; expected a px_iterate",
                         p->iterate);
    for (int d = 0; d < p->rank; ++d) {
        if (p->begin[d] > p->end[d])
            return px__error(
                PX_ERR_INVALID_ARGUMENT,
                "policy dimension %d runs from %lld to %lld; begin must not exceed end", d,
                (long long)p->begin[d], (long long)p->end[d]);
        /* Loops walk offsets from begin: the extent must be an int64_t too. */
        if (p->begin[d] < 0 && p->end[d] > INT64_MAX + p->begin[d])
            return px__error(PX_ERR_INVALID_ARGUMENT,
                             "policy dimension %d runs from %lld to %lld; its extent (end - begin) "
                             "exceeds INT64_MAX",
                             d, (long long)p->begin[d], (long long)p->end[d]);
        if (p->tile[d] < 0)
            return px__error(PX_ERR_INVALID_ARGUMENT, "policy.tile[%d] is %lld; expected >= 0", d,
                             (long long)p->tile[d]);
    }
    /* From 4 dimensions on, a GPU walks the slower ones as one flattened index. */
    int64_t count = 1;
    for (int d = 0; d < p->rank && p->rank > 3; ++d)
        if (__builtin_mul_overflow(count, p->end[d] - p->begin[d], &count))
            return px__error(PX_ERR_INVALID_ARGUMENT,
                             "the policy's %d dimensions hold more than INT64_MAX indices",
                             p->rank);
    return PX_OK;
}

/* A descriptor made by PX_KERNEL of this header's layout. */
static px_status check_descriptor(const px_kernel *kernel)
{
    if (!kernel) return px__error(PX_ERR_INVALID_ARGUMENT, "kernel must not be NULL");
    if (kernel->magic == PX__KERNEL_MAGIC_V1 || kernel->magic == PX__KERNEL_MAGIC_V2 ||
        kernel->magic == PX__KERNEL_MAGIC_V3 || kernel->magic == PX__KERNEL_MAGIC_V4 ||
        kernel->magic == PX__KERNEL_MAGIC_V5)
        return px__error(
            PX_ERR_INVALID_ARGUMENT,
            "kernel '%s' was compiled against an older portex/kernel.h; recompile its kernel file",
            kernel->name);
    if (kernel->magic != PX_KERNEL_MAGIC)
        return px__error(PX_ERR_INVALID_ARGUMENT,
                         "kernel is not a portex kernel descriptor (use PX_KERNEL(name))");
    if (kernel->entry_count < 0 || (kernel->entry_count > 0 && !kernel->entries))
        return px__error(PX_ERR_INVALID_ARGUMENT,
                         "kernel '%s' has a damaged table of entries (%d rows at %p)", kernel->name,
                         (int)kernel->entry_count, (const void *)kernel->entries);
    return PX_OK;
}

static px_status check_args(const px_kernel *kernel, const void *args)
{
    if (!args && kernel->args_size)
        return px__error(PX_ERR_INVALID_ARGUMENT, "args must not be NULL (kernel '%s')",
                         kernel->name);
    return PX_OK;
}

static px_status not_compiled(const px_kernel *kernel, const px__backend *be, px__target target)
{
    return px__error(
        PX_ERR_NOT_COMPILED,
        "kernel '%s' was not compiled for %s (%s '%s'): compile its file for that backend "
        "(docs/kernels.md)",
        kernel->name, px_exec_space_string(be->exec), target.kind, target.name);
}

/* A dispatch of kernel's entry with nothing else set: the policy and result are the
   caller's to fill in. Field by field rather than a memset of the whole (a few hundred
   bytes, most of them the policy, which the caller writes next): on a small dispatch the
   memset showed. */
static void start(px__dispatch *d, const px_kernel *kernel, px__entry_fn entry, const char *label,
                  const void *args)
{
    d->kernel = kernel;
    d->entry = entry;
    d->label = label ? label : kernel->name;
    d->team = (px_team_policy){0};
    d->team_rows = NULL;
    d->args = args;
    d->result_kind = PX__RESULT_NONE;
    d->result = NULL;
    d->result_space = (px_space){0};
}

/* px__dispatch_prepare with the policy read where it is, not copied on the way. */
static px_status prepare_range(px__dispatch *d, const px__backend *be, px__target target,
                               const char *label, const px_policy *policy, const px_kernel *kernel,
                               const void *args, px_kernel_kind want)
{
    PX__TRY(check_descriptor(kernel));
    if (kernel->kind != want)
        return px__error(PX_ERR_INVALID_ARGUMENT,
                         "kernel '%s' is a %s kernel; %s needs a %s kernel", kernel->name,
                         kind_name(kernel->kind), px__caller(), kind_name(want));
    if (kernel->team) {
        const bool red = kernel->kind == PX_KERNEL_REDUCE;
        return px__error(
            PX_ERR_INVALID_ARGUMENT,
            "kernel '%s' is a team kernel (%s); it runs over a px_team_policy (%s, %s)",
            kernel->name, red ? "PX_TEAM_REDUCE" : "PX_TEAM_FOR",
            red ? "px_parallel_reduce_team" : "px_parallel_for_team",
            red ? "px_graph_add_reduce_team" : "px_graph_add_for_team");
    }
    PX__TRY(check_args(kernel, args));
    PX__TRY(check_policy(policy, kernel));
    const px__entry_fn entry = px__kernel_entry_of(kernel, be->target, PX__ENTRY_RANGE);
    if (!entry) return not_compiled(kernel, be, target);
    start(d, kernel, entry, label, args);
    d->policy = *policy;
    return PX_OK;
}

px_status px__dispatch_prepare(px__dispatch *d, const px__backend *be, px__target target,
                               const char *label, px_policy policy, const px_kernel *kernel,
                               const void *args, px_kernel_kind want)
{
    return prepare_range(d, be, target, label, &policy, kernel, args, want);
}

/* ---- Team policies -------------------------------------------------------------------------- */

px_status px__team_scratch_limit(const px__backend *be, int device, int level, size_t *bytes)
{
    if (be->team_scratch_max) return be->team_scratch_max(device, level, bytes);
    *bytes = level == 0 ? PX_TEAM_SCRATCH0_HOST_MAX : PX_TEAM_SCRATCH1_MAX;
    return PX_OK;
}

/* The policy's shape, and each level's scratch against the backend's limit: with the
   requested team size on CUDA (1 when automatic: the launch picks a size that fits), with
   the one thread that runs a team on the host backends. */
static px_status check_team_policy(px_team_policy *p, const px_kernel *k, const px__backend *be,
                                   int device)
{
    if (p->bad_level < 0)
        return px__error(PX_ERR_INVALID_ARGUMENT,
                         "kernel '%s': px_teams_rows was given NULL rows (px_team_rows_create "
                         "makes them)",
                         k->name);
    if (p->bad_level)
        return px__error(
            PX_ERR_INVALID_ARGUMENT,
            "kernel '%s': px_team_policy_scratch was given level %d; levels are 0 and 1", k->name,
            p->bad_level > 1000 ? -1 : p->bad_level - 1);
    if (p->league_size < 0)
        return px__error(PX_ERR_INVALID_ARGUMENT, "kernel '%s': league_size is %lld; expected >= 0",
                         k->name, (long long)p->league_size);
    if (p->team_size < 0 || p->team_size > PX_TEAM_MAX_THREADS)
        return px__error(PX_ERR_INVALID_ARGUMENT,
                         "kernel '%s': team_size is %d; expected PX_AUTO (0) or 1 to %d", k->name,
                         (int)p->team_size, PX_TEAM_MAX_THREADS);
    const int32_t v = p->vector_length;
    if (v < 0 || v > PX_TEAM_MAX_VECTOR || (v & (v - 1)) != 0)
        return px__error(
            PX_ERR_INVALID_ARGUMENT,
            "kernel '%s': vector_length is %d; expected PX_AUTO (0) or a power of two up to %d",
            k->name, (int)v, PX_TEAM_MAX_VECTOR);
    const int64_t threads = (int64_t)(p->team_size ? p->team_size : 1) * (v ? v : 1);
    if (threads > PX_TEAM_MAX_THREADS)
        return px__error(
            PX_ERR_INVALID_ARGUMENT,
            "kernel '%s': a team of %d threads of %d lanes is %lld threads; at most %d", k->name,
            (int)p->team_size, (int)v, (long long)threads, PX_TEAM_MAX_THREADS);
    const size_t members = be->runs_on_host ? 1 : (size_t)(p->team_size ? p->team_size : 1);
    for (int level = 0; level < 2; ++level) {
        const size_t team = p->scratch_team[level], thread = p->scratch_thread[level];
        size_t need = 0, part = 0;
        bool overflow = team > SIZE_MAX - 15 || thread > SIZE_MAX - 15;
        if (!overflow) {
            overflow = px__mul_overflows(PX__TEAM_ROUND16(thread), members, &part) ||
                       PX__TEAM_ROUND16(team) > SIZE_MAX - part;
            need = overflow ? 0 : PX__TEAM_ROUND16(team) + part;
        }
        if (!overflow && need == 0) continue; /* no limit to ask for */
        size_t limit = 0;
        PX__TRY(px__team_scratch_limit(be, device, level, &limit));
        if (overflow || need > limit)
            return px__error(PX_ERR_INVALID_ARGUMENT,
                             "kernel '%s': level-%d scratch of %zu bytes per team and %zu per "
                             "thread (%zu bytes for "
                             "a team of %zu, in 16-byte parts) exceeds the %zu bytes a team may "
                             "have at level %d "
                             "here",
                             k->name, level, team, thread, overflow ? SIZE_MAX : need, members,
                             limit, level);
        p->scratch_team[level] = PX__TEAM_ROUND16(team);
        p->scratch_thread[level] = PX__TEAM_ROUND16(thread);
    }
    return PX_OK;
}

px_status px__dispatch_prepare_team(px__dispatch *d, const px__backend *be, int device,
                                    px__target target, const char *label, px_team_policy policy,
                                    const px_kernel *kernel, const void *args, px_kernel_kind want)
{
    PX__TRY(check_descriptor(kernel));
    const char *want_name = want == PX_KERNEL_REDUCE ? "PX_TEAM_REDUCE" : "PX_TEAM_FOR";
    if (!kernel->team)
        return px__error(PX_ERR_INVALID_ARGUMENT,
                         "kernel '%s' is a %s kernel; %s needs a %s kernel", kernel->name,
                         kind_name(kernel->kind), px__caller(), want_name);
    if (kernel->kind != want)
        return px__error(PX_ERR_INVALID_ARGUMENT,
                         "kernel '%s' is a %s kernel; %s needs a %s kernel", kernel->name,
                         kernel->kind == PX_KERNEL_REDUCE ? "PX_TEAM_REDUCE" : "PX_TEAM_FOR",
                         px__caller(), want_name);
    PX__TRY(check_args(kernel, args));
    const px__entry_fn entry = px__kernel_entry_of(kernel, be->target, PX__ENTRY_LEAGUE);
    if (!entry) return not_compiled(kernel, be, target);
    const void *rows = NULL;
    if (policy.rows) PX__TRY(px__team_rows_policy(&policy, be, device, &rows));
    PX__TRY(check_team_policy(&policy, kernel, be, device));
    start(d, kernel, entry, label, args);
    d->policy = px_range(0, policy.league_size);
    d->team = policy;
    d->team_rows = rows;
    return PX_OK;
}

static px__target instance_target(const px_instance *inst)
{
    return (px__target){"instance", inst->label};
}

static px_status prepare_team(px__dispatch *d, px_instance *inst, const char *label,
                              px_team_policy policy, const px_kernel *kernel, const void *args,
                              px_kernel_kind want)
{
    PX__TRY(px__instance_check(inst));
    return px__dispatch_prepare_team(d, inst->be, inst->device, instance_target(inst), label,
                                     policy, kernel, args, want);
}

static px_status prepare(px__dispatch *d, px_instance *inst, const char *label,
                         const px_policy *policy, const px_kernel *kernel, const void *args,
                         px_kernel_kind want)
{
    PX__TRY(px__instance_check(inst));
    return prepare_range(d, inst->be, instance_target(inst), label, policy, kernel, args, want);
}

/* Runs d on inst, or records it when inst is being captured by a host backend; `result`
   is the view a reduction writes (NULL otherwise), held by a capture. */
static px_status launch(px_instance *inst, const px__dispatch *d, px_view *result)
{
    if (d->result_kind == PX__RESULT_HOST)
        PX__TRY(px__instance_refuse_capturing(
            inst, "a result in a host variable (it needs a wait; reduce into a view)"));
    if (px__capture_records(inst)) return px__capture_kernel(inst, d, result);
    px_status st;
    if (px__prof_on()) {
        px__prof p;
        const px__observed on = px__instance_observed(inst);
        px__prof_kernel_begin(&p, &on, d->kernel->kind, d->label);
        st = inst->be->launch(inst->queue, d);
        const px_status end = px__prof_kernel_end(&p, &on, d->kernel->kind, d->label);
        if (st == PX_OK) st = end;
    } else {
        st = inst->be->launch(inst->queue, d);
    }
    if (st == PX_OK && px__capture_active(inst)) {
        const px__gnode_desc note = {.kind = PX__GNODE_KERNEL, .label = d->label, .dispatch = *d};
        st = px__capture_note(inst, &note, result, NULL);
    }
    if (st != PX_OK) return st;
    return px__take_bounds_violation(d->label);
}

/* Runs a reduction d into the host variable `result` on inst. */
static px_status launch_into_host(px_instance *inst, px__dispatch *d, void *result)
{
    PX__ARG(result, "result must not be NULL (kernel '%s')", d->kernel->name);
    d->result_kind = PX__RESULT_HOST;
    d->result = result;
    return launch(inst, d, NULL);
}

/* ---- Public dispatch ----------------------------------------------------------------------- */

px_status px_parallel_for(px_instance *inst, const char *label, px_policy policy,
                          const px_kernel *kernel, const void *args)
{
    PX__ENTER;
    px__dispatch d;
    PX__TRY(prepare(&d, inst, label, &policy, kernel, args, PX_KERNEL_FOR));
    return launch(inst, &d, NULL);
}

px_status px_parallel_reduce(px_instance *inst, const char *label, px_policy policy,
                             const px_kernel *kernel, const void *args, void *result)
{
    PX__ENTER;
    px__dispatch d;
    PX__TRY(prepare(&d, inst, label, &policy, kernel, args, PX_KERNEL_REDUCE));
    return launch_into_host(inst, &d, result);
}

/* Runs a reduction d into element 0 of the view `result` on inst. */
static px_status launch_into_view(px_instance *inst, px__dispatch *d, px_view *result)
{
    PX__TRY(px__dispatch_result_view(d, inst->be, inst->device, instance_target(inst), result));
    return launch(inst, d, result);
}

bool px__backend_writes(const px__backend *be, int device, px_space s)
{
    const px__space_ops *ops = px__space_ops_get(s.kind);
    if (ops->host_access) return be->runs_on_host || ops->owner == be->exec;
    return ops->owner == be->exec && s.device == device;
}

px_status px__dispatch_result_view(px__dispatch *d, const px__backend *be, int device,
                                   px__target target, px_view *result)
{
    PX__TRY(px__view_check(result, "result"));
    const px_kernel *k = d->kernel;
    if (px__view_size(result) < 1 || !px__view_contiguous(result))
        return px__error(PX_ERR_INVALID_ARGUMENT,
                         "result view '%s' must be contiguous with at least one element",
                         result->label);
    if (result->elem_size != k->value_size)
        return px__error(
            PX_ERR_INVALID_ARGUMENT,
            "result view '%s' has %zu-byte elements but kernel '%s' reduces %zu-byte values",
            result->label, result->elem_size, k->name, k->value_size);
    const px_space s = result->alloc->space;
    if (!px__backend_writes(be, device, s))
        return px__error(
            PX_ERR_INVALID_ARGUMENT, "result view '%s' lives in %s(%d), which %s '%s' cannot write",
            result->label, px_space_kind_string(s.kind), s.device, target.kind, target.name);
    d->result_kind = PX__RESULT_VIEW;
    d->result = result->data;
    d->result_space = s;
    return PX_OK;
}

px_status px_parallel_reduce_view(px_instance *inst, const char *label, px_policy policy,
                                  const px_kernel *kernel, const void *args, px_view *result)
{
    PX__ENTER;
    px__dispatch d;
    PX__TRY(prepare(&d, inst, label, &policy, kernel, args, PX_KERNEL_REDUCE));
    return launch_into_view(inst, &d, result);
}

px_status px_parallel_scan(px_instance *inst, const char *label, px_policy policy,
                           const px_kernel *kernel, const void *args, void *total)
{
    PX__ENTER;
    px__dispatch d;
    PX__TRY(prepare(&d, inst, label, &policy, kernel, args, PX_KERNEL_SCAN));
    d.result_kind = total ? PX__RESULT_HOST : PX__RESULT_NONE;
    d.result = total;
    return launch(inst, &d, NULL);
}

/* ---- Team dispatch ---------------------------------------------------------------------------- */

px_status px_parallel_for_team(px_instance *inst, const char *label, px_team_policy policy,
                               const px_kernel *kernel, const void *args)
{
    PX__ENTER;
    px__dispatch d;
    PX__TRY(prepare_team(&d, inst, label, policy, kernel, args, PX_KERNEL_FOR));
    return launch(inst, &d, NULL);
}

px_status px_parallel_reduce_team(px_instance *inst, const char *label, px_team_policy policy,
                                  const px_kernel *kernel, const void *args, void *result)
{
    PX__ENTER;
    px__dispatch d;
    PX__TRY(prepare_team(&d, inst, label, policy, kernel, args, PX_KERNEL_REDUCE));
    return launch_into_host(inst, &d, result);
}

px_status px_parallel_reduce_team_view(px_instance *inst, const char *label, px_team_policy policy,
                                       const px_kernel *kernel, const void *args, px_view *result)
{
    PX__ENTER;
    px__dispatch d;
    PX__TRY(prepare_team(&d, inst, label, policy, kernel, args, PX_KERNEL_REDUCE));
    return launch_into_view(inst, &d, result);
}

px_status px_team_scratch_max(px_instance *inst, int level, size_t *bytes)
{
    PX__ENTER;
    PX__TRY(px__instance_check(inst));
    PX__ARG(bytes, "bytes must not be NULL");
    PX__ARG(level == 0 || level == 1, "level is %d; levels are 0 and 1", level);
    return px__team_scratch_limit(inst->be, inst->device, level, bytes);
}
