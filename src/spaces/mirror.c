/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Mirrors, with Kokkos's create_mirror / create_mirror_view semantics. */
#include <stdlib.h>

#include "base/error.h"
#include "base/util.h"
#include "spaces/space.h"
#include "spaces/view.h"

static px_status mirror(px_view **out, px_space space, const px_view *src)
{
    char *label = px__concat(src->label, "_mirror");
    if (!label) return px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory");
    px_view_desc desc = {
        .label = label,
        .space = space,
        .dtype = src->dtype,
        .elem_size = src->dtype == PX_USER ? src->elem_size : 0,
        .rank = src->rank,
        .layout = src->layout == PX_LAYOUT_LEFT ? PX_LAYOUT_LEFT : PX_LAYOUT_RIGHT,
    };
    for (int d = 0; d < src->rank; ++d) desc.extent[d] = src->extent[d];
    const px_status st = px__view_create(out, &desc);
    free(label);
    return st;
}

px_status px_view_create_mirror(px_view **out, px_space space, const px_view *src)
{
    PX__ENTER;
    PX__ARG(out, "out must not be NULL");
    *out = NULL;
    PX__TRY(px__view_check(src, "src"));
    PX__TRY(px__space_check(space, NULL));
    return mirror(out, space, src);
}

px_status px_view_create_mirror_view(px_view **out, px_space space, px_view *src)
{
    PX__ENTER;
    PX__ARG(out, "out must not be NULL");
    *out = NULL;
    PX__TRY(px__view_check(src, "src"));
    PX__TRY(px__space_check(space, NULL));
    if (px__space_same(src->alloc->space, space)) {
        PX__TRY(px_view_retain(src));
        *out = src;
        return PX_OK;
    }
    return mirror(out, space, src);
}
