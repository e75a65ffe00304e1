/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* docs/views.md: creating a 2-D view ("create"), two subviews of it ("subview"), and a
 * host mirror read on the host ("mirror"), each checked for what the page says it gives. */
#include "snippet.h"

enum { ny = 6, nx = 5 };

static px_view *create(void)
{
    SNIPPET_BEGIN();
    /* snippet: create */
    SNIPPET_END();

    px_view_info info;
    px_space where;
    CHECK(px_view_info_get(a, &info));
    CHECK(px_default_space(&where));
    EXPECT(info.rank == 2 && info.extent[0] == ny && info.extent[1] == nx);
    EXPECT(info.dtype == PX_F64 && info.layout == PX_LAYOUT_RIGHT && info.space.kind == where.kind);
    return a;
}

static void subview(px_view *a)
{
    px_view *inner, *first;

    SNIPPET_BEGIN();
    /* snippet: subview */
    SNIPPET_END();

    px_view_info info;
    CHECK(px_view_info_get(inner, &info)); /* interior rows: still RIGHT */
    EXPECT(info.rank == 2 && info.extent[0] == ny - 2 && info.extent[1] == nx);
    EXPECT(info.layout == PX_LAYOUT_RIGHT);
    CHECK(px_view_info_get(first, &info)); /* column 0: rank 1, strided */
    EXPECT(info.rank == 1 && info.extent[0] == ny && info.stride[0] == nx);
    EXPECT(info.layout == PX_LAYOUT_STRIDE);
    CHECK(px_view_release(&inner));
    CHECK(px_view_release(&first));
}

static void mirror(void)
{
    enum { n = 100 };
    const double half = 0.5;
    px_space where;
    px_view *d;
    CHECK(px_default_space(&where));
    CHECK(px_view_create_1d(&d, "d", where, PX_F64, n));
    CHECK(px_fill(d, &half, NULL));

    SNIPPET_BEGIN();
    /* snippet: mirror */
    SNIPPET_END();

    EXPECT(sum == half * n);
    px_view_info info;
    CHECK(px_view_info_get(d, &info));
    EXPECT(info.use_count == 1); /* the mirror, or the extra reference, is gone */
    CHECK(px_view_release(&d));
}

static void dual(void)
{
    enum { n = 100 };
    px_space where;
    px_view *d;
    CHECK(px_default_space(&where));
    CHECK(px_view_create_1d(&d, "d", where, PX_F64, n));

    SNIPPET_BEGIN();
    /* snippet: dual */
    SNIPPET_END();

    /* d holds what the host side wrote, whether or not it had to be copied. */
    EXPECT(done.copied == (where.kind != PX_SPACE_HOST));
    px_view *back;
    CHECK(px_view_create_mirror_view_and_copy(&back, px_host(), d));
    px_span_f64_1d bs;
    CHECK(px_view_get_span(back, &bs));
    for (int64_t i = 0; i < n; ++i) EXPECT(PX_AT1(bs, i) == 2.0);
    CHECK(px_view_release(&back));
    px_view_info info;
    CHECK(px_view_info_get(d, &info));
    EXPECT(info.use_count == 1); /* the dual view's reference is gone */
    CHECK(px_view_release(&d));
}

int main(void)
{
    CHECK(px_init(NULL));
    px_view *a = create();
    subview(a);
    CHECK(px_view_release(&a));
    mirror();
    dual();
    CHECK(px_finalize());
    return 0;
}
