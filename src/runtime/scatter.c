/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Scatter-adds (portex/scatter.h), Kokkos' ScatterView: a target view, the strategy chosen
 * for the instance's backend and, for PX_SCATTER_DUPLICATED, a HOST view of one copy of
 * the target per thread. The adds themselves are inline code of the header; here the
 * strategy is chosen (from what the instance says of itself: whether its kernels run on
 * the host, on how many threads), the handles are filled, and the copies are added into
 * the target by a kernel of the library's own (scatter_kernel.c), dispatched on the
 * instance or, for a few copies, run by the calling thread. */
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"
#include "portex.h"
#include "runtime/dispatch.h"
#include "runtime/instance.h"
#include "runtime/scatter_kernel.h"
#include "spaces/space.h"
#include "spaces/view.h"

#define SCATTER_MAGIC 0x50585343u /* "PXSC" */
/* Each copy starts on a pair of cache lines of its own (processors fetch lines in adjacent
   pairs): the copies of two threads never share one. */
#define COPY_ALIGN 128
/* Copies of at most this many bytes in all are added into the target by the calling
   thread: sooner done than a team of threads is woken for it. */
#define CONTRIBUTE_HERE_BYTES ((size_t)128 << 10)

struct px_scatter {
    uint32_t magic;
    px_view *target; /* one reference */
    px_view *copies; /* DUPLICATED: ncopies, stride elements apart, HOST; else NULL */
    px_scatter_strategy requested, strategy;
    int threads;
    int ncopies;
    int64_t extent[2]; /* rank 1: extent[1] is 1 */
    int64_t size;
    int64_t stride; /* DUPLICATED */
};

const char *px_scatter_strategy_string(px_scatter_strategy strategy)
{
    PX__ENTER;
    switch (strategy) {
    case PX_SCATTER_AUTO: return "auto";
    case PX_SCATTER_ATOMIC: return "atomic";
    case PX_SCATTER_DUPLICATED: return "duplicated";
    case PX_SCATTER_PLAIN: return "plain";
    default: return "unknown";
    }
}

static px_status scatter_check(const px_scatter *s)
{
    if (s == NULL) return px__error(PX_ERR_INVALID_ARGUMENT, "s is NULL");
    if (s->magic != SCATTER_MAGIC)
        return px__error(PX_ERR_INVALID_ARGUMENT, "s is not a live scatter");
    return PX_OK;
}

/* The element types a scatter adds. */
static bool addable(px_dtype t)
{
    return t == PX_I32 || t == PX_U32 || t == PX_I64 || t == PX_U64 || t == PX_F32 || t == PX_F64;
}

/* target as a scatter takes it: its element type, rank, layout and space. */
static px_status target_check(const px_instance *inst, const px_view *target)
{
    PX__TRY(px__view_check(target, "target"));
    PX__ARG(addable(target->dtype),
            "target '%s' holds %s elements; a scatter adds i32, u32, i64, u64, f32 or f64",
            target->label, px_dtype_string(target->dtype));
    PX__ARG(target->rank == 1 || target->rank == 2,
            "target '%s' has rank %d; a scatter takes a view of rank 1 or 2", target->label,
            target->rank);
    /* Row-major and contiguous: stride 1 in the last dimension, the row's length in the
       first of two (a dimension of extent 0 or 1 may have any stride). */
    const int last = target->rank - 1;
    PX__ARG(target->extent[last] <= 1 || target->stride[last] == 1,
            "target '%s' is not contiguous: dimension %d has stride %lld, not 1 (a scatter "
            "takes a whole view, or a block of whole rows)",
            target->label, last, (long long)target->stride[last]);
    if (last == 1)
        PX__ARG(target->extent[0] <= 1 || target->stride[0] == target->extent[1],
                "target '%s' is not contiguous in row-major order: dimension 0 has stride %lld, "
                "not %lld (a scatter takes a whole view, or a block of whole rows)",
                target->label, (long long)target->stride[0], (long long)target->extent[1]);
    const px_space sp = target->alloc->space;
    const px__space_ops *ops = NULL;
    PX__TRY(px__space_check(sp, &ops));
    const bool host_memory = ops && ops->host_access;
    if (inst->be->runs_on_host)
        PX__ARG(host_memory,
                "target '%s' lives in %s(%d), which the kernels of instance '%s' (%s, on the "
                "host) cannot reach",
                target->label, px_space_kind_string(sp.kind), sp.device, inst->label,
                inst->be->name);
    else
        PX__ARG(px__backend_writes(inst->be, inst->device, sp),
                "target '%s' lives in %s(%d), which the kernels of instance '%s' (%s, device "
                "%d) cannot reach: use a view in its DEVICE space",
                target->label, px_space_kind_string(sp.kind), sp.device, inst->label,
                inst->be->name, inst->device);
    return PX_OK;
}

/* The strategy for `asked` on inst's backend with `threads` threads, for a target of
   `bytes` bytes. */
static px_status choose(const px_instance *inst, int threads, size_t bytes,
                        px_scatter_strategy asked, px_scatter_strategy *out)
{
    if (!inst->be->runs_on_host) {
        if (asked == PX_SCATTER_DUPLICATED || asked == PX_SCATTER_PLAIN)
            return px__error(PX_ERR_UNSUPPORTED,
                             "PX_SCATTER_%s is for host backends: instance '%s' runs its "
                             "kernels on %s, where a scatter adds with atomics "
                             "(PX_SCATTER_ATOMIC, or PX_SCATTER_AUTO)",
                             asked == PX_SCATTER_PLAIN ? "PLAIN" : "DUPLICATED", inst->label,
                             inst->be->name);
        *out = PX_SCATTER_ATOMIC;
        return PX_OK;
    }
    if (asked == PX_SCATTER_PLAIN && threads > 1)
        return px__error(PX_ERR_INVALID_ARGUMENT,
                         "PX_SCATTER_PLAIN adds without atomics, for kernels on one thread: "
                         "instance '%s' runs them on %d threads (PX_SCATTER_AUTO chooses)",
                         inst->label, threads);
    if (asked != PX_SCATTER_AUTO) {
        *out = asked;
        return PX_OK;
    }
    size_t all = 0;
    if (threads <= 1)
        *out = PX_SCATTER_PLAIN;
    else if (!px__mul_overflows(bytes, (size_t)threads, &all) && all <= PX_SCATTER_DUPLICATE_LIMIT)
        *out = PX_SCATTER_DUPLICATED;
    else
        *out = PX_SCATTER_ATOMIC;
    return PX_OK;
}

/* The elements from one copy of target to the next. */
static int64_t copy_stride(const px_view *target)
{
    const int64_t line = COPY_ALIGN / (int64_t)target->elem_size;
    return (px__view_size(target) + line - 1) / line * line;
}

/* The copies of a DUPLICATED scatter: a zero-filled HOST view of n copies of target, each
   copy_stride elements. */
static px_status make_copies(const px_view *target, int n, px_view **out)
{
    const int64_t size = px__view_size(target);
    if (size > INT64_MAX / 2 / n)
        return px__error(PX_ERR_OVERFLOW, "%d copies of target '%s' (%lld elements) overflow", n,
                         target->label, (long long)size);
    const int64_t stride = copy_stride(target);
    char *label = px__concat(target->label, "/scatter");
    if (!label) return px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory for a scatter");
    const px_view_desc d = {.label = label,
                            .space = px_host(),
                            .dtype = target->dtype,
                            .rank = 1,
                            .extent = {stride * n}};
    const px_status st = px__view_create(out, &d);
    free(label);
    return st;
}

px_status px_scatter_create(px_scatter **out, px_instance *inst, px_view *target,
                            px_scatter_strategy strategy)
{
    PX__ENTER;
    PX__ARG(out, "out must not be NULL");
    *out = NULL;
    PX__TRY(px__instance_check(inst));
    PX__ARG((int)strategy >= 0 && strategy < PX_SCATTER_STRATEGY_COUNT,
            "strategy is %d; expected a px_scatter_strategy (PX_SCATTER_AUTO to "
            "PX_SCATTER_PLAIN)",
            (int)strategy);
    PX__TRY(target_check(inst, target));
    int threads = 1;
    PX__TRY(px_instance_concurrency(inst, &threads));
    const int64_t size = px__view_size(target);
    px_scatter_strategy chosen = PX_SCATTER_ATOMIC;
    PX__TRY(choose(inst, threads, (size_t)size * target->elem_size, strategy, &chosen));

    px_scatter *s = px__calloc(1, sizeof *s);
    if (!s) return px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory for a scatter");
    px_status st = PX_OK;
    if (chosen == PX_SCATTER_DUPLICATED) st = make_copies(target, threads, &s->copies);
    if (st == PX_OK) st = px_view_retain(target);
    if (st != PX_OK) {
        if (s->copies) px__view_release(s->copies);
        free(s);
        return st;
    }
    s->magic = SCATTER_MAGIC;
    s->target = target;
    s->requested = strategy;
    s->strategy = chosen;
    s->threads = threads;
    s->ncopies = chosen == PX_SCATTER_DUPLICATED ? threads : 0;
    s->extent[0] = target->extent[0];
    s->extent[1] = target->rank == 2 ? target->extent[1] : 1;
    s->size = size;
    s->stride = chosen == PX_SCATTER_DUPLICATED ? copy_stride(target) : 0;
    *out = s;
    return PX_OK;
}

px_status px_scatter_destroy(px_scatter **s)
{
    PX__ENTER;
    PX__ARG(s, "s must not be NULL");
    PX__TRY(scatter_check(*s));
    px_scatter *x = *s;
    x->magic = 0;
    if (x->copies) (void)px_view_release(&x->copies);
    (void)px_view_release(&x->target);
    free(x);
    *s = NULL;
    return PX_OK;
}

px_status px_scatter_info_get(const px_scatter *s, px_scatter_info *out)
{
    PX__ENTER;
    PX__ARG(out, "out must not be NULL");
    PX__TRY(scatter_check(s));
    out->strategy = s->strategy;
    out->requested = s->requested;
    out->threads = s->threads;
    out->copies = s->ncopies;
    out->bytes = (size_t)s->ncopies * (size_t)s->stride * s->target->elem_size;
    return PX_OK;
}

/* The kernel that adds the copies of a scatter of `dtype` into its target. */
static const px_kernel *sum_kernel(px_dtype dtype)
{
    switch (dtype) {
    case PX_I32: return PX_KERNEL(px__scatter_contribute_i32);
    case PX_U32: return PX_KERNEL(px__scatter_contribute_u32);
    case PX_I64: return PX_KERNEL(px__scatter_contribute_i64);
    case PX_U64: return PX_KERNEL(px__scatter_contribute_u64);
    case PX_F32: return PX_KERNEL(px__scatter_contribute_f32);
    default: return PX_KERNEL(px__scatter_contribute_f64);
    }
}

px_status px_scatter_contribute(px_instance *inst, px_scatter *s)
{
    PX__ENTER;
    PX__TRY(px__instance_check(inst));
    PX__TRY(scatter_check(s));
    if (s->strategy != PX_SCATTER_DUPLICATED || s->size == 0) return PX_OK;
    PX__ARG(inst->be->runs_on_host,
            "the copies of the scatter into '%s' are host memory: contribute on an instance of "
            "a host backend, not '%s' (%s)",
            s->target->label, inst->label, inst->be->name);
    const px__scatter_contribute_args a = {.target = s->target->data,
                                           .copies = s->copies->data,
                                           .size = s->size,
                                           .stride = s->stride,
                                           .ncopies = s->ncopies};
    const int64_t blocks = (s->size - 1) / PX__SCATTER_BLOCK + 1;
    const px_kernel *k = sum_kernel(s->target->dtype);
    const px_policy all = px_range(0, blocks);
    const size_t bytes = (size_t)s->ncopies * (size_t)s->stride * s->target->elem_size;
    if (bytes <= CONTRIBUTE_HERE_BYTES && inst->capture == NULL) {
        /* Few copies: added on this thread, by the kernel's host entry. A host instance's
           work has finished when its call returned, so nothing of inst's is pending. */
        ((px__host_range_fn)px__kernel_entry_of(k, PX__TARGET_HOST, PX__ENTRY_RANGE))(&a, &all,
                                                                                      NULL);
        return PX_OK;
    }
    return (px_parallel_for)(inst, "px_scatter_contribute", all, k, &a);
}

px_status px_scatter_reset(px_instance *inst, px_scatter *s)
{
    PX__ENTER;
    PX__TRY(px__instance_check(inst));
    PX__TRY(scatter_check(s));
    const uint64_t zero = 0; /* 0 and 0.0 alike, for every element size */
    PX__TRY(px_fill_async(inst, s->target, &zero, NULL));
    if (s->copies) PX__TRY(px_fill_async(inst, s->copies, &zero, NULL));
    return PX_OK;
}

/* The handle of s for elements of `want`. */
#define SCATTER_SPAN(sfx, T, DT)                                                      \
    px_status px_scatter_span_##sfx(const px_scatter *s, px_scatter_##sfx *out)       \
    {                                                                                 \
        PX__ENTER;                                                                    \
        PX__ARG(out, "out must not be NULL");                                         \
        memset(out, 0, sizeof *out);                                                  \
        PX__TRY(scatter_check(s));                                                    \
        if (s->target->dtype != DT)                                                   \
            return px__error(PX_ERR_TYPE_MISMATCH,                                    \
                             "the scatter's target '%s' holds %s elements, not " #sfx \
                             " (its handle is a px_scatter_%s)",                      \
                             s->target->label, px_dtype_string(s->target->dtype),     \
                             px_dtype_string(s->target->dtype));                      \
        out->data = (T *)(void *)s->target->data;                                     \
        out->dup = s->copies ? (T *)(void *)s->copies->data : NULL;                   \
        out->extent[0] = s->extent[0];                                                \
        out->extent[1] = s->extent[1];                                                \
        out->size = s->size;                                                          \
        out->stride = s->stride;                                                      \
        out->mode = (int32_t)s->strategy;                                             \
        out->copies = s->ncopies;                                                     \
        return PX_OK;                                                                 \
    }
SCATTER_SPAN(i32, int32_t, PX_I32)
SCATTER_SPAN(u32, uint32_t, PX_U32)
SCATTER_SPAN(i64, int64_t, PX_I64)
SCATTER_SPAN(u64, uint64_t, PX_U64)
SCATTER_SPAN(f32, float, PX_F32)
SCATTER_SPAN(f64, double, PX_F64)
