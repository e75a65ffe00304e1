/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* bench_team_openmp: the team SpMV of examples/spmv_kernels.c on portex's OpenMP backend
 * against the same product written as a plain `#pragma omp parallel for`, in one process,
 * on the same arrays and threads.
 *
 *   bench_team_openmp [--quick] [--reps N]
 *
 * Matrices (common/csr.h; --quick: a 512 x 512 grid and 2^18 rows): the 5-point
 * Laplacian of a 4096 x 4096 grid (16M rows, 80M entries) and 16M rows of power-law
 * lengths (mean about 7.5, up to 4096, random columns), the matrices of
 * bench/cuda/bench_team. The plain side runs each twice, with schedule(static) and with
 * schedule(dynamic, 256) (what one writes for uneven rows); portex is set against the
 * faster. portex's side is what the example runs on this backend: spmv over the league
 * px_team_rows shapes from the row pointer (a team per block of rows, about 256 entries'
 * worth; the backend shares the league out in chunks as threads finish; no row is split
 * off, as it is on a GPU).
 *
 * Threads: portex's default OpenMP instance (PX_NUM_THREADS, else OMP_NUM_THREADS, else a
 * thread per core); the plain loops say num_threads(the same count) and run on the same
 * pool threads. The arrays are built by one thread (first touch on its NUMA node): both
 * sides read the same pages.
 *
 * Before timing both sides run once and are checked against the plain C product (1e-12
 * relative to each row's sum of |a x|). Timing: two untimed runs each, then N (default 21;
 * 5 with --quick) alternating which goes first; medians. The ratio is plain time / portex
 * time (above 1: portex faster); target >= 0.9.
 *
 * Exit status: 0; 1 when a result differs; 2 on an error. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "bench_util.h"
#include "../common/csr.h"
#include "spmv_kernels.h"

/* One matrix's product, both ways. */
typedef struct spmv_bench {
    const csr *m;
    const double *x;
    double *y_plain, *y_px;
    int nt;
    px_instance *inst;
    spmv_args args;
    px_team_rows *rows;
} spmv_bench;

static void plain_static(const spmv_bench *b)
{
    const csr *m = b->m;
#pragma omp parallel for schedule(static) num_threads(b->nt)
    for (int64_t r = 0; r < m->nrows; ++r) b->y_plain[r] = csr_row_dot(m, b->x, r);
}

static void plain_dynamic(const spmv_bench *b)
{
    const csr *m = b->m;
#pragma omp parallel for schedule(dynamic, 256) num_threads(b->nt)
    for (int64_t r = 0; r < m->nrows; ++r) b->y_plain[r] = csr_row_dot(m, b->x, r);
}

static void portex_spmv(const spmv_bench *b)
{
    CHECK(px_parallel_for_team(b->inst, "spmv", px_teams_rows(b->rows), PX_KERNEL(spmv), &b->args));
    CHECK(px_instance_fence(b->inst));
}

/* What bench_paired samples: side 0 the plain loop, side 1 portex, `calls` calls each. */
typedef struct sides {
    const spmv_bench *b;
    void (*plain)(const spmv_bench *);
    int calls;
} sides;

static double sample(int i, void *p)
{
    const sides *s = p;
    const double t0 = now_ms();
    for (int c = 0; c < s->calls; ++c) {
        if (i)
            portex_spmv(s->b);
        else
            s->plain(s->b);
    }
    return (now_ms() - t0) / s->calls;
}

/* Checks and times one matrix; false when a result differs. */
static bool bench_matrix(const char *name, const csr *m, px_instance *inst, int nt, int reps,
                         int calls)
{
    const int64_t n = m->nrows;
    double *x = malloc((size_t)n * sizeof *x), *ref = malloc((size_t)n * sizeof *ref);
    double *y_plain = malloc((size_t)n * sizeof *y_plain), *y_px = malloc((size_t)n * sizeof *y_px);
    if (!x || !ref || !y_plain || !y_px) exit(2);
    uint64_t seed = 3;
    for (int64_t r = 0; r < n; ++r) {
        x[r] = csr_random(&seed);
        y_plain[r] = y_px[r] = NAN; /* a row a side misses fails the check */
    }
    csr_spmv_plain(m, x, ref);

    spmv_bench b = {.m = m, .x = x, .y_plain = y_plain, .y_px = y_px, .nt = nt, .inst = inst};
    px_view *v[5] = {bench_host_wrap("row", PX_I32, 1, n + 1, 0, m->row),
                     bench_host_wrap("col", PX_I32, 1, m->nnz, 0, m->col),
                     bench_host_wrap("val", PX_F64, 1, m->nnz, 0, m->val),
                     bench_host_wrap("x", PX_F64, 1, n, 0, x),
                     bench_host_wrap("y", PX_F64, 1, n, 0, y_px)};
    CHECK(px_view_get_span(v[0], &b.args.row));
    CHECK(px_view_get_span(v[1], &b.args.col));
    CHECK(px_view_get_span(v[2], &b.args.val));
    CHECK(px_view_get_span(v[3], &b.args.x));
    CHECK(px_view_get_span(v[4], &b.args.y));
    CHECK(px_team_rows_create(inst, v[0], &b.rows));
    px_team_rows_info in;
    CHECK(px_team_rows_info_get(b.rows, &in));

    portex_spmv(&b);
    const double d_px = csr_max_rel_diff(m, x, y_px, ref);
    plain_static(&b);
    const double d_st = csr_max_rel_diff(m, x, y_plain, ref);
    for (int64_t r = 0; r < n; ++r) y_plain[r] = NAN;
    plain_dynamic(&b);
    const double d_dy = csr_max_rel_diff(m, x, y_plain, ref);
    const bool ok = d_px <= 1e-12 && d_st <= 1e-12 && d_dy <= 1e-12;
    printf("%s: %lld rows, %lld entries, teams of %lld rows; max relative difference from serial "
           "C: portex %.3g, static %.3g, dynamic %.3g: %s\n",
           name, (long long)n, (long long)m->nnz, (long long)in.rows_per_team, d_px, d_st, d_dy,
           ok ? "OK" : "MISMATCH");
    if (ok) {
        const char *sched[2] = {"static", "dynamic,256"};
        void (*plain[2])(const spmv_bench *) = {plain_static, plain_dynamic};
        double best_plain = 0.0, px_at_best = 0.0, q = 0.0;
        for (int k = 0; k < 2; ++k) {
            sides s = {&b, plain[k], calls};
            const bench_pair p = bench_paired(sample, &s, 2, reps);
            printf("  plain schedule(%-11s) %8.3f ms   portex %8.3f ms   plain/portex %.3f\n",
                   sched[k], p.base, p.test, 1.0 / p.ratio);
            if (k == 0 || p.base < best_plain) {
                best_plain = p.base;
                px_at_best = p.test;
                q = 1.0 / p.ratio; /* the median of the per-run ratios */
            }
        }
        const double bytes = (double)m->nnz * 12.0 + (double)(n + 1) * 4.0 + 16.0 * (double)n;
        printf("| %-14s | %2d threads | plain (best) %8.3f ms, %5.1f GB/s | portex %8.3f ms, "
               "%5.1f GB/s | %.3f | >= 0.90 | %s |\n",
               name, nt, best_plain, bytes / best_plain * 1e-6, px_at_best,
               bytes / px_at_best * 1e-6, q, q >= 0.9 ? "met" : "missed");
    }
    CHECK(px_team_rows_release(&b.rows));
    for (int k = 0; k < 5; ++k) CHECK(px_view_release(&v[k]));
    free(x);
    free(ref);
    free(y_plain);
    free(y_px);
    return ok;
}

int main(int argc, char **argv)
{
    int reps = 0;
    const bool quick = bench_options(argc, argv, &reps);
    if (reps < 1) reps = quick ? 5 : 21;

    CHECK(px_init(NULL));
    px_instance *inst;
    CHECK(px_instance_default(PX_EXEC_OPENMP, 0, &inst));
    int nt = 0;
    CHECK(px_instance_concurrency(inst, &nt));
    printf("bench_team_openmp: portex %s team SpMV (OpenMP backend) vs plain OpenMP, %d threads; "
           "%d timed runs, medians\n",
           px_version_string(), nt, reps);

    const int64_t grid = quick ? 512 : 4096;
    const int calls = quick ? 5 : 1;
    csr lap = csr_laplacian2d(grid);
    bool ok = bench_matrix("spmv laplace", &lap, inst, nt, reps, calls);
    csr_free(&lap);
    csr pl = csr_powerlaw(grid * grid, quick ? 1024 : 4096, 42);
    ok = bench_matrix("spmv powerlaw", &pl, inst, nt, reps, calls) && ok;
    csr_free(&pl);

    CHECK(px_finalize());
    return ok ? 0 : 1;
}
