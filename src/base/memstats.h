/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: the bytes portex has allocated per memory space and device, the user's views
 * and the library's own buffers apart (px_space_memory reports them). */
#ifndef PX_BASE_MEMSTATS_H
#define PX_BASE_MEMSTATS_H

#include <stdbool.h>
#include <stddef.h>

#include "portex/space.h"

/* Views' memory (thread-safe); space must be valid. */
void px__memory_account(px_space space, size_t bytes, bool add);
/* The library's own buffers: scratch, staging, caches (thread-safe). */
void px__memory_account_library(px_space space, size_t bytes, bool add);
/* A consistent snapshot; space must be valid. */
px_memory_stats px__memory_stats(px_space space);

#endif /* PX_BASE_MEMSTATS_H */
