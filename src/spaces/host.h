/* Internal: the HOST (pageable) memory space. */
#ifndef PX_SPACES_HOST_H
#define PX_SPACES_HOST_H

#include "core/internal.h"

/* Host allocations are aligned to this (a cache line, and every vector width). */
#define PX__HOST_ALIGNMENT 64

extern const px__space_ops px__space_ops_host;

#endif /* PX_SPACES_HOST_H */
