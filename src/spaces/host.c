/* The HOST space: pageable memory from the C library, aligned to a cache line. */
#include <stdlib.h>
#include <string.h>

#include "spaces/host.h"

static px_status host_available(px_space space)
{
    (void)space;
    return PX_OK;
}

static px_status host_alloc(px_space space, size_t bytes, void **out)
{
    (void)space;
    /* aligned_alloc wants a multiple of the alignment; round up (cannot overflow: callers
       cap sizes well below SIZE_MAX). */
    size_t rounded = (bytes + PX__HOST_ALIGNMENT - 1) / PX__HOST_ALIGNMENT * PX__HOST_ALIGNMENT;
    if (rounded < bytes) return PX_ERR_OVERFLOW;
    void *p = aligned_alloc(PX__HOST_ALIGNMENT, rounded ? rounded : PX__HOST_ALIGNMENT);
    if (!p) return PX_ERR_OUT_OF_MEMORY;
    *out = p;
    return PX_OK;
}

static void host_free(px_space space, void *ptr, size_t bytes)
{
    (void)space;
    (void)bytes;
    free(ptr);
}

static px_status host_zero(px_space space, void *ptr, size_t bytes)
{
    (void)space;
    memset(ptr, 0, bytes);
    return PX_OK;
}

const px__space_ops px__space_ops_host = {
    .name = "HOST",
    .available = host_available,
    .alloc = host_alloc,
    .free = host_free,
    .zero = host_zero,
};
