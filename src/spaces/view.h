/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: the objects behind px_view handles, and the pieces of the view module that
 * subviews, mirrors, copy planning and dispatch share. */
#ifndef PX_SPACES_VIEW_H
#define PX_SPACES_VIEW_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "portex.h"
#include "base/registry.h"

#define PX__VIEW_MAGIC 0x56494557u /* "VIEW" */

/* The memory behind one or more views; freed when the last reference goes (views,
   subviews, mirror views, and copies still in flight that read or write it). */
typedef struct px__alloc {
    atomic_int refs;
    px_space space;
    void *ptr;
    size_t bytes;
    bool owned;       /* false: wrapped user memory */
    char *tool_label; /* the label a Kokkos Tools library heard at allocation (NULL: none) */
    /* Memory another owner lends (a DLPack tensor): called once, by the last release,
       in place of a free; NULL for the rest. */
    void (*lender_release)(void *ctx);
    void *lender_ctx;
} px__alloc;

struct px_view {
    uint32_t magic;
    atomic_int refs;
    px__alloc *alloc;
    char *label;
    px_dtype dtype;
    size_t elem_size;
    int rank;
    int64_t extent[PX_MAX_RANK];
    int64_t stride[PX_MAX_RANK];
    px_layout layout;
    char *data;
    px__live live;
};

/* PX_OK, or PX_ERR_INVALID_ARGUMENT naming `what` ("dst", "src"). */
px_status px__view_check(const px_view *v, const char *what);
/* Number of elements (the extents are validated: the product fits). */
int64_t px__view_size(const px_view *v);
/* The elements fill one block of memory (in some dimension order). */
bool px__view_contiguous(const px_view *v);

/* Checks rank, dtype, layout, extents, strides and flags; gives the element size, the
   strides (computed for RIGHT/LEFT) and the bytes the memory must span. */
px_status px__view_validate_shape(const px_view_desc *desc, size_t *elem_size,
                                  int64_t stride[PX_MAX_RANK], size_t *span_bytes);

/* A new handle over alloc, taking over the caller's reference to alloc. */
px_status px__view_new(px_view **out, const char *label, px__alloc *alloc, char *data,
                       px_dtype dtype, size_t elem_size, int rank, const int64_t *extent,
                       const int64_t *stride, px_layout layout);

/* A view over memory another owner lends, with px_view_wrap's checks and messages: the
   last release of the memory calls release(ctx), once, on the thread that drops it, and
   frees nothing. On failure release is not called. */
px_status px__view_wrap_lent(px_view **out, const px_view_desc *desc, void *data,
                             void (*release)(void *ctx), void *ctx);

/* The layout whose strides these are: RIGHT or LEFT when they match (dimensions of
   extent 0 or 1 have any stride), else STRIDE. */
px_layout px__layout_of(int rank, const int64_t *extent, const int64_t *stride);

/* px_view_get_span's work (portex/impl/abi.h, px__kabi_view_get_span): *out, a span of
   `layout` (PX__SPAN_*) with elements of `dtype`, checked against the view. */
px_status px__view_get_span(const px_view *view, px_dtype dtype, int layout, void *out);

/* px_view_create, for the library's own views. */
px_status px__view_create(px_view **out, const px_view_desc *desc);
/* Drops one reference to a live view. */
void px__view_release(px_view *v);

void px__alloc_retain(px__alloc *alloc);
/* Drops one reference; the last one frees the memory (any thread). */
void px__alloc_release(px__alloc *alloc);

#endif /* PX_SPACES_VIEW_H */
