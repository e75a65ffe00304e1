/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* bench_linalg: libportex_linalg (portex/linalg.h) on one GPU against cuSPARSE, cuBLAS and a
 * raw CUDA kernel, in one process.
 *
 *   bench_linalg [--quick] [--reps N] [--matrix S] [--spmv-only | --spmm-only | --blas-only]
 *
 * (--spmv-only: the SpMV rows alone; --spmm-only: the SpMM rows alone; --blas-only: BLAS-1
 * and GEMV alone; one of them at most. --matrix S: the sparse rows of the matrices whose
 * name contains S only.)
 *
 * Matrices (common/csr.h; f64 values, 32-bit offsets and indices, square):
 *   the 5-point Laplacian of a 4096^2 grid and the 7-point one of 256^3 (16.8M rows each);
 *   power-law rows (csr_powerlaw_mean) of mean/max 8/100, 16/4096, 32/10^4, 64/1000 and
 *   8/10^5, 2^21 rows each; an R-MAT graph of scale 21, edge factor 16 (SuiteSparse's
 *   kron_g500-logn21's shape); a 27-point 3-D FEM-like mesh of 128^3 (SuiteSparse's 3-D FEM
 *   matrices' shape); "few dense rows": 2^21 rows of 16 entries and 8 rows of 2^20 entries
 *   spread among them.
 * Each is made once in DEVICE(0) for its SpMV and SpMM rows, then freed with all they used:
 * portex's px_csr by px_csr_create from the host arrays (its time on the host clock is
 * printed: copies and analysis; AUTO's algorithm, its tiles, long rows and the rows'
 * coefficient of variation printed) and cuSPARSE's own copy of the arrays (the uploads'
 * time printed beside px_csr_create's).
 *
 * SpMV, y = A x (alpha 1, beta 0): px_csr_spmv three ways: PX_SPMV_AUTO, PX_SPMV_ROWS and
 * PX_SPMV_TILES forced with px_csr_set_spmv_alg; against cusparseSpMV (CSR,
 * CUSPARSE_SPMV_ALG_DEFAULT; raw_team.cu's raw_spmv_*: buffer and preprocessing made once,
 * their time printed). Ratio: cuSPARSE time / portex time (above 1: portex faster); target
 * >= 1.0 for AUTO, none for the forced algorithms (printed for comparison, with AUTO
 * against the faster of the two).
 *
 * SpMM, Y = A X for k = 4 and k = 8 vectors (alpha 1, beta 0; X n x k, random in (0, 1],
 * Y n x k), X and Y both row-major (PX_LAYOUT_RIGHT, "right": a row's k values side by
 * side) or both column-major (PX_LAYOUT_LEFT, "left": each vector contiguous), four cases
 * a matrix: px_csr_spmm on the same px_csr (AUTO, and PX_SPMV_ROWS and PX_SPMV_TILES
 * forced, as for SpMV) against cusparseSpMM (raw_team.cu's raw_spmm_*:
 * CSR, dense matrices of the same order, CUSPARSE_ORDER_ROW with ld = k or
 * CUSPARSE_ORDER_COL with ld = n) with each of CUSPARSE_SPMM_ALG_DEFAULT,
 * CUSPARSE_SPMM_CSR_ALG1, _ALG2 and _ALG3 (each its own handle, descriptors and buffer,
 * cusparseSpMM_preprocess done once; their setup times printed; an algorithm cuSPARSE
 * refuses for the order is printed with why and left out). Ratio: the fastest cuSPARSE
 * algorithm's time (named in the baseline column) / portex time; target >= 1.0 for AUTO;
 * the forced algorithms and each slower cuSPARSE algorithm in rows below it, for
 * comparison. GB/s from the least traffic: A once,
 * X and Y once each, nnz * 12 + (n + 1) * 4 + 8 k (n + n) bytes.
 *
 * BLAS-1 at n = 2^26 and 2^14 (f64) and GEMV on a row-major 8192 x 8192 matrix (and, in the
 * small set, 128 x 128): px_blas_axpy against cublasDaxpy, px_blas_axpby against a raw CUDA
 * kernel y = a x + b y (raw_blas.cu; cuBLAS has no axpby), px_blas_scal against cublasDscal,
 * px_blas_dot (result on the host: the call waits) against cublasDdot in
 * CUBLAS_POINTER_MODE_HOST, px_blas_dot_view against cublasDdot in
 * CUBLAS_POINTER_MODE_DEVICE, px_blas_nrm2 and px_blas_nrm2_view the same against
 * cublasDnrm2, px_blas_gemv N and T against cublasDgemv (cuBLAS reads column-major: a
 * row-major A with op N is its op T, and T its op N). Both sides run on the same device
 * arrays. Ratio: cuBLAS (or raw) time / portex time; targets >= 0.97 at 2^26 and 8192^2,
 * >= 1.0 at 2^14.
 *
 * Everything runs on the default CUDA instance of device 0 and its stream: cuSPARSE and
 * cuBLAS are set to that same stream. Each case runs once each way and is checked against a
 * plain C result before any timing (SpMV: csr_spmv_plain, 1e-12 relative to each row's sum
 * of |a x|; SpMM: the same for each of the k vectors, every side checked, portex and each
 * cuSPARSE algorithm; BLAS-1 vectors 1e-14 relative; dot, nrm2, gemv 1e-12 against a long
 * double reference; the outputs of SpMV, SpMM, gemv and the _view reductions are 0xff bytes,
 * NaN, before the call, so that an element a side misses fails); a case that differs prints
 * the difference and is not timed (exit status 1). Timing: 2 warm-up rounds, then N rounds
 * (default 21; 3 with --quick) in which each variant runs once, the one to go first
 * rotating; medians. Large cases (SpMV, SpMM, 2^26, 8192^2) time each call between two
 * events on the stream; the small ones (2^14, 128^2), which launches bound, time a batch of
 * back-to-back calls and divide. Calls that wait for their result on the host (px_blas_dot,
 * px_blas_nrm2, cuBLAS in host pointer mode) are timed by the host clock.
 *
 * --quick (the test bench_linalg_quick): matrices of about a sixteenth of the rows (SpMM
 * still at k = 4 and 8, both layouts), vectors of 2^20 and 2^14, GEMV 1024^2 and 128^2, few
 * rounds.
 *
 * Exit status: 0; 1 when a result differs; 2 on an error; 77 without a usable GPU. */
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
#include "bench_variant.h"
#include "bench_views.h"
#include "csr.h"
#include "raw_blas.h"
#include "raw_team.h"

static struct {
    int reps;
    bool quick;
    const char *matrix;  /* --matrix S: only the matrices whose name holds S */
    px_instance *inst;   /* the default CUDA instance of device 0 */
    cudaStream_t stream; /* its stream: portex, cuSPARSE and cuBLAS all run on it */
    bool spmv, spmm;     /* the rows bench_matrices runs */
    int failed;          /* a result differed */
    int rows, met;       /* rows with a target, and those that met it */
} g;

/* ---- Helpers ---------------------------------------------------------------------------- */

/* Host -> device and back once the instance's work is done. */
static void upload(px_view *v, const void *src, size_t bytes)
{
    bench_upload(g.inst, v, src, bytes);
}
static void download(void *dst, px_view *v, size_t bytes) { bench_download(g.inst, dst, v, bytes); }

/* Every byte 0xff (a NaN in each double), so that an element a side misses fails the check. */
static void poison(px_view *v, size_t bytes)
{
    px_span s;
    CHECK(px_view_span(v, &s));
    CU(cudaMemsetAsync(s.data, 0xff, bytes, g.stream));
}

static px_view *device_vector(const char *label, int64_t n)
{
    return bench_device_view(label, PX_F64, 1, n, 0, PX_VIEW_NO_INIT);
}

/* "1.234 ms, 2345 GB/s" or "3.41 us". */
static void format_time(char *buf, size_t len, double ms, double bytes)
{
    int k = ms < 0.1 ? snprintf(buf, len, "%.2f us", ms * 1e3) : snprintf(buf, len, "%.3f ms", ms);
    if (bytes > 0 && k > 0 && (size_t)k < len)
        snprintf(buf + k, len - (size_t)k, ", %.0f GB/s", bytes / ms * 1e-6);
}

static void print_header(void)
{
    printf("\n| %-34s | %-16s | %-22s | %-22s | %6s | %7s | %-4s |\n", "case", "baseline",
           "baseline", "portex", "ratio", "target", "met?");
    printf("|------------------------------------|------------------|------------------------|"
           "------------------------|-------:|--------:|------|\n");
}

/* One row: the baseline, portex, baseline time / portex time (above 1: portex faster) and the
   target (negative: none, the row is for comparison). */
static void print_row(const char *name, const char *base_name, double base_ms, double px_ms,
                      double bytes, double target)
{
    char b[48], p[48], t[16];
    format_time(b, sizeof b, base_ms, bytes);
    format_time(p, sizeof p, px_ms, bytes);
    const double q = base_ms / px_ms;
    const char *met = "-";
    if (target >= 0) {
        snprintf(t, sizeof t, ">= %.2f", target);
        met = q >= target ? "yes" : "no";
        ++g.rows;
        g.met += q >= target;
    } else {
        snprintf(t, sizeof t, "-");
    }
    printf("| %-34s | %-16s | %-22s | %-22s | %6.3f | %7s | %-4s |\n", name, base_name, b, p, q, t,
           met);
}

/* ---- The matrices ----------------------------------------------------------------------- */

/* A matrix in DEVICE(0), made once and used by its SpMV and SpMM rows: portex's px_csr and
   cuSPARSE's own copy of the arrays. */
typedef struct matrix {
    const char *name;
    const csr *m;
    px_csr *A;
    px_csr_info info;
    px_view *row, *col, *val; /* cuSPARSE's copy */
} matrix;

static int32_t *device_i32(px_view *v)
{
    px_span s;
    CHECK(px_view_span(v, &s));
    return (int32_t *)s.data;
}

/* ---- SpMV ------------------------------------------------------------------------------- */

typedef struct spmv_ctx {
    px_csr *A;
    px_view *x, *y_px;
    raw_spmv *raw; /* cuSPARSE: reads its own copy of the arrays and x, writes y_raw */
} spmv_ctx;

static void spmv_portex(const spmv_ctx *c, px_spmv_alg alg)
{
    CHECK(px_csr_set_spmv_alg(c->A, alg));
    CHECK(px_csr_spmv(g.inst, 1.0, c->A, c->x, 0.0, c->y_px));
}

static void spmv_auto(void *p) { spmv_portex(p, PX_SPMV_AUTO); }
static void spmv_rows(void *p) { spmv_portex(p, PX_SPMV_ROWS); }
static void spmv_tiles(void *p) { spmv_portex(p, PX_SPMV_TILES); }

static void spmv_cusparse(void *p)
{
    const spmv_ctx *c = p;
    if (raw_spmv_run(c->raw) != 0) {
        fprintf(stderr, "bench_linalg: cusparseSpMV: %s failed\n", raw_spmv_error());
        exit(2);
    }
}

/* Runs fn once into y (NaN first) and checks y against the plain C product. */
static bool spmv_checked(const char *name, const char *what, void (*fn)(void *), spmv_ctx *c,
                         const csr *m, const double *x, const double *ref, double *got, px_view *y)
{
    const size_t bytes = (size_t)m->nrows * sizeof *got;
    poison(y, bytes);
    fn(c);
    download(got, y, bytes);
    const double d = csr_max_rel_diff(m, x, got, ref);
    if (d <= 1e-12) return true;
    printf("%s: %s: max relative difference from plain C %.3g > 1e-12: MISMATCH, row not timed\n",
           name, what, d);
    g.failed = 1;
    return false;
}

static void bench_spmv(const matrix *mx)
{
    const char *name = mx->name;
    const csr *m = mx->m;
    const int64_t n = m->nrows;
    double *x = bench_malloc("bench_linalg", (size_t)n * sizeof *x),
           *ref = bench_malloc("bench_linalg", (size_t)n * sizeof *ref);
    double *got = bench_malloc("bench_linalg", (size_t)n * sizeof *got);
    uint64_t seed = 3;
    for (int64_t r = 0; r < n; ++r) x[r] = csr_random(&seed);
    csr_spmv_plain(m, x, ref);

    spmv_ctx c = {.A = mx->A};
    c.x = device_vector("x", n);
    c.y_px = device_vector("y (portex)", n);
    px_view *y_raw = device_vector("y (cuSPARSE)", n);
    upload(c.x, x, (size_t)n * sizeof *x);

    /* cuSPARSE: its buffer and preprocessing, on the matrix's copy of the arrays. */
    const double t0 = now_ms();
    if (raw_spmv_create(&c.raw, n, m->nnz, device_i32(mx->row), device_i32(mx->col),
                        bench_device_data(mx->val), bench_device_data(c.x),
                        bench_device_data(y_raw), g.stream) != 0) {
        fprintf(stderr, "bench_linalg: %s: cuSPARSE setup: %s failed\n", name, raw_spmv_error());
        exit(2);
    }
    CU(cudaStreamSynchronize(g.stream));
    printf("SpMV: cuSPARSE create + buffer + preprocess %.1f ms\n", now_ms() - t0);

    const bool ok = spmv_checked(name, "portex AUTO", spmv_auto, &c, m, x, ref, got, c.y_px) &&
                    spmv_checked(name, "portex ROWS", spmv_rows, &c, m, x, ref, got, c.y_px) &&
                    spmv_checked(name, "portex TILES", spmv_tiles, &c, m, x, ref, got, c.y_px) &&
                    spmv_checked(name, "cuSPARSE", spmv_cusparse, &c, m, x, ref, got, y_raw);
    if (ok) {
        variant v[4] = {{"cuSPARSE", spmv_cusparse, g.stream, BY_EVENTS, 0},
                        {"portex AUTO", spmv_auto, g.stream, BY_EVENTS, 0},
                        {"portex ROWS", spmv_rows, g.stream, BY_EVENTS, 0},
                        {"portex TILES", spmv_tiles, g.stream, BY_EVENTS, 0}};
        measure(v, 4, &c, 1, 2, g.reps);
        /* The least traffic: A once, x and y once each. */
        const double bytes = (double)m->nnz * 12.0 + (double)(n + 1) * 4.0 + 16.0 * (double)n;
        char label[64];
        print_header();
        snprintf(label, sizeof label, "%s AUTO (%s)", name, px_spmv_alg_string(mx->info.spmv_alg));
        print_row(label, "cuSPARSE", v[0].ms, v[1].ms, bytes, 1.0);
        print_row("  forced ROWS", "cuSPARSE", v[0].ms, v[2].ms, bytes, -1.0);
        print_row("  forced TILES", "cuSPARSE", v[0].ms, v[3].ms, bytes, -1.0);
        const double best = v[2].ms < v[3].ms ? v[2].ms : v[3].ms;
        printf("  AUTO against the faster forced algorithm (%s): %.3f\n",
               v[2].ms < v[3].ms ? "rows" : "tiles", best / v[1].ms);
    }
    CHECK(px_csr_set_spmv_alg(c.A, PX_SPMV_AUTO));
    CHECK(px_instance_fence(g.inst));
    raw_spmv_destroy(c.raw);
    px_view *views[] = {c.x, c.y_px, y_raw};
    for (size_t k = 0; k < sizeof views / sizeof views[0]; ++k) CHECK(px_view_release(&views[k]));
    free(x);
    free(ref);
    free(got);
}

/* ---- SpMM ------------------------------------------------------------------------------- */

enum { SPMM_KMAX = 8 }; /* the most vectors; a case of k uses the first k */

/* The host side of a matrix's SpMM rows, made once for SPMM_KMAX vectors, element (r, j) at
   r * SPMM_KMAX + j: X (random in (0, 1]), the plain C product A X (each row's entries in
   order, as csr_row_dot) and each element's scale, the sum of |a x| over its row (as
   csr_max_rel_diff). */
typedef struct spmm_host {
    double *x, *ref, *scale;
    double *buf; /* n x SPMM_KMAX: X staged in a case's layout, then each side's Y read back */
} spmm_host;

static spmm_host spmm_host_make(const csr *m)
{
    const size_t elems = (size_t)m->nrows * SPMM_KMAX, bytes = elems * sizeof(double);
    spmm_host h = {bench_malloc("bench_linalg", bytes), bench_malloc("bench_linalg", bytes),
                   bench_malloc("bench_linalg", bytes), bench_malloc("bench_linalg", bytes)};
    uint64_t seed = 5;
    for (size_t e = 0; e < elems; ++e) h.x[e] = csr_random(&seed);
    for (int64_t r = 0; r < m->nrows; ++r) {
        double sum[SPMM_KMAX] = {0}, scale[SPMM_KMAX] = {0};
        for (int32_t e = m->row[r]; e < m->row[r + 1]; ++e) {
            const double a = m->val[e], *xc = h.x + (size_t)m->col[e] * SPMM_KMAX;
            for (int j = 0; j < SPMM_KMAX; ++j) {
                sum[j] += a * xc[j];
                scale[j] += fabs(a * xc[j]);
            }
        }
        for (int j = 0; j < SPMM_KMAX; ++j) {
            h.ref[(size_t)r * SPMM_KMAX + j] = sum[j];
            h.scale[(size_t)r * SPMM_KMAX + j] = scale[j];
        }
    }
    return h;
}

static void spmm_host_free(spmm_host *h)
{
    free(h->x);
    free(h->ref);
    free(h->scale);
    free(h->buf);
}

/* Where element (r, j) of an n x k matrix of `layout` is. */
static size_t spmm_at(px_layout layout, int64_t n, int k, int64_t r, int j)
{
    return layout == PX_LAYOUT_RIGHT ? (size_t)r * (size_t)k + (size_t)j
                                     : (size_t)j * (size_t)n + (size_t)r;
}

/* The largest difference of a side's Y (n x k, `layout`) from the reference, each element's
   relative to its scale (csr_max_rel_diff's measure, vector by vector); a NaN (an element
   the side missed: the poison) gives infinity. */
static double spmm_max_rel_diff(const spmm_host *h, int64_t n, int k, px_layout layout,
                                const double *y)
{
    double worst = 0.0;
    for (int64_t r = 0; r < n; ++r)
        for (int j = 0; j < k; ++j) {
            const size_t e = (size_t)r * SPMM_KMAX + (size_t)j;
            const double d = fabs(y[spmm_at(layout, n, k, r, j)] - h->ref[e]);
            const double rel = h->scale[e] > 0.0 ? d / h->scale[e] : d;
            if (!(rel <= worst)) worst = isnan(rel) ? INFINITY : rel;
        }
    return worst;
}

/* A rows x cols view of doubles in DEVICE(0) of `layout`, not filled. */
static px_view *device_matrix(const char *label, int64_t rows, int64_t cols, px_layout layout)
{
    px_view_desc d = bench_desc(label, px_device(0), PX_F64, 2, rows, cols);
    d.layout = layout;
    d.flags = PX_VIEW_NO_INIT;
    px_view *v;
    CHECK(px_view_create(&v, &d));
    return v;
}

typedef struct spmm_ctx {
    px_csr *A;
    px_view *x, *y_px;
    raw_spmm *raw[RAW_SPMM_ALGS]; /* NULL: cuSPARSE refused that algorithm for the case */
} spmm_ctx;

static void spmm_with(const spmm_ctx *c, px_spmv_alg alg)
{
    CHECK(px_csr_set_spmv_alg(c->A, alg));
    CHECK(px_csr_spmm(g.inst, 1.0, c->A, c->x, 0.0, c->y_px));
}

static void spmm_portex(void *p) { spmm_with(p, PX_SPMV_AUTO); }
static void spmm_rows(void *p) { spmm_with(p, PX_SPMV_ROWS); }
static void spmm_tiles(void *p) { spmm_with(p, PX_SPMV_TILES); }

static void spmm_cusparse(const spmm_ctx *c, raw_spmm_alg alg)
{
    if (raw_spmm_run(c->raw[alg]) != 0) {
        fprintf(stderr, "bench_linalg: cusparseSpMM %s: %s failed\n", raw_spmm_alg_name(alg),
                raw_spmm_error());
        exit(2);
    }
}

static void spmm_default(void *p) { spmm_cusparse(p, RAW_SPMM_DEFAULT); }
static void spmm_alg1(void *p) { spmm_cusparse(p, RAW_SPMM_CSR_ALG1); }
static void spmm_alg2(void *p) { spmm_cusparse(p, RAW_SPMM_CSR_ALG2); }
static void spmm_alg3(void *p) { spmm_cusparse(p, RAW_SPMM_CSR_ALG3); }
static void (*const spmm_cusparse_fn[RAW_SPMM_ALGS])(void *) = {spmm_default, spmm_alg1, spmm_alg2,
                                                                spmm_alg3};

/* Runs fn once into y (NaN first) and checks y against the plain C product. */
static bool spmm_checked(const char *label, const char *what, void (*fn)(void *), spmm_ctx *c,
                         const spmm_host *h, int64_t n, int k, px_layout layout, px_view *y)
{
    const size_t bytes = (size_t)n * (size_t)k * sizeof(double);
    poison(y, bytes);
    fn(c);
    download(h->buf, y, bytes);
    const double d = spmm_max_rel_diff(h, n, k, layout, h->buf);
    if (d <= 1e-12) return true;
    printf("%s: %s: max relative difference from plain C %.3g > 1e-12: MISMATCH, row not timed\n",
           label, what, d);
    g.failed = 1;
    return false;
}

/* Y = A X for k vectors, X and Y both of `layout`: px_csr_spmm against each cusparseSpMM
   algorithm cuSPARSE accepts for that order, the fastest the baseline. */
static void bench_spmm(const matrix *mx, const spmm_host *h, int k, px_layout layout)
{
    const csr *m = mx->m;
    const int64_t n = m->nrows; /* square: ncols = nrows */
    const bool right = layout == PX_LAYOUT_RIGHT;
    const size_t bytes = (size_t)n * (size_t)k * sizeof(double);
    char label[64];
    snprintf(label, sizeof label, "%s k=%d %s", mx->name, k, right ? "right" : "left");

    spmm_ctx c = {.A = mx->A};
    c.x = device_matrix("X", n, k, layout);
    c.y_px = device_matrix("Y (portex)", n, k, layout);
    px_view *y_raw = device_matrix("Y (cuSPARSE)", n, k, layout);
    for (int64_t r = 0; r < n; ++r)
        for (int j = 0; j < k; ++j)
            h->buf[spmm_at(layout, n, k, r, j)] = h->x[(size_t)r * SPMM_KMAX + (size_t)j];
    upload(c.x, h->buf, bytes);

    /* cuSPARSE: each algorithm with its own handle, descriptors and buffer, preprocessed;
       one that cuSPARSE refuses for this order is left out. */
    printf("\nSpMM %s: X and Y %s (CUSPARSE_ORDER_%s, ld %s); cuSPARSE setup (handle, "
           "descriptors, buffer, preprocess):",
           label, right ? "row-major" : "column-major", right ? "ROW" : "COL", right ? "k" : "n");
    int usable = 0;
    for (int a = 0; a < RAW_SPMM_ALGS; ++a) {
        const double t0 = now_ms();
        if (raw_spmm_create(&c.raw[a], n, n, m->nnz, device_i32(mx->row), device_i32(mx->col),
                            bench_device_data(mx->val), k, right, bench_device_data(c.x),
                            bench_device_data(y_raw), (raw_spmm_alg)a, g.stream) != 0) {
            printf("%s %s refused: %s", a ? "," : "", raw_spmm_alg_name((raw_spmm_alg)a),
                   raw_spmm_error());
            continue;
        }
        CU(cudaStreamSynchronize(g.stream));
        printf("%s %s %.1f ms", a ? "," : "", raw_spmm_alg_name((raw_spmm_alg)a), now_ms() - t0);
        ++usable;
    }
    printf("\n");
    if (usable == 0) {
        fprintf(stderr, "bench_linalg: %s: cuSPARSE refused every SpMM algorithm\n", label);
        exit(2);
    }

    /* Every side checked (each mismatch printed), then timed only if all agree. */
    bool ok = spmm_checked(label, "portex", spmm_portex, &c, h, n, k, layout, c.y_px);
    ok = spmm_checked(label, "portex ROWS", spmm_rows, &c, h, n, k, layout, c.y_px) && ok;
    ok = spmm_checked(label, "portex TILES", spmm_tiles, &c, h, n, k, layout, c.y_px) && ok;
    for (int a = 0; a < RAW_SPMM_ALGS; ++a) {
        if (!c.raw[a]) continue;
        char what[32];
        snprintf(what, sizeof what, "cuSPARSE %s", raw_spmm_alg_name((raw_spmm_alg)a));
        ok = spmm_checked(label, what, spmm_cusparse_fn[a], &c, h, n, k, layout, y_raw) && ok;
    }
    if (ok) {
        variant v[3 + RAW_SPMM_ALGS];
        int nv = 0;
        v[nv++] = (variant){"portex", spmm_portex, g.stream, BY_EVENTS, 0};
        v[nv++] = (variant){"portex ROWS", spmm_rows, g.stream, BY_EVENTS, 0};
        v[nv++] = (variant){"portex TILES", spmm_tiles, g.stream, BY_EVENTS, 0};
        const int raw0 = nv; /* the cuSPARSE variants from here */
        for (int a = 0; a < RAW_SPMM_ALGS; ++a)
            if (c.raw[a])
                v[nv++] = (variant){raw_spmm_alg_name((raw_spmm_alg)a), spmm_cusparse_fn[a],
                                    g.stream, BY_EVENTS, 0};
        measure(v, nv, &c, 1, 2, g.reps);
        int best = raw0;
        for (int i = raw0 + 1; i < nv; ++i)
            if (v[i].ms < v[best].ms) best = i;
        /* The least traffic: A once, X and Y once each. */
        const double traffic = (double)m->nnz * 12.0 + (double)(n + 1) * 4.0 +
                               8.0 * (double)k * ((double)n + (double)n);
        char base[32];
        print_header();
        snprintf(base, sizeof base, "cuSPARSE %s", v[best].name);
        print_row(label, base, v[best].ms, v[0].ms, traffic, 1.0);
        print_row("  forced ROWS", base, v[best].ms, v[1].ms, traffic, -1.0);
        print_row("  forced TILES", base, v[best].ms, v[2].ms, traffic, -1.0);
        for (int i = raw0; i < nv; ++i) {
            if (i == best) continue;
            snprintf(base, sizeof base, "cuSPARSE %s", v[i].name);
            print_row("  a slower cuSPARSE algorithm", base, v[i].ms, v[0].ms, traffic, -1.0);
        }
    }
    CHECK(px_instance_fence(g.inst));
    for (int a = 0; a < RAW_SPMM_ALGS; ++a) raw_spmm_destroy(c.raw[a]);
    px_view *views[] = {c.x, c.y_px, y_raw};
    for (size_t e = 0; e < sizeof views / sizeof views[0]; ++e) CHECK(px_view_release(&views[e]));
}

/* ---- Each matrix: SpMV and SpMM ---------------------------------------------------------- */

static void bench_matrix(const char *name, const csr *m)
{
    if (g.matrix && !strstr(name, g.matrix)) return;
    const int64_t n = m->nrows;
    matrix mx = {.name = name, .m = m};

    /* portex: the matrix from the host arrays, copied and measured by the library. */
    const px_csr_desc desc = {.nrows = n,
                              .ncols = n,
                              .nnz = m->nnz,
                              .value_type = PX_F64,
                              .index_type = PX_I32,
                              .row_offsets = m->row,
                              .col_indices = m->col,
                              .values = m->val};
    double t0 = now_ms();
    CHECK(px_csr_create(g.inst, px_device(0), &desc, &mx.A));
    const double create_ms = now_ms() - t0;
    CHECK(px_csr_info_get(mx.A, &mx.info));

    /* cuSPARSE: its own copy of the arrays, for its SpMV and SpMM. */
    t0 = now_ms();
    mx.row = bench_device_view("row (cuSPARSE)", PX_I32, 1, n + 1, 0, PX_VIEW_NO_INIT);
    mx.col = bench_device_view("col (cuSPARSE)", PX_I32, 1, m->nnz, 0, PX_VIEW_NO_INIT);
    mx.val = device_vector("val (cuSPARSE)", m->nnz);
    upload(mx.row, m->row, (size_t)(n + 1) * sizeof *m->row);
    upload(mx.col, m->col, (size_t)m->nnz * sizeof *m->col);
    upload(mx.val, m->val, (size_t)m->nnz * sizeof *m->val);
    const double upload_ms = now_ms() - t0;

    const px_csr_info *info = &mx.info;
    printf("\n%s: %lld rows, %lld entries (mean %.2f, longest %lld, row cv %.2f); AUTO chose %s "
           "(tiles %lld, long rows %lld, %.1f MB of tables); px_csr_create %.1f ms (cuSPARSE's "
           "copy of the arrays: uploads %.1f ms)\n",
           name, (long long)n, (long long)m->nnz, info->mean_row, (long long)info->max_row,
           info->row_cv, px_spmv_alg_string(info->spmv_alg), (long long)info->tiles,
           (long long)info->long_rows, (double)info->extra_bytes * 1e-6, create_ms, upload_ms);

    if (g.spmv) bench_spmv(&mx);
    if (g.spmm) {
        spmm_host h = spmm_host_make(m);
        const int ks[] = {4, SPMM_KMAX};
        const px_layout layouts[] = {PX_LAYOUT_RIGHT, PX_LAYOUT_LEFT};
        for (size_t i = 0; i < sizeof ks / sizeof ks[0]; ++i)
            for (size_t l = 0; l < sizeof layouts / sizeof layouts[0]; ++l)
                bench_spmm(&mx, &h, ks[i], layouts[l]);
        spmm_host_free(&h);
    }

    CHECK(px_instance_fence(g.inst));
    CHECK(px_csr_release(&mx.A));
    CHECK(px_view_release(&mx.row));
    CHECK(px_view_release(&mx.col));
    CHECK(px_view_release(&mx.val));
}

/* `rows` rows of short_len entries and `dense` rows of dense_len entries spread evenly among
   them (random columns, values in (0, 1]). */
static csr csr_few_dense(int64_t rows, int32_t short_len, int dense, int32_t dense_len,
                         uint64_t seed)
{
    const int64_t n = rows + dense;
    int32_t *len = bench_malloc("bench_linalg", (size_t)n * sizeof *len);
    for (int64_t r = 0; r < n; ++r) len[r] = short_len;
    for (int k = 0; k < dense; ++k) len[k * (n / dense) + n / (2 * dense)] = dense_len;
    return csr_with_lengths(n, len, seed);
}

static void bench_matrices(void)
{
    const int64_t s = g.quick ? 16 : 1; /* --quick: a sixteenth of the rows, or so */
    csr m = csr_laplacian2d(g.quick ? 512 : 4096);
    bench_matrix("laplace 2-D", &m);
    csr_free(&m);
    m = csr_laplacian3d(g.quick ? 64 : 256);
    bench_matrix("laplace 3-D", &m);
    csr_free(&m);
    const struct {
        const char *name;
        double mean;
        int64_t max;
    } pl[] = {
        {"power-law 8/100", 8.0, 100},      {"power-law 16/4096", 16.0, 4096},
        {"power-law 32/10^4", 32.0, 10000}, {"power-law 64/1000", 64.0, 1000},
        {"power-law 8/10^5", 8.0, 100000},
    };
    for (size_t k = 0; k < sizeof pl / sizeof pl[0]; ++k) {
        m = csr_powerlaw_mean(((int64_t)1 << 21) / s, pl[k].mean, pl[k].max, 42 + k);
        bench_matrix(pl[k].name, &m);
        csr_free(&m);
    }
    m = csr_rmat(g.quick ? 17 : 21, 16, 7);
    bench_matrix("R-MAT 21 (kron_g500)", &m);
    csr_free(&m);
    m = csr_stencil27(g.quick ? 48 : 128, 5);
    bench_matrix("FEM 27-point 3-D", &m);
    csr_free(&m);
    m = csr_few_dense(((int64_t)1 << 21) / s, 16, 8, (int32_t)(((int64_t)1 << 20) / s), 11);
    bench_matrix("few dense rows", &m);
    csr_free(&m);
}

/* ---- BLAS-1 and GEMV -------------------------------------------------------------------- */

typedef struct blas_ctx {
    int64_t n;          /* BLAS-1: vector length */
    px_view *x, *y;     /* BLAS-1 operands, shared by both sides */
    px_view *r_px;      /* portex's result in device memory (1 element) */
    px_view *r_raw;     /* cuBLAS's */
    double host_result; /* the host results of px_blas_dot/nrm2 and cuBLAS's host mode */
    int64_t m, k;       /* GEMV: A is m x k, row-major */
    px_view *A;         /* m x k */
    px_view *xk, *xm;   /* GEMV's x: k elements (N), m elements (T) */
    px_view *ym, *yk;   /* GEMV's y: m elements (N), k elements (T) */
    raw_blas *raw;
} blas_ctx;

/* The scalars: y grows by a x per axpy, axpby keeps y within [min x, max y], scal shrinks
   it by a millionth per call, so that no value leaves the normal range over the runs. */
static const double axpy_a = 0.75, axpby_a = 0.75, axpby_b = 0.5, scal_a = 0.999999;

static void raw_fail(const char *what)
{
    fprintf(stderr, "bench_linalg: %s: %s failed\n", what, raw_blas_error());
    exit(2);
}

static void axpy_px(void *p)
{
    blas_ctx *c = p;
    CHECK(px_blas_axpy(g.inst, axpy_a, c->x, c->y));
}

static void axpy_raw(void *p)
{
    blas_ctx *c = p;
    if (raw_blas_axpy(c->raw, c->n, axpy_a, bench_device_data(c->x), bench_device_data(c->y)))
        raw_fail("cublasDaxpy");
}

static void axpby_px(void *p)
{
    blas_ctx *c = p;
    CHECK(px_blas_axpby(g.inst, axpby_a, c->x, axpby_b, c->y));
}

static void axpby_raw(void *p)
{
    blas_ctx *c = p;
    CU(raw_axpby(c->n, axpby_a, bench_device_data(c->x), axpby_b, bench_device_data(c->y),
                 g.stream));
}

static void scal_px(void *p)
{
    blas_ctx *c = p;
    CHECK(px_blas_scal(g.inst, scal_a, c->y));
}

static void scal_raw(void *p)
{
    blas_ctx *c = p;
    if (raw_blas_scal(c->raw, c->n, scal_a, bench_device_data(c->y))) raw_fail("cublasDscal");
}

static void dot_px(void *p)
{
    blas_ctx *c = p;
    CHECK(px_blas_dot(g.inst, c->x, c->y, &c->host_result));
}

static void dot_raw(void *p)
{
    blas_ctx *c = p;
    if (raw_blas_dot_host(c->raw, c->n, bench_device_data(c->x), bench_device_data(c->y),
                          &c->host_result))
        raw_fail("cublasDdot (host pointer mode)");
}

static void dot_view_px(void *p)
{
    blas_ctx *c = p;
    CHECK(px_blas_dot_view(g.inst, c->x, c->y, c->r_px));
}

static void dot_view_raw(void *p)
{
    blas_ctx *c = p;
    if (raw_blas_dot_device(c->raw, c->n, bench_device_data(c->x), bench_device_data(c->y),
                            bench_device_data(c->r_raw)))
        raw_fail("cublasDdot (device pointer mode)");
}

static void nrm2_px(void *p)
{
    blas_ctx *c = p;
    CHECK(px_blas_nrm2(g.inst, c->x, &c->host_result));
}

static void nrm2_raw(void *p)
{
    blas_ctx *c = p;
    if (raw_blas_nrm2_host(c->raw, c->n, bench_device_data(c->x), &c->host_result))
        raw_fail("cublasDnrm2 (host pointer mode)");
}

static void nrm2_view_px(void *p)
{
    blas_ctx *c = p;
    CHECK(px_blas_nrm2_view(g.inst, c->x, c->r_px));
}

static void nrm2_view_raw(void *p)
{
    blas_ctx *c = p;
    if (raw_blas_nrm2_device(c->raw, c->n, bench_device_data(c->x), bench_device_data(c->r_raw)))
        raw_fail("cublasDnrm2 (device pointer mode)");
}

static void gemv_n_px(void *p)
{
    blas_ctx *c = p;
    CHECK(px_blas_gemv(g.inst, PX_BLAS_N, 1.0, c->A, c->xk, 0.0, c->ym));
}

static void gemv_n_raw(void *p)
{
    blas_ctx *c = p;
    if (raw_blas_gemv_rowmajor(c->raw, 0, c->m, c->k, 1.0, bench_device_data(c->A),
                               bench_device_data(c->xk), 0.0, bench_device_data(c->ym)))
        raw_fail("cublasDgemv (op T: row-major A x)");
}

static void gemv_t_px(void *p)
{
    blas_ctx *c = p;
    CHECK(px_blas_gemv(g.inst, PX_BLAS_T, 1.0, c->A, c->xm, 0.0, c->yk));
}

static void gemv_t_raw(void *p)
{
    blas_ctx *c = p;
    if (raw_blas_gemv_rowmajor(c->raw, 1, c->m, c->k, 1.0, bench_device_data(c->A),
                               bench_device_data(c->xm), 0.0, bench_device_data(c->yk)))
        raw_fail("cublasDgemv (op N: row-major A^T x)");
}

/* The largest |got - want| / |want| over n elements (want > 0 here); NaN gives infinity. */
static double max_rel(const double *got, const double *want, int64_t n)
{
    double worst = 0.0;
    for (int64_t i = 0; i < n; ++i) {
        const double d = fabs(got[i] - want[i]) / fabs(want[i]);
        if (!(d <= worst)) worst = isnan(d) ? INFINITY : d;
    }
    return worst;
}

/* Whether a side's result is within tol of the reference; prints it when not. */
static bool close_enough(const char *name, const char *side, double d, double tol)
{
    if (d <= tol) return true;
    printf("%s: %s: max relative difference from plain C %.3g > %.0e: MISMATCH, row not timed\n",
           name, side, d, tol);
    g.failed = 1;
    return false;
}

/* A vector operation that rewrites y: each side from y0, checked against want. */
static bool check_update(const char *name, blas_ctx *c, void (*raw)(void *), void (*px)(void *),
                         const double *y0, const double *want, double *got)
{
    const size_t bytes = (size_t)c->n * sizeof *got;
    bool ok = true;
    void (*fn[2])(void *) = {raw, px};
    const char *side[2] = {"baseline", "portex"};
    for (int k = 0; k < 2 && ok; ++k) {
        upload(c->y, y0, bytes);
        fn[k](c);
        download(got, c->y, bytes);
        ok = close_enough(name, side[k], max_rel(got, want, c->n), 1e-14);
    }
    upload(c->y, y0, bytes);
    return ok;
}

/* A reduction: each side's result (host, or element 0 of its result view) against want. */
static bool check_scalar(const char *name, blas_ctx *c, void (*raw)(void *), void (*px)(void *),
                         bool in_view, double want)
{
    void (*fn[2])(void *) = {raw, px};
    const char *side[2] = {"baseline", "portex"};
    px_view *res[2] = {c->r_raw, c->r_px};
    for (int k = 0; k < 2; ++k) {
        double got = NAN;
        c->host_result = NAN;
        if (in_view) poison(res[k], sizeof got);
        fn[k](c);
        if (in_view)
            download(&got, res[k], sizeof got);
        else
            got = c->host_result;
        const double d = fabs(got - want) / fabs(want);
        if (!close_enough(name, side[k], isnan(d) ? INFINITY : d, 1e-12)) return false;
    }
    return true;
}

/* Times one checked pair and prints its row. */
static void time_pair(const char *name, const char *base_name, blas_ctx *c, void (*raw)(void *),
                      void (*px)(void *), timing how, int batch, double bytes, double target)
{
    variant v[2] = {{base_name, raw, g.stream, how, 0}, {"portex", px, g.stream, how, 0}};
    measure(v, 2, c, batch, 2, g.reps);
    print_row(name, base_name, v[0].ms, v[1].ms, bytes, target);
}

/* BLAS-1 at n elements: `batch` calls a sample (1 for the large size, many for the small). */
static void bench_blas1(blas_ctx *c, int64_t n, int batch, double target)
{
    c->n = n;
    const size_t bytes = (size_t)n * sizeof(double);
    double *x = bench_malloc("bench_linalg", bytes), *y0 = bench_malloc("bench_linalg", bytes),
           *want = bench_malloc("bench_linalg", bytes), *got = bench_malloc("bench_linalg", bytes);
    uint64_t seed = 17;
    for (int64_t i = 0; i < n; ++i) {
        x[i] = csr_random(&seed);
        y0[i] = csr_random(&seed);
    }
    c->x = device_vector("x", n);
    c->y = device_vector("y", n);
    upload(c->x, x, bytes);
    int lg = 0;
    while (((int64_t)1 << lg) < n) ++lg;
    char size[16], name[64];
    if (((int64_t)1 << lg) == n)
        snprintf(size, sizeof size, "2^%d", lg);
    else
        snprintf(size, sizeof size, "%lld", (long long)n);
    const timing ev = BY_EVENTS, host = BY_HOST_CLOCK;
    const double vb = (double)bytes; /* one vector's bytes */
    print_header();

    for (int64_t i = 0; i < n; ++i) want[i] = axpy_a * x[i] + y0[i];
    snprintf(name, sizeof name, "axpy %s", size);
    if (check_update(name, c, axpy_raw, axpy_px, y0, want, got))
        time_pair(name, "cublasDaxpy", c, axpy_raw, axpy_px, ev, batch, 3 * vb, target);

    for (int64_t i = 0; i < n; ++i) want[i] = axpby_a * x[i] + axpby_b * y0[i];
    snprintf(name, sizeof name, "axpby %s", size);
    if (check_update(name, c, axpby_raw, axpby_px, y0, want, got))
        time_pair(name, "raw CUDA axpby", c, axpby_raw, axpby_px, ev, batch, 3 * vb, target);

    for (int64_t i = 0; i < n; ++i) want[i] = scal_a * y0[i];
    snprintf(name, sizeof name, "scal %s", size);
    if (check_update(name, c, scal_raw, scal_px, y0, want, got))
        time_pair(name, "cublasDscal", c, scal_raw, scal_px, ev, batch, 2 * vb, target);

    /* The reductions read x and y0 (the timed updates above have moved y). */
    upload(c->y, y0, bytes);
    long double dot = 0.0L, sq = 0.0L;
    for (int64_t i = 0; i < n; ++i) {
        dot += (long double)x[i] * y0[i];
        sq += (long double)x[i] * x[i];
    }
    const double dot_want = (double)dot, nrm2_want = (double)sqrtl(sq);
    snprintf(name, sizeof name, "dot %s (host result)", size);
    if (check_scalar(name, c, dot_raw, dot_px, false, dot_want))
        time_pair(name, "cublasDdot host", c, dot_raw, dot_px, host, batch, 2 * vb, target);
    snprintf(name, sizeof name, "dot_view %s", size);
    if (check_scalar(name, c, dot_view_raw, dot_view_px, true, dot_want))
        time_pair(name, "cublasDdot dev", c, dot_view_raw, dot_view_px, ev, batch, 2 * vb, target);
    snprintf(name, sizeof name, "nrm2 %s (host result)", size);
    if (check_scalar(name, c, nrm2_raw, nrm2_px, false, nrm2_want))
        time_pair(name, "cublasDnrm2 host", c, nrm2_raw, nrm2_px, host, batch, vb, target);
    snprintf(name, sizeof name, "nrm2_view %s", size);
    if (check_scalar(name, c, nrm2_view_raw, nrm2_view_px, true, nrm2_want))
        time_pair(name, "cublasDnrm2 dev", c, nrm2_view_raw, nrm2_view_px, ev, batch, vb, target);

    CHECK(px_instance_fence(g.inst));
    CHECK(px_view_release(&c->x));
    CHECK(px_view_release(&c->y));
    free(x);
    free(y0);
    free(want);
    free(got);
}

/* GEMV N and T on a row-major m x k matrix, each side checked against plain C (long double
   sums; the entries and x are positive, so each row's sum of |a x| is its value). */
static void bench_gemv(blas_ctx *c, int64_t m, int64_t k, int batch, double target)
{
    c->m = m;
    c->k = k;
    double *a = bench_malloc("bench_linalg", (size_t)(m * k) * sizeof *a);
    double *xk = bench_malloc("bench_linalg", (size_t)k * sizeof *xk),
           *xm = bench_malloc("bench_linalg", (size_t)m * sizeof *xm);
    const int64_t most = m > k ? m : k;
    double *want = bench_malloc("bench_linalg", (size_t)most * sizeof *want),
           *got = bench_malloc("bench_linalg", (size_t)most * sizeof *got);
    long double *acc = bench_malloc("bench_linalg", (size_t)most * sizeof *acc);
    uint64_t seed = 23;
    for (int64_t e = 0; e < m * k; ++e) a[e] = csr_random(&seed);
    for (int64_t j = 0; j < k; ++j) xk[j] = csr_random(&seed);
    for (int64_t i = 0; i < m; ++i) xm[i] = csr_random(&seed);
    c->A = bench_device_view("A", PX_F64, 2, m, k, PX_VIEW_NO_INIT); /* row-major */
    c->xk = device_vector("x (N)", k);
    c->xm = device_vector("x (T)", m);
    c->ym = device_vector("y (N)", m);
    c->yk = device_vector("y (T)", k);
    upload(c->A, a, (size_t)(m * k) * sizeof *a);
    upload(c->xk, xk, (size_t)k * sizeof *xk);
    upload(c->xm, xm, (size_t)m * sizeof *xm);
    const double bytes = 8.0 * ((double)m * (double)k + (double)m + (double)k);
    char name[64];
    const char *side[2] = {"baseline", "portex"};

    for (int t = 0; t < 2; ++t) {
        /* N: y[i] = sum_j a[i][j] xk[j] (m of them); T: y[j] = sum_i a[i][j] xm[i] (k). */
        const int64_t ny = t ? k : m;
        for (int64_t r = 0; r < ny; ++r) acc[r] = 0.0L;
        for (int64_t i = 0; i < m; ++i)
            for (int64_t j = 0; j < k; ++j) {
                if (t)
                    acc[j] += (long double)a[i * k + j] * xm[i];
                else
                    acc[i] += (long double)a[i * k + j] * xk[j];
            }
        for (int64_t r = 0; r < ny; ++r) want[r] = (double)acc[r];
        void (*raw)(void *) = t ? gemv_t_raw : gemv_n_raw;
        void (*px)(void *) = t ? gemv_t_px : gemv_n_px;
        px_view *y = t ? c->yk : c->ym;
        snprintf(name, sizeof name, "gemv %s %lldx%lld", t ? "T" : "N", (long long)m, (long long)k);
        bool ok = true;
        void (*fn[2])(void *) = {raw, px};
        for (int s = 0; s < 2 && ok; ++s) {
            poison(y, (size_t)ny * sizeof *got);
            fn[s](c);
            download(got, y, (size_t)ny * sizeof *got);
            ok = close_enough(name, side[s], max_rel(got, want, ny), 1e-12);
        }
        if (ok)
            time_pair(name, t ? "cublasDgemv N" : "cublasDgemv T", c, raw, px, BY_EVENTS, batch,
                      bytes, target);
    }
    CHECK(px_instance_fence(g.inst));
    px_view *views[] = {c->A, c->xk, c->xm, c->ym, c->yk};
    for (size_t e = 0; e < sizeof views / sizeof views[0]; ++e) CHECK(px_view_release(&views[e]));
    c->A = c->xk = c->xm = c->ym = c->yk = NULL;
    free(a);
    free(xk);
    free(xm);
    free(want);
    free(got);
    free(acc);
}

static void bench_blas(void)
{
    blas_ctx c;
    memset(&c, 0, sizeof c);
    if (raw_blas_create(&c.raw, g.stream) != 0) raw_fail("cuBLAS setup");
    c.r_px = device_vector("result (portex)", 1);
    c.r_raw = device_vector("result (cuBLAS)", 1);
    const int64_t large = (int64_t)1 << (g.quick ? 20 : 26), small = (int64_t)1 << 14;
    const int64_t side = g.quick ? 1024 : 8192;
    const int calls = g.quick ? 20 : 500; /* the small sizes' batch of back-to-back calls */
    printf("\nBLAS-1 and GEMV (f64): large sizes one call a sample, small ones %d back-to-back "
           "calls a sample\n",
           calls);
    bench_blas1(&c, large, 1, 0.97);
    bench_gemv(&c, side, side, 1, 0.97);
    bench_blas1(&c, small, calls, 1.0);
    bench_gemv(&c, 128, 128, calls, 1.0);
    CHECK(px_instance_fence(g.inst));
    CHECK(px_view_release(&c.r_px));
    CHECK(px_view_release(&c.r_raw));
    raw_blas_destroy(c.raw);
}

/* ---- The program ------------------------------------------------------------------------ */

int main(int argc, char **argv)
{
    const char *only = NULL; /* --spmv-only, --spmm-only or --blas-only */
    for (int k = 1; k < argc; ++k) {
        if (!strcmp(argv[k], "--quick"))
            g.quick = true;
        else if (!strcmp(argv[k], "--reps") && k + 1 < argc)
            g.reps = atoi(argv[++k]);
        else if (!strcmp(argv[k], "--matrix") && k + 1 < argc)
            g.matrix = argv[++k];
        else if ((!strcmp(argv[k], "--spmv-only") || !strcmp(argv[k], "--spmm-only") ||
                  !strcmp(argv[k], "--blas-only")) &&
                 (!only || !strcmp(only, argv[k])))
            only = argv[k];
        else {
            fprintf(stderr,
                    "usage: %s [--quick] [--reps N] [--matrix S] [--spmv-only | --spmm-only | "
                    "--blas-only]\n",
                    argv[0]);
            return 2;
        }
    }
    if (g.reps < 1) g.reps = g.quick ? 3 : 21;
    g.spmv = !only || !strcmp(only, "--spmv-only");
    g.spmm = !only || !strcmp(only, "--spmm-only");
    const bool blas = !only || !strcmp(only, "--blas-only");

    CHECK(px_init(NULL));
    if (!bench_cuda_usable("bench_linalg")) return 77;
    CU(cudaSetDevice(0));
    CHECK(px_instance_default(PX_EXEC_CUDA, 0, &g.inst));
    CHECK(px_instance_cuda_stream(g.inst, &g.stream));
    bench_events_create();
    struct cudaDeviceProp prop;
    CU(cudaGetDeviceProperties(&prop, 0));
    printf("bench_linalg: portex %s linalg vs cuSPARSE/cuBLAS on %s (%d SMs), one stream; %d "
           "timed rounds after warm-up, medians%s\n",
           px_version_string(), prop.name, prop.multiProcessorCount, g.reps,
           g.quick ? " (--quick sizes)" : "");

    if (g.spmv || g.spmm) bench_matrices();
    if (blas) bench_blas();

    printf("\nbench_linalg: %d of %d rows with a target met it%s\n", g.met, g.rows,
           g.failed ? "; SOME RESULTS DIFFERED" : "");
    bench_events_destroy();
    CHECK(px_finalize());
    return g.failed;
}
