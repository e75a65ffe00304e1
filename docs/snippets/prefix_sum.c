/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* docs/kernels.md: prefix sums of a view ("offsets"): the exclusive sums into another view,
 * then the inclusive sums in place, each checked against a loop here. */
#include "snippet.h"

enum { n = 1000 };

int main(void)
{
    CHECK(px_init(NULL));
    px_instance *inst;
    px_space where;
    CHECK(px_default_instance(&inst));
    CHECK(px_default_space(&where));
    px_view *hc, *counts, *offsets, *ho;
    CHECK(px_view_create_1d(&hc, "hc", px_host(), PX_I64, n));
    px_span_i64_1d c;
    CHECK(px_view_get_span(hc, &c));
    int64_t want[n]; /* the counts, kept: on the host counts may be hc itself */
    for (int64_t i = 0; i < n; ++i) PX_AT1(c, i) = want[i] = (i * 7919) % 13;
    CHECK(px_view_create_mirror_view_and_copy(&counts, where, hc));
    CHECK(px_view_create_1d(&offsets, "offsets", where, PX_I64, n));

    SNIPPET_BEGIN();
    /* snippet: offsets */
    SNIPPET_END();

    px_view *hs;
    CHECK(px_view_create_mirror_view_and_copy(&ho, px_host(), offsets));
    CHECK(px_view_create_mirror_view_and_copy(&hs, px_host(), counts));
    px_span_i64_1d o, s;
    CHECK(px_view_get_span(ho, &o));
    CHECK(px_view_get_span(hs, &s));
    int64_t sum = 0;
    for (int64_t i = 0; i < n; ++i) {
        EXPECT(PX_AT1(o, i) == sum);
        sum += want[i];
        EXPECT(PX_AT1(s, i) == sum);
    }
    px_view *all[] = {hc, counts, offsets, ho, hs};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i) CHECK(px_view_release(&all[i]));
    CHECK(px_finalize());
    return 0;
}
