/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* short_histogram.c: uniform random numbers drawn in kernels (Philox), counted in bins with a
 * scatter-add, and the indices of those above a threshold compacted with a scan. */
#include <stdio.h>
#include <portex.h>
#include <portex/check.h>

enum { NBINS = 10 };
#define THRESHOLD 0.75

typedef struct draw_args {
    px_scatter_i64 hist; /* NBINS counts */
    px_span_i64_1d kept; /* the indices of the values above the threshold, in order */
} draw_args;

/* Index i's value (Philox, seed 2027, subsequence i): the same on every backend and host. */
PX_FUNCTION double value(int64_t i) { return px_rand_uniform_f64_at(2027, (uint64_t)i, 0); }
PX_FOR(histogram, draw_args, a, i) { px_scatter_add(&a->hist, (int64_t)(value(i) * NBINS), 1); }
PX_SCAN(compact, draw_args, a, i, int64_t, sum, offset, final)
{
    const bool keep = value(i) > THRESHOLD;
    if (final && keep) PX_AT1(a->kept, *offset) = i; /* *offset: the values kept before i */
    *offset += keep;
}

int main(void)
{
    const int64_t n = 1 << 20;
    int64_t count, total = 0, expect = 0, h[NBINS];
    px_instance *inst;
    px_space where;
    px_view *hist, *kept;
    px_scatter *s;
    draw_args a;
    PX_CHECK(px_init(NULL));
    PX_CHECK(px_default_instance(&inst));
    PX_CHECK(px_default_space(&where));
    PX_CHECK(px_view_create_1d(&hist, "hist", where, PX_I64, NBINS));
    PX_CHECK(px_view_create_1d(&kept, "kept", where, PX_I64, n));
    PX_CHECK(px_view_get_span(kept, &a.kept));
    PX_CHECK(px_scatter_create(&s, inst, hist, PX_SCATTER_AUTO));
    PX_CHECK(px_scatter_get_span(s, &a.hist));
    PX_CHECK(px_parallel_for(inst, "histogram", px_range(0, n), PX_KERNEL(histogram), &a));
    PX_CHECK(px_scatter_contribute(inst, s));
    PX_CHECK(px_parallel_scan(inst, "compact", px_range(0, n), PX_KERNEL(compact), &a, &count));
    PX_CHECK(px_deep_copy_to_host(h, sizeof h, hist));
    for (int b = 0; b < NBINS; ++b) total += h[b];
    for (int64_t i = 0; i < n; ++i) expect += value(i) > THRESHOLD;
    printf("short_histogram: %lld values, %lld counted, %lld above %g (expected %lld)\n",
           (long long)n, (long long)total, (long long)count, THRESHOLD, (long long)expect);
    PX_CHECK(px_scatter_destroy(&s));
    PX_CHECK(px_view_release(&hist));
    PX_CHECK(px_view_release(&kept));
    return px_finalize() == PX_OK && total == n && count == expect ? 0 : 1;
}
