/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* px_view_create_mirror_view_and_copy (portex/copy.h): a mirror view and a blocking copy
 * in one call, Kokkos' create_mirror_view_and_copy. */
#include "base/error.h"
#include "portex.h"

px_status px_view_create_mirror_view_and_copy(px_view **out, px_space space, px_view *src)
{
    PX__ENTER;
    PX__ARG(out, "out must not be NULL");
    *out = NULL;
    px_view *m = NULL;
    PX__TRY(px_view_create_mirror_view(&m, space, src));
    if (m != src) {
        const px_status st = px_deep_copy(m, src, NULL);
        if (st != PX_OK) {
            (void)px_view_release(&m);
            return st;
        }
    }
    *out = m;
    return PX_OK;
}
