/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* px_deep_copy_to_host and px_deep_copy_from_host (portex/copy.h): a view's elements to or
 * from plain host memory, Kokkos' deep_copy between a view and a host scalar or array. The
 * host memory is wrapped as a contiguous HOST view of the view's shape and px_deep_copy
 * does the rest, so the path is chosen as for any copy (staged when the memory is pageable
 * and the view on a GPU). */
#include "base/error.h"
#include "portex.h"
#include "spaces/view.h"

/* A HOST view over `host` with v's extents, column-major when v is LAYOUT_LEFT and row-major
   otherwise (a strided v's elements go in row-major order), after checking that `bytes` is
   v's size. */
static px_status wrap_as(px_view **out, const px_view *v, const char *what, void *host,
                         size_t bytes)
{
    PX__TRY(px__view_check(v, what));
    const int64_t n = px__view_size(v);
    if (n > 0) PX__ARG(host, "the host memory must not be NULL");
    if ((uint64_t)n * v->elem_size != bytes)
        return px__error(PX_ERR_INVALID_ARGUMENT,
                         "%s '%s' holds %lld elements of %zu bytes (%llu bytes), not the %zu "
                         "bytes given",
                         what, v->label, (long long)n, v->elem_size,
                         (unsigned long long)n * v->elem_size, bytes);
    px_view_desc desc = {
        .label = "host memory",
        .space = px_host(),
        .dtype = v->dtype,
        .elem_size = v->dtype == PX_USER ? v->elem_size : 0,
        .rank = v->rank,
        .layout = v->layout == PX_LAYOUT_LEFT ? PX_LAYOUT_LEFT : PX_LAYOUT_RIGHT,
    };
    for (int d = 0; d < v->rank; ++d) desc.extent[d] = v->extent[d];
    return px_view_wrap(out, &desc, host); /* NULL only for an empty view, as wrap allows */
}

px_status px_deep_copy_to_host(void *dst, size_t bytes, const px_view *src)
{
    PX__ENTER;
    px_view *h = NULL;
    PX__TRY(wrap_as(&h, src, "src", dst, bytes));
    const px_status st = px_deep_copy(h, src, NULL);
    (void)px_view_release(&h);
    return st;
}

px_status px_deep_copy_from_host(px_view *dst, const void *src, size_t bytes)
{
    PX__ENTER;
    px_view *h = NULL;
    /* Only read: the wrapper is the copy's source. */
    PX__TRY(wrap_as(&h, dst, "dst", (void *)(uintptr_t)src, bytes));
    const px_status st = px_deep_copy(dst, h, NULL);
    (void)px_view_release(&h);
    return st;
}
