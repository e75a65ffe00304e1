/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Views: creation, wrapping, reference counts, queries and the kernel-side spans. */
#include "spaces/view.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/backends.h"
#include "backends/host/copy.h"
#include "base/error.h"
#include "base/memstats.h"
#include "base/state.h"
#include "base/util.h"
#include "observability/kokkos_tools.h"
#include "observability/profiling.h"
#include "spaces/space.h"

static const size_t dtype_sizes[PX_DTYPE_COUNT] = {
    [PX_U8] = 1,  [PX_I32] = 4, [PX_I64] = 8, [PX_U32] = 4,
    [PX_U64] = 8, [PX_F32] = 4, [PX_F64] = 8, [PX_USER] = 0,
};

static const char *const dtype_names[PX_DTYPE_COUNT] = {
    [PX_U8] = "u8",   [PX_I32] = "i32", [PX_I64] = "i64", [PX_U32] = "u32",
    [PX_U64] = "u64", [PX_F32] = "f32", [PX_F64] = "f64", [PX_USER] = "user",
};

const char *px_dtype_string(px_dtype dtype)
{
    if ((int)dtype < 0 || dtype >= PX_DTYPE_COUNT) return "unknown";
    return dtype_names[dtype];
}

size_t px_dtype_size(px_dtype dtype)
{
    if ((int)dtype < 0 || dtype >= PX_DTYPE_COUNT) return 0;
    return dtype_sizes[dtype];
}

const char *px_layout_string(px_layout layout)
{
    switch (layout) {
    case PX_LAYOUT_RIGHT: return "right";
    case PX_LAYOUT_LEFT: return "left";
    case PX_LAYOUT_STRIDE: return "stride";
    }
    return "unknown";
}

px_status px__view_check(const px_view *v, const char *what)
{
    if (!v) return px__error(PX_ERR_INVALID_ARGUMENT, "%s is NULL (a released view?)", what);
    if (v->magic != PX__VIEW_MAGIC)
        return px__error(PX_ERR_INVALID_ARGUMENT, "%s is not a live view", what);
    return PX_OK;
}

int64_t px__view_size(const px_view *v)
{
    /* Validated: the extents' product, zeros left out, fits; a zero makes it 0. */
    int64_t n = 1;
    for (int d = 0; d < v->rank; ++d)
        if (v->extent[d] == 0) return 0;
    for (int d = 0; d < v->rank; ++d) n *= v->extent[d];
    return n;
}

bool px__view_contiguous(const px_view *v)
{
    /* Contiguous when, visiting dimensions from the smallest stride up, each stride equals
       the product of the extents before it. Views with 0 or 1 element always are. */
    if (px__view_size(v) <= 1) return true;
    int order[PX_MAX_RANK];
    px__dims_by_stride(v->rank, v->stride, order);
    int64_t expect = 1;
    for (int k = 0; k < v->rank; ++k) {
        int d = order[k];
        if (v->extent[d] == 1) continue;
        if (v->stride[d] != expect) return false;
        expect *= v->extent[d];
    }
    return true;
}

px_status px__view_validate_shape(const px_view_desc *desc, size_t *elem_size,
                                  int64_t stride[PX_MAX_RANK], size_t *span_bytes)
{
    if (desc->rank < 0 || desc->rank > PX_MAX_RANK)
        return px__error(PX_ERR_INVALID_ARGUMENT, "desc->rank is %d; expected 0 to %d", desc->rank,
                         PX_MAX_RANK);
    if ((int)desc->dtype < 0 || desc->dtype >= PX_DTYPE_COUNT)
        return px__error(PX_ERR_INVALID_ARGUMENT, "desc->dtype is %d; expected a px_dtype",
                         (int)desc->dtype);
    size_t es = dtype_sizes[desc->dtype];
    if (desc->dtype == PX_USER) {
        if (desc->elem_size == 0)
            return px__error(PX_ERR_INVALID_ARGUMENT,
                             "desc->elem_size is 0; PX_USER needs the element size in bytes");
        es = desc->elem_size;
    } else if (desc->elem_size != 0 && desc->elem_size != es) {
        return px__error(PX_ERR_INVALID_ARGUMENT,
                         "desc->elem_size is %zu but %s elements have %zu bytes (leave it 0)",
                         desc->elem_size, dtype_names[desc->dtype], es);
    }
    if ((int)desc->layout < 0 || desc->layout > PX_LAYOUT_STRIDE)
        return px__error(PX_ERR_INVALID_ARGUMENT, "desc->layout is %d; expected a px_layout",
                         (int)desc->layout);
    for (int d = 0; d < desc->rank; ++d) {
        if (desc->extent[d] < 0)
            return px__error(PX_ERR_INVALID_ARGUMENT, "desc->extent[%d] is %lld; expected >= 0", d,
                             (long long)desc->extent[d]);
        if (desc->layout == PX_LAYOUT_STRIDE && desc->stride[d] < 0)
            return px__error(PX_ERR_INVALID_ARGUMENT,
                             "desc->stride[%d] is %lld; LAYOUT_STRIDE needs strides >= 0", d,
                             (long long)desc->stride[d]);
    }
    if (desc->flags & ~(unsigned)PX_VIEW_NO_INIT)
        return px__error(PX_ERR_INVALID_ARGUMENT,
                         "desc->flags 0x%x holds unknown bits (known: PX_VIEW_NO_INIT)",
                         desc->flags);
    /* The extents' product (zeros left out) and every element's offset in bytes must fit
       int64 and ptrdiff_t, also for an empty view: sizes, subviews and kernels index with
       them. Unsigned arithmetic, checked before each step. */
    const size_t limit = (size_t)PTRDIFF_MAX;
    size_t count = 1, last = 0;
    bool empty = false;
    for (int d = 0; d < desc->rank; ++d) {
        const size_t e = (size_t)desc->extent[d];
        if (e == 0) empty = true;
        if (px__mul_overflows(count, e ? e : 1, &count) || count > limit)
            return px__error(PX_ERR_OVERFLOW, "the extents' product overflows");
    }
    if (desc->layout == PX_LAYOUT_STRIDE) {
        for (int d = 0; d < desc->rank; ++d) {
            const size_t e = (size_t)desc->extent[d];
            size_t reach;
            stride[d] = desc->stride[d];
            if (e == 0) continue;
            if (px__mul_overflows(e - 1, (size_t)desc->stride[d], &reach) ||
                px__add_overflows(last, reach, &last) || last >= limit)
                return px__error(PX_ERR_OVERFLOW, "the strided extents overflow");
        }
    } else {
        int64_t s = 1;
        for (int k = 0; k < desc->rank; ++k) {
            const int d = desc->layout == PX_LAYOUT_RIGHT ? desc->rank - 1 - k : k;
            stride[d] = s;
            s *= desc->extent[d] > 1 ? desc->extent[d] : 1; /* at most count: fits */
        }
        last = count - 1;
    }
    for (int d = desc->rank; d < PX_MAX_RANK; ++d) stride[d] = 0;
    size_t bytes = 0;
    if (px__mul_overflows(last + 1, es, &bytes) || bytes > limit)
        return px__error(PX_ERR_OVERFLOW, "%zu elements of %zu bytes overflow", last + 1, es);
    if (empty) bytes = 0;
    *elem_size = es;
    *span_bytes = bytes;
    return PX_OK;
}

/* A view handle over `alloc` (whose reference the view takes over). */
px_status px__view_new(px_view **out, const char *label, px__alloc *alloc, char *data,
                       px_dtype dtype, size_t elem_size, int rank, const int64_t *extent,
                       const int64_t *stride, px_layout layout)
{
    char *lab = NULL;
    px_view *v = px__calloc_labelled(sizeof *v, label, &lab);
    if (!v) return px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory for the view handle");
    v->magic = PX__VIEW_MAGIC;
    atomic_init(&v->refs, 1);
    v->alloc = alloc;
    v->label = lab;
    v->dtype = dtype;
    v->elem_size = elem_size;
    v->rank = rank;
    for (int d = 0; d < rank; ++d) {
        v->extent[d] = extent[d];
        v->stride[d] = stride[d];
    }
    v->layout = layout;
    v->data = data;
    px__live_add(&v->live, PX__OBJ_VIEW, v->label);
    *out = v;
    return PX_OK;
}

/* A wrapped view takes the space its memory really has: pinned-ness is a property of the
   memory (the caller may not know it), so HOST and HOST_PINNED follow the pointer; a
   claim of host memory for device memory, or the reverse, is an error. */
static px_status classify_wrapped(const void *data, px_space *space)
{
    const px_space real = px__pointer_space(data);
    const bool claims_host = px__space_ops_get(space->kind)->host_access;
    const bool is_host = px__space_ops_get(real.kind)->host_access;
    if (claims_host != is_host || (!is_host && real.device != space->device))
        return px__error(PX_ERR_INVALID_ARGUMENT, "data is %s(%d) memory but desc->space is %s(%d)",
                         px_space_kind_string(real.kind), real.device,
                         px_space_kind_string(space->kind), space->device);
    *space = real;
    return PX_OK;
}

/* The alignment a built-in element of es bytes needs: the largest power of two dividing
   es, at most 16. */
static size_t natural_alignment(size_t es)
{
    size_t a = 1;
    while (a < 16 && es % (a * 2) == 0) a *= 2;
    return a;
}

/* A new allocation's zero-fill. Memory the CPU reaches is zeroed by the default team of the
   backend whose threads run host work (px__backend_host_team: the default execution
   space's when it is OpenMP or threads, else OpenMP's, else the threads backend's), each
   thread the share of the elements a 1-D loop over the view gives it, so that first touch
   puts every page on the NUMA node of the thread whose loops will use it (docs/views.md);
   else, and in a GPU's memory, by the space's own zero. */
static px_status zero_new(const px__space_ops *ops, px_space space, void *ptr, size_t bytes,
                          size_t elem_size)
{
    const px__backend *team = ops->host_access ? px__backend_host_team() : NULL;
    if (team && team->zero_host) return team->zero_host(ptr, bytes, elem_size);
    return ops->zero(space, ptr, bytes);
}

static px_status create_or_wrap(px_view **out, const px_view_desc *desc, void *user_data, bool wrap,
                                void (*lender_release)(void *ctx), void *lender_ctx)
{
    if (!out) return px__error(PX_ERR_INVALID_ARGUMENT, "out must not be NULL");
    *out = NULL;
    if (!desc) return px__error(PX_ERR_INVALID_ARGUMENT, "desc must not be NULL");
    PX__TRY(px__require_init());
    size_t es, bytes;
    int64_t stride[PX_MAX_RANK];
    PX__TRY(px__view_validate_shape(desc, &es, stride, &bytes));
    const px__space_ops *ops = NULL;
    PX__TRY(px__space_check(desc->space, &ops));
    if (wrap && !user_data && bytes)
        return px__error(PX_ERR_INVALID_ARGUMENT, "data is NULL but the view has elements");
    px_space space = desc->space;
    if (wrap && user_data) {
        /* Kernels load built-in elements by their type: on a GPU a misaligned pointer is a
           sticky fault that ends the context, so it is refused here. PX_USER elements are
           bytes to portex (its copies work at any alignment); their type is the caller's. */
        const size_t align = desc->dtype == PX_USER ? 1 : natural_alignment(es);
        if ((uintptr_t)user_data % align != 0)
            return px__error(PX_ERR_INVALID_ARGUMENT,
                             "data %p is not aligned to %zu bytes, as %zu-byte elements need",
                             user_data, align, es);
        PX__TRY(classify_wrapped(user_data, &space));
    }

    px__alloc *alloc = px__calloc(1, sizeof *alloc);
    if (!alloc) return px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory");
    atomic_init(&alloc->refs, 1);
    alloc->space = space;
    alloc->bytes = bytes;
    alloc->owned = !wrap;
    if (wrap) {
        alloc->ptr = user_data;
    } else if (bytes) {
        px_clear_error(); /* so that only the backend's own reason is quoted below */
        px_status st = ops->alloc(desc->space, bytes, &alloc->ptr);
        if (st == PX_OK && !(desc->flags & PX_VIEW_NO_INIT)) {
            st = zero_new(ops, desc->space, alloc->ptr, bytes, es);
            if (st != PX_OK) ops->free(desc->space, alloc->ptr, bytes);
        }
        if (st != PX_OK) {
            free(alloc);
            char why[512];
            snprintf(why, sizeof why, "%s", px_last_error());
            return px__error(st, "allocating view '%s': %zu bytes in %s(%d) failed (%s)%s%s",
                             desc->label ? desc->label : "", bytes,
                             px_space_kind_string(desc->space.kind), desc->space.device,
                             px_status_string(st), why[0] ? ": " : "", why);
        }
        px__memory_account(desc->space, bytes, true);
        if (px__prof_mask & PX__PROF_KOKKOS) {
            /* The library hears the same label at deallocation, when the view may be gone. */
            alloc->tool_label = px__strdup(desc->label ? desc->label : "");
            if (alloc->tool_label)
                px__kp_allocate(desc->space, alloc->tool_label, alloc->ptr, bytes);
        }
    }
    px_status st = px__view_new(out, desc->label, alloc, alloc->ptr, desc->dtype, es, desc->rank,
                                desc->extent, stride, desc->layout);
    if (st != PX_OK) {
        px__alloc_release(alloc);
        return st;
    }
    /* Only now: a failure above must leave the lent memory to its owner. The view is not
       yet the caller's, so no other thread can release it meanwhile. */
    alloc->lender_release = lender_release;
    alloc->lender_ctx = lender_ctx;
    return PX_OK;
}

px_status px__view_create(px_view **out, const px_view_desc *desc)
{
    return create_or_wrap(out, desc, NULL, false, NULL, NULL);
}

px_status px_view_create(px_view **out, const px_view_desc *desc)
{
    PX__ENTER;
    return create_or_wrap(out, desc, NULL, false, NULL, NULL);
}

/* A new contiguous LAYOUT_RIGHT view of `rank` extents (1 to 3) of a built-in dtype: the
   one-call constructors. */
static px_status create_simple(px_view **out, const char *label, px_space space, px_dtype dtype,
                               int rank, const int64_t *n, unsigned flags)
{
    static const char *const names[3] = {"n0", "n1", "n2"};
    if (!out) return px__error(PX_ERR_INVALID_ARGUMENT, "out must not be NULL");
    *out = NULL;
    if (dtype == PX_USER)
        return px__error(PX_ERR_INVALID_ARGUMENT,
                         "dtype is PX_USER, which needs an element size: use px_view_create");
    if ((int)dtype < 0 || dtype > PX_USER)
        return px__error(PX_ERR_INVALID_ARGUMENT,
                         "dtype is %d; expected a built-in px_dtype (PX_U8 to PX_F64)", (int)dtype);
    for (int d = 0; d < rank; ++d)
        if (n[d] < 0)
            return px__error(PX_ERR_INVALID_ARGUMENT, "%s is %lld; expected >= 0",
                             rank == 1 ? "n" : names[d], (long long)n[d]);
    if (flags & ~(unsigned)PX_VIEW_NO_INIT)
        return px__error(PX_ERR_INVALID_ARGUMENT,
                         "flags 0x%x holds unknown bits (known: PX_VIEW_NO_INIT)", flags);
    px_view_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.label = label;
    desc.space = space;
    desc.dtype = dtype;
    desc.rank = rank;
    for (int d = 0; d < rank; ++d) desc.extent[d] = n[d];
    desc.flags = flags;
    return create_or_wrap(out, &desc, NULL, false, NULL, NULL);
}

px_status px_view_create_1d(px_view **out, const char *label, px_space space, px_dtype dtype,
                            int64_t n)
{
    PX__ENTER;
    return create_simple(out, label, space, dtype, 1, &n, 0);
}

px_status px_view_create_1d_ex(px_view **out, const char *label, px_space space, px_dtype dtype,
                               int64_t n, unsigned flags)
{
    PX__ENTER;
    return create_simple(out, label, space, dtype, 1, &n, flags);
}

px_status px_view_create_2d(px_view **out, const char *label, px_space space, px_dtype dtype,
                            int64_t n0, int64_t n1)
{
    PX__ENTER;
    const int64_t n[2] = {n0, n1};
    return create_simple(out, label, space, dtype, 2, n, 0);
}

px_status px_view_create_3d(px_view **out, const char *label, px_space space, px_dtype dtype,
                            int64_t n0, int64_t n1, int64_t n2)
{
    PX__ENTER;
    const int64_t n[3] = {n0, n1, n2};
    return create_simple(out, label, space, dtype, 3, n, 0);
}

px_status px_view_wrap(px_view **out, const px_view_desc *desc, void *data)
{
    PX__ENTER;
    return create_or_wrap(out, desc, data, true, NULL, NULL);
}

px_status px__view_wrap_lent(px_view **out, const px_view_desc *desc, void *data,
                             void (*release)(void *ctx), void *ctx)
{
    return create_or_wrap(out, desc, data, true, release, ctx);
}

void px__alloc_retain(px__alloc *alloc)
{
    atomic_fetch_add_explicit(&alloc->refs, 1, memory_order_relaxed);
}

void px__alloc_release(px__alloc *alloc)
{
    if (atomic_fetch_sub_explicit(&alloc->refs, 1, memory_order_acq_rel) != 1) return;
    if (alloc->owned && alloc->bytes) {
        if (alloc->tool_label && (px__prof_mask & PX__PROF_KOKKOS))
            px__kp_deallocate(alloc->space, alloc->tool_label, alloc->ptr, alloc->bytes);
        px__space_ops_get(alloc->space.kind)->free(alloc->space, alloc->ptr, alloc->bytes);
        px__memory_account(alloc->space, alloc->bytes, false);
    }
    free(alloc->tool_label);
    if (alloc->lender_release) alloc->lender_release(alloc->lender_ctx);
    free(alloc);
}

px_status px_view_retain(px_view *view)
{
    PX__ENTER;
    PX__TRY(px__view_check(view, "view"));
    atomic_fetch_add_explicit(&view->refs, 1, memory_order_relaxed);
    return PX_OK;
}

void px__view_release(px_view *v)
{
    if (atomic_fetch_sub_explicit(&v->refs, 1, memory_order_acq_rel) != 1) return;
    px__live_remove(&v->live);
    px__alloc_release(v->alloc);
    v->magic = 0;
    free(v->label);
    free(v);
}

px_status px_view_release(px_view **view)
{
    PX__ENTER;
    PX__ARG(view, "view must not be NULL (pass the address of your handle)");
    PX__TRY(px__view_check(*view, "*view"));
    px_view *v = *view;
    *view = NULL;
    px__view_release(v);
    return PX_OK;
}

px_status px_view_info_get(const px_view *view, px_view_info *out)
{
    PX__ENTER;
    PX__TRY(px__view_check(view, "view"));
    PX__ARG(out, "out must not be NULL");
    memset(out, 0, sizeof *out);
    out->label = view->label;
    out->space = view->alloc->space;
    out->dtype = view->dtype;
    out->elem_size = view->elem_size;
    out->rank = view->rank;
    memcpy(out->extent, view->extent, sizeof out->extent);
    memcpy(out->stride, view->stride, sizeof out->stride);
    out->layout = view->layout;
    out->data = view->data;
    out->size = px__view_size(view);
    out->bytes = (size_t)out->size * view->elem_size;
    out->contiguous = px__view_contiguous(view);
    out->managed = view->alloc->owned;
    out->use_count = atomic_load_explicit(&((px_view *)view)->refs, memory_order_relaxed);
    return PX_OK;
}

/* ---- Spans ---------------------------------------------------------------------------- */

static px_status fill_span(const px_view *view, px_dtype want, px_span *out)
{
    if (!out) return px__error(PX_ERR_INVALID_ARGUMENT, "out must not be NULL");
    memset(out, 0, sizeof *out);
    PX__TRY(px__view_check(view, "view"));
    if (want != PX_DTYPE_COUNT && view->dtype != want)
        return px__error(PX_ERR_TYPE_MISMATCH, "view '%s' holds %s elements, not %s", view->label,
                         dtype_names[view->dtype], dtype_names[want]);
    out->data = view->data;
    out->rank = view->rank;
    for (int d = 0; d < view->rank; ++d) {
        out->extent[d] = view->extent[d];
        out->stride[d] = view->stride[d];
    }
    return PX_OK;
}

px_status px_view_span(const px_view *view, px_span *out)
{
    PX__ENTER;
    return fill_span(view, PX_DTYPE_COUNT, out);
}

/* The typed spans share px_span's layout (same fields, a different pointer type). */
#define PX__TYPED_SPAN(suffix, DT)                                              \
    px_status px_view_span_##suffix(const px_view *view, px_span_##suffix *out) \
    {                                                                           \
        PX__ENTER;                                                              \
        px_span s;                                                              \
        px_status st = fill_span(view, DT, out ? &s : NULL);                    \
        if (!out) return st;                                                    \
        memset(out, 0, sizeof *out);                                            \
        if (st != PX_OK) return st;                                             \
        out->data = s.data;                                                     \
        memcpy(out->extent, s.extent, sizeof out->extent);                      \
        memcpy(out->stride, s.stride, sizeof out->stride);                      \
        out->rank = s.rank;                                                     \
        return PX_OK;                                                           \
    }

PX__TYPED_SPAN(u8, PX_U8)
PX__TYPED_SPAN(i32, PX_I32)
PX__TYPED_SPAN(i64, PX_I64)
PX__TYPED_SPAN(u32, PX_U32)
PX__TYPED_SPAN(u64, PX_U64)
PX__TYPED_SPAN(f32, PX_F32)
PX__TYPED_SPAN(f64, PX_F64)

/* The form of px_span_<T>_1d, for px__view_get_span. */
typedef struct span_1d {
    void *data;
    int64_t extent[1];
    int64_t stride[1];
    int32_t rank;
} span_1d;

/* The dimension that `layout` indexes without its stride (-1: none), after checking that
   the view has stride 1 there (or extent 0 or 1, where every stride is 1). */
static px_status unit_dimension(const px_view *view, int layout, int *dim)
{
    static const char *const what[] = {[PX__SPAN_RIGHT] = "a right span needs its last",
                                       [PX__SPAN_LEFT] = "a left span needs its first",
                                       [PX__SPAN_1D] = "a 1-D span needs its"};
    *dim = -1;
    if (layout == PX__SPAN_1D && view->rank != 1)
        return px__error(
            PX_ERR_INVALID_ARGUMENT,
            "view '%s' has rank %d; a 1-D span needs rank 1 (use a right or left span)",
            view->label, view->rank);
    if (layout == PX__SPAN_STRIDED || view->rank == 0) return PX_OK;
    const int d = layout == PX__SPAN_RIGHT ? view->rank - 1 : 0;
    if (view->extent[d] > 1 && view->stride[d] != 1)
        return px__error(PX_ERR_INVALID_ARGUMENT,
                         "view '%s' has stride %lld in dimension %d; %s dimension contiguous "
                         "(stride 1): use a strided span (px_span_%s) for this view",
                         view->label, (long long)view->stride[d], d, what[layout],
                         dtype_names[view->dtype]);
    *dim = d;
    return PX_OK;
}

px_status px__view_get_span(const px_view *view, px_dtype dtype, int layout, void *out)
{
    PX__ENTER_AS("px_view_get_span");
    if (!out) return px__error(PX_ERR_INVALID_ARGUMENT, "out must not be NULL");
    if (layout < PX__SPAN_STRIDED || layout > PX__SPAN_1D)
        return px__error(PX_ERR_INVALID_ARGUMENT, "out is not a portex span (layout tag %d)",
                         layout);
    const bool one = layout == PX__SPAN_1D;
    const size_t bytes =
        one ? offsetof(span_1d, rank) + sizeof(int32_t) : offsetof(px_span, px__layout);
    memset(out, 0, bytes);
    px_span s;
    int dim;
    PX__TRY(fill_span(view, dtype, &s));
    PX__TRY(unit_dimension(view, layout, &dim));
    if (dim >= 0) s.stride[dim] = 1;
    if (one) {
        span_1d v = {s.data, {s.extent[0]}, {s.stride[0]}, s.rank};
        memcpy(out, &v, bytes);
    } else {
        memcpy(out, &s, bytes);
    }
    return PX_OK;
}
