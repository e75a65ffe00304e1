/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* bench_graph: a replayed graph on the serial backend against the same calls made directly
 * on a serial instance, in one process, on the same kinds of buffers.
 *
 *   bench_graph [--quick] [--reps N]
 *
 * Cases:
 *   50 axpy      y += a_k x, k = 0..49, 4096 doubles each, each node depending on the one
 *                before: one px_graph_launch against 50 px_parallel_for (a fence after
 *                each iteration in both), time per iteration
 *   100 touch    a chain of 100 near-empty kernels over px_range(0, 1) (count(0) += 1):
 *                one px_graph_launch against 100 px_parallel_for, time per kernel
 * Target for both: graph / direct <= 1.10 (on the host backends a launch runs the nodes
 * one after another on the launching thread, so a graph can only add its own overhead).
 *
 * Each case runs twice untimed (warm-up), then N rounds (default 21, at least 5) in which
 * graph and direct calls each run a batch of iterations, alternating which goes first; the
 * table gives the medians, and as the ratio the median of the per-round ratios (each pair
 * runs back to back, so slow phases of a shared machine hit both alike). Before timing,
 * each case runs once each way from the same state and the results are compared (bitwise:
 * the same kernels in the same order). --quick: smaller batches, for a smoke run.
 *
 * Exit status: 0 (the figures are not tests: a missed target or a result that differs is
 * reported, not failed); 2 when an API call fails. */
#define _POSIX_C_SOURCE 200112L /* clock_gettime */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <portex/graph.h>

#include "bench_graph_kernels.h"
#include "bench_util.h"

enum { STAGES = 50, AXPY_N = 4096, CHAIN = 100 };

typedef struct bench_ctx {
    px_instance *inst;
    int batch; /* iterations per timed call */
    /* 50 axpy */
    double a[STAGES];
    px_span_f64_1d_restrict x, y;
    px_graph_exec *axpy_exec;
    /* 100 touch */
    px_span_i64_1d count;
    px_graph_exec *touch_exec;
} bench_ctx;

/* ---- The two ways of each case ------------------------------------------------------------ */

static void axpy_graph(bench_ctx *c)
{
    for (int it = 0; it < c->batch; ++it) {
        CHECK(px_graph_launch(c->axpy_exec, c->inst));
        CHECK(px_instance_fence(c->inst));
    }
}

static void axpy_direct(bench_ctx *c)
{
    for (int it = 0; it < c->batch; ++it) {
        for (int k = 0; k < STAGES; ++k) {
            const bgs_axpy_args args = {c->a[k], c->x, c->y};
            CHECK(
                px_parallel_for(c->inst, "axpy", px_range(0, AXPY_N), PX_KERNEL(bgs_axpy), &args));
        }
        CHECK(px_instance_fence(c->inst));
    }
}

static void touch_graph(bench_ctx *c)
{
    for (int it = 0; it < c->batch; ++it) CHECK(px_graph_launch(c->touch_exec, c->inst));
    CHECK(px_instance_fence(c->inst));
}

static void touch_direct(bench_ctx *c)
{
    const bgs_touch_args args = {c->count};
    for (int it = 0; it < c->batch; ++it)
        for (int k = 0; k < CHAIN; ++k)
            CHECK(px_parallel_for(c->inst, "touch", px_range(0, 1), PX_KERNEL(bgs_touch), &args));
    CHECK(px_instance_fence(c->inst));
}

/* ---- Timing ------------------------------------------------------------------------------ */

typedef struct result {
    double graph_ms, direct_ms; /* medians per timed call */
    double ratio;               /* median over rounds of graph / direct */
} result;

/* The two ways of a case for bench_paired: the direct calls, the graph. */
typedef struct ways {
    bench_ctx *c;
    void (*f[2])(bench_ctx *); /* direct, graph */
} ways;

static double sample_way(int i, void *p)
{
    const ways *w = p;
    const double t0 = now_ms();
    w->f[i](w->c);
    return now_ms() - t0;
}

static result run_case(bench_ctx *c, void (*graph)(bench_ctx *), void (*direct)(bench_ctx *),
                       int reps)
{
    ways w = {c, {direct, graph}};
    const bench_pair r = bench_paired(sample_way, &w, 2, reps);
    return (result){r.test, r.base, r.ratio};
}

static void print_row(const char *name, const char *per, result r, double scale, double target)
{
    printf("| %-10s | %-26s | %10.3f us | %10.3f us | %5.3f | <= %.2f | %-4s |\n", name, per,
           r.graph_ms * scale, r.direct_ms * scale, r.ratio, target,
           r.ratio <= target ? "yes" : "NO");
}

/* ---- Set-up ------------------------------------------------------------------------------- */

static px_view *host_view(const char *label, px_dtype dtype, int64_t n)
{
    px_view_desc d;
    memset(&d, 0, sizeof d);
    d.label = label;
    d.space = px_host();
    d.dtype = dtype;
    d.rank = 1;
    d.extent[0] = n;
    px_view *v;
    CHECK(px_view_create(&v, &d)); /* zero-filled */
    return v;
}

int main(int argc, char **argv)
{
    int reps = 21;
    const bool quick = bench_options(argc, argv, &reps);
    if (reps < 5) reps = 5;
    const int axpy_batch = quick ? 10 : 200, touch_batch = quick ? 100 : 2000;
    int differ = 0;

    CHECK(px_init(NULL));
    bench_ctx c;
    memset(&c, 0, sizeof c);
    CHECK(px_instance_default(PX_EXEC_SERIAL, 0, &c.inst));

    /* Buffers: x, and one y and one count for each way, so that the check compares them. */
    px_view *vx = host_view("x", PX_F64, AXPY_N);
    px_view *vy[2] = {host_view("y (graph)", PX_F64, AXPY_N),
                      host_view("y (direct)", PX_F64, AXPY_N)};
    px_view *vcount[2] = {host_view("count (graph)", PX_I64, 1),
                          host_view("count (direct)", PX_I64, 1)};
    px_span_f64_1d_restrict y[2];
    px_span_i64_1d count[2];
    CHECK(px_view_get_span(vx, &c.x));
    for (int k = 0; k < 2; ++k) {
        CHECK(px_view_get_span(vy[k], &y[k]));
        CHECK(px_view_get_span(vcount[k], &count[k]));
    }
    for (int i = 0; i < AXPY_N; ++i) c.x.data[i] = 0.125 * (double)(i % 13 + 1);
    for (int k = 0; k < STAGES; ++k) c.a[k] = 1e-3 * (double)(k + 1);

    /* The graphs: each node after the one before, the graph's y and count. */
    px_graph *ga, *gt;
    px_graph_node *prev = NULL, *node;
    CHECK(px_graph_create(&ga, PX_EXEC_SERIAL, 0, "50 axpy"));
    for (int k = 0; k < STAGES; ++k) {
        const bgs_axpy_args args = {c.a[k], c.x, y[0]};
        CHECK(px_graph_add_for(ga, prev ? &prev : NULL, prev ? 1 : 0, "axpy", px_range(0, AXPY_N),
                               PX_KERNEL(bgs_axpy), &args, &node));
        prev = node;
    }
    CHECK(px_graph_instantiate(ga, &c.axpy_exec));
    const bgs_touch_args targs = {count[0]};
    prev = NULL;
    CHECK(px_graph_create(&gt, PX_EXEC_SERIAL, 0, "100 touch"));
    for (int k = 0; k < CHAIN; ++k) {
        CHECK(px_graph_add_for(gt, prev ? &prev : NULL, prev ? 1 : 0, "touch", px_range(0, 1),
                               PX_KERNEL(bgs_touch), &targs, &node));
        prev = node;
    }
    CHECK(px_graph_instantiate(gt, &c.touch_exec));

    /* Check: one iteration each way from zero (views are zero-filled), the same bits. */
    c.batch = 1;
    c.y = y[1];
    c.count = count[1];
    axpy_graph(&c);
    axpy_direct(&c);
    touch_graph(&c);
    touch_direct(&c);
    if (memcmp(y[0].data, y[1].data, AXPY_N * sizeof(double)) != 0) {
        fprintf(stderr, "50 axpy: the graph's result differs from the direct calls'\n");
        differ = 1;
    }
    if (count[0].data[0] != CHAIN || count[1].data[0] != CHAIN) {
        fprintf(stderr, "100 touch: graph %lld, direct %lld kernels run (expected %d)\n",
                (long long)count[0].data[0], (long long)count[1].data[0], CHAIN);
        differ = 1;
    }

    c.batch = axpy_batch;
    const result ra = run_case(&c, axpy_graph, axpy_direct, reps);
    c.batch = touch_batch;
    const result rt = run_case(&c, touch_graph, touch_direct, reps);

    printf("bench_graph: portex %s, serial backend: a replayed graph against the same calls on "
           "the instance\n%s; %d rounds after warm-up, medians%s\n\n",
           px_version_string(), BENCH_BUILD, reps, quick ? " (--quick)" : "");
    printf("| %-10s | %-26s | %13s | %13s | %5s | %7s | %-4s |\n", "case", "timed", "graph",
           "direct", "ratio", "target", "met?");
    printf("|------------|----------------------------|--------------:|--------------:|------:|"
           "--------:|------|\n");
    char per[32];
    snprintf(per, sizeof per, "per iteration, %d x %d", STAGES, AXPY_N);
    print_row("50 axpy", per, ra, 1e3 / axpy_batch, 1.10);
    snprintf(per, sizeof per, "per kernel, chain of %d", CHAIN);
    print_row("100 touch", per, rt, 1e3 / ((double)touch_batch * CHAIN), 1.10);
    printf("\nratio: median over rounds of graph time / direct time (graph and direct back to "
           "back)\n");
    if (differ) printf("NOTE: results differed (see stderr); the figures are still printed\n");

    CHECK(px_graph_exec_destroy(&c.axpy_exec));
    CHECK(px_graph_exec_destroy(&c.touch_exec));
    CHECK(px_graph_destroy(&ga));
    CHECK(px_graph_destroy(&gt));
    CHECK(px_view_release(&vx));
    for (int k = 0; k < 2; ++k) {
        CHECK(px_view_release(&vy[k]));
        CHECK(px_view_release(&vcount[k]));
    }
    CHECK(px_finalize());
    return 0;
}
