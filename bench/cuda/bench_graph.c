/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* bench_graph: portex graphs (include/portex/graph.h) against raw CUDA graphs, and against
 * the same work launched call by call, in one process.
 *
 *   bench_graph [--quick] [--reps N]
 *
 * Cases (full sizes; --quick shrinks counts and repetitions for a smoke run):
 *   chain replay    a graph of 100 empty kernels over px_range(0, 1), each depending on the
 *                   one before, launched L times, then one fence: time per kernel; raw: a
 *                   CUDA graph of 100 dependent empty kernel nodes (one block of 256
 *                   threads, cudaGraphAddKernelNode), cudaGraphLaunch L times, then one
 *                   stream sync. Target portex / raw <= 1.05.
 *   50 axpy         y += a_k x, k = 0..49, 4096 doubles, each kernel after the one before:
 *                   one px_graph_launch + fence per iteration against the same 50
 *                   px_parallel_for + fence on the same instance. Target graph / calls
 *                   <= 0.70 (30% less time). Raw CUDA for reference: 50 launches + sync on
 *                   a stream, and the same as a CUDA graph + sync.
 *   instantiate     px_graph_instantiate + px_graph_exec_destroy of the 100-node chain
 *                   against cudaGraphInstantiate + cudaGraphExecDestroy of the raw chain.
 *                   Target <= 1.10.
 *   set args        px_graph_exec_set_args of one node of the 50-axpy graph, alternating
 *                   between two argument values, against cudaGraphExecKernelNodeSetParams
 *                   of the same node of the raw graph (same launch shape). Target <= 1.10.
 *   set args, k     the same for a graph of one kernel of k = 1, 2, 4, 8 arguments (a span
 *                   each in portex's Args; k pointer parameters in the raw kernel, built
 *                   into a parameter array on the stack at each call, as a user does), the
 *                   destination switched between two buffers. Target <= 1.10.
 *   set copy        px_graph_exec_set_copy of a graph's one copy node (4096 doubles, DEVICE
 *                   to DEVICE), the destination switched between two views, against
 *                   cudaGraphExecMemcpyNodeSetParams1D of a raw memcpy node. Target <= 1.10.
 *   set fill        px_graph_exec_set_fill of a graph's one fill node (4096 doubles),
 *                   between two values, against cudaGraphExecKernelNodeSetParams of a raw
 *                   fill kernel's node (CUDA's memset nodes set bytes, not doubles).
 *                   Target <= 1.10.
 *   jacobi WHILE    Laplace on a 256 x 256 grid, Jacobi passes (sweep a->b, sweep b->a,
 *                   max |a - b| reduced into a DEVICE scalar) for a fixed number of sweeps:
 *                   one launch of a graph whose WHILE node runs the pass and
 *                   px_graph_cond_from_view, against the loop driven from the host
 *                   (px_parallel_for twice, px_parallel_reduce into a host double, test in
 *                   C). Time per sweep; target host / graph >= 2.
 *
 * Both loops of jacobi stop on the same rule: the condition is residual > 0, and a count
 * kernel in the body (in the host loop: the C code) zeroes the residual once the sweep count
 * reaches the cap, so both run exactly the cap's sweeps (the residual of this problem stays
 * far above 0 for millions of sweeps).
 *
 * portex runs on the default CUDA instance of device 0, raw CUDA on a non-blocking stream
 * of its own. Everything is timed with the host clock around a batch of calls followed by a
 * fence or stream sync (and, for instantiate and set args, around the calls alone):
 * warm-up rounds, then N rounds (default 21; 5 with --quick; jacobi N / 2, at least 3) in
 * which every variant runs once, the one to go first rotating; the tables give medians. Before timing, the 50-axpy
 * results of the four variants are compared (bitwise: the same FMAs in the same order) and
 * the two Jacobi solves' sweep counts and fields.
 *
 * Exit status: 0 (the figures are not tests: a missed target or a result that differs is
 * reported, not failed); 2 when an API call fails; 77 without a usable GPU. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <portex.h>
#include <portex/cuda.h>
#include <portex/graph.h>

#include "../../examples/graph_jacobi_kernels.h"
#include "bench_graph_k.h"
#include "raw_graph.h"
#include "bench_util.h"
#include "bench_variant.h"
#include "bench_views.h"

enum {
    CHAIN = 100,    /* nodes of the empty-kernel chain */
    STAGES = 50,    /* axpy kernels per iteration */
    AXPY_N = 4096,  /* elements per axpy */
    JACOBI_N = 256, /* grid points per side, edges included */
    SET_NODE = 25   /* the axpy node whose arguments set args changes */
};

/* What every case uses. */
static struct {
    bool quick;
    int reps;
    px_instance *inst;       /* portex: the default CUDA instance of device 0 */
    cudaStream_t raw_stream; /* raw CUDA: a non-blocking stream of its own */
    int differ;              /* a result differed (reported, not failed) */
} g;

static void sync_both(void)
{
    CU(cudaStreamSynchronize(g.raw_stream));
    CHECK(px_instance_fence(g.inst));
}

/* ---- Results ------------------------------------------------------------------------------ */

typedef struct row {
    char name[40];
    char what[48]; /* what is timed, per what */
    double px_us, base_us;
    const char *px;   /* what is measured (portex, except in the reference row) */
    const char *base; /* what it is compared with */
    bool speedup;     /* ratio base / portex, met when >= target; else portex / base, <= */
    double target;    /* 0: for reference, no target */
} row;

#define MAX_ROWS 16
static row rows[MAX_ROWS];
static int nrows;

static double ratio_of(const row *r)
{
    return r->speedup ? r->base_us / r->px_us : r->px_us / r->base_us;
}

static void add_row(const char *name, const char *what, const char *px, double px_us,
                    const char *base, double base_us, bool speedup, double target)
{
    if (nrows == MAX_ROWS) exit(2);
    row *r = &rows[nrows++];
    memset(r, 0, sizeof *r);
    snprintf(r->name, sizeof r->name, "%s", name);
    snprintf(r->what, sizeof r->what, "%s", what);
    r->px_us = px_us;
    r->px = px;
    r->base = base;
    r->base_us = base_us;
    r->speedup = speedup;
    r->target = target;
    char target_s[24] = "(reference)";
    if (target > 0)
        snprintf(target_s, sizeof target_s, "target %s %.2f", speedup ? ">=" : "<=", target);
    const double q = ratio_of(r);
    printf("%-18s %s %.3f us, %s %.3f us (%s), %s %.3f  %s%s\n", name, px, px_us, base, base_us,
           what, speedup ? "speedup" : "ratio", q, target_s,
           target <= 0                             ? ""
           : (speedup ? q >= target : q <= target) ? "  met"
                                                   : "  MISSED");
    fflush(stdout);
}

static void print_table(void)
{
    printf("\n| %-18s | %-32s | %-24s | %12s | %-32s | %12s | %6s | %7s | %-4s |\n", "case",
           "timed", "measured", "time", "baseline", "time", "ratio", "target", "met?");
    printf("|--------------------|----------------------------------|--------------------------|"
           "-------------:|----------------------------------|-------------:|-------:|--------:|---"
           "---|\n");
    for (int k = 0; k < nrows; ++k) {
        const row *r = &rows[k];
        char target[16] = "-", met[8] = "ref";
        const double q = ratio_of(r);
        if (r->target > 0) {
            snprintf(target, sizeof target, "%s %.2f", r->speedup ? ">=" : "<=", r->target);
            snprintf(met, sizeof met, "%s",
                     (r->speedup ? q >= r->target : q <= r->target) ? "yes" : "NO");
        }
        printf("| %-18s | %-32s | %-24s | %9.3f us | %-32s | %9.3f us | %6.3f | %7s | %-4s |\n",
               r->name, r->what, r->px, r->px_us, r->base, r->base_us, q, target, met);
    }
    printf("\nratio: measured time / baseline time (<= target), except jacobi: host-driven time / "
           "graph time (>= target); the raw row is for reference\n");
}

/* ---- Buffers ---------------------------------------------------------------------------- */

static double *device_data(px_view *v)
{
    px_span_f64 s;
    CHECK(px_view_span_f64(v, &s));
    return s.data;
}

/* ---- a. chain replay, c. instantiate ---------------------------------------------------- */

typedef struct chain_ctx {
    px_graph *graph;
    px_graph_exec *exec;
    cudaGraph_t raw_graph;
    cudaGraphExec_t raw_exec;
    int launches; /* per call of the replay variants */
} chain_ctx;

static void chain_px(void *p)
{
    chain_ctx *c = p;
    for (int k = 0; k < c->launches; ++k) CHECK(px_graph_launch(c->exec, g.inst));
    CHECK(px_instance_fence(g.inst));
}

static void chain_raw(void *p)
{
    chain_ctx *c = p;
    for (int k = 0; k < c->launches; ++k) CU(cudaGraphLaunch(c->raw_exec, g.raw_stream));
    CU(cudaStreamSynchronize(g.raw_stream));
}

static void instantiate_px(void *p)
{
    chain_ctx *c = p;
    px_graph_exec *e;
    CHECK(px_graph_instantiate(c->graph, &e));
    CHECK(px_graph_exec_destroy(&e));
}

static void instantiate_raw(void *p)
{
    chain_ctx *c = p;
    cudaGraphExec_t e;
    CU(cudaGraphInstantiate(&e, c->raw_graph, 0));
    CU(cudaGraphExecDestroy(e));
}

static void chain_cases(void)
{
    chain_ctx c;
    memset(&c, 0, sizeof c);
    c.launches = g.quick ? 10 : 100;

    const bg_empty_args none = {0};
    CHECK(px_graph_create(&c.graph, PX_EXEC_CUDA, 0, "empty chain"));
    px_graph_node *prev = NULL;
    for (int k = 0; k < CHAIN; ++k) {
        px_graph_node *node;
        CHECK(px_graph_add_for(c.graph, prev ? &prev : NULL, prev ? 1 : 0, "empty", px_range(0, 1),
                               PX_KERNEL(bg_empty), &none, &node));
        prev = node;
    }
    CHECK(px_graph_instantiate(c.graph, &c.exec));
    CHECK(px_graph_upload(c.exec, g.inst));
    CU(raw_graph_empty_chain(CHAIN, &c.raw_graph));
    CU(cudaGraphInstantiate(&c.raw_exec, c.raw_graph, 0));
    CU(cudaGraphUpload(c.raw_exec, g.raw_stream));
    sync_both();

    variant v[2] = {{"raw cudaGraphLaunch", chain_raw, NULL, BY_HOST_CLOCK, 0},
                    {"portex px_graph_launch", chain_px, NULL, BY_HOST_CLOCK, 0}};
    measure(v, 2, &c, 1, 2, g.reps);
    const double per = 1e3 / ((double)c.launches * CHAIN);
    char what[48];
    snprintf(what, sizeof what, "per kernel, %d x %d nodes", c.launches, CHAIN);
    add_row("a. chain replay", what, "portex graph", v[1].ms * per, "raw CUDA graph", v[0].ms * per,
            false, 1.05);

    variant iv[2] = {{"raw instantiate+destroy", instantiate_raw, NULL, BY_HOST_CLOCK, 0},
                     {"portex instantiate+destroy", instantiate_px, NULL, BY_HOST_CLOCK, 0}};
    measure(iv, 2, &c, 1, 3, g.quick ? g.reps : 3 * g.reps);
    add_row("c. instantiate", "100 nodes, + exec destroy", "px_graph_instantiate", iv[1].ms * 1e3,
            "cudaGraphInstantiate", iv[0].ms * 1e3, false, 1.10);

    sync_both();
    CHECK(px_graph_exec_destroy(&c.exec));
    CHECK(px_graph_destroy(&c.graph));
    CU(cudaGraphExecDestroy(c.raw_exec));
    CU(cudaGraphDestroy(c.raw_graph));
}

/* ---- b. 50 axpy, d. set args -------------------------------------------------------------- */

typedef struct axpy_ctx {
    double a[STAGES];
    px_span_f64_1d_restrict x, y_px;
    double *x_raw, *y_raw; /* the raw side's buffers (x is shared) */
    px_graph *graph;
    px_graph_node *nodes[STAGES];
    px_graph_exec *exec;
    cudaGraph_t raw_graph;
    cudaGraphNode_t raw_nodes[STAGES];
    cudaGraphExec_t raw_exec;
    bg_axpy_args set_args[2]; /* set args: the two values it alternates between */
    int sets;                 /* calls per call of the set-args variants */
    unsigned flip;
} axpy_ctx;

static void axpy_px_graph(void *p)
{
    axpy_ctx *c = p;
    CHECK(px_graph_launch(c->exec, g.inst));
    CHECK(px_instance_fence(g.inst));
}

static void axpy_px_calls(void *p)
{
    axpy_ctx *c = p;
    for (int k = 0; k < STAGES; ++k) {
        const bg_axpy_args args = {c->a[k], c->x, c->y_px};
        CHECK(px_parallel_for(g.inst, "axpy", px_range(0, AXPY_N), PX_KERNEL(bg_axpy), &args));
    }
    CHECK(px_instance_fence(g.inst));
}

static void axpy_raw_graph(void *p)
{
    axpy_ctx *c = p;
    CU(cudaGraphLaunch(c->raw_exec, g.raw_stream));
    CU(cudaStreamSynchronize(g.raw_stream));
}

static void axpy_raw_stream(void *p)
{
    axpy_ctx *c = p;
    for (int k = 0; k < STAGES; ++k)
        CU(raw_axpy(c->a[k], c->x_raw, c->y_raw, AXPY_N, g.raw_stream));
    CU(cudaStreamSynchronize(g.raw_stream));
}

static void set_px(void *p)
{
    axpy_ctx *c = p;
    for (int k = 0; k < c->sets; ++k)
        CHECK(px_graph_exec_set_args(c->exec, c->nodes[SET_NODE], &c->set_args[c->flip++ & 1u]));
}

static void set_raw(void *p)
{
    axpy_ctx *c = p;
    for (int k = 0; k < c->sets; ++k)
        CU(raw_graph_axpy_set(c->raw_exec, c->raw_nodes[SET_NODE], c->set_args[c->flip++ & 1u].a,
                              c->x_raw, c->y_raw, AXPY_N));
}

/* One call of `run` from y = 0; the result in host memory `out`. */
static void axpy_once(axpy_ctx *c, void (*run)(void *), double *y, double *out)
{
    sync_both();
    CU(cudaMemsetAsync(y, 0, AXPY_N * sizeof(double), g.raw_stream));
    CU(cudaStreamSynchronize(g.raw_stream));
    run(c);
    sync_both();
    CU(cudaMemcpy(out, y, AXPY_N * sizeof(double), cudaMemcpyDeviceToHost));
}

static void axpy_verify(axpy_ctx *c)
{
    double *h = malloc(4 * AXPY_N * sizeof *h);
    if (!h) exit(2);
    void (*const runs[4])(void *) = {axpy_px_graph, axpy_px_calls, axpy_raw_graph, axpy_raw_stream};
    const char *const names[4] = {"portex graph", "portex calls", "raw graph", "raw stream"};
    for (int k = 0; k < 4; ++k)
        axpy_once(c, runs[k], k < 2 ? c->y_px.data : c->y_raw, h + k * AXPY_N);
    for (int k = 1; k < 4; ++k)
        if (memcmp(h, h + k * AXPY_N, AXPY_N * sizeof *h) != 0) {
            fprintf(stderr, "50 axpy: %s and %s give different results\n", names[0], names[k]);
            g.differ = 1;
        }
    free(h);
}

static void axpy_cases(void)
{
    axpy_ctx c;
    memset(&c, 0, sizeof c);
    c.sets = g.quick ? 100 : 1000;
    px_view *vx = bench_device_view("x", PX_F64, 1, AXPY_N, 0, 0);
    px_view *vy_px = bench_device_view("y (portex)", PX_F64, 1, AXPY_N, 0, 0);
    px_view *vy_raw = bench_device_view("y (raw)", PX_F64, 1, AXPY_N, 0, 0);
    CHECK(px_view_get_span(vx, &c.x));
    CHECK(px_view_get_span(vy_px, &c.y_px));
    c.x_raw = c.x.data;
    c.y_raw = device_data(vy_raw);
    double *hx = malloc(AXPY_N * sizeof *hx);
    if (!hx) exit(2);
    for (int i = 0; i < AXPY_N; ++i) hx[i] = 0.125 * (double)(i % 13 + 1);
    CU(cudaMemcpy(c.x_raw, hx, AXPY_N * sizeof *hx, cudaMemcpyHostToDevice));
    free(hx);
    for (int k = 0; k < STAGES; ++k) c.a[k] = 1e-3 * (double)(k + 1);

    CHECK(px_graph_create(&c.graph, PX_EXEC_CUDA, 0, "50 axpy"));
    for (int k = 0; k < STAGES; ++k) {
        const bg_axpy_args args = {c.a[k], c.x, c.y_px};
        CHECK(px_graph_add_for(c.graph, k ? &c.nodes[k - 1] : NULL, k ? 1 : 0, "axpy",
                               px_range(0, AXPY_N), PX_KERNEL(bg_axpy), &args, &c.nodes[k]));
    }
    px_view *const used[2] = {vx, vy_px};
    CHECK(px_graph_node_uses(c.nodes[0], used, 2));
    CHECK(px_graph_instantiate(c.graph, &c.exec));
    CHECK(px_graph_upload(c.exec, g.inst));
    CU(raw_graph_axpy_chain(STAGES, c.a, c.x_raw, c.y_raw, AXPY_N, &c.raw_graph, c.raw_nodes));
    CU(cudaGraphInstantiate(&c.raw_exec, c.raw_graph, 0));
    CU(cudaGraphUpload(c.raw_exec, g.raw_stream));
    sync_both();

    axpy_verify(&c);

    const int batch = g.quick ? 5 : 20;
    variant v[4] = {{"portex graph", axpy_px_graph, NULL, BY_HOST_CLOCK, 0},
                    {"portex 50 calls", axpy_px_calls, NULL, BY_HOST_CLOCK, 0},
                    {"raw graph", axpy_raw_graph, NULL, BY_HOST_CLOCK, 0},
                    {"raw 50 launches", axpy_raw_stream, NULL, BY_HOST_CLOCK, 0}};
    measure(v, 4, &c, batch, 3, g.reps);
    char what[48];
    snprintf(what, sizeof what, "per iteration + fence, %d x %d", STAGES, AXPY_N);
    add_row("b. 50 axpy", what, "portex graph", v[0].ms * 1e3, "portex 50 px_parallel_for",
            v[1].ms * 1e3, false, 0.70);
    add_row("b. 50 axpy, raw", what, "raw CUDA graph", v[2].ms * 1e3, "raw 50 <<<>>>",
            v[3].ms * 1e3, false, 0.0);

    /* d: the same node of both graphs, between two values of a. */
    sync_both();
    c.set_args[0] = (bg_axpy_args){0.5, c.x, c.y_px};
    c.set_args[1] = (bg_axpy_args){2.0, c.x, c.y_px};
    variant sv[2] = {{"raw cudaGraphExecKernelNodeSetParams", set_raw, NULL, BY_HOST_CLOCK, 0},
                     {"portex px_graph_exec_set_args", set_px, NULL, BY_HOST_CLOCK, 0}};
    measure(sv, 2, &c, 1, 2, g.reps);
    add_row("d. set args", "per call, 1 kernel node", "px_graph_exec_set_args",
            sv[1].ms * 1e3 / c.sets, "cudaGraphExecKernelNodeSetParams", sv[0].ms * 1e3 / c.sets,
            false, 1.10);
    /* The updated graph still runs: one launch of each with the last values. */
    CHECK(px_graph_launch(c.exec, g.inst));
    CU(cudaGraphLaunch(c.raw_exec, g.raw_stream));
    sync_both();

    CHECK(px_graph_exec_destroy(&c.exec));
    CHECK(px_graph_destroy(&c.graph));
    CU(cudaGraphExecDestroy(c.raw_exec));
    CU(cudaGraphDestroy(c.raw_graph));
    CHECK(px_view_release(&vx));
    CHECK(px_view_release(&vy_px));
    CHECK(px_view_release(&vy_raw));
}

/* ---- d. Node updates: kernels of 1 to 8 arguments, copies, fills ----------------------- */

enum { SET_ARGS, SET_COPY, SET_FILL };

typedef struct set_ctx {
    int kind, k; /* SET_ARGS: k arguments */
    int sets;    /* calls per call of a variant */
    unsigned flip;
    px_graph *graph;
    px_graph_node *node;
    px_graph_exec *exec;
    cudaGraph_t raw_graph;
    cudaGraphNode_t raw_node;
    cudaGraphExec_t raw_exec;
    const void *px_args[2]; /* SET_ARGS: the two Args alternated */
    double *raw_p[2][8];    /* SET_ARGS: the raw side's two parameter sets */
    px_view *dst[2], *src;  /* SET_COPY: the two destinations; SET_FILL: dst[0] */
    double *raw_dst[2], *raw_src;
    double value[2]; /* SET_FILL */
} set_ctx;

static void set_node_px(void *p)
{
    set_ctx *c = p;
    for (int k = 0; k < c->sets; ++k) {
        const unsigned f = c->flip++ & 1u;
        if (c->kind == SET_ARGS)
            CHECK(px_graph_exec_set_args(c->exec, c->node, c->px_args[f]));
        else if (c->kind == SET_COPY)
            CHECK(px_graph_exec_set_copy(c->exec, c->node, c->dst[f], c->src));
        else
            CHECK(px_graph_exec_set_fill(c->exec, c->node, &c->value[f]));
    }
}

static void set_node_raw(void *p)
{
    set_ctx *c = p;
    for (int k = 0; k < c->sets; ++k) {
        const unsigned f = c->flip++ & 1u;
        if (c->kind == SET_ARGS)
            CU(raw_graph_args_set(c->k, c->raw_exec, c->raw_node, c->raw_p[f], AXPY_N));
        else if (c->kind == SET_COPY)
            CU(cudaGraphExecMemcpyNodeSetParams1D(c->raw_exec, c->raw_node, c->raw_dst[f],
                                                  c->raw_src, AXPY_N * sizeof(double),
                                                  cudaMemcpyDeviceToDevice));
        else
            CU(raw_graph_fill_set(c->raw_exec, c->raw_node, c->raw_dst[0], c->value[f], AXPY_N));
    }
}

/* One case: both graphs made and instantiated, the updates timed, each graph launched once
   after (it still runs). */
static void set_case(set_ctx *c, const char *name, const char *what, const char *px_name,
                     const char *raw_name)
{
    CHECK(px_graph_instantiate(c->graph, &c->exec));
    CU(cudaGraphInstantiate(&c->raw_exec, c->raw_graph, 0));
    sync_both();
    variant v[2] = {{"raw", set_node_raw, NULL, BY_HOST_CLOCK, 0},
                    {"portex", set_node_px, NULL, BY_HOST_CLOCK, 0}};
    measure(v, 2, c, 1, 2, g.reps);
    add_row(name, what, px_name, v[1].ms * 1e3 / c->sets, raw_name, v[0].ms * 1e3 / c->sets, false,
            1.10);
    CHECK(px_graph_launch(c->exec, g.inst));
    CU(cudaGraphLaunch(c->raw_exec, g.raw_stream));
    sync_both();
    CHECK(px_graph_exec_destroy(&c->exec));
    CHECK(px_graph_destroy(&c->graph));
    CU(cudaGraphExecDestroy(c->raw_exec));
    CU(cudaGraphDestroy(c->raw_graph));
}

static void set_cases(void)
{
    enum { NBUF = 9 }; /* p[0] to p[7], and p[0]'s alternative */
    px_view *buf[NBUF];
    double *raw[NBUF];
    for (int b = 0; b < NBUF; ++b) {
        buf[b] = bench_device_view("set buffer", PX_F64, 1, AXPY_N, 0, 0);
        raw[b] = device_data(buf[b]);
    }
    set_ctx c;
    const int sets = g.quick ? 100 : 1000;

    /* Kernels of k arguments: the Args of the two sets differ in p[0] (buffer 0 or 8). */
    const px_kernel *const kernels[4] = {PX_KERNEL(bg_add1), PX_KERNEL(bg_add2), PX_KERNEL(bg_add4),
                                         PX_KERNEL(bg_add8)};
    bg_args8 args[2]; /* a prefix of it is the Args of k < 8: the same layout */
    for (int f = 0; f < 2; ++f)
        for (int j = 0; j < 8; ++j)
            CHECK(px_view_get_span(buf[j == 0 && f ? 8 : j], &args[f].p[j]));
    for (int t = 0; t < 4; ++t) {
        const int k = 1 << t;
        memset(&c, 0, sizeof c);
        c.kind = SET_ARGS;
        c.k = k;
        c.sets = sets;
        c.px_args[0] = &args[0];
        c.px_args[1] = &args[1];
        for (int f = 0; f < 2; ++f)
            for (int j = 0; j < k; ++j) c.raw_p[f][j] = raw[j == 0 && f ? 8 : j];
        CHECK(px_graph_create(&c.graph, PX_EXEC_CUDA, 0, "k arguments"));
        CHECK(px_graph_add_for(c.graph, NULL, 0, "add", px_range(0, AXPY_N), kernels[t], &args[0],
                               &c.node));
        CU(raw_graph_args_node(k, c.raw_p[0], AXPY_N, &c.raw_graph, &c.raw_node));
        char name[24], what[48];
        snprintf(name, sizeof name, "d. set args, k=%d", k);
        snprintf(what, sizeof what, "per call, a kernel of %d arg%s", k, k > 1 ? "s" : "");
        set_case(&c, name, what, "px_graph_exec_set_args", "cudaGraphExecKernelNodeSetParams");
    }

    /* A copy node: buffer 1 into buffer 0 or 8. */
    memset(&c, 0, sizeof c);
    c.kind = SET_COPY;
    c.sets = sets;
    c.dst[0] = buf[0];
    c.dst[1] = buf[8];
    c.src = buf[1];
    c.raw_dst[0] = raw[0];
    c.raw_dst[1] = raw[8];
    c.raw_src = raw[1];
    CHECK(px_graph_create(&c.graph, PX_EXEC_CUDA, 0, "copy"));
    CHECK(px_graph_add_copy(c.graph, NULL, 0, c.dst[0], c.src, &c.node));
    CU(cudaGraphCreate(&c.raw_graph, 0));
    CU(cudaGraphAddMemcpyNode1D(&c.raw_node, c.raw_graph, NULL, 0, c.raw_dst[0], c.raw_src,
                                AXPY_N * sizeof(double), cudaMemcpyDeviceToDevice));
    set_case(&c, "d. set copy", "per call, 4096 f64 on a GPU", "px_graph_exec_set_copy",
             "cudaGraphExecMemcpyNodeSetParams1D");

    /* A fill node of buffer 0, between two values. */
    memset(&c, 0, sizeof c);
    c.kind = SET_FILL;
    c.sets = sets;
    c.dst[0] = buf[0];
    c.raw_dst[0] = raw[0];
    c.value[0] = 0.5;
    c.value[1] = 2.0;
    CHECK(px_graph_create(&c.graph, PX_EXEC_CUDA, 0, "fill"));
    CHECK(px_graph_add_fill(c.graph, NULL, 0, c.dst[0], &c.value[0], &c.node));
    CU(raw_graph_fill_node(c.raw_dst[0], c.value[0], AXPY_N, &c.raw_graph, &c.raw_node));
    set_case(&c, "d. set fill", "per call, 4096 f64", "px_graph_exec_set_fill",
             "cudaGraphExecKernelNodeSetParams");

    for (int b = 0; b < NBUF; ++b) CHECK(px_view_release(&buf[b]));
}

/* ---- e. Jacobi: WHILE node against a host-driven loop ------------------------------------ */

typedef struct jacobi_ctx {
    px_view *a, *b, *init, *residual, *iters;
    jacobi_sweep_args ab, ba;
    jacobi_update_args upd;
    px_policy interior;
    int64_t cap; /* sweeps of one solve */
    px_graph *graph;
    px_graph_exec *exec;
    int64_t host_sweeps; /* out of jacobi_host */
    double host_residual;
} jacobi_ctx;

static void jacobi_reset(jacobi_ctx *j)
{
    CHECK(px_deep_copy(j->a, j->init, NULL));
    CHECK(px_deep_copy(j->b, j->init, NULL));
    CHECK(px_instance_fence(g.inst));
}

static void jacobi_graph(jacobi_ctx *j)
{
    CHECK(px_graph_launch(j->exec, g.inst));
    CHECK(px_instance_fence(g.inst));
}

static void jacobi_host(jacobi_ctx *j)
{
    int64_t sweeps = 0;
    double res;
    do {
        CHECK(px_parallel_for(g.inst, "sweep a->b", j->interior, PX_KERNEL(jacobi_sweep), &j->ab));
        CHECK(px_parallel_for(g.inst, "sweep b->a", j->interior, PX_KERNEL(jacobi_sweep), &j->ba));
        CHECK(px_parallel_reduce(g.inst, "max |a - b|", j->interior, PX_KERNEL(jacobi_update),
                                 &j->upd, &res));
        sweeps += 2;
        if (sweeps >= j->cap) res = 0.0; /* as jacobi_count does */
    } while (res > 0.0);
    j->host_sweeps = sweeps;
    j->host_residual = res;
}

static void jacobi_field(jacobi_ctx *j, double *out)
{
    CHECK(px_instance_fence(g.inst));
    CU(cudaMemcpy(out, device_data(j->a), JACOBI_N * JACOBI_N * sizeof(double),
                  cudaMemcpyDeviceToHost));
}

static void jacobi_case(void)
{
    const int64_t n = JACOBI_N;
    jacobi_ctx j;
    memset(&j, 0, sizeof j);
    j.cap = g.quick ? 200 : 2000;
    j.a = bench_device_view("a", PX_F64, 2, n, n, 0);
    j.b = bench_device_view("b", PX_F64, 2, n, n, 0);
    j.init = bench_device_view("init", PX_F64, 2, n, n, 0);
    j.residual = bench_device_view("residual", PX_F64, 1, 1, 0, 0);
    j.iters = bench_device_view("iters", PX_I64, 1, 1, 0, 0);
    const size_t bytes = (size_t)(n * n) * sizeof(double);
    double *h = malloc(bytes), *graph_field = malloc(bytes);
    if (!h || !graph_field) exit(2);
    const double pi = 3.14159265358979323846;
    for (int64_t i = 0; i < n; ++i)
        for (int64_t k = 0; k < n; ++k)
            h[i * n + k] = i == 0 && k < n - 1 ? sin(pi * (double)k / (double)(n - 1)) : 0.0;
    CU(cudaMemcpy(device_data(j.init), h, bytes, cudaMemcpyHostToDevice));

    CHECK(px_view_get_span(j.a, &j.ab.in));
    CHECK(px_view_get_span(j.b, &j.ab.out));
    CHECK(px_view_get_span(j.b, &j.ba.in));
    CHECK(px_view_get_span(j.a, &j.ba.out));
    CHECK(px_view_get_span(j.a, &j.upd.a));
    CHECK(px_view_get_span(j.b, &j.upd.b));
    jacobi_count_args cnt;
    memset(&cnt, 0, sizeof cnt);
    cnt.sweeps = 2;
    cnt.max_iters = j.cap;
    CHECK(px_view_get_span(j.iters, &cnt.iters));
    CHECK(px_view_get_span(j.residual, &cnt.residual));
    j.interior = px_mdrange2(1, n - 1, 1, n - 1);

    /* [iters = 0] -> WHILE (residual > 0) { a->b, b->a, residual = max |a - b|, count } */
    px_graph *body;
    px_graph_cond_t *cond;
    px_graph_node *zero_iters, *loop, *s1, *s2, *upd, *count;
    const int64_t zero = 0;
    CHECK(px_graph_create(&j.graph, PX_EXEC_CUDA, 0, "jacobi"));
    CHECK(px_graph_add_fill(j.graph, NULL, 0, j.iters, &zero, &zero_iters));
    CHECK(px_graph_add_while(j.graph, &zero_iters, 1, "until the cap", 1, &cond, &body, &loop));
    CHECK(px_graph_add_for(body, NULL, 0, "sweep a->b", j.interior, PX_KERNEL(jacobi_sweep), &j.ab,
                           &s1));
    CHECK(px_graph_add_for(body, &s1, 1, "sweep b->a", j.interior, PX_KERNEL(jacobi_sweep), &j.ba,
                           &s2));
    CHECK(px_graph_add_reduce(body, &s2, 1, "max |a - b|", j.interior, PX_KERNEL(jacobi_update),
                              &j.upd, j.residual, &upd));
    CHECK(px_graph_add_for(body, &upd, 1, "count", px_range(0, 1), PX_KERNEL(jacobi_count), &cnt,
                           &count));
    CHECK(px_graph_cond_from_view(body, cond, j.residual, PX_CMP_GT, 0.0, NULL));
    px_view *const swept[2] = {j.a, j.b}, *const counted[2] = {j.iters, j.residual};
    CHECK(px_graph_node_uses(s1, swept, 2));
    CHECK(px_graph_node_uses(count, counted, 2));
    CHECK(px_graph_instantiate(j.graph, &j.exec));
    CHECK(px_graph_upload(j.exec, g.inst));

    /* Check once: the same sweeps, the same field (max is exact: bitwise expected). */
    jacobi_reset(&j);
    jacobi_graph(&j);
    jacobi_field(&j, graph_field);
    int64_t graph_sweeps = 0;
    px_span_i64_1d it;
    CHECK(px_view_get_span(j.iters, &it));
    CU(cudaMemcpy(&graph_sweeps, it.data, sizeof graph_sweeps, cudaMemcpyDeviceToHost));
    jacobi_reset(&j);
    jacobi_host(&j);
    jacobi_field(&j, h);
    double diff = 0.0;
    for (int64_t k = 0; k < n * n; ++k) diff = fmax(diff, fabs(h[k] - graph_field[k]));
    if (graph_sweeps != j.cap || j.host_sweeps != j.cap || !(diff <= 1e-12)) {
        fprintf(stderr,
                "jacobi: graph %lld sweeps, host loop %lld (cap %lld), fields differ by %g\n",
                (long long)graph_sweeps, (long long)j.host_sweeps, (long long)j.cap, diff);
        g.differ = 1;
    }

    /* Each sample: reset (untimed), one solve, fence; alternating which goes first. */
    const int reps = g.reps / 2 > 3 ? g.reps / 2 : 3; /* each sample is a whole solve */
    double *tg = malloc((size_t)reps * sizeof *tg), *th = malloc((size_t)reps * sizeof *th);
    if (!tg || !th) exit(2);
    for (int r = -1; r < reps; ++r) /* r = -1: warm-up */
        for (int k = 0; k < 2; ++k) {
            const int graph_turn = ((r + 2) + k) % 2;
            jacobi_reset(&j);
            const double t0 = now_ms();
            if (graph_turn)
                jacobi_graph(&j);
            else
                jacobi_host(&j);
            const double t = now_ms() - t0;
            if (r >= 0) (graph_turn ? tg : th)[r] = t;
        }
    const double per = 1e3 / (double)j.cap;
    char what[48];
    snprintf(what, sizeof what, "per sweep, %lldx%lld, %lld sweeps", (long long)n, (long long)n,
             (long long)j.cap);
    add_row("e. jacobi WHILE", what, "portex graph, WHILE", median(tg, reps) * per,
            "portex host loop", median(th, reps) * per, true, 2.0);
    free(tg);
    free(th);

    CHECK(px_graph_exec_destroy(&j.exec));
    CHECK(px_graph_destroy(&j.graph));
    CHECK(px_view_release(&j.a));
    CHECK(px_view_release(&j.b));
    CHECK(px_view_release(&j.init));
    CHECK(px_view_release(&j.residual));
    CHECK(px_view_release(&j.iters));
    free(h);
    free(graph_field);
}

/* ---- The program --------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    for (int k = 1; k < argc; ++k) {
        if (!strcmp(argv[k], "--quick"))
            g.quick = true;
        else if (!strcmp(argv[k], "--reps") && k + 1 < argc)
            g.reps = atoi(argv[++k]);
        else {
            fprintf(stderr, "usage: %s [--quick] [--reps N]\n", argv[0]);
            return 2;
        }
    }
    if (g.reps < 1) g.reps = g.quick ? 5 : 21;

    CHECK(px_init(NULL));
    if (!bench_cuda_usable("bench_graph")) return 77;
    CU(cudaSetDevice(0));
    CHECK(px_instance_default(PX_EXEC_CUDA, 0, &g.inst));
    CU(cudaStreamCreateWithFlags(&g.raw_stream, cudaStreamNonBlocking));

    struct cudaDeviceProp prop;
    int runtime = 0, driver = 0;
    CU(cudaGetDeviceProperties(&prop, 0));
    CU(cudaRuntimeGetVersion(&runtime));
    CU(cudaDriverGetVersion(&driver));
    printf("bench_graph: portex %s graphs vs raw CUDA graphs on %s (%d SMs), CUDA runtime %d.%d, "
           "driver %d.%d\n%d timed rounds after warm-up, medians, host clock%s\n\n",
           px_version_string(), prop.name, prop.multiProcessorCount, runtime / 1000,
           runtime % 1000 / 10, driver / 1000, driver % 1000 / 10, g.reps,
           g.quick ? " (--quick)" : "");
    fflush(stdout);

    chain_cases();
    axpy_cases();
    set_cases();
    jacobi_case();
    print_table();
    if (g.differ)
        printf("\nNOTE: some results differed (see stderr); the figures are still printed\n");

    CU(cudaStreamDestroy(g.raw_stream));
    CHECK(px_finalize());
    return 0;
}
