/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* bench_linalg_openmp: libportex_linalg's px_csr_spmv on portex's OpenMP backend against
 * the same product written as a plain `#pragma omp parallel for` over the rows, in one
 * process, on the same threads.
 *
 *   bench_linalg_openmp [--quick] [--reps N]
 *
 * Matrices (common/csr.h; f64 values, 32-bit offsets and indices): the 5-point Laplacian of
 * a 2048 x 2048 grid (4.2M rows, 21M entries) and 2^20 rows of power-law lengths of mean 16
 * and longest 4096 (csr_powerlaw_mean, random columns); --quick: a 512 x 512 grid and 2^17
 * rows.
 *
 * portex: a px_csr made by px_csr_create in px_host() on the default OpenMP instance, and
 * px_csr_spmv (alpha 1, beta 0) with the algorithm the library chose (PX_SPMV_AUTO), then
 * a fence; PX_SPMV_ROWS and PX_SPMV_TILES forced are timed too, for comparison. The plain
 * side: the row loop of csr_spmv_plain under `parallel for` with schedule(static),
 * schedule(dynamic, 64) and schedule(guided), num_threads(the instance's thread count); the
 * fastest of the three is the baseline. Each side has its own copy of the arrays: portex's
 * are the library's (placed as its views are: first touch by the OpenMP team), the plain
 * side's are first touched by its threads in a schedule(static) loop over the rows, as one
 * writes for NUMA.
 *
 * Threads: PX_NUM_THREADS, else OMP_NUM_THREADS, else a thread per core.
 *
 * Before timing every variant runs once and is checked against the serial C product (1e-12
 * relative to each row's sum of |a x|). Timing: two untimed rounds, then N (default 21; 5 with
 * --quick) in which each variant runs once, the one to go first rotating; medians, host
 * clock. Rows: portex's time and GB/s (the least traffic: A, x and y once), the best plain
 * schedule's, and best plain / portex (above 1: portex faster; target >= 1.0). Last, portex's
 * bandwidth on the power-law matrix over that on the Laplacian (target >= 1 / 1.5: skewed rows
 * within 1.5x of the regular matrix's GB/s).
 *
 * Exit status: 0; 1 when a result differs; 2 on an error. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include <portex/linalg.h>

#include "bench_util.h"
#include "../common/csr.h"

/* One matrix, both sides. */
typedef struct spmv_bench {
    csr plain;             /* the plain side's copy of the arrays */
    const double *x_plain; /* its x */
    double *y_plain;       /* its y */
    int nt;                /* threads */
    px_instance *inst;     /* portex: the default OpenMP instance */
    px_csr *A;             /* portex's matrix */
    px_view *x, *y;        /* portex's x and y */
} spmv_bench;

static void plain_static(const spmv_bench *b)
{
    const csr *m = &b->plain;
#pragma omp parallel for schedule(static) num_threads(b->nt)
    for (int64_t r = 0; r < m->nrows; ++r) b->y_plain[r] = csr_row_dot(m, b->x_plain, r);
}

static void plain_dynamic(const spmv_bench *b)
{
    const csr *m = &b->plain;
#pragma omp parallel for schedule(dynamic, 64) num_threads(b->nt)
    for (int64_t r = 0; r < m->nrows; ++r) b->y_plain[r] = csr_row_dot(m, b->x_plain, r);
}

static void plain_guided(const spmv_bench *b)
{
    const csr *m = &b->plain;
#pragma omp parallel for schedule(guided) num_threads(b->nt)
    for (int64_t r = 0; r < m->nrows; ++r) b->y_plain[r] = csr_row_dot(m, b->x_plain, r);
}

static void portex_alg(const spmv_bench *b, px_spmv_alg alg)
{
    CHECK(px_csr_set_spmv_alg(b->A, alg));
    CHECK(px_csr_spmv(b->inst, 1.0, b->A, b->x, 0.0, b->y));
    CHECK(px_instance_fence(b->inst));
}

static void portex_auto(const spmv_bench *b) { portex_alg(b, PX_SPMV_AUTO); }
static void portex_rows(const spmv_bench *b) { portex_alg(b, PX_SPMV_ROWS); }
static void portex_tiles(const spmv_bench *b) { portex_alg(b, PX_SPMV_TILES); }

/* The variants, in this order: portex first, then the plain schedules. */
enum { n_variants = 6, n_portex = 3 };
static const char *const variant_name[n_variants] = {"portex AUTO", "portex ROWS", "portex TILES",
                                                     "static",      "dynamic,64",  "guided"};
static void (*const variant_fn[n_variants])(const spmv_bench *) = {
    portex_auto, portex_rows, portex_tiles, plain_static, plain_dynamic, plain_guided};

typedef struct sampler {
    const spmv_bench *b;
    int calls;
} sampler;

static double sample(int i, void *p)
{
    const sampler *s = p;
    const double t0 = now_ms();
    for (int c = 0; c < s->calls; ++c) variant_fn[i](s->b);
    return (now_ms() - t0) / s->calls;
}

/* The plain side's copy of m, each row's entries first touched by the thread that a
   schedule(static) loop over the rows gives it. */
static csr plain_copy(const csr *m, int nt)
{
    csr p = csr_alloc(m->nrows, m->nnz);
    memcpy(p.row, m->row, (size_t)(m->nrows + 1) * sizeof *p.row);
#pragma omp parallel for schedule(static) num_threads(nt)
    for (int64_t r = 0; r < m->nrows; ++r)
        for (int32_t k = m->row[r]; k < m->row[r + 1]; ++k) {
            p.col[k] = m->col[k];
            p.val[k] = m->val[k];
        }
    return p;
}

/* What a matrix's run found: portex AUTO's time and GB/s; false when a result differs. */
typedef struct outcome {
    bool ok;
    double px_gbs, plain_gbs;
} outcome;

static outcome bench_matrix(const char *name, const csr *m, px_instance *inst, int nt, int reps,
                            int calls)
{
    const int64_t n = m->nrows;
    outcome out = {false, 0.0, 0.0};
    double *x = malloc((size_t)n * sizeof *x), *ref = malloc((size_t)n * sizeof *ref);
    double *x_plain = malloc((size_t)n * sizeof *x_plain);
    double *y_plain = malloc((size_t)n * sizeof *y_plain), *got = malloc((size_t)n * sizeof *got);
    if (!x || !ref || !x_plain || !y_plain || !got) exit(2);
    uint64_t seed = 3;
    for (int64_t r = 0; r < n; ++r) x[r] = csr_random(&seed);
    csr_spmv_plain(m, x, ref);
#pragma omp parallel for schedule(static) num_threads(nt)
    for (int64_t r = 0; r < n; ++r) {
        x_plain[r] = x[r];
        y_plain[r] = NAN;
    }

    spmv_bench b = {
        .plain = plain_copy(m, nt), .x_plain = x_plain, .y_plain = y_plain, .nt = nt, .inst = inst};
    const px_csr_desc desc = {.nrows = n,
                              .ncols = n,
                              .nnz = m->nnz,
                              .value_type = PX_F64,
                              .index_type = PX_I32,
                              .row_offsets = m->row,
                              .col_indices = m->col,
                              .values = m->val};
    const double t0 = now_ms();
    CHECK(px_csr_create(inst, px_host(), &desc, &b.A));
    const double create_ms = now_ms() - t0;
    px_csr_info info;
    CHECK(px_csr_info_get(b.A, &info));
    /* x and y: zero-filled by the OpenMP team (first touch), x then written by the threads
       of a schedule(static) loop. */
    CHECK(px_view_create_1d(&b.x, "x", px_host(), PX_F64, n));
    CHECK(px_view_create_1d(&b.y, "y", px_host(), PX_F64, n));
    px_span xs, ys;
    CHECK(px_view_span(b.x, &xs));
    CHECK(px_view_span(b.y, &ys));
    double *xd = xs.data, *yd = ys.data;
#pragma omp parallel for schedule(static) num_threads(nt)
    for (int64_t r = 0; r < n; ++r) xd[r] = x[r];

    /* Each variant once, checked. */
    double diff[n_variants];
    bool ok = true;
    for (int v = 0; v < n_variants; ++v) {
        double *y = v < n_portex ? yd : y_plain;
        for (int64_t r = 0; r < n; ++r) y[r] = NAN; /* a row a side misses fails the check */
        variant_fn[v](&b);
        memcpy(got, y, (size_t)n * sizeof *got);
        diff[v] = csr_max_rel_diff(m, x, got, ref);
        ok = ok && diff[v] <= 1e-12;
    }
    printf("\n%s: %lld rows, %lld entries (mean %.2f, longest %lld, row cv %.2f); AUTO chose %s "
           "(tiles %lld, long rows %lld); px_csr_create %.1f ms\n",
           name, (long long)n, (long long)m->nnz, info.mean_row, (long long)info.max_row,
           info.row_cv, px_spmv_alg_string(info.spmv_alg), (long long)info.tiles,
           (long long)info.long_rows, create_ms);
    printf("  max relative difference from serial C:");
    for (int v = 0; v < n_variants; ++v)
        printf(" %s %.3g%s", variant_name[v], diff[v], v + 1 < n_variants ? "," : "");
    printf(": %s\n", ok ? "OK" : "MISMATCH (not timed)");

    if (ok) {
        double med[n_variants];
        sampler s = {&b, calls};
        if (bench_rotate(n_variants, 2, reps, sample, &s, med) != 0) exit(2);
        const double bytes = (double)m->nnz * 12.0 + (double)(n + 1) * 4.0 + 16.0 * (double)n;
        int best = n_portex;
        for (int v = n_portex; v < n_variants; ++v) {
            if (med[v] < med[best]) best = v;
        }
        for (int v = 0; v < n_variants; ++v)
            printf("  %-13s %9.3f ms  %6.2f GB/s%s\n", variant_name[v], med[v],
                   bytes / med[v] * 1e-6, v == best ? "  (best plain)" : "");
        const double q = med[best] / med[0];
        out.px_gbs = bytes / med[0] * 1e-6;
        out.plain_gbs = bytes / med[best] * 1e-6;
        printf("| %-18s | %2d threads | portex AUTO (%s) %8.3f ms, %6.2f GB/s | plain %s %8.3f "
               "ms, %6.2f GB/s | %.3f | >= 1.00 | %s |\n",
               name, nt, px_spmv_alg_string(info.spmv_alg), med[0], out.px_gbs, variant_name[best],
               med[best], out.plain_gbs, q, q >= 1.0 ? "met" : "missed");
    }
    out.ok = ok;
    CHECK(px_csr_release(&b.A));
    CHECK(px_view_release(&b.x));
    CHECK(px_view_release(&b.y));
    csr_free(&b.plain);
    free(x);
    free(ref);
    free(x_plain);
    free(y_plain);
    free(got);
    return out;
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
    printf("bench_linalg_openmp: portex %s px_csr_spmv (OpenMP backend) vs plain OpenMP, %d "
           "threads; %d timed rounds, medians\n",
           px_version_string(), nt, reps);

    const int calls = quick ? 5 : 1;
    csr lap = csr_laplacian2d(quick ? 512 : 2048);
    const outcome l = bench_matrix("laplace 2-D", &lap, inst, nt, reps, calls);
    csr_free(&lap);
    csr pl = csr_powerlaw_mean(quick ? (int64_t)1 << 17 : (int64_t)1 << 20, 16.0, 4096, 42);
    const outcome p = bench_matrix("power-law 16/4096", &pl, inst, nt, reps, calls);
    csr_free(&pl);

    if (l.ok && p.ok) {
        const double q = p.px_gbs / l.px_gbs;
        printf("\nbandwidth power-law / Laplacian: portex %.3f (%.2f / %.2f GB/s; target >= %.3f, "
               "within 1.5x: %s), plain best %.3f\n",
               q, p.px_gbs, l.px_gbs, 1.0 / 1.5, q >= 1.0 / 1.5 ? "met" : "missed",
               p.plain_gbs / l.plain_gbs);
    }
    CHECK(px_finalize());
    return l.ok && p.ok ? 0 : 1;
}
