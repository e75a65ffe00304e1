/* Internal: copies and fills that the CPU does itself. */
#ifndef PX_SPACES_COPY_HOST_H
#define PX_SPACES_COPY_HOST_H

#include "core/internal.h"

/* dst and src: same extents and element size, both in host-accessible memory. */
void px__host_copy_contiguous(px_view *dst, const px_view *src);
void px__host_copy_strided(px_view *dst, const px_view *src);
void px__host_fill(px_view *dst, const void *value);

/* Fill `count` elements of elem_size bytes at dst with *value. */
void px__fill_bytes(void *dst, size_t count, size_t elem_size, const void *value);

#endif /* PX_SPACES_COPY_HOST_H */
