/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* histogram: 2^22 normal draws (portex/random.h) counted in 32 bins through a scatter
 * (portex/scatter.h). Every thread adds into the same few bins; the library picks how
 * (atomics on a GPU, a copy of the bins per thread on the host's cores) and says which. The
 * counts are checked against the same draws binned by a plain C loop. */
#include "example.h"
#include "histogram_kernels.h"

enum { NBINS = 32 };

int main(void)
{
    const int64_t n = (int64_t)1 << 22;
    hist_args a = {.seed = 20261127, .lo = -4.0, .width = 0.25, .nbins = NBINS};
    CHECK(px_init(NULL));
    example_backend be = example_default("histogram");

    px_view *counts, *host;
    px_scatter *s;
    CHECK(px_view_create_1d(&counts, "counts", be.space, PX_I64, NBINS));
    CHECK(px_scatter_create(&s, be.inst, counts, PX_SCATTER_AUTO)); /* the library picks */
    CHECK(px_scatter_get_span(s, &a.counts));
    CHECK(px_parallel_for(be.inst, "histogram", px_range(0, n), PX_KERNEL(histogram), &a));
    CHECK(px_scatter_contribute(be.inst, s)); /* every add is in counts now */
    CHECK(px_view_create_mirror_view_and_copy(&host, px_host(), counts));
    px_scatter_info info;
    CHECK(px_scatter_info_get(s, &info));
    printf("histogram: %lld draws, strategy %s, %d threads\n", (long long)n,
           px_scatter_strategy_string(info.strategy), info.threads);

    int64_t want[NBINS] = {0}, peak = 1;
    for (int64_t i = 0; i < n; ++i) ++want[hist_bin(&a, hist_value(&a, i))];
    px_span_i64_1d c;
    CHECK(px_view_get_span(host, &c));
    for (int b = 0; b < NBINS; ++b) peak = PX_AT1(c, b) > peak ? PX_AT1(c, b) : peak;
    int same = 1;
    for (int b = 0; b < NBINS; ++b) {
        same &= PX_AT1(c, b) == want[b];
        printf("%6.2f %8lld %.*s\n", a.lo + b * a.width, (long long)PX_AT1(c, b),
               (int)(60 * PX_AT1(c, b) / peak),
               "############################################################");
    }
    printf("histogram: the same counts as a plain C loop: %s\n", same ? "yes" : "NO");
    CHECK(px_scatter_destroy(&s));
    CHECK(px_view_release(&host));
    CHECK(px_view_release(&counts));
    CHECK(px_finalize());
    return same ? 0 : 1;
}
