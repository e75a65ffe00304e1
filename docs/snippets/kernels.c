/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* docs/kernels.md's kernels and dispatches: a dot product (dot_kernel, dot_dispatch), a
 * custom join (join), a compaction scan (scan_kernel, scan_dispatch), a histogram with
 * atomics (histogram) and the team SpMV (team_kernel, team_policy). The argument structs
 * the page leaves to a shared header are here; each dispatch's result is checked. */
#include <math.h>

#include "laplacian.h"
#include "snippet.h"

typedef struct dot_args {
    px_span_f64_1d x, y;
} dot_args;
typedef struct bounds_args {
    px_span_f64_1d x;
} bounds_args;
typedef struct compact_args {
    px_span_f64_1d in, out;
    double threshold;
} compact_args;
typedef struct spmv_args {
    px_span_i64_1d row; /* CSR: row r's entries are [row(r), row(r + 1)) of col and val */
    px_span_i32_1d col;
    px_span_f64_1d val, x, y;
} spmv_args;

/* snippet: dot_kernel */

/* snippet: join */

/* snippet: scan_kernel */

/* snippet: histogram */

/* snippet: team_kernel */

enum { n = 1000 };

/* A 1-D view of the default space holding f(i), and its span. */
static px_view *make(const char *label, double (*f)(int64_t), px_span_f64_1d *span)
{
    px_space where;
    px_view *v, *h;
    px_span_f64_1d hs;
    CHECK(px_default_space(&where));
    CHECK(px_view_create_1d(&v, label, where, PX_F64, n));
    CHECK(px_view_create_mirror_view(&h, px_host(), v));
    CHECK(px_view_get_span(h, &hs));
    for (int64_t i = 0; i < n; ++i) PX_AT1(hs, i) = f(i);
    CHECK(px_deep_copy(v, h, NULL));
    CHECK(px_view_release(&h));
    CHECK(px_view_get_span(v, span));
    return v;
}

static double index_of(int64_t i) { return (double)i; }
static double ones(int64_t i)
{
    (void)i;
    return 1.0;
}
static double scattered(int64_t i) { return (double)(i * 7 % 101) - 50.0; } /* -50 .. 50 */
static double digits(int64_t i) { return (double)(i % 10); }
static double bin_middles(int64_t i) { return (double)(i % 10) + 0.5; }

static void run_dot(px_instance *inst)
{
    dot_args args;
    px_view *x = make("x", index_of, &args.x), *y = make("y", ones, &args.y);

    SNIPPET_BEGIN();
    /* snippet: dot_dispatch */
    SNIPPET_END();

    EXPECT(result == n * (n - 1) / 2.0);
    CHECK(px_view_release(&x));
    CHECK(px_view_release(&y));
}

static void run_bounds(px_instance *inst)
{
    bounds_args args;
    px_view *x = make("x", scattered, &args.x);
    range_f64 r;
    SNIPPET_BEGIN();
    px_parallel_reduce(inst, "bounds", px_range(0, n), PX_KERNEL(bounds), &args, &r);
    SNIPPET_END();
    EXPECT(r.lo == -50.0 && r.hi == 50.0);
    CHECK(px_view_release(&x));
}

static void run_compact(px_instance *inst)
{
    compact_args args;
    px_view *in = make("in", digits, &args.in), *out = make("out", ones, &args.out);
    args.threshold = 4.5;

    SNIPPET_BEGIN();
    /* snippet: scan_dispatch */
    SNIPPET_END();

    EXPECT(count == n / 2); /* the digits 5 to 9, in order */
    px_span_f64_1d hs;
    px_view *h = snippet_host_copy(out);
    CHECK(px_view_get_span(h, &hs));
    for (int64_t k = 0; k < count; ++k) EXPECT(PX_AT1(hs, k) == (double)(5 + k % 5));
    CHECK(px_view_release(&h));
    CHECK(px_view_release(&in));
    CHECK(px_view_release(&out));
}

static void run_histogram(px_instance *inst)
{
    enum { nbins = 10 };
    hist_args args;
    px_space where;
    px_view *x = make("x", bin_middles, &args.x), *hist;
    CHECK(px_default_space(&where));
    CHECK(px_view_create_1d(&hist, "hist", where, PX_I64, nbins));
    CHECK(px_view_get_span(hist, &args.hist));
    args.lo = 0.0;
    args.width = 1.0;
    SNIPPET_BEGIN();
    px_parallel_for(inst, "histogram", px_range(0, n), PX_KERNEL(histogram), &args);
    SNIPPET_END();
    px_span_i64_1d hs;
    px_view *h = snippet_host_copy(hist);
    CHECK(px_view_get_span(h, &hs));
    for (int64_t b = 0; b < nbins; ++b) EXPECT(PX_AT1(hs, b) == n / nbins);
    CHECK(px_view_release(&h));
    CHECK(px_view_release(&x));
    CHECK(px_view_release(&hist));
}

/* The 1-D Laplacian times x(i) = i over the league the library shapes from its rows. */
static void run_spmv(px_instance *inst)
{
    laplacian m;
    laplacian_create(&m, 300);
    spmv_args args;
    px_view *row = m.row;
    LAPLACIAN_SPANS(m, args);

    SNIPPET_BEGIN();
    /* snippet: team_policy */
    SNIPPET_END();

    laplacian_check_and_release(&m);
}

int main(void)
{
    px_instance *inst;
    CHECK(px_init(NULL));
    CHECK(px_default_instance(&inst));
    run_dot(inst);
    run_bounds(inst);
    run_compact(inst);
    run_histogram(inst);
    run_spmv(inst);
    CHECK(px_finalize());
    return 0;
}
