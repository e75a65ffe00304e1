/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The library's side of the kernel ABI (portex/impl/abi.h): the functions that code
 * compiled from portex's headers into users' files calls by name, exported whatever the
 * library's build, each handed to the part of the library that owns what it does. No
 * backend, space or base file exports anything of its own. */
#include <stdint.h>

#include "portex.h"

#include "backends/host/graph.h"
#include "backends/host/launch.h"
#include "base/bounds.h"
#include "base/error.h"
#include "px_config.h"
#include "spaces/view.h"
#if PX_HAVE_CUDA
#include "backends/cuda/driver/driver.h"
#endif

void px__kabi_cond_set(uint64_t handle, unsigned value) { px__host_graph_cond_set(handle, value); }

void px__kabi_bounds_violation(int dim, int64_t index, int64_t extent)
{
    px__bounds_violation(dim, index, extent);
}

px_status px__kabi_view_get_span(const px_view *view, int dtype, int layout, void *out)
{
    PX__ENTER_AS("px_view_get_span");
    /* The element type comes from the span's data pointer (PX_DTYPE_COUNT: void); any
       other value is no span's. */
    if (dtype < 0 || dtype > PX_DTYPE_COUNT)
        return px__error(PX_ERR_INVALID_ARGUMENT, "out is not a portex span (element type %d)",
                         dtype);
    return px__view_get_span(view, (px_dtype)dtype, layout, out);
}

int px__kabi_host_part(void) { return px__host_part(); }

px__kabi_fn px__kabi_cuda_launch_entry(void)
{
#if PX_HAVE_CUDA
    return (px__kabi_fn)px__cuda_driver_calls_get()->launch;
#else
    return NULL;
#endif
}
