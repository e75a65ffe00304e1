/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The observers of portex's operations (observability/profile.h): which are on, and what each is
 * told at the begin and end of a dispatch, copy, fill, fence and graph launch. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/backends.h"
#include "base/error.h"
#include "observability/kokkos_tools.h"
#include "observability/nvtx.h"
#include "observability/profile.h"

/* ---- Which observers, from the options and the environment ------------------------- */

/* The option when set, else the first of the environment's names that is set. */
static const char *setting(const char *option, const char *env1, const char *env2)
{
    if (option) return option;
    const char *v = env1 ? getenv(env1) : NULL;
    if (!v && env2) v = getenv(env2);
    return v;
}

/* The runtime's fence of every instance, told to no observer (px__profile_init). */
static px_status (*fence_everything)(void);

/* A Kokkos Tools library's fence (its programming interface): every instance, told to no
   observer (the library asked for it itself). */
static void tool_fence(uint32_t devid)
{
    /* Called from the tool's code, within a portex call or outside any. */
    PX__ENTER_AS("a fence the Kokkos Tools library asked for");
    (void)devid;
    if (fence_everything) (void)fence_everything();
}

static uint32_t device_count(void)
{
    const px__backend *cuda = px__backend_get(PX_EXEC_CUDA);
    int n = 0;
    if (cuda && cuda->device_count && cuda->device_count(&n) != PX_OK) n = 0;
    return n > 0 ? (uint32_t)n : 0;
}

px_status px__profile_init(const px_init_options *opts, px_status (*fence_all)(void))
{
    fence_everything = fence_all;
    const char *libs =
        setting(opts ? opts->tools_libs : NULL, "PX_TOOLS_LIBS", "KOKKOS_TOOLS_LIBS");
    const char *timeline = setting(opts ? opts->timeline : NULL, "PX_TIMELINE", NULL);
    const char *nvtx_env = getenv("PX_NVTX");
    const bool nvtx =
        (opts && opts->nvtx) || (nvtx_env && strcmp(nvtx_env, "0") != 0 && nvtx_env[0]);
    if (libs && libs[0]) {
        const char *args = setting(NULL, "PX_TOOLS_ARGS", "KOKKOS_TOOLS_ARGS");
        PX__TRY(px__kp_load(libs, args, device_count(), tool_fence));
    }
    if (timeline && timeline[0]) {
        const px_status st = px__timeline_start(timeline);
        if (st != PX_OK) {
            px__kp_unload();
            return st;
        }
    }
    if (nvtx) px__nvtx_start(); /* false without CUDA: nothing to do then */
    return PX_OK;
}

px_status px__profile_finalize(void)
{
    px__nvtx_stop();
    px__kp_unload();
    fence_everything = NULL;
    return px__timeline_path() ? px__timeline_finish() : PX_OK;
}

/* ---- Names ---------------------------------------------------------------------------- */

/* Kokkos' device id of an instance (type, device, instance number). */
static uint32_t device_id(const px__observed *on)
{
    const int type = on->exec == PX_EXEC_CUDA      ? PX__KP_DEVICE_CUDA
                     : on->exec == PX_EXEC_OPENMP  ? PX__KP_DEVICE_OPENMP
                     : on->exec == PX_EXEC_THREADS ? PX__KP_DEVICE_THREADS
                                                   : PX__KP_DEVICE_SERIAL;
    return px__kp_device_id(type, on->device, on->number);
}

static const char *kernel_kind_name(px_kernel_kind kind)
{
    return kind == PX_KERNEL_FOR      ? "parallel_for"
           : kind == PX_KERNEL_REDUCE ? "parallel_reduce"
                                      : "parallel_scan";
}

/* ---- The fence a tool library asked for after each operation --------------------------- */

/* Kokkos fences every instance after each operation for such a library; portex fences the
   instance the operation ran on, which is enough for the operation's time to be its own,
   and leaves other instances running. Not while capturing: nothing ran. */
static px_status tool_requested_fence(const px__observed *on, const char *what)
{
    if (!(px__prof_mask & PX__PROF_KOKKOS) || !px__kp_wants_fences() || on->captured) return PX_OK;
    char name[192];
    snprintf(name, sizeof name, "portex: fence of '%s' after '%s' (the tool asks for fences)",
             on->label, what);
    uint64_t id = 0;
    px__kp_begin_fence(name, device_id(on), &id);
    const px_status st = on->be->fence(on->queue);
    px__kp_end_fence(id);
    return st;
}

/* ---- Kernels ---------------------------------------------------------------------------- */

/* Every operation starts so: nothing told yet; `live`: the observers are to hear of it. */
static void begin(px__prof *p, bool live)
{
    p->kp = 0;
    p->tl.rec = -1;
    p->live = live;
    p->label = NULL;
    p->bytes = 0;
}

void px__prof_kernel_begin(px__prof *p, const px__observed *on, px_kernel_kind kind,
                           const char *label)
{
    /* A capture runs nothing now: its launches are reported when the graph runs. */
    begin(p, !on->captured);
    if (!p->live) return;
    const unsigned mask = px__prof_mask;
    if (mask & PX__PROF_KOKKOS) px__kp_begin_kernel(kind, label, device_id(on), &p->kp);
    if (mask & PX__PROF_NVTX) px__nvtx_push(PX__NVTX_KERNEL, label);
    if (mask & PX__PROF_TIMELINE) px__timeline_begin(&p->tl, on, kernel_kind_name(kind), label);
}

px_status px__prof_kernel_end(px__prof *p, const px__observed *on, px_kernel_kind kind,
                              const char *label)
{
    if (!p->live) return PX_OK;
    const unsigned mask = px__prof_mask;
    if (mask & PX__PROF_TIMELINE) px__timeline_end(&p->tl, on, PX_COPY_NONE, 0);
    const px_status st = tool_requested_fence(on, label);
    if (mask & PX__PROF_NVTX) px__nvtx_pop();
    if (mask & PX__PROF_KOKKOS) px__kp_end_kernel(kind, p->kp);
    return st;
}

/* ---- Copies and fills ------------------------------------------------------------------ */

/* The timeline's kind of a copy: its direction (host memory is what the CPU reaches), so
   that pictures colour host-to-device and device-to-host copies apart. */
static const char *copy_kind(const px__prof_side *dst, const px__prof_side *src)
{
    if (!src) return "fill";
    const bool dst_host = px__space_ops_get(dst->space.kind)->host_access;
    const bool src_host = px__space_ops_get(src->space.kind)->host_access;
    return src_host ? (dst_host ? "deep_copy_h2h" : "deep_copy_h2d")
                    : (dst_host ? "deep_copy_d2h" : "deep_copy_d2d");
}

void px__prof_copy_begin(px__prof *p, const px__observed *on, const px__prof_side *dst,
                         const px__prof_side *src, const void *value, uint64_t bytes,
                         px_copy_path path)
{
    begin(p, !on->captured);
    if (!p->live) return;
    p->label = dst->label;
    p->bytes = bytes;
    const unsigned mask = px__prof_mask;
    if (mask & PX__PROF_KOKKOS) {
        if (src)
            px__kp_begin_deep_copy(dst->space, dst->label, dst->data, src->space, src->label,
                                   src->data, bytes);
        else
            px__kp_begin_deep_copy(dst->space, dst->label, dst->data, px_host(), "Scalar", value,
                                   bytes);
    }
    if (mask & (PX__PROF_NVTX | PX__PROF_TIMELINE)) {
        char label[256];
        if (src)
            snprintf(label, sizeof label, "deep_copy '%s' <- '%s' (%s)", dst->label, src->label,
                     px_copy_path_string(path));
        else
            snprintf(label, sizeof label, "fill '%s' (%s)", dst->label, px_copy_path_string(path));
        if (mask & PX__PROF_NVTX) px__nvtx_push(PX__NVTX_COPY, label);
        if (mask & PX__PROF_TIMELINE) px__timeline_begin(&p->tl, on, copy_kind(dst, src), label);
    }
}

px_status px__prof_copy_end(px__prof *p, const px__observed *on, px_copy_path path)
{
    if (!p->live) return PX_OK;
    const unsigned mask = px__prof_mask;
    if (mask & PX__PROF_TIMELINE) px__timeline_end(&p->tl, on, path, p->bytes);
    const px_status st = tool_requested_fence(on, p->label);
    if (mask & PX__PROF_NVTX) px__nvtx_pop();
    if (mask & PX__PROF_KOKKOS) px__kp_end_deep_copy();
    return st;
}

/* ---- Fences and graph launches ---------------------------------------------------------- */

void px__prof_fence_begin(px__prof *p, const px__observed *on, const char *name)
{
    begin(p, true);
    const unsigned mask = px__prof_mask;
    if (mask & PX__PROF_KOKKOS) px__kp_begin_fence(name, on ? device_id(on) : 0, &p->kp);
    if (mask & PX__PROF_NVTX) px__nvtx_push(PX__NVTX_FENCE, name);
    if (mask & PX__PROF_TIMELINE) px__timeline_begin(&p->tl, NULL, "fence", name);
}

void px__prof_fence_end(px__prof *p)
{
    const unsigned mask = px__prof_mask;
    if (mask & PX__PROF_TIMELINE) px__timeline_end(&p->tl, NULL, PX_COPY_NONE, 0);
    if (mask & PX__PROF_NVTX) px__nvtx_pop();
    if (mask & PX__PROF_KOKKOS) px__kp_end_fence(p->kp);
}

void px__prof_graph_begin(px__prof *p, const px__observed *on, const char *label)
{
    begin(p, true);
    const unsigned mask = px__prof_mask;
    if (mask & PX__PROF_NVTX) px__nvtx_push(PX__NVTX_GRAPH, label);
    if (mask & PX__PROF_TIMELINE) px__timeline_begin(&p->tl, on, "graph_launch", label);
}

void px__prof_graph_end(px__prof *p, const px__observed *on)
{
    const unsigned mask = px__prof_mask;
    if (mask & PX__PROF_TIMELINE) px__timeline_end(&p->tl, on, PX_COPY_NONE, 0);
    if (mask & PX__PROF_NVTX) px__nvtx_pop();
}
