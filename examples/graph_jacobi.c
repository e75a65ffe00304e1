/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* graph_jacobi: a whole iterative solve in one graph launch.
 *
 * Laplace's equation on an n x n grid with fixed (Dirichlet) edges -- sin(pi x) along
 * one edge, 0 along the others -- solved by Jacobi iteration until the largest change of
 * a sweep is at most `tol`. Two buffers a and b take turns (even/odd double buffering):
 * one pass is a sweep a -> b, a sweep b -> a, and the size of the second update,
 * max |a - b|, reduced into a one-element PX_F64 view, so no copy is needed.
 *
 * The graph: copies that reset a and b and a fill that zeroes the sweep count, then a
 * WHILE node whose body is the pass plus px_graph_cond_from_view(residual > tol). One
 * px_graph_launch runs the whole solve; the host learns the result when it fences. The
 * same solve driven from the host -- launch the sweeps, px_parallel_reduce into a host
 * double, test it in C, loop -- waits for the GPU once per pass. Both must take the same
 * number of sweeps and give the same field (bitwise on the serial backend).
 *
 *   graph_jacobi [--n N] [--tol T] [--dot FILE]
 *     --n N       grid points per side, edges included (default 256)
 *     --tol T     stop when a sweep changes no point by more than T (default 1e-4)
 *     --dot FILE  write the graph in Graphviz DOT to FILE (dot -Tsvg FILE > graph.svg) */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <math.h>
#include <string.h>
#include <time.h>

#include <portex/graph.h>

#include "example.h"
#include "graph_jacobi_kernels.h"

/* A cap on the sweeps, in both solves: the loop ends there even if never converged. */
static const int64_t max_iters = 1000000;

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void usage(const char *prog)
{
    fprintf(stderr, "usage: %s [--n N] [--tol T] [--dot FILE]\n", prog);
    exit(2);
}

int main(int argc, char **argv)
{
    int64_t n = 256;
    double tol = 1e-4;
    const char *dot_file = NULL;
    for (int a = 1; a < argc; ++a) {
        if (strcmp(argv[a], "--n") == 0 && a + 1 < argc) {
            n = strtoll(argv[++a], NULL, 10);
            if (n < 3) usage(argv[0]);
        } else if (strcmp(argv[a], "--tol") == 0 && a + 1 < argc) {
            tol = strtod(argv[++a], NULL);
            if (!(tol > 0.0)) usage(argv[0]);
        } else if (strcmp(argv[a], "--dot") == 0 && a + 1 < argc) {
            dot_file = argv[++a];
        } else {
            usage(argv[0]);
        }
    }
    const size_t bytes = (size_t)(n * n) * sizeof(double);

    CHECK(px_init(NULL));
    example_backend be = example_default("graph_jacobi");

    /* The two buffers, the initial field, and the two scalars the loop needs, all in the
     * backend's memory (on CUDA a WHILE body copies and reduces into DEVICE memory only). */
    px_view_desc desc = {.label = "a",
                         .space = be.space,
                         .dtype = PX_F64,
                         .rank = 2,
                         .extent = {n, n},
                         .flags = PX_VIEW_NO_INIT};
    px_view *a, *b, *init, *residual, *iters;
    CHECK(px_view_create(&a, &desc));
    desc.label = "b";
    CHECK(px_view_create(&b, &desc));
    desc.label = "init";
    CHECK(px_view_create(&init, &desc));
    CHECK(px_view_create(
        &residual,
        &(px_view_desc){
            .label = "residual", .space = be.space, .dtype = PX_F64, .rank = 1, .extent = {1}}));
    CHECK(px_view_create(
        &iters,
        &(px_view_desc){
            .label = "iters", .space = be.space, .dtype = PX_I64, .rank = 1, .extent = {1}}));

    /* Initial field: 0 inside; the edge i = 0 holds sin(pi j / (n - 1)), the others 0. */
    px_view *hfield, *hresidual, *hiters;
    CHECK(px_view_create_mirror(&hfield, px_host(), init)); /* not init itself on serial */
    CHECK(px_view_create_mirror_view(&hresidual, px_host(), residual));
    CHECK(px_view_create_mirror_view(&hiters, px_host(), iters));
    const double pi = 3.14159265358979323846;
    px_span_f64_right hf;
    CHECK(px_view_get_span(hfield, &hf));
    for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < n; ++j)
            PX_AT2(hf, i, j) = i == 0 ? sin(pi * (double)j / (double)(n - 1)) : 0.0;
    PX_AT2(hf, 0, n - 1) = 0.0; /* sin(pi) is not exactly 0 */
    CHECK(px_deep_copy(init, hfield, NULL));

    /* Every kernel's arguments: a pass is a -> b, b -> a, then max |a - b|. */
    jacobi_sweep_args ab, ba;
    CHECK(px_view_get_span(a, &ab.in));
    CHECK(px_view_get_span(b, &ab.out));
    CHECK(px_view_get_span(b, &ba.in));
    CHECK(px_view_get_span(a, &ba.out));
    jacobi_update_args upd;
    CHECK(px_view_get_span(a, &upd.a));
    CHECK(px_view_get_span(b, &upd.b));
    jacobi_count_args cnt = {.sweeps = 2, .max_iters = max_iters};
    CHECK(px_view_get_span(iters, &cnt.iters));
    CHECK(px_view_get_span(residual, &cnt.residual));
    const px_policy interior = px_mdrange2(1, n - 1, 1, n - 1);

    /* ---- 1. The whole solve as one graph ------------------------------------------- */
    px_graph *g, *body;
    px_graph_cond_t *cond;
    px_graph_node *reset[3], *loop, *sweep1, *sweep2, *update, *count;
    const int64_t zero = 0;
    CHECK(px_graph_create(&g, be.exec, 0, "jacobi solve"));
    CHECK(px_graph_add_copy(g, NULL, 0, a, init, &reset[0]));
    CHECK(px_graph_add_copy(g, NULL, 0, b, init, &reset[1]));
    CHECK(px_graph_add_fill(g, NULL, 0, iters, &zero, &reset[2]));
    CHECK(px_graph_add_while(g, reset, 3, "until converged", 1, &cond, &body, &loop));
    CHECK(px_graph_add_for(body, NULL, 0, "sweep a->b", interior, PX_KERNEL(jacobi_sweep), &ab,
                           &sweep1));
    CHECK(px_graph_add_for(body, &sweep1, 1, "sweep b->a", interior, PX_KERNEL(jacobi_sweep), &ba,
                           &sweep2));
    CHECK(px_graph_add_reduce(body, &sweep2, 1, "max |a - b|", interior, PX_KERNEL(jacobi_update),
                              &upd, residual, &update));
    CHECK(px_graph_add_for(body, &update, 1, "count sweeps", px_range(0, 1),
                           PX_KERNEL(jacobi_count), &cnt, &count));
    CHECK(px_graph_cond_from_view(body, cond, residual, PX_CMP_GT, tol, NULL));
    px_view *const swept[] = {a, b}, *const counted[] = {iters, residual};
    CHECK(px_graph_node_uses(sweep1, swept, 2));
    CHECK(px_graph_node_uses(sweep2, swept, 2));
    CHECK(px_graph_node_uses(count, counted, 2));

    if (dot_file) {
        FILE *f = fopen(dot_file, "w");
        if (!f) {
            perror(dot_file);
            return 1;
        }
        CHECK(px_graph_dot(g, f));
        if (fclose(f) != 0) {
            perror(dot_file);
            return 1;
        }
        printf("graph_jacobi: graph written to %s (Graphviz DOT)\n", dot_file);
    }

    px_graph_exec *exec;
    CHECK(px_graph_instantiate(g, &exec));
    CHECK(px_graph_upload(exec, be.inst));
    CHECK(px_instance_fence(be.inst));
    double t0 = now_s();
    CHECK(px_graph_launch(exec, be.inst)); /* the whole solve */
    CHECK(px_instance_fence(be.inst));
    const double t_graph = now_s() - t0;

    double *graph_field = malloc(bytes);
    if (!graph_field) return 1;
    CHECK(px_deep_copy(hfield, a, NULL));
    memcpy(graph_field, hf.data, bytes);
    CHECK(px_deep_copy(hresidual, residual, NULL));
    CHECK(px_deep_copy(hiters, iters, NULL));
    double graph_res;
    int64_t graph_iters;
    px_span_f64_1d hr;
    px_span_i64_1d hi;
    CHECK(px_view_get_span(hresidual, &hr));
    CHECK(px_view_get_span(hiters, &hi));
    graph_res = hr.data[0];
    graph_iters = hi.data[0];

    /* ---- 2. The same solve driven from the host ------------------------------------- */
    CHECK(px_deep_copy(a, init, NULL));
    CHECK(px_deep_copy(b, init, NULL));
    int64_t host_iters = 0;
    double host_res;
    t0 = now_s();
    do {
        CHECK(px_parallel_for(be.inst, "sweep a->b", interior, PX_KERNEL(jacobi_sweep), &ab));
        CHECK(px_parallel_for(be.inst, "sweep b->a", interior, PX_KERNEL(jacobi_sweep), &ba));
        /* Into a host double: waits for the instance, every pass. */
        CHECK(px_parallel_reduce(be.inst, "max |a - b|", interior, PX_KERNEL(jacobi_update), &upd,
                                 &host_res));
        host_iters += 2;
        if (host_iters >= max_iters) host_res = 0.0; /* as jacobi_count does */
    } while (host_res > tol);
    const double t_host = now_s() - t0;
    CHECK(px_deep_copy(hfield, a, NULL));

    /* ---- Checks ---------------------------------------------------------------------- */
    /* The same kernels in the same order, and max is exact in any order: the fields should
     * be the same bits on every backend. Required on serial; on CUDA, within rounding. */
    double max_diff = 0.0, lo = INFINITY, hi_v = -INFINITY, mean = 0.0;
    for (int64_t k = 0; k < n * n; ++k) {
        const double d = fabs(hf.data[k] - graph_field[k]);
        if (d > max_diff) max_diff = d;
        if (graph_field[k] < lo) lo = graph_field[k];
        if (graph_field[k] > hi_v) hi_v = graph_field[k];
        mean += graph_field[k];
    }
    mean /= (double)(n * n);
    const double allowed = be.exec == PX_EXEC_SERIAL ? 0.0 : 1e-12;
    const int converged = graph_iters < max_iters && graph_res <= tol;
    const int same_iters = graph_iters == host_iters;
    /* The maximum principle: a harmonic field stays within its boundary values [0, 1]. */
    const int bounded = lo >= 0.0 && hi_v <= 1.0;
    const int ok = converged && same_iters && max_diff <= allowed && bounded;

    const double us_graph = 1e6 * t_graph / (double)(graph_iters > 0 ? graph_iters : 1);
    const double us_host = 1e6 * t_host / (double)(host_iters > 0 ? host_iters : 1);
    printf("graph_jacobi: %lld x %lld grid, tolerance %.3g on max |update|\n", (long long)n,
           (long long)n, tol);
    printf("  graph (1 launch, WHILE node): %lld sweeps, residual %.6g, %8.2f us per sweep\n",
           (long long)graph_iters, graph_res, us_graph);
    printf("  host loop (reduce to host):   %lld sweeps, residual %.6g, %8.2f us per sweep\n",
           (long long)host_iters, host_res, us_host);
    printf("  ratio host / graph: %.2fx\n", us_graph > 0.0 ? us_host / us_graph : 0.0);
    printf("graph_jacobi: field in [%.3g, %.3g], mean %.6f, max difference graph vs host %.3g"
           "%s%s: %s\n",
           lo, hi_v, mean, max_diff, converged ? "" : ", NOT CONVERGED",
           same_iters ? "" : ", SWEEP COUNTS DIFFER", ok ? "OK" : "MISMATCH");

    free(graph_field);
    CHECK(px_graph_exec_destroy(&exec));
    CHECK(px_graph_destroy(&g)); /* the body and the condition belong to the WHILE node */
    CHECK(px_view_release(&hfield));
    CHECK(px_view_release(&hresidual));
    CHECK(px_view_release(&hiters));
    CHECK(px_view_release(&a));
    CHECK(px_view_release(&b));
    CHECK(px_view_release(&init));
    CHECK(px_view_release(&residual));
    CHECK(px_view_release(&iters));
    CHECK(px_finalize());
    return ok ? 0 : 1;
}
