/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/** @file
 * portex — memory spaces: where data lives, and what portex holds in each. */
#ifndef PORTEX_SPACE_H
#define PORTEX_SPACE_H

#include <stdint.h>
#include <stddef.h>

#include "portex/core.h"

PX_EXTERN_C_BEGIN

/** The kinds of memory space. */
typedef enum px_space_kind {
    PX_SPACE_HOST = 0,    /**< pageable host memory (aligned malloc) */
    PX_SPACE_HOST_PINNED, /**< page-locked host memory the GPU can DMA from (CUDA backend) */
    PX_SPACE_DEVICE,      /**< memory of GPU number `device` (CUDA backend) */
    PX_SPACE_KIND_COUNT   /**< the number of kinds (not a space) */
} px_space_kind;

/** A memory space: a kind and, for DEVICE, the device ordinal (0 for the others). */
typedef struct px_space {
    px_space_kind kind; /**< HOST, HOST_PINNED or DEVICE */
    int device;         /**< the GPU's ordinal for DEVICE; 0 for the others */
} px_space;

/** The HOST space: pageable host memory. */
static inline px_space px_host(void)
{
    px_space s = {PX_SPACE_HOST, 0};
    return s;
}
/** The HOST_PINNED space: page-locked host memory (CUDA backend). */
static inline px_space px_host_pinned(void)
{
    px_space s = {PX_SPACE_HOST_PINNED, 0};
    return s;
}
/** The DEVICE space of GPU number `ordinal` (CUDA backend). */
static inline px_space px_device(int ordinal)
{
    px_space s = {PX_SPACE_DEVICE, ordinal};
    return s;
}

/** "HOST", "HOST_PINNED", "DEVICE"; never NULL. */
PX_API const char *px_space_kind_string(px_space_kind kind);

/** true when the space is usable in this build and on this machine, false otherwise (and
 * for a space that does not exist). A question: it leaves px_last_error as it was. */
PX_API bool px_space_available(px_space space);
/** The same as a status, with the reason: PX_OK, or PX_ERR_UNSUPPORTED (its backend is not
 * compiled in), PX_ERR_NO_DEVICE (no such GPU here), PX_ERR_INVALID_ARGUMENT (no such
 * space), ... */
PX_API px_status px_space_check(px_space space);

/** What portex has allocated in one space (the user's views plus the library's own
 * buffers, which are counted separately). */
typedef struct px_memory_stats {
    size_t bytes_in_use;  /**< views' memory alive now */
    size_t high_water;    /**< most bytes_in_use ever */
    uint64_t allocations; /**< allocations made so far */
    size_t library_bytes; /**< portex's own buffers in this space (scratch, staging) */
} px_memory_stats;

/** What portex has allocated in `space` now (px_memory_stats). */
PX_API px_status px_space_memory(px_space space, px_memory_stats *out);

/** The space a pointer's memory belongs to: DEVICE(n), HOST_PINNED (page-locked: allocated
 * pinned or registered) or HOST (pageable, or anything CUDA does not know). Without the
 * CUDA backend every pointer is HOST. px_view_wrap uses this: a wrapped view takes the
 * space its memory really has. */
PX_API px_status px_pointer_space(const void *ptr, px_space *out);

/** @{ */
/** Page-lock existing host memory (cudaHostRegister) so that copies to and from it are DMA
 * (path CUDA_DMA), and unlock it again. Locking costs about 58 ms per GiB on an H200
 * machine: do it once for buffers that are reused. Views must be wrapped after the
 * registration to be seen as pinned. PX_ERR_UNSUPPORTED without the CUDA backend. */
PX_API px_status px_host_register(void *ptr, size_t bytes);
PX_API px_status px_host_unregister(void *ptr);
/** @} */

PX_EXTERN_C_END

#endif /* PORTEX_SPACE_H */
