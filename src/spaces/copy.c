/* deep_copy and fill: choose the path from where the two views live and how they are
 * laid out, run it in the asked-for form, count it.
 *
 *   src \ dst      HOST / HOST_PINNED            DEVICE(n)
 *   HOST*          HOST_MEMCPY or HOST_STRIDED    CUDA_PAGEABLE (HOST), CUDA_DMA (PINNED)
 *   DEVICE(n)      CUDA_PAGEABLE / CUDA_DMA       CUDA_D2D
 *
 * Host paths run on the calling thread after the instance's earlier work. Device paths
 * are queued on a CUDA instance. Non-contiguous device copies, copies between two GPUs
 * and staging of pageable memory are not implemented yet and say so. */
#include <stdatomic.h>
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
    if (!flat)
        return px__error(PX_ERR_UNSUPPORTED, func,
                         "copying between '%s' and '%s' needs a strided or layout-converting "
                         "device copy, which is not implemented yet; copy through contiguous "
                         "views of one layout",
                         dst->label, src->label);
    if (ds.kind == PX_SPACE_DEVICE && ss.kind == PX_SPACE_DEVICE) {
        if (ds.device != ss.device)
            return px__error(PX_ERR_UNSUPPORTED, func,
                             "copies between two GPUs (%d and %d) are not implemented yet",
                             ss.device, ds.device);
        *path = PX_COPY_CUDA_D2D;
        return PX_OK;
    }
    px_space host = ds.kind == PX_SPACE_DEVICE ? ss : ds;
    *path = host.kind == PX_SPACE_HOST_PINNED ? PX_COPY_CUDA_DMA : PX_COPY_CUDA_PAGEABLE;
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

static px_status run_copy(px_instance *inst, px_view *dst, const px_view *src, px_copy_path path,
                          const char *func)
{
    if (is_host_path(path)) {
        /* Ordered after the instance's earlier work: wait for it, then copy here. */
        PX__TRY(inst->be->fence(inst));
        if (path == PX_COPY_HOST_MEMCPY) px__host_copy_contiguous(dst, src);
        if (path == PX_COPY_HOST_STRIDED) px__host_copy_strided(dst, src);
        return PX_OK;
    }
    PX__TRY(check_device_instance(inst, "the copy", func));
    size_t bytes = (size_t)px__view_size(dst) * dst->elem_size;
    return inst->be->copy(inst, dst->data, dst->alloc->space, src->data, src->alloc->space, bytes,
                          path);
}

px_status px_deep_copy_async(px_instance *inst, px_view *dst, const px_view *src,
                             px_copy_path *path)
{
    PX__TRY(px__instance_check(inst, __func__));
    px_copy_path p;
    PX__TRY(select_path(dst, src, &p, __func__));
    PX__TRY(run_copy(inst, dst, src, p, __func__));
    px__copy_count(p);
    if (path) *path = p;
    return PX_OK;
}

/* The instance a blocking copy or fill runs on: the default CUDA instance of the GPU
   involved, else the serial one. */
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
    PX__TRY(run_copy(inst, dst, src, p, __func__));
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
        PX__TRY(inst->be->fence(inst));
        px__host_fill(dst, value);
    } else {
        PX__TRY(check_device_instance(inst, "the fill", func));
        if (!px__view_contiguous(dst))
            return px__error(PX_ERR_UNSUPPORTED, func,
                             "filling the non-contiguous device view '%s' is not implemented yet",
                             dst->label);
        p = PX_COPY_CUDA_FILL;
        PX__TRY(inst->be->fill(inst, dst->data, s, (size_t)px__view_size(dst), dst->elem_size,
                               value));
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
