/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* docs/sort.md: the four sorts on one instance ("pairs"), each checked for what the page
 * says it gives: ascending keys, descending pairs with equal keys kept in order, the
 * permutation, and segments sorted alone. */
#include "snippet.h"

enum { n = 1000 };

static px_view *host_of(px_view *v)
{
    px_view *h;
    CHECK(px_view_create_mirror_view_and_copy(&h, px_host(), v));
    return h;
}

int main(void)
{
    CHECK(px_init(NULL));
    px_instance *inst;
    px_space where;
    CHECK(px_default_instance(&inst));
    CHECK(px_default_space(&where));
    px_view *hk, *hv, *keys, *values, *perm, *offsets, *ho;
    CHECK(px_view_create_1d(&hk, "hk", px_host(), PX_I32, n));
    CHECK(px_view_create_1d(&hv, "hv", px_host(), PX_I64, n));
    CHECK(px_view_create_1d(&ho, "ho", px_host(), PX_I64, 3));
    px_span_i32_1d k;
    px_span_i64_1d v, o;
    CHECK(px_view_get_span(hk, &k));
    CHECK(px_view_get_span(hv, &v));
    CHECK(px_view_get_span(ho, &o));
    for (int64_t i = 0; i < n; ++i) {
        PX_AT1(k, i) = (int32_t)((i * 7919) % 101) - 50;
        PX_AT1(v, i) = i;
    }
    PX_AT1(o, 0) = 0;
    PX_AT1(o, 1) = n / 2;
    PX_AT1(o, 2) = n;
    CHECK(px_view_create_mirror_view_and_copy(&keys, where, hk));
    CHECK(px_view_create_mirror_view_and_copy(&values, where, hv));
    CHECK(px_view_create_mirror_view_and_copy(&offsets, where, ho));
    CHECK(px_view_create_1d(&perm, "perm", where, PX_I64, n));

    SNIPPET_BEGIN();
    /* snippet: pairs */
    SNIPPET_END();

    /* After the four calls, in order on the instance: the keys went ascending (up), then
       descending (d) with their values, which were 0, 1, ... (equal keys keep index order);
       the permutation orders d ascending, equal keys in index order; the last call sorted
       each half of d ascending. */
    int32_t up[n], d[n]; /* the keys ascending, then descending */
    for (int64_t i = 0; i < n; ++i) up[i] = (int32_t)((i * 7919) % 101) - 50;
    for (int64_t i = 1; i < n; ++i) /* insertion sorts */
        for (int64_t j = i; j > 0 && up[j - 1] > up[j]; --j) {
            const int32_t t = up[j];
            up[j] = up[j - 1];
            up[j - 1] = t;
        }
    for (int64_t i = 0; i < n; ++i) d[i] = up[n - 1 - i];
    px_view *sk = host_of(keys), *sv = host_of(values), *sp = host_of(perm);
    px_span_i32_1d a;
    px_span_i64_1d b, c;
    CHECK(px_view_get_span(sk, &a));
    CHECK(px_view_get_span(sv, &b));
    CHECK(px_view_get_span(sp, &c));
    for (int64_t i = 0; i < n; ++i) {
        EXPECT(up[PX_AT1(b, i)] == d[i]); /* values: where each key was before */
        if (i > 0 && d[i - 1] == d[i]) EXPECT(PX_AT1(b, i - 1) < PX_AT1(b, i));
        if (i > 0) EXPECT(d[PX_AT1(c, i - 1)] <= d[PX_AT1(c, i)]);
        if (i > 0 && d[PX_AT1(c, i - 1)] == d[PX_AT1(c, i)])
            EXPECT(PX_AT1(c, i - 1) < PX_AT1(c, i));
        if (i % (n / 2) != 0) EXPECT(PX_AT1(a, i - 1) <= PX_AT1(a, i));
    }
    EXPECT(PX_AT1(a, n / 2 - 1) == d[0] && PX_AT1(a, n / 2) == d[n / 2 + n / 2 - 1]);
    px_view *all[] = {hk, hv, ho, keys, values, perm, offsets, sk, sv, sp};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i) CHECK(px_view_release(&all[i]));
    CHECK(px_finalize());
    return 0;
}
