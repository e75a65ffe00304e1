/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* short_histogram.c: uniform random numbers drawn in kernels (Philox), counted in bins with a
 * scatter-add, and the indices of those in the top bin compacted with a scan. */
#include <stdio.h>
#include <portex.h>
#include <portex/check.h>

enum { N = 1 << 20, NBINS = 4 };

/* Index i's value (Philox, seed 2027, subsequence i): the same on every backend and host. */
PX_FUNCTION double value(int64_t i) { return px_rand_uniform_f64_at(2027, (uint64_t)i, 0); }
/* A kernel's argument may be of any type: here the scatter's handle, and a span. */
PX_FOR(histogram, px_scatter_i64, bins, i) { px_scatter_add(bins, (int64_t)(value(i) * NBINS), 1); }
PX_SCAN(compact, px_span_i64_1d, out, i, int64_t, sum, offset, final)
{
    const bool keep = (int64_t)(value(i) * NBINS) == NBINS - 1; /* in the top bin */
    if (final && keep) PX_AT1(*out, *offset) = i; /* *offset: the indices kept before i */
    *offset += keep;
}

int main(void)
{
    int64_t count, total = 0, h[NBINS];
    px_instance *inst;
    px_space where;
    px_view *hist, *kept;
    px_scatter *s;
    px_scatter_i64 bins;
    px_span_i64_1d out;
    PX_CHECK(px_init(NULL));
    PX_CHECK(px_default_instance(&inst));
    PX_CHECK(px_default_space(&where));
    PX_CHECK(px_view_create_1d(&hist, "hist", where, PX_I64, NBINS));
    PX_CHECK(px_view_create_1d(&kept, "kept", where, PX_I64, N));
    PX_CHECK(px_view_get_span(kept, &out));
    PX_CHECK(px_scatter_create(&s, inst, hist, PX_SCATTER_AUTO));
    PX_CHECK(px_scatter_get_span(s, &bins));
    PX_CHECK(px_parallel_for(inst, "histogram", px_range(0, N), PX_KERNEL(histogram), &bins));
    PX_CHECK(px_scatter_contribute(inst, s));
    PX_CHECK(px_parallel_scan(inst, "compact", px_range(0, N), PX_KERNEL(compact), &out, &count));
    PX_CHECK(px_deep_copy_to_host(h, sizeof h, hist));
    for (int b = 0; b < NBINS; ++b) total += h[b];
    printf("short_histogram: %lld counted, %lld kept\n", (long long)total, (long long)count);
    PX_CHECK(px_scatter_destroy(&s));
    PX_CHECK(px_view_release(&hist));
    PX_CHECK(px_view_release(&kept));
    return px_finalize() == PX_OK && total == N && count == h[NBINS - 1] ? 0 : 1;
}
