/* deep_copy and fill: choose the path from where the two views live and how they are
 * laid out, run it in the asked-for form, count it.
 *
 *   one side \ other   same element order           strided / differing layouts
 *   HOST*  - HOST*      HOST_MEMCPY                  HOST_STRIDED
 *   DEVICE - PINNED     CUDA_DMA                     CUDA_STRIDED (kernel, pinned via UVA)
 *   DEVICE - HOST       CUDA_STAGED                  CUDA_STRIDED_STAGED
 *   DEVICE(n) - (n)     CUDA_D2D                     CUDA_STRIDED
 *   DEVICE(a) - (b)     CUDA_PEER                    CUDA_STRIDED (peer access)
 *
 * Host paths run on the calling thread after the instance's earlier work. Device paths
 * are queued on a CUDA instance; the backend may fall back (CUDA_STAGED to
 * CUDA_PAGEABLE where it cannot stage) and reports the path it took. */
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "core/internal.h"
#include "spaces/copy_host.h"

static atomic_uint_fast64_t path_counts[PX_COPY_PATH_COUNT];

static const char *const path_names[PX_COPY_PATH_COUNT] = {
#define PX__COPY_PATH_NAME(name, desc) #name,
    PX_COPY_PATH_MAP(PX__COPY_PATH_NAME)
#undef PX__COPY_PATH_NAME
};

static const char *const path_descriptions[PX_COPY_PATH_COUNT] = {
#define PX__COPY_PATH_DESC(name, desc) desc,
    PX_COPY_PATH_MAP(PX__COPY_PATH_DESC)
#undef PX__COPY_PATH_DESC
};

const char *px_copy_path_string(px_copy_path path)
{
    if ((int)path < 0 || path >= PX_COPY_PATH_COUNT) return "UNKNOWN";
    return path_names[path];
}

const char *px_copy_path_description(px_copy_path path)
{
    if ((int)path < 0 || path >= PX_COPY_PATH_COUNT) return "unknown copy path";
    return path_descriptions[path];
}

void px__copy_count(px_copy_path path)
{
    atomic_fetch_add_explicit(&path_counts[path], 1, memory_order_relaxed);
}

void px__copy_counts_reset(void)
{
    for (int p = 0; p < PX_COPY_PATH_COUNT; ++p) atomic_store(&path_counts[p], 0);
}

px_status px_copy_path_counts(uint64_t counts[PX_COPY_PATH_COUNT])
{
    PX__ARG(counts, "counts must not be NULL");
    for (int p = 0; p < PX_COPY_PATH_COUNT; ++p)
        counts[p] = (uint64_t)atomic_load_explicit(&path_counts[p], memory_order_relaxed);
    return PX_OK;
}

/* ---- Path selection --------------------------------------------------------------------- */

static px_status check_pair(const px_view *dst, const px_view *src, const char *func)
{
    PX__TRY(px__view_check(dst, func, "dst"));
    PX__TRY(px__view_check(src, func, "src"));
    if (dst->rank != src->rank)
        return px__error(PX_ERR_EXTENTS_MISMATCH, func, "ranks differ: dst '%s' %d, src '%s' %d",
                         dst->label, dst->rank, src->label, src->rank);
    for (int d = 0; d < dst->rank; ++d)
        if (dst->extent[d] != src->extent[d])
            return px__error(PX_ERR_EXTENTS_MISMATCH, func,
                             "extents differ: dst '%s'[%d] = %lld, src '%s'[%d] = %lld", dst->label,
                             d, (long long)dst->extent[d], src->label, d, (long long)src->extent[d]);
    /* Element sizes must agree; the types may differ (a byte copy, as documented). */
    if (dst->elem_size != src->elem_size)
        return px__error(PX_ERR_TYPE_MISMATCH, func,
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

static px_status select_path(const px_view *dst, const px_view *src, px_copy_path *path,
                             const char *func)
{
    PX__TRY(check_pair(dst, src, func));
    px_space ds = dst->alloc->space, ss = src->alloc->space;
    bool flat = same_flat_order(dst, src);
    if (px__view_size(dst) == 0 || (dst->data == src->data && flat)) {
        *path = PX_COPY_NONE;
        return PX_OK;
    }
    if (px__space_is_host(ds) && px__space_is_host(ss)) {
        *path = flat ? PX_COPY_HOST_MEMCPY : PX_COPY_HOST_STRIDED;
        return PX_OK;
    }
    if (ds.kind == PX_SPACE_DEVICE && ss.kind == PX_SPACE_DEVICE) {
        if (!flat)
            *path = PX_COPY_CUDA_STRIDED;
        else
            *path = ds.device == ss.device ? PX_COPY_CUDA_D2D : PX_COPY_CUDA_PEER;
        return PX_OK;
    }
    px_space host = ds.kind == PX_SPACE_DEVICE ? ss : ds;
    if (host.kind == PX_SPACE_HOST_PINNED)
        *path = flat ? PX_COPY_CUDA_DMA : PX_COPY_CUDA_STRIDED;
    else
        *path = flat ? PX_COPY_CUDA_STAGED : PX_COPY_CUDA_STRIDED_STAGED;
    return PX_OK;
}

px_status px_deep_copy_query(const px_view *dst, const px_view *src, px_copy_path *path)
{
    PX__ARG(path, "path must not be NULL");
    return select_path(dst, src, path, __func__);
}

/* ---- Running a path ---------------------------------------------------------------------- */

static bool is_host_path(px_copy_path p)
{
    return p == PX_COPY_NONE || p == PX_COPY_HOST_MEMCPY || p == PX_COPY_HOST_STRIDED ||
           p == PX_COPY_HOST_FILL;
}

/* Paths that touch pageable memory or run on the host: a graph cannot hold them. */
static bool capturable(px_copy_path p)
{
    return p == PX_COPY_NONE || p == PX_COPY_CUDA_DMA || p == PX_COPY_CUDA_D2D ||
           p == PX_COPY_CUDA_PEER || p == PX_COPY_CUDA_STRIDED || p == PX_COPY_CUDA_FILL;
}

/* A device path needs a CUDA instance. */
static px_status check_device_instance(const px_instance *inst, const char *what, const char *func)
{
    if (inst->exec != PX_EXEC_CUDA)
        return px__error(PX_ERR_INVALID_ARGUMENT, func,
                         "%s involves DEVICE memory but instance '%s' is %s; use a CUDA instance",
                         what, inst->label, px_exec_space_string(inst->exec));
    if (!inst->be->copy || !inst->be->fill)
        return px__error(PX_ERR_UNSUPPORTED, func, "backend %s cannot copy", inst->be->name);
    return PX_OK;
}

/* While inst's stream is captured, refuse what the graph cannot hold: CUDA would answer
   error 906, or on a non-blocking stream silently leave the copy out of the graph. */
static px_status check_capture(px_instance *inst, px_copy_path p, const char *what,
                               const char *label, const char *func)
{
    bool capturing = false;
    if (capturable(p) || !inst->be->is_capturing) return PX_OK;
    PX__TRY(inst->be->is_capturing(inst, &capturing));
    if (!capturing) return PX_OK;
    if (is_host_path(p))
        return px__error(PX_ERR_UNSUPPORTED, func,
                         "instance '%s' is being captured and %s of '%s' runs on the host (%s), "
                         "which a graph cannot hold",
                         inst->label, what, label, px_copy_path_string(p));
    return px__error(PX_ERR_CAPTURE_PAGEABLE, func,
                     "instance '%s' is being captured and %s of '%s' involves pageable host "
                     "memory (path %s), which a graph cannot hold; allocate that view in "
                     "HOST_PINNED (or px_host_register the memory and wrap it again)",
                     inst->label, what, label, px_copy_path_string(p));
}

static void fill_side(px__copy_side *side, const px_view *v)
{
    side->data = v->data;
    side->space = v->alloc->space;
    for (int d = 0; d < PX_MAX_RANK; ++d) side->stride[d] = d < v->rank ? v->stride[d] : 0;
}

static px__copy_op make_op(px_copy_path path, const px_view *dst, const px_view *src,
                           const void *value)
{
    px__copy_op op;
    memset(&op, 0, sizeof op);
    op.path = path;
    op.rank = dst->rank;
    for (int d = 0; d < dst->rank; ++d) op.extent[d] = dst->extent[d];
    op.elem_size = dst->elem_size;
    op.count = px__view_size(dst);
    op.bytes = (size_t)op.count * dst->elem_size;
    op.flat = src ? same_flat_order(dst, src) : px__view_contiguous(dst);
    fill_side(&op.dst, dst);
    if (src) fill_side(&op.src, src);
    op.value = value;
    return op;
}

/* Pageable memory with a differing layout: the host does the element-wise part between
   the pageable view and a pinned buffer laid out like the device view, and the device
   part moves the buffer (DMA when the device view is contiguous, else a copy kernel). */
static px_status run_strided_staged(px_instance *inst, px_view *dst, const px_view *src,
                                    const char *func)
{
    bool to_device = dst->alloc->space.kind == PX_SPACE_DEVICE;
    const px_view *dev = to_device ? dst : src;
    px_view_desc desc = {
        .label = "portex staging buffer",
        .space = px_host_pinned(),
        .dtype = dev->dtype,
        .elem_size = dev->dtype == PX_USER ? dev->elem_size : 0,
        .rank = dev->rank,
        .layout = dev->layout == PX_LAYOUT_LEFT ? PX_LAYOUT_LEFT : PX_LAYOUT_RIGHT,
        .flags = PX_VIEW_NO_INIT,
    };
    for (int d = 0; d < dev->rank; ++d) desc.extent[d] = dev->extent[d];
    px_view *tmp = NULL;
    PX__TRY(px_view_create(&tmp, &desc));
    px_copy_path device_part = same_flat_order(tmp, dev) ? PX_COPY_CUDA_DMA : PX_COPY_CUDA_STRIDED;
    px_status st;
    if (to_device) {
        px__host_copy_strided(tmp, src);
        px__copy_op op = make_op(device_part, dst, tmp, NULL);
        st = inst->be->copy(inst, &op);
    } else {
        px__copy_op op = make_op(device_part, tmp, src, NULL);
        st = inst->be->copy(inst, &op);
        if (st == PX_OK) st = inst->be->fence(inst);
        if (st == PX_OK) px__host_copy_strided(dst, tmp);
    }
    /* Releasing pinned memory is ordered after the queued copy by the backend. */
    px_view_release(&tmp);
    if (st != PX_OK && !strstr(px_last_error(), func)) {
        char why[512];
        snprintf(why, sizeof why, "%s", px_last_error());
        return px__error(st, func, "staged copy of '%s' failed: %s", dev->label, why);
    }
    return st;
}

static px_status run_copy(px_instance *inst, px_view *dst, const px_view *src, px_copy_path *path,
                          const char *func)
{
    px_copy_path p = *path;
    if (inst->exec == PX_EXEC_CUDA) PX__TRY(check_capture(inst, p, "the copy", dst->label, func));
    if (is_host_path(p)) {
        /* Ordered after the instance's earlier work: wait for it, then copy here. */
        PX__TRY(inst->be->fence(inst));
        if (p == PX_COPY_HOST_MEMCPY) px__host_copy_contiguous(dst, src);
        if (p == PX_COPY_HOST_STRIDED) px__host_copy_strided(dst, src);
        return PX_OK;
    }
    PX__TRY(check_device_instance(inst, "the copy", func));
    if (p == PX_COPY_CUDA_STRIDED_STAGED) return run_strided_staged(inst, dst, src, func);
    px__copy_op op = make_op(p, dst, src, NULL);
    PX__TRY(inst->be->copy(inst, &op));
    *path = op.path; /* the backend may have taken a fallback (and says so) */
    return PX_OK;
}

px_status px_deep_copy_async(px_instance *inst, px_view *dst, const px_view *src,
                             px_copy_path *path)
{
    PX__TRY(px__instance_check(inst, __func__));
    px_copy_path p;
    PX__TRY(select_path(dst, src, &p, __func__));
    PX__TRY(run_copy(inst, dst, src, &p, __func__));
    px__copy_count(p);
    if (path) *path = p;
    return PX_OK;
}

/* The instance a blocking copy or fill runs on: the default CUDA instance of the GPU
   involved (the destination's when both are GPUs), else the serial one. */
static px_status blocking_instance(const px_view *a, const px_view *b, px_instance **out)
{
    px_space s = a->alloc->space;
    if (b && s.kind != PX_SPACE_DEVICE) s = b->alloc->space;
    return px__instance_for_space(s, out);
}

px_status px_deep_copy(px_view *dst, const px_view *src, px_copy_path *path)
{
    px_copy_path p;
    PX__TRY(select_path(dst, src, &p, __func__));
    px_instance *inst;
    PX__TRY(blocking_instance(dst, src, &inst));
    /* Kokkos semantics: the copy sees all work issued before it, on any instance. */
    PX__TRY(px_fence_all());
    PX__TRY(run_copy(inst, dst, src, &p, __func__));
    PX__TRY(inst->be->fence(inst));
    px__copy_count(p);
    if (path) *path = p;
    return PX_OK;
}

/* ---- Fill --------------------------------------------------------------------------------- */

static px_status run_fill(px_instance *inst, px_view *dst, const void *value, px_copy_path *path,
                          const char *func)
{
    PX__TRY(px__view_check(dst, func, "dst"));
    if (!value) return px__error(PX_ERR_INVALID_ARGUMENT, func, "value must not be NULL");
    px_copy_path p;
    px_space s = dst->alloc->space;
    if (px__view_size(dst) == 0) {
        p = PX_COPY_NONE;
    } else if (px__space_is_host(s)) {
        p = PX_COPY_HOST_FILL;
        if (inst->exec == PX_EXEC_CUDA) PX__TRY(check_capture(inst, p, "the fill", dst->label, func));
        PX__TRY(inst->be->fence(inst));
        px__host_fill(dst, value);
    } else {
        PX__TRY(check_device_instance(inst, "the fill", func));
        p = PX_COPY_CUDA_FILL;
        px__copy_op op = make_op(p, dst, NULL, value);
        PX__TRY(inst->be->fill(inst, &op));
    }
    px__copy_count(p);
    if (path) *path = p;
    return PX_OK;
}

px_status px_fill_async(px_instance *inst, px_view *dst, const void *value, px_copy_path *path)
{
    PX__TRY(px__instance_check(inst, __func__));
    return run_fill(inst, dst, value, path, __func__);
}

px_status px_fill(px_view *dst, const void *value, px_copy_path *path)
{
    PX__TRY(px__view_check(dst, __func__, "dst"));
    px_instance *inst;
    PX__TRY(blocking_instance(dst, NULL, &inst));
    PX__TRY(px_fence_all());
    PX__TRY(run_fill(inst, dst, value, path, __func__));
    return inst->be->fence(inst);
}
