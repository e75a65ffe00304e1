/* Internal: pieces of the view module shared by subviews, mirrors and copies. */
#ifndef PX_SPACES_VIEW_INTERNAL_H
#define PX_SPACES_VIEW_INTERNAL_H

#include "core/internal.h"

/* Checks rank, dtype, layout, extents and strides; gives the element size, the strides
   (computed for RIGHT/LEFT) and the bytes the memory must span. */
px_status px__view_validate_shape(const px_view_desc *desc, const char *func, size_t *elem_size,
                                  int64_t stride[PX_MAX_RANK], size_t *span_bytes);

/* A new handle over alloc, taking over the caller's reference to alloc. */
px_status px__view_new(px_view **out, const char *label, px__alloc *alloc, char *data,
                       px_dtype dtype, size_t elem_size, int rank, const int64_t *extent,
                       const int64_t *stride, px_layout layout, const char *func);

void px__alloc_release(px__alloc *alloc);

/* Dimensions ordered by increasing stride (the innermost first). */
void px__view_dims_by_stride(const px_view *v, int order[PX_MAX_RANK]);

#endif /* PX_SPACES_VIEW_INTERNAL_H */
