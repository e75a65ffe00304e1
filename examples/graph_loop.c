/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* graph_loop: a time-stepping loop of many small dependent kernels, launched two ways.
 *
 * Each time step is a chain of STAGES small kernels on a ring of n points, each reading
 * what the one before it wrote. Launched kernel by kernel, every step pays STAGES
 * dispatches (on CUDA: STAGES kernel launches, each a few microseconds of CPU time, which
 * for kernels this small is more than the GPU spends running them). Recorded once as an
 * explicit graph -- a px_graph_add_for chain, instantiated once -- every step is one
 * px_graph_launch. Both runs start from the same state; their results must be identical
 * (the same kernels in the same order) and match a plain C loop.
 *
 *   graph_loop [--quick]     --quick: fewer steps (the test) */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <math.h>
#include <string.h>
#include <time.h>

#include <portex/graph.h>

#include "example.h"
#include "graph_loop_kernels.h"

enum { STAGES = 20 }; /* kernels per step; even, so that a step ends in u[0] */

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Stage k's source term. */
static double stage_c(int k) { return 1e-3 * (double)(k + 1); }

/* The reference: one stage in a plain loop. */
static void stage_plain(int64_t n, double c, const double *in, double *out)
{
    for (int64_t i = 0; i < n; ++i) {
        const int64_t left = i == 0 ? n - 1 : i - 1;
        const int64_t right = i == n - 1 ? 0 : i + 1;
        out[i] = 0.5 * in[i] + 0.25 * (in[left] + in[right]) + c;
    }
}

/* Both buffers back to the initial state (px_deep_copy orders after all earlier work). */
static void reset(px_view *u[2], px_view *init)
{
    CHECK(px_deep_copy(u[0], init, NULL));
    CHECK(px_deep_copy(u[1], init, NULL));
}

int main(int argc, char **argv)
{
    int quick = 0;
    for (int a = 1; a < argc; ++a) {
        if (strcmp(argv[a], "--quick") == 0) {
            quick = 1;
        } else {
            fprintf(stderr, "usage: %s [--quick]\n", argv[0]);
            return 2;
        }
    }
    const int64_t n = 4096;
    const int steps = quick ? 20 : 200;

    CHECK(px_init(NULL));
    example_backend be = example_default("graph_loop");

    /* Two buffers (stage k reads u[k % 2], writes the other) and the initial state. */
    px_view_desc desc = {.label = "u0",
                         .space = be.space,
                         .dtype = PX_F64,
                         .rank = 1,
                         .extent = {n},
                         .flags = PX_VIEW_NO_INIT};
    px_view *u[2], *init;
    CHECK(px_view_create(&u[0], &desc));
    desc.label = "u1";
    CHECK(px_view_create(&u[1], &desc));
    desc.label = "init";
    CHECK(px_view_create(&init, &desc));

    px_view *host;
    CHECK(px_view_create_mirror(&host, px_host(), init)); /* its own memory, even on serial */
    px_span_f64_1d hs;
    CHECK(px_view_get_span(host, &hs));
    uint64_t seed = 42;
    for (int64_t i = 0; i < n; ++i) hs.data[i] = example_random(&seed);
    CHECK(px_deep_copy(init, host, NULL));

    /* The reference, in plain C. */
    double *ref[2] = {malloc((size_t)n * sizeof(double)), malloc((size_t)n * sizeof(double))};
    double *eager = malloc((size_t)n * sizeof(double));
    if (!ref[0] || !ref[1] || !eager) return 1;
    memcpy(ref[0], hs.data, (size_t)n * sizeof(double));
    for (int s = 0; s < steps; ++s)
        for (int k = 0; k < STAGES; ++k) stage_plain(n, stage_c(k), ref[k % 2], ref[(k + 1) % 2]);

    /* Every stage's arguments, the same for every step. */
    loop_stage_args args[STAGES];
    for (int k = 0; k < STAGES; ++k) {
        args[k].c = stage_c(k);
        args[k].n = n;
        CHECK(px_view_get_span(u[k % 2], &args[k].in));
        CHECK(px_view_get_span(u[(k + 1) % 2], &args[k].out));
    }
    const px_policy range = px_range(0, n);

    /* 1. Kernel by kernel: STAGES dispatches per step. One step first, untimed (a GPU
     *    loads the kernel at its first launch). */
    for (int k = 0; k < STAGES; ++k)
        CHECK(px_parallel_for(be.inst, "loop_stage", range, PX_KERNEL(loop_stage), &args[k]));
    reset(u, init);
    CHECK(px_instance_fence(be.inst));
    double t0 = now_s();
    for (int s = 0; s < steps; ++s)
        for (int k = 0; k < STAGES; ++k)
            CHECK(px_parallel_for(be.inst, "loop_stage", range, PX_KERNEL(loop_stage), &args[k]));
    CHECK(px_instance_fence(be.inst));
    const double t_eager = now_s() - t0;
    CHECK(px_deep_copy(host, u[0], NULL));
    memcpy(eager, hs.data, (size_t)n * sizeof(double));

    /* 2. One graph per step: the same STAGES kernels as a chain of nodes, each depending
     *    on the one before; built and instantiated once, launched once per step. */
    px_graph *g;
    CHECK(px_graph_create(&g, be.exec, 0, "graph_loop step"));
    px_graph_node *prev = NULL;
    for (int k = 0; k < STAGES; ++k) {
        px_graph_node *node;
        char label[32];
        snprintf(label, sizeof label, "stage %d", k);
        CHECK(px_graph_add_for(g, prev ? &prev : NULL, prev ? 1 : 0, label, range,
                               PX_KERNEL(loop_stage), &args[k], &node));
        CHECK(px_graph_node_uses(node, u, 2)); /* kernels see spans: name the views */
        prev = node;
    }
    int nodes = 0;
    CHECK(px_graph_node_count(g, &nodes));
    px_graph_exec *exec;
    CHECK(px_graph_instantiate(g, &exec));
    CHECK(px_graph_upload(exec, be.inst));
    CHECK(px_graph_launch(exec, be.inst)); /* untimed, as above */
    reset(u, init);
    CHECK(px_instance_fence(be.inst));
    t0 = now_s();
    for (int s = 0; s < steps; ++s) CHECK(px_graph_launch(exec, be.inst));
    CHECK(px_instance_fence(be.inst));
    const double t_graph = now_s() - t0;
    CHECK(px_deep_copy(host, u[0], NULL));

    /* The same kernels in the same order: the same bits. Against plain C, only rounding
     * may differ (fma on a GPU). */
    const int same = memcmp(eager, hs.data, (size_t)n * sizeof(double)) == 0;
    double max_diff = 0.0;
    for (int64_t i = 0; i < n; ++i) {
        const double d = fabs(hs.data[i] - ref[0][i]) / fmax(1.0, fabs(ref[0][i]));
        if (d > max_diff) max_diff = d;
    }
    const int ok = same && max_diff <= 1e-12;

    const double us_eager = 1e6 * t_eager / steps, us_graph = 1e6 * t_graph / steps;
    printf("graph_loop: %d steps of %d dependent kernels on %lld points (graph of %d nodes)\n",
           steps, STAGES, (long long)n, nodes);
    printf("  kernel by kernel: %10.2f us per step (%d dispatches)\n", us_eager, STAGES);
    printf("  graph replay:     %10.2f us per step (1 px_graph_launch)\n", us_graph);
    printf("  ratio: %.2fx\n", us_graph > 0.0 ? us_eager / us_graph : 0.0);
    printf("graph_loop: results %s, max relative difference from plain C loops %.3g: %s\n",
           same ? "identical" : "DIFFER", max_diff, ok ? "OK" : "MISMATCH");

    CHECK(px_graph_exec_destroy(&exec));
    CHECK(px_graph_destroy(&g));
    free(ref[0]);
    free(ref[1]);
    free(eager);
    CHECK(px_view_release(&host));
    CHECK(px_view_release(&init));
    CHECK(px_view_release(&u[0]));
    CHECK(px_view_release(&u[1]));
    CHECK(px_finalize());
    return ok ? 0 : 1;
}
