/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* px_view_create_mirror_view_and_copy (portex/copy.h): a mirror view and a blocking copy
 * in one call, Kokkos' create_mirror_view_and_copy. */
#include "base/error.h"
#include "portex.h"
#include "spaces/space.h"
#include "spaces/view.h"

px_status px_view_create_mirror_view_and_copy(px_view **out, px_space space, px_view *src)
{
    PX__ENTER;
    PX__ARG(out, "out must not be NULL");
    *out = NULL;
    PX__TRY(px__view_check(src, "src"));
    PX__TRY(px__space_check(space, NULL));
    const px_space have = src->alloc->space;
    if (have.kind == space.kind && have.device == space.device) {
        PX__TRY(px_view_retain(src));
        *out = src;
        return PX_OK;
    }
    px_view *m = NULL;
    PX__TRY(px_view_create_mirror(&m, space, src));
    const px_status st = px_deep_copy(m, src, NULL);
    if (st != PX_OK) {
        (void)px_view_release(&m);
        return st;
    }
    *out = m;
    return PX_OK;
}
