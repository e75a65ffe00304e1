/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Subviews: part of a view, sharing (and keeping alive) its memory. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"
#include "spaces/view.h"

px_layout px__layout_of(int rank, const int64_t *extent, const int64_t *stride)
{
    int64_t right = 1, left = 1;
    bool is_right = true, is_left = true;
    for (int k = 0; k < rank; ++k) {
        int r = rank - 1 - k;
        if (extent[r] > 1 && stride[r] != right) is_right = false;
        if (extent[k] > 1 && stride[k] != left) is_left = false;
        right *= extent[r] > 1 ? extent[r] : 1;
        left *= extent[k] > 1 ? extent[k] : 1;
    }
    return is_right ? PX_LAYOUT_RIGHT : is_left ? PX_LAYOUT_LEFT : PX_LAYOUT_STRIDE;
}

px_status px_view_subview(px_view **out, px_view *src, const px_slice *slices, int nslices)
{
    PX__ENTER;
    PX__ARG(out, "out must not be NULL");
    *out = NULL;
    PX__TRY(px__view_check(src, "src"));
    PX__ARG(slices || src->rank == 0, "slices must not be NULL");
    PX__ARG(nslices == src->rank, "nslices is %d but view '%s' has rank %d", nslices, src->label,
            src->rank);

    int64_t extent[PX_MAX_RANK], stride[PX_MAX_RANK], begin[PX_MAX_RANK];
    int rank = 0;
    bool empty = false;
    for (int d = 0; d < src->rank; ++d) {
        const px_slice *s = &slices[d];
        int64_t n = src->extent[d];
        begin[d] = s->begin;
        if (s->index) {
            PX__ARG(s->begin >= 0 && s->begin < n,
                    "slices[%d] takes index %lld but extent %d of '%s' is %lld", d,
                    (long long)s->begin, d, src->label, (long long)n);
            continue;
        }
        int64_t end = s->end == PX_END ? n : s->end;
        PX__ARG(s->begin >= 0 && s->begin <= end && end <= n,
                "slices[%d] is [%lld, %lld) but extent %d of '%s' is %lld", d, (long long)s->begin,
                (long long)end, d, src->label, (long long)n);
        extent[rank] = end - s->begin;
        stride[rank] = src->stride[d];
        if (extent[rank] == 0) empty = true;
        rank++;
    }
    /* The first element's offset: in range when the subview has elements (every begin is
       then below its extent, and the source's offsets fit); an empty one keeps src's data. */
    int64_t offset = 0;
    for (int d = 0; d < src->rank && !empty; ++d) offset += begin[d] * src->stride[d];
    char *label = px__concat(src->label, "(sub)");
    if (!label) return PX__FAIL(PX_ERR_OUT_OF_MEMORY, "out of host memory");
    char *data = empty ? src->data : src->data + offset * (int64_t)src->elem_size;
    px__alloc_retain(src->alloc);
    px_status st = px__view_new(out, label, src->alloc, data, src->dtype, src->elem_size, rank,
                                extent, stride, px__layout_of(rank, extent, stride));
    if (st != PX_OK) px__alloc_release(src->alloc);
    free(label);
    return st;
}
