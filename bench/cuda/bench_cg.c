/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* bench_cg: the conjugate-gradient method on one GPU, portex (examples/cg_solve.c, from
 * libportex_linalg's pieces) against cuSPARSE + cuBLAS (raw_cg.cu), in one process.
 *
 *   bench_cg [--quick] [--reps N]
 *
 * Problems: the 5-point Laplacian of n x n grids (common/csr.h's csr_laplacian2d; f64
 * values, 32-bit offsets and indices), n = 128, 512 and 2048 (--quick: 64 and 128). Each
 * matrix is made once in DEVICE(0): portex's px_csr by px_csr_create from the host arrays,
 * and cuSPARSE's own copy of the arrays; b = A * ones (px_csr_spmv), so the solution is
 * ones. From x = 0 each solver stops when r.r <= tol^2 b.b (tol 1e-10) or after max_it
 * iterations: max_it = 10 n, capped at 1000 for n = 2048 (the same for all three, so that
 * they do the same iterations).
 *
 * Three solvers, the same algorithm in the same order (cg_solve.c's host loop: x = 0,
 * r = b, p = b, rr = r.r; while (rr > tol^2 b.b && it < max_it) { Ap = A p; pap = p.Ap;
 * alpha = rr / pap; x += alpha p; r -= alpha Ap; rr_next = r.r; p = r + (rr_next / rr) p;
 * rr = rr_next; ++it; }), all on the stream of the default CUDA instance of device 0:
 *   portex host loop: cg_host_loop (px_csr_spmv, px_blas_dot with its result on the host:
 *     each dot waits and the host decides; px_blas_axpy, px_blas_axpby);
 *   portex graph (WHILE): cg_graph_loop (one graph whose WHILE node runs the iterations on
 *     the device: the library's SpMV and dot nodes and cg_kernels.c's scalar updates, the
 *     scalars in one-element views; one launch, the host waiting once);
 *   raw (cuSPARSE+cuBLAS host loop): raw_cg.cu: cusparseSpMV (CSR,
 *     CUSPARSE_SPMV_ALG_DEFAULT; handle, descriptors, buffer and cusparseSpMV_preprocess
 *     made once, with r, p and Ap, outside any timing; its time printed), cublasDdot in
 *     CUBLAS_POINTER_MODE_HOST (each scalar back on the host, which decides), cublasDaxpy,
 *     and one small kernel for p = r + beta p (cuBLAS has no axpby).
 * What is timed, on the host clock, each solve: the iterations, from the first r.r to the
 * end of the loop, the stream idle at the start (the start, x = 0, r = p = b and b.b, is
 * not timed; the clock stops when the loop ends, as each loop leaves its last p update
 * queued): cg_result.seconds for portex (the graph's: its launch until the fence after
 * it), raw_cg_solve's for raw. Per-iteration time = that / the iterations. The graph's
 * setup_seconds (vectors, start, build and instantiation, before its launch) is printed
 * separately, its median, and is not in its per-iteration time.
 *
 * Each problem: one untimed warm-up solve of each solver, checked: the three take the same
 * iterations (a difference is a FAILURE); where they converged (fewer than max_it), each
 * residual <= tol and each x within 1e-7 of ones; where capped at max_it, the residuals
 * |r| / |b| of the graph and raw within 1e-6 relative of the host loop's. A solution that
 * fails its check leaves the problem untimed. Then N rounds (default 5; --quick 2) in which
 * each solver solves once, the one to go first rotating; medians of the per-iteration time;
 * a timed solve whose iterations differ from its warm-up's is a FAILURE too.
 *
 * Table: per problem, "CG n^2 host loop" (raw against the portex host loop) and
 * "CG n^2 graph (WHILE)" (raw against the portex graph): the raw time per iteration
 * (baseline), portex's, ratio = raw / portex (above 1: portex faster), target >= 1.0 for
 * both; then a line with each problem's iterations.
 *
 * Exit status: 0; 1 when a check failed; 2 on an error; 77 without a usable GPU. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <portex.h>
#include <portex/cuda.h>
#include <portex/linalg.h>

#include "bench_util.h"
#include "bench_views.h"
#include "cg_solve.h"
#include "csr.h"
#include "raw_cg.h"

enum { SOLVE_HOST, SOLVE_GRAPH, SOLVE_RAW, SOLVERS };
static const char *const solver_name[SOLVERS] = {"portex host loop", "portex graph (WHILE)",
                                                 "cuSPARSE+cuBLAS host loop"};

enum { MAX_GRIDS = 3 };
static const double tol = 1e-10;

/* A problem's figures, for the table at the end. */
typedef struct grid_result {
    int64_t grid;
    int iterations[SOLVERS], max_it; /* the warm-up's */
    bool timed;
    double ms[SOLVERS]; /* median time an iteration */
} grid_result;

static struct {
    int reps;
    bool quick;
    px_instance *inst;   /* the default CUDA instance of device 0 */
    cudaStream_t stream; /* its stream: portex, cuSPARSE and cuBLAS all run on it */
    int failed;          /* a check failed */
    int rows, met;       /* rows with a target, and those that met it */
    grid_result done[MAX_GRIDS];
    int ndone;
} g;

/* ---- Helpers ---------------------------------------------------------------------------- */

/* Host -> device and back once the instance's work is done. */
static void upload(px_view *v, const void *src, size_t bytes)
{
    bench_upload(g.inst, v, src, bytes);
}
static void download(void *dst, px_view *v, size_t bytes) { bench_download(g.inst, dst, v, bytes); }

/* "1.234 ms" or "3.41 us". */
static void format_time(char *buf, size_t len, double ms)
{
    if (ms < 0.1)
        snprintf(buf, len, "%.2f us", ms * 1e3);
    else
        snprintf(buf, len, "%.3f ms", ms);
}

static void print_header(void)
{
    printf("\n| %-34s | %-16s | %-22s | %-22s | %6s | %7s | %-4s |\n", "case", "baseline",
           "baseline / iteration", "portex / iteration", "ratio", "target", "met?");
    printf("|------------------------------------|------------------|------------------------|"
           "------------------------|-------:|--------:|------|\n");
}

/* One row: the baseline, portex, baseline time / portex time (above 1: portex faster) and the
   target. */
static void print_row(const char *name, const char *base_name, double base_ms, double px_ms,
                      double target)
{
    char b[48], p[48], t[16];
    format_time(b, sizeof b, base_ms);
    format_time(p, sizeof p, px_ms);
    const double q = base_ms / px_ms;
    snprintf(t, sizeof t, ">= %.2f", target);
    const char *met = q >= target ? "yes" : "no";
    ++g.rows;
    g.met += q >= target;
    printf("| %-34s | %-16s | %-22s | %-22s | %6.3f | %7s | %-4s |\n", name, base_name, b, p, q, t,
           met);
}

static void failure(void) { g.failed = 1; }

/* ---- One problem ------------------------------------------------------------------------- */

typedef struct problem {
    px_csr *A;
    px_view *b;
    px_view *x[SOLVERS]; /* each solver's solution */
    raw_cg *raw;
    int max_it;
    int iterations[SOLVERS]; /* the warm-up's */
    double *setup;           /* the graph's setup_seconds, a timed solve each */
    int nsetup;
    int drift[SOLVERS]; /* timed solves whose iterations differ from the warm-up's */
} problem;

static void solve(problem *p, int s, cg_result *res)
{
    switch (s) {
    case SOLVE_HOST:
        CHECK(cg_host_loop(g.inst, px_device(0), p->A, p->b, p->x[s], tol, p->max_it, res));
        break;
    case SOLVE_GRAPH:
        CHECK(cg_graph_loop(g.inst, px_device(0), p->A, p->b, p->x[s], tol, p->max_it, res));
        break;
    default:
        res->setup_seconds = 0;
        if (raw_cg_solve(p->raw, bench_device_data(p->b), bench_device_data(p->x[s]), tol,
                         p->max_it, &res->iterations, &res->residual, &res->seconds) != 0) {
            fprintf(stderr, "bench_cg: raw CG: %s failed\n", raw_cg_error());
            exit(2);
        }
        break;
    }
}

/* bench_rotate's sample: one timed solve of solver s, its time an iteration in ms. */
static double sample(int s, void *ctx)
{
    problem *p = ctx;
    cg_result res;
    solve(p, s, &res);
    if (res.iterations != p->iterations[s]) ++p->drift[s];
    if (s == SOLVE_GRAPH) p->setup[p->nsetup++] = res.setup_seconds;
    return res.seconds * 1e3 / (res.iterations > 0 ? res.iterations : 1);
}

/* The warm-up solves, checked (see the header). Returns whether the solutions are good
   enough to time (a difference in iterations alone is a FAILURE but still timed: the time an
   iteration takes stays comparable). */
static bool warm_up(problem *p, int64_t grid, int64_t n)
{
    cg_result res[SOLVERS];
    for (int s = 0; s < SOLVERS; ++s) solve(p, s, &res[s]);
    for (int s = 0; s < SOLVERS; ++s) p->iterations[s] = res[s].iterations;
    const bool same = res[SOLVE_GRAPH].iterations == res[SOLVE_HOST].iterations &&
                      res[SOLVE_RAW].iterations == res[SOLVE_HOST].iterations;
    printf("  iterations: %s %d, %s %d, %s %d (max_it %d): %s\n", solver_name[0], res[0].iterations,
           solver_name[1], res[1].iterations, solver_name[2], res[2].iterations, p->max_it,
           same ? "equal" : "DIFFERENT: FAILURE");
    if (!same) failure();

    double *hx = bench_malloc("bench_cg", (size_t)n * sizeof *hx);
    bool good = true;
    for (int s = 0; s < SOLVERS; ++s) {
        download(hx, p->x[s], (size_t)n * sizeof *hx);
        double err = 0;
        for (int64_t i = 0; i < n; ++i) {
            const double d = fabs(hx[i] - 1.0);
            if (!(d <= err)) err = isnan(d) ? INFINITY : d;
        }
        const bool converged = res[s].iterations < p->max_it;
        bool ok;
        const char *what;
        if (converged) {
            ok = res[s].residual <= tol && err <= 1e-7;
            what = "converged: residual <= 1e-10 and max |x - 1| <= 1e-7";
        } else {
            const double ref = res[SOLVE_HOST].residual;
            const double d = fabs(res[s].residual - ref);
            ok = d <= 1e-6 * ref;
            what = "capped: residual within 1e-6 of the host loop's";
        }
        printf("  %-26s residual %.3e of |b|, max |x - 1| %.3e (%s): %s\n", solver_name[s],
               res[s].residual, err, what, ok ? "ok" : "FAILURE");
        good = good && ok;
    }
    free(hx);
    if (!good) {
        printf("CG %lld^2: a solution failed its check: FAILURE, not timed\n", (long long)grid);
        failure();
    }
    return good;
}

static void bench_grid(int64_t grid)
{
    csr m = csr_laplacian2d(grid);
    const int64_t n = m.nrows;
    problem p = {.max_it = grid > 512 ? 1000 : 10 * (int)grid};

    /* portex's matrix, from the host arrays. */
    px_csr_desc desc = {.nrows = n,
                        .ncols = n,
                        .nnz = m.nnz,
                        .value_type = PX_F64,
                        .index_type = PX_I32,
                        .row_offsets = m.row,
                        .col_indices = m.col,
                        .values = m.val};
    CHECK(px_csr_create(g.inst, px_device(0), &desc, &p.A));

    /* cuSPARSE's own copy of the arrays, and its solver. */
    px_view *row = bench_device_view("row (cuSPARSE)", PX_I32, 1, n + 1, 0, PX_VIEW_NO_INIT);
    px_view *col = bench_device_view("col (cuSPARSE)", PX_I32, 1, m.nnz, 0, PX_VIEW_NO_INIT);
    px_view *val = bench_device_view("val (cuSPARSE)", PX_F64, 1, m.nnz, 0, PX_VIEW_NO_INIT);
    upload(row, m.row, (size_t)(n + 1) * sizeof *m.row);
    upload(col, m.col, (size_t)m.nnz * sizeof *m.col);
    upload(val, m.val, (size_t)m.nnz * sizeof *m.val);
    const double t0 = now_ms();
    if (raw_cg_create(&p.raw, n, m.nnz, bench_device_data(row), bench_device_data(col),
                      bench_device_data(val), g.stream) != 0) {
        fprintf(stderr, "bench_cg: raw CG setup: %s failed\n", raw_cg_error());
        exit(2);
    }
    const double raw_setup_ms = now_ms() - t0;

    /* b = A * ones; the solutions. */
    px_view *ones = bench_device_view("ones", PX_F64, 1, n, 0, PX_VIEW_NO_INIT);
    p.b = bench_device_view("b", PX_F64, 1, n, 0, PX_VIEW_NO_INIT);
    const double one = 1;
    CHECK(px_fill_async(g.inst, ones, &one, NULL));
    CHECK(px_csr_spmv(g.inst, 1.0, p.A, ones, 0.0, p.b));
    for (int s = 0; s < SOLVERS; ++s)
        p.x[s] = bench_device_view("x", PX_F64, 1, n, 0, PX_VIEW_NO_INIT);
    CHECK(px_instance_fence(g.inst));

    printf("\nCG %lld^2: %lld rows, %lld entries, tol %.0e, max_it %d; cuSPARSE+cuBLAS setup "
           "(handles, descriptors, SpMV buffer + preprocess, r, p, Ap) %.1f ms\n",
           (long long)grid, (long long)n, (long long)m.nnz, tol, p.max_it, raw_setup_ms);

    grid_result *r = &g.done[g.ndone++];
    *r = (grid_result){.grid = grid, .max_it = p.max_it};
    if (warm_up(&p, grid, n)) {
        p.setup = bench_malloc("bench_cg", (size_t)g.reps * sizeof *p.setup);
        double med[SOLVERS];
        if (bench_rotate(SOLVERS, 0, g.reps, sample, &p, med) != 0) {
            fprintf(stderr, "bench_cg: out of host memory\n");
            exit(2);
        }
        for (int s = 0; s < SOLVERS; ++s) {
            r->ms[s] = med[s];
            if (p.drift[s]) {
                printf("  %s: %d timed solve(s) took other than the warm-up's %d iterations: "
                       "FAILURE\n",
                       solver_name[s], p.drift[s], p.iterations[s]);
                failure();
            }
        }
        r->timed = true;
        const double setup_ms = median(p.setup, p.nsetup) * 1e3;
        printf("  graph setup (vectors, start, build, instantiate; before its launch): %.3f ms "
               "median\n",
               setup_ms);
        free(p.setup);
    }
    memcpy(r->iterations, p.iterations, sizeof r->iterations);

    CHECK(px_instance_fence(g.inst));
    raw_cg_destroy(p.raw);
    px_view *views[] = {row, col, val, ones, p.b, p.x[0], p.x[1], p.x[2]};
    for (size_t k = 0; k < sizeof views / sizeof views[0]; ++k) CHECK(px_view_release(&views[k]));
    CHECK(px_csr_release(&p.A));
    csr_free(&m);
}

/* ---- The program ------------------------------------------------------------------------ */

int main(int argc, char **argv)
{
    g.quick = bench_options(argc, argv, &g.reps);
    if (g.reps < 1) g.reps = g.quick ? 2 : 5;

    CHECK(px_init(NULL));
    if (!bench_cuda_usable("bench_cg")) return 77;
    CU(cudaSetDevice(0));
    CHECK(px_instance_default(PX_EXEC_CUDA, 0, &g.inst));
    CHECK(px_instance_cuda_stream(g.inst, &g.stream));
    struct cudaDeviceProp prop;
    CU(cudaGetDeviceProperties(&prop, 0));
    printf("bench_cg: portex %s CG (host loop, graph) vs cuSPARSE+cuBLAS on %s (%d SMs), one "
           "stream; 1 warm-up and %d timed solves each, medians of the time an iteration%s\n",
           px_version_string(), prop.name, prop.multiProcessorCount, g.reps,
           g.quick ? " (--quick sizes)" : "");

    const int64_t full[] = {128, 512, 2048}, quick[] = {64, 128};
    const int64_t *grids = g.quick ? quick : full;
    const int ngrids = g.quick ? 2 : 3;
    for (int k = 0; k < ngrids; ++k) bench_grid(grids[k]);

    print_header();
    for (int k = 0; k < g.ndone; ++k) {
        const grid_result *r = &g.done[k];
        if (!r->timed) continue;
        char name[64];
        snprintf(name, sizeof name, "CG %lld^2 host loop", (long long)r->grid);
        print_row(name, "cuSPARSE+cuBLAS", r->ms[SOLVE_RAW], r->ms[SOLVE_HOST], 1.0);
        snprintf(name, sizeof name, "CG %lld^2 graph (WHILE)", (long long)r->grid);
        print_row(name, "cuSPARSE+cuBLAS", r->ms[SOLVE_RAW], r->ms[SOLVE_GRAPH], 1.0);
    }
    printf("\niterations:");
    for (int k = 0; k < g.ndone; ++k) {
        const grid_result *r = &g.done[k];
        const int *it = r->iterations;
        printf("%s %lld^2 ", k ? "," : "", (long long)r->grid);
        if (it[SOLVE_GRAPH] == it[SOLVE_HOST] && it[SOLVE_RAW] == it[SOLVE_HOST])
            printf("%d", it[SOLVE_HOST]);
        else
            printf("%d/%d/%d (host loop/graph/raw: DIFFERENT)", it[0], it[1], it[2]);
        printf("%s%s", it[SOLVE_HOST] >= r->max_it ? " (capped)" : "",
               r->timed ? "" : " (not timed)");
    }
    printf("\n\nbench_cg: %d of %d rows with a target met it%s\n", g.met, g.rows,
           g.failed ? "; SOME CHECKS FAILED" : "");
    CHECK(px_finalize());
    return g.failed;
}
