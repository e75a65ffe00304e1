/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: page-locked host memory (HOST_PINNED), through a bounded cache.
 *
 * cudaHostAlloc is slow (about 0.5 s for 1 GiB: the pages are locked one by one) and
 * cudaFreeHost as well, so freed blocks are kept in size classes (4 KiB, then four
 * classes per power of two: at most 25% above the request) and handed out again.
 * Bound: at most PX__PINNED_CACHE_SLOTS blocks and PX_CUDA_PINNED_CACHE_MB MiB of idle
 * blocks (default 2048; 0 disables the cache), least recently freed evicted first.
 * A freed block is reused only once the work queued before its free has run; an
 * allocation never waits for that: it takes a block whose work is done, or a new one. */
#ifndef PX_BACKENDS_CUDA_MEMORY_PINNED_H
#define PX_BACKENDS_CUDA_MEMORY_PINNED_H

#include <stddef.h>

#include "backends/backend.h"

/* PX_SPACE_HOST_PINNED: cudaHostAlloc behind the cache. */
extern const px__space_ops px__space_ops_cuda_pinned;

#define PX__PINNED_CACHE_SLOTS 64
#define PX__PINNED_CACHE_DEFAULT_MB 2048

/* A pinned block of at least `bytes`. */
px_status px__cuda_pinned_alloc(size_t bytes, void **out);
/* Gives a block back (to the cache when it fits, else to CUDA) once queued work allows. */
void px__cuda_pinned_free(void *ptr, size_t bytes);
/* Frees every idle block (px_finalize). */
void px__cuda_pinned_trim(void);
/* The cache's bound in bytes, for the configuration report. */
size_t px__cuda_pinned_cache_limit(void);

#endif /* PX_BACKENDS_CUDA_MEMORY_PINNED_H */
