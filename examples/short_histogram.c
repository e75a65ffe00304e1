/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* short_histogram.c: uniform random numbers drawn in kernels (Philox), counted in bins with a
 * scatter-add, and the indices of those above a threshold compacted with a scan. */
#include <stdio.h>
#include <stdlib.h>
#include <portex.h>

enum { NBINS = 10 };
#define THRESHOLD 0.75

static void check(px_status status)
{
    if (status == PX_OK) return;
    fprintf(stderr, "%s\n", px_last_error());
    exit(1);
}

typedef struct draw_args {
    px_scatter_i64 hist; /* NBINS counts */
    px_span_i64_1d kept; /* the indices of the values above the threshold, in order */
} draw_args;

/* Index i's value: the same on every backend, and on the host. */
PX_FUNCTION double value(int64_t i)
{
    px_philox g = px_philox_init(2027, (uint64_t)i, 0);
    return px_rand_uniform_f64(&g);
}
PX_FOR(histogram, draw_args, a, i) { px_scatter_add(&a->hist, (int64_t)(value(i) * NBINS), 1); }
PX_SCAN(compact, draw_args, a, i, int64_t, sum, offset, final)
{
    if (value(i) <= THRESHOLD) return;
    if (final) PX_AT1(a->kept, *offset) = i; /* *offset: the values kept before i */
    *offset += 1;
}

int main(void)
{
    const int64_t n = 1 << 20;
    px_instance *inst;
    px_space where;
    px_view *hist, *kept, *host;
    px_scatter *s;
    px_span_i64_1d h;
    draw_args a;
    int64_t count, total = 0, expect = 0;
    check(px_init(NULL));
    check(px_default_instance(&inst));
    check(px_default_space(&where));
    check(px_view_create_1d(&hist, "hist", where, PX_I64, NBINS));
    check(px_view_create_1d(&kept, "kept", where, PX_I64, n));
    check(px_view_get_span(kept, &a.kept));
    check(px_scatter_create(&s, inst, hist, PX_SCATTER_AUTO));
    check(px_scatter_get_span(s, &a.hist));
    check(px_parallel_for(inst, "histogram", px_range(0, n), PX_KERNEL(histogram), &a));
    check(px_scatter_contribute(inst, s));
    check(px_parallel_scan(inst, "compact", px_range(0, n), PX_KERNEL(compact), &a, &count));
    check(px_view_create_mirror_view_and_copy(&host, px_host(), hist));
    check(px_view_get_span(host, &h));
    for (int b = 0; b < NBINS; ++b) total += PX_AT1(h, b);
    for (int64_t i = 0; i < n; ++i) expect += value(i) > THRESHOLD;
    printf("short_histogram: %lld values, %lld counted, %lld above %g (expected %lld)\n",
           (long long)n, (long long)total, (long long)count, THRESHOLD, (long long)expect);
    check(px_scatter_destroy(&s));
    check(px_view_release(&host));
    check(px_view_release(&hist));
    check(px_view_release(&kept));
    return px_finalize() == PX_OK && total == n && count == expect ? 0 : 1;
}
