/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: the HOST memory space (pageable memory from the C library). */
#ifndef PX_BACKENDS_HOST_MEMORY_H
#define PX_BACKENDS_HOST_MEMORY_H

#include "backends/backend.h"

/* Host allocations are aligned to this (a cache line, and every vector width). */
#define PX__HOST_ALIGNMENT 64

extern const px__space_ops px__space_ops_host;

#endif /* PX_BACKENDS_HOST_MEMORY_H */
