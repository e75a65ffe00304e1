/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* bench_serial: portex's serial backend against plain C loops, in one process, on the same
 * buffers: axpy (1-D for), dot (reduce) and a 5-point 2-D stencil (2-D for), each with
 * strided spans (px_span_f64) and with spans that tell the compiler what the plain loops'
 * restrict pointers and unit strides tell it (px_span_f64_1d_restrict,
 * px_span_f64_right_restrict).
 *
 *   bench_serial [--quick] [--reps N]
 *
 * Each case runs twice untimed (warm-up: page faults, caches, branch predictors), then N
 * times (default 21, at least 5) with the plain loop and the portex dispatch alternating
 * which goes first; the table gives the medians, and as the ratio the median of the
 * per-run ratios (each pair runs back to back, so slow phases of a shared machine hit
 * both sides alike). Sizes exceed the last-level cache: 2^24 doubles
 * (128 MiB per vector) and a 4096 x 4096 grid of doubles. --quick shrinks them for a smoke
 * run. Before timing, each case runs once each way from the same inputs and the results are
 * compared: exit status 1 when portex's differ from the plain loop's. */
#define _POSIX_C_SOURCE 200112L /* clock_gettime */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_kernels.h"
#include "bench_util.h"

/* ---- The plain loops: what a C programmer writes without portex ------------------------ */

BENCH_NOINLINE static void plain_axpy(int64_t n, double a, const double *restrict x,
                                      double *restrict y)
{
    for (int64_t i = 0; i < n; ++i) y[i] += a * x[i];
}

BENCH_NOINLINE static double plain_dot(int64_t n, const double *restrict x,
                                       const double *restrict y)
{
    double s = 0.0;
    for (int64_t i = 0; i < n; ++i) s += x[i] * y[i];
    return s;
}

BENCH_NOINLINE static void plain_stencil(int64_t nx, int64_t ny, double alpha,
                                         const double *restrict in, double *restrict out)
{
    for (int64_t i = 1; i < nx - 1; ++i) bench_heat_row(i, ny, alpha, in, out);
}

/* ---- Timing ------------------------------------------------------------------------------ */

/* One case: state, and the two ways of doing the same work. */
typedef struct bench_case {
    const char *name;
    char size[32];
    void (*plain)(struct bench_case *c);
    void (*portex)(struct bench_case *c);
    px_instance *inst;
    int64_t n, nx, ny;
    double a;
    px_span_f64 x, y;               /* axpy, dot */
    px_span_f64 in, out;            /* stencil */
    px_span_f64_1d_restrict x1, y1; /* the same views, unit stride and restrict */
    px_span_f64_right_restrict in_r, out_r;
    double dot_plain, dot_portex;
} bench_case;

typedef struct bench_row {
    const char *name;
    char size[32];
    double plain_ms, portex_ms; /* medians */
    double ratio;               /* median over runs of portex / plain, run back to back */
    double plain_min, portex_min;
} bench_row;

/* One side of a case for bench_paired: the plain loop (0) or the portex dispatch (1). */
static double sample_side(int i, void *p)
{
    bench_case *c = p;
    const double t0 = now_ms();
    if (i)
        c->portex(c);
    else
        c->plain(c);
    return now_ms() - t0;
}

static bench_row run_case(bench_case *c, int reps)
{
    const bench_pair r = bench_paired(sample_side, c, 2, reps);
    bench_row row;
    row.name = c->name;
    memcpy(row.size, c->size, sizeof row.size);
    row.ratio = r.ratio;
    row.plain_ms = r.base;
    row.portex_ms = r.test;
    row.plain_min = r.base_min;
    row.portex_min = r.test_min;
    return row;
}

/* ---- The cases ---------------------------------------------------------------------------- */

static void axpy_plain(bench_case *c) { plain_axpy(c->n, c->a, c->x.data, c->y.data); }
static void axpy_portex(bench_case *c)
{
    bench_axpy_args args = {c->a, c->x, c->y};
    CHECK(px_parallel_for(c->inst, "axpy", px_range(0, c->n), PX_KERNEL(bench_axpy), &args));
}
static void axpy_portex_1d(bench_case *c)
{
    bench_axpy_1d_args args = {c->a, c->x1, c->y1};
    CHECK(px_parallel_for(c->inst, "axpy", px_range(0, c->n), PX_KERNEL(bench_axpy_1d), &args));
}

static void dot_plain(bench_case *c) { c->dot_plain = plain_dot(c->n, c->x.data, c->y.data); }
static void dot_portex(bench_case *c)
{
    bench_dot_args args = {c->x, c->y};
    CHECK(px_parallel_reduce(c->inst, "dot", px_range(0, c->n), PX_KERNEL(bench_dot), &args,
                             &c->dot_portex));
}
static void dot_portex_1d(bench_case *c)
{
    bench_dot_1d_args args = {c->x1, c->y1};
    CHECK(px_parallel_reduce(c->inst, "dot", px_range(0, c->n), PX_KERNEL(bench_dot_1d), &args,
                             &c->dot_portex));
}

static void stencil_plain(bench_case *c)
{
    plain_stencil(c->nx, c->ny, c->a, c->in.data, c->out.data);
}
static void stencil_portex(bench_case *c)
{
    bench_stencil_args args = {c->a, c->in, c->out};
    CHECK(px_parallel_for(c->inst, "stencil", px_mdrange2(1, c->nx - 1, 1, c->ny - 1),
                          PX_KERNEL(bench_stencil), &args));
}
static void stencil_portex_right(bench_case *c)
{
    bench_stencil_right_args args = {c->a, c->in_r, c->out_r};
    CHECK(px_parallel_for(c->inst, "stencil", px_mdrange2(1, c->nx - 1, 1, c->ny - 1),
                          PX_KERNEL(bench_stencil_right), &args));
}

/* ---- Set-up ------------------------------------------------------------------------------- */

static px_view *new_view(const char *label, int rank, int64_t e0, int64_t e1, px_span_f64 *span)
{
    const px_view_desc d = bench_desc(label, px_host(), PX_F64, rank, e0, e1);
    px_view *v;
    CHECK(px_view_create(&v, &d)); /* zero-filled: every page is touched now */
    CHECK(px_view_span_f64(v, span));
    return v;
}

static void fill_random(double *p, int64_t n, uint64_t seed)
{
    for (int64_t i = 0; i < n; ++i) { /* (0, 1], never zero */
        uint64_t z = (seed += 0x9e3779b97f4a7c15u);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
        z ^= z >> 31;
        p[i] = (double)((z >> 11) + 1) * 0x1.0p-53;
    }
}

static double max_rel_diff(const double *a, const double *b, int64_t n)
{
    double m = 0.0;
    for (int64_t i = 0; i < n; ++i) {
        double d = fabs(a[i] - b[i]) / (fabs(b[i]) > 0 ? fabs(b[i]) : 1.0);
        if (d > m) m = d;
    }
    return m;
}

/* Runs the case once each way from the same inputs (`out` is what the case writes, `save`
 * its inputs' copy to restore in between); returns portex's largest relative difference. */
static double verify(bench_case *c, px_span_f64 out, int64_t count)
{
    const size_t bytes = (size_t)count * sizeof(double);
    double *save = malloc(bytes), *expect = malloc(bytes);
    if (!save || !expect) exit(2);
    memcpy(save, out.data, bytes);
    c->plain(c);
    memcpy(expect, out.data, bytes);
    memcpy(out.data, save, bytes);
    c->portex(c);
    double d = max_rel_diff(out.data, expect, count);
    free(save);
    free(expect);
    return d;
}

int main(int argc, char **argv)
{
    int reps = 21;
    const bool quick = bench_options(argc, argv, &reps);
    if (reps < 5) reps = 5;
    const int log2n = quick ? 16 : 24;
    const int64_t n = (int64_t)1 << log2n, grid = quick ? 256 : 4096;

    CHECK(px_init(NULL));
    px_instance *inst;
    CHECK(px_instance_default(PX_EXEC_SERIAL, 0, &inst));

    /* One set of buffers that both the plain loops and portex use. */
    bench_case c;
    memset(&c, 0, sizeof c);
    c.inst = inst;
    c.n = n;
    c.nx = c.ny = grid;
    px_view *views[4];
    views[0] = new_view("x", 1, n, 0, &c.x);
    views[1] = new_view("y", 1, n, 0, &c.y);
    views[2] = new_view("in", 2, grid, grid, &c.in);
    views[3] = new_view("out", 2, grid, grid, &c.out);
    fill_random(c.x.data, n, 1);
    fill_random(c.y.data, n, 2);
    fill_random(c.in.data, grid * grid, 3);
    fill_random(c.out.data, grid * grid, 4);

    printf("bench_serial: portex serial backend vs plain C loops, %d runs each after 2 "
           "warm-ups, medians\n%s\n\n",
           reps, BENCH_BUILD);

    CHECK(px_view_get_span(views[0], &c.x1));
    CHECK(px_view_get_span(views[1], &c.y1));
    CHECK(px_view_get_span(views[2], &c.in_r));
    CHECK(px_view_get_span(views[3], &c.out_r));

    /* Each case: its name, whether it is the stencil (else 1-D), and the two sides. */
    typedef struct case_def {
        const char *name;
        int stencil;
        void (*plain)(bench_case *c);
        void (*portex)(bench_case *c);
    } case_def;
    const case_def defs[] = {
        {"axpy", 0, axpy_plain, axpy_portex},
        {"axpy 1d_restrict", 0, axpy_plain, axpy_portex_1d},
        {"dot", 0, dot_plain, dot_portex},
        {"dot 1d_restrict", 0, dot_plain, dot_portex_1d},
        {"stencil2d", 1, stencil_plain, stencil_portex},
        {"stencil2d right_restrict", 1, stencil_plain, stencil_portex_right},
    };
    enum { NCASES = sizeof defs / sizeof defs[0] };
    bench_row rows[NCASES];
    int failed = 0;
    for (int k = 0; k < NCASES; ++k) {
        c.name = defs[k].name;
        c.plain = defs[k].plain;
        c.portex = defs[k].portex;
        if (defs[k].stencil) {
            snprintf(c.size, sizeof c.size, "%lldx%lld", (long long)grid, (long long)grid);
            c.a = 0.2;
        } else {
            snprintf(c.size, sizeof c.size, "2^%d doubles", log2n);
            c.a = 1e-3;
        }
        if (c.plain == dot_plain) {
            c.plain(&c);
            c.portex(&c);
            if (c.dot_portex != c.dot_plain) { /* same order of additions: bit for bit */
                fprintf(stderr, "%s: portex %.17g, plain loop %.17g\n", c.name, c.dot_portex,
                        c.dot_plain);
                failed = 1;
            }
        } else {
            const double d = defs[k].stencil ? verify(&c, c.out, grid * grid) : verify(&c, c.y, n);
            if (d > 0.0) {
                fprintf(stderr, "%s: portex differs from the plain loop by %g (relative)\n", c.name,
                        d);
                failed = 1;
            }
        }
        rows[k] = run_case(&c, reps);
    }

    printf("| %-24s | %-12s | %9s | %9s | %5s | %9s | %10s |\n", "case", "size", "plain ms",
           "portex ms", "ratio", "plain min", "portex min");
    printf("|--------------------------|--------------|----------:|----------:|------:|----------:|"
           "-----------:|\n");
    for (int k = 0; k < NCASES; ++k)
        printf("| %-24s | %-12s | %9.2f | %9.2f | %5.3f | %9.2f | %10.2f |\n", rows[k].name,
               rows[k].size, rows[k].plain_ms, rows[k].portex_ms, rows[k].ratio, rows[k].plain_min,
               rows[k].portex_min);
    printf("\nratio: median over the runs of portex / plain, each pair run back to back; "
           "results %s\n",
           failed ? "DIFFER (see above)" : "bit for bit those of the plain loops");

    for (int k = 0; k < 4; ++k) CHECK(px_view_release(&views[k]));
    CHECK(px_finalize());
    return failed;
}
