/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* bench_team: portex team kernels against raw CUDA on one GPU, in one process.
 *
 *   bench_team [--quick] [--reps N]
 *
 * Cases (full sizes; --quick shrinks them for a smoke run):
 *   spmv            y = A x, examples/spmv_kernels.c the documented way (one kernel over
 *                   the league px_team_rows shapes from the row pointer, measured once, as
 *                   cuSPARSE's buffer and preprocessing are made once) against cusparseSpMV
 *                   (CSR, 32-bit indices, double, CUSPARSE_SPMV_ALG_DEFAULT), on: the 2-D
 *                   5-point Laplacian of 4096^2 and the 3-D 7-point one of 256^3 (16.8M rows
 *                   each); power-law rows (common/csr.h, csr_powerlaw_mean: mean/max of
 *                   8/100 and 32/10^4 on 4M rows, 16/4096 and 64/1000 on 2M, and the older
 *                   7.5/4096 on 16.8M); a Graph500 R-MAT graph of scale 21, edge factor 16
 *                   (kron_g500-logn21's kind); a 27-point 3-D FEM mesh of 128^3. Then the
 *                   lane sweep: the same product shaped by hand (bench/cuda/spmv_lanes_k.c:
 *                   teams of 256 x 1, 128 x 2, ..., 8 x 32 threads x lanes, rows past 32
 *                   lane steps to a team each), each against cuSPARSE, and the library's
 *                   shape against the best of them
 *   stencil tiled   one heat step on an 8192 x 8192 grid: examples/stencil_tiled_kernels.c
 *                   (8 x 32 tiles staged in level-0 scratch) against the same hand-tiled
 *                   kernel in raw CUDA (shared memory), and portex's flat PX_FOR_2D version
 *   stencil wide    the same for a star stencil of radius 4 (17 points; wide_tiled, 16 x 32
 *                   tiles with a halo of 4, wide_flat, raw_wide_tiled), where each input is
 *                   read by up to 17 points and staging in shared memory pays more
 *   dispatch        10000 empty team kernels (one team of 256) back to back, then one fence,
 *                   against raw <<<1, 256>>> launches and one sync: host time per launch
 *                   (and with PX_AUTO sizes, for what choosing the shape costs)
 *   launch+fence    one empty launch and a wait for it, per iteration (host clock)
 *
 * portex runs on the default CUDA instance, raw CUDA on a non-blocking stream of its own.
 * Each case runs once each way and is checked (SpMV: both against a plain C product, 1e-12
 * relative to each row's sum of |a x|; stencil: against each other, 1e-12) before any
 * timing. Timing: warm-up, then N rounds (default 21; 3 with --quick) in which every
 * variant runs once, the one to go first rotating; medians. GPU work is timed with events
 * on the variant's own stream, round trips with the host clock. Ratios read as the targets
 * do: bandwidth cases raw time / portex time (>= target), latency cases portex / raw (<=).
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

#include "bench_team_k.h"
#include "bench_util.h"
#include "bench_variant.h"
#include "bench_views.h"
#include "csr.h"
#include "raw_team.h"
#include "spmv_kernels.h"
#include "spmv_lanes_k.h"
#include "stencil_tiled_kernels.h"

static struct {
    int reps;
    px_instance *inst;       /* portex: the default CUDA instance of device 0 */
    cudaStream_t px_stream;  /* its stream, for events */
    cudaStream_t raw_stream; /* raw CUDA: a non-blocking stream of its own */
    int failed;              /* a result differed */
} g;

static void sync_both(void)
{
    CU(cudaStreamSynchronize(g.raw_stream));
    CHECK(px_instance_fence(g.inst));
}

/* "1.234 ms, 2345 GB/s" or "3.41 us". */
static void format_time(char *buf, size_t len, double ms, double bytes)
{
    int k = ms < 0.1 ? snprintf(buf, len, "%.2f us", ms * 1e3) : snprintf(buf, len, "%.3f ms", ms);
    if (bytes > 0 && k > 0 && (size_t)k < len)
        snprintf(buf + k, len - (size_t)k, ", %.0f GB/s", bytes / ms * 1e-6);
}

/* One row of the results: the baseline, portex and their ratio against the target. */
static void print_row(const char *name, const char *base_name, double base_ms, double px_ms,
                      double bytes, bool latency, double target)
{
    char b[48], p[48];
    format_time(b, sizeof b, base_ms, bytes);
    format_time(p, sizeof p, px_ms, bytes);
    const double q = latency ? px_ms / base_ms : base_ms / px_ms;
    const bool met = latency ? q <= target : q >= target;
    printf("| %-22s | %-14s | %-22s | %-22s | %5.3f | %s %.2f | %-4s |\n", name, base_name, b, p, q,
           latency ? "<=" : ">=", target, met ? "yes" : "no");
}

static void print_header(void)
{
    printf("\n| %-22s | %-14s | %-22s | %-22s | %5s | %7s | %-4s |\n", "case", "baseline",
           "baseline", "portex", "ratio", "target", "met?");
    printf("|------------------------|----------------|------------------------|"
           "------------------------|------:|--------:|------|\n");
}

/* ---- SpMV ------------------------------------------------------------------------------ */

/* Lane counts of the sweep: 1, 2, 4, 8, 16, 32. */
enum { sweep_shapes = 6 };

typedef struct spmv_ctx {
    spmv_args args;     /* portex, the documented way: writes y_px */
    px_team_rows *rows; /* its league, shaped by the library */
    raw_spmv *raw;      /* cuSPARSE: writes y_raw */
    /* The lane sweep, shaped by hand: lanes_policy with 1, 2, 4, ... lanes, each with its
       long rows. */
    lanes_args lanes[sweep_shapes];
    px_team_policy lanes_policy[sweep_shapes];
    int64_t lanes_nlong[sweep_shapes];
} spmv_ctx;

static void spmv_portex(void *p)
{
    const spmv_ctx *c = p;
    CHECK(px_parallel_for_team(g.inst, "spmv", px_teams_rows(c->rows), PX_KERNEL(spmv), &c->args));
}

static void spmv_lanes(const spmv_ctx *c, int k)
{
    CHECK(lanes_dispatch(g.inst, c->lanes_policy[k], c->lanes_nlong[k], &c->lanes[k]));
}

static void spmv_lanes0(void *p) { spmv_lanes(p, 0); }
static void spmv_lanes1(void *p) { spmv_lanes(p, 1); }
static void spmv_lanes2(void *p) { spmv_lanes(p, 2); }
static void spmv_lanes3(void *p) { spmv_lanes(p, 3); }
static void spmv_lanes4(void *p) { spmv_lanes(p, 4); }
static void spmv_lanes5(void *p) { spmv_lanes(p, 5); }
static void (*const spmv_sweep[sweep_shapes])(void *) = {spmv_lanes0, spmv_lanes1, spmv_lanes2,
                                                         spmv_lanes3, spmv_lanes4, spmv_lanes5};

static void spmv_cusparse(void *p)
{
    const spmv_ctx *c = p;
    if (raw_spmv_run(c->raw) != 0) {
        fprintf(stderr, "cusparseSpMV: %s failed\n", raw_spmv_error());
        exit(2);
    }
}

/* Runs `fn` once into y (all NaN first) and checks y against plain C. */
static bool spmv_checked(const char *what, void (*fn)(void *), spmv_ctx *c, const csr *m,
                         const double *x, const double *ref, double *got, px_view *y)
{
    px_span sp;
    CHECK(px_view_span(y, &sp));
    CU(cudaMemset(sp.data, 0xff, (size_t)m->nrows * sizeof(double)));
    fn(c);
    sync_both();
    bench_to_host(got, y, (size_t)m->nrows * sizeof *got);
    const double d = csr_max_rel_diff(m, x, got, ref);
    if (d <= 1e-12) return true;
    printf("%s: max relative difference from plain C %.3g: MISMATCH\n", what, d);
    g.failed = 1;
    return false;
}

/* lanes_dispatch with each lane count of the sweep (lanes_policy: 256 threads x lanes a
   team, a row a thread, rows past 32 lane-steps to lanes_long), each checked, then timed
   against cuSPARSE again (base_ms): what each hand-made shape gives on this matrix, beside
   the one px_team_rows chose. */
static void sweep_lanes(const csr *m, spmv_ctx *c, const double *x, const double *ref, double *got,
                        px_view *y, double base_ms, double px_ms, double bytes)
{
    variant v[sweep_shapes];
    char names[sweep_shapes][64];
    px_view *long_views[sweep_shapes] = {NULL};
    bool ok = true;
    for (int k = 0; k < sweep_shapes && ok; ++k) {
        const int32_t lanes = 1 << k;
        c->lanes[k] = (lanes_args){.nrows = m->nrows};
        CHECK(px_view_get_span(y, &c->lanes[k].y));
        c->lanes[k].row.data = c->args.row.data;
        c->lanes[k].col.data = c->args.col.data;
        c->lanes[k].val.data = c->args.val.data;
        c->lanes[k].x.data = c->args.x.data;
        c->lanes_policy[k] = lanes_policy(&c->lanes[k], lanes, PX_EXEC_CUDA);
        int32_t *long_rows = csr_long_rows(m, c->lanes[k].max_len, &c->lanes_nlong[k]);
        const int64_t nl = c->lanes_nlong[k];
        long_views[k] =
            bench_device_view("long rows", PX_I32, 1, nl > 0 ? nl : 1, 0, PX_VIEW_NO_INIT);
        bench_to_device(long_views[k], long_rows, (size_t)nl * sizeof *long_rows);
        free(long_rows);
        CHECK(px_view_get_span(long_views[k], &c->lanes[k].long_rows));
        snprintf(names[k], sizeof names[k], "  by hand %d x %d, %lld long",
                 c->lanes_policy[k].team_size, lanes, (long long)nl);
        ok = spmv_checked(names[k], spmv_sweep[k], c, m, x, ref, got, y);
        v[k] = (variant){names[k], spmv_sweep[k], g.px_stream, BY_EVENTS, 0};
    }
    if (ok) {
        measure(v, sweep_shapes, c, 5, 2, g.reps);
        double best = v[0].ms;
        for (int k = 0; k < sweep_shapes; ++k) {
            print_row(names[k], "cuSPARSE", base_ms, v[k].ms, bytes, false, 0.95);
            if (v[k].ms < best) best = v[k].ms;
        }
        printf("  the library's shape against the best shape by hand: %.3f\n", best / px_ms);
    }
    for (int k = 0; k < sweep_shapes; ++k)
        if (long_views[k]) CHECK(px_view_release(&long_views[k]));
}

/* y = A x: cuSPARSE, portex the documented way (one kernel over px_teams_rows), then, with
   `sweep`, the hand-shaped kernels at every lane count. `target`: portex's ratio to reach. */
static void bench_spmv(const char *name, const csr *m, double target, bool sweep)
{
    const int64_t n = m->nrows;
    double *x = malloc((size_t)n * sizeof *x), *ref = malloc((size_t)n * sizeof *ref);
    double *got = malloc((size_t)n * sizeof *got);
    if (!x || !ref || !got) exit(2);
    uint64_t seed = 3;
    for (int64_t r = 0; r < n; ++r) x[r] = csr_random(&seed);
    csr_spmv_plain(m, x, ref);

    const unsigned no_init = PX_VIEW_NO_INIT; /* every buffer is written below */
    px_view *row = bench_device_view("row", PX_I32, 1, n + 1, 0, no_init);
    px_view *col = bench_device_view("col", PX_I32, 1, m->nnz, 0, no_init);
    px_view *val = bench_device_view("val", PX_F64, 1, m->nnz, 0, no_init);
    px_view *xv = bench_device_view("x", PX_F64, 1, n, 0, no_init);
    px_view *y_px = bench_device_view("y (portex)", PX_F64, 1, n, 0, no_init);
    px_view *y_raw = bench_device_view("y (raw)", PX_F64, 1, n, 0, no_init);
    bench_to_device(row, m->row, (size_t)(n + 1) * sizeof *m->row);
    bench_to_device(col, m->col, (size_t)m->nnz * sizeof *m->col);
    bench_to_device(val, m->val, (size_t)m->nnz * sizeof *m->val);
    bench_to_device(xv, x, (size_t)n * sizeof *x);
    spmv_ctx c;
    memset(&c, 0, sizeof c);
    CHECK(px_view_get_span(row, &c.args.row));
    CHECK(px_view_get_span(col, &c.args.col));
    CHECK(px_view_get_span(val, &c.args.val));
    CHECK(px_view_get_span(xv, &c.args.x));
    CHECK(px_view_get_span(y_px, &c.args.y));
    /* The rows measured once, as cuSPARSE's buffer and preprocessing are made once. */
    const double t0 = now_ms();
    CHECK(px_team_rows_create(g.inst, row, &c.rows));
    const double analysis_ms = now_ms() - t0;
    px_team_rows_info in;
    CHECK(px_team_rows_info_get(c.rows, &in));
    px_span_f64_1d yr;
    CHECK(px_view_get_span(y_raw, &yr));
    if (raw_spmv_create(&c.raw, n, m->nnz, c.args.row.data, c.args.col.data, c.args.val.data,
                        c.args.x.data, yr.data, g.raw_stream) != 0) {
        fprintf(stderr, "cuSPARSE: %s failed\n", raw_spmv_error());
        exit(2);
    }

    /* Check both before timing. */
    const bool ok = spmv_checked("portex", spmv_portex, &c, m, x, ref, got, y_px) &&
                    spmv_checked("cuSPARSE", spmv_cusparse, &c, m, x, ref, got, y_raw);
    printf("%s: %lld rows, %lld entries (mean %.2f, longest %lld); px_team_rows chose teams of "
           "%d x %d, %lld rows a team, %lld rows longer than %lld in teams of their own "
           "(measured in %.1f ms); checked against plain C: %s\n",
           name, (long long)n, (long long)m->nnz, (double)m->nnz / (double)n,
           (long long)in.max_entries, in.team_size, in.vector_length, (long long)in.rows_per_team,
           (long long)in.long_rows, (long long)in.long_after, analysis_ms, ok ? "OK" : "MISMATCH");
    if (ok) {
        variant v[2] = {{"cuSPARSE", spmv_cusparse, g.raw_stream, BY_EVENTS, 0},
                        {"portex team", spmv_portex, g.px_stream, BY_EVENTS, 0}};
        measure(v, 2, &c, 5, 2, g.reps);
        /* The least traffic: A once, x and y once each. */
        const double bytes = (double)m->nnz * 12.0 + (double)(n + 1) * 4.0 + 16.0 * (double)n;
        print_header();
        print_row(name, "cuSPARSE", v[0].ms, v[1].ms, bytes, false, target);
        if (sweep) sweep_lanes(m, &c, x, ref, got, y_px, v[0].ms, v[1].ms, bytes);
    }
    raw_spmv_destroy(c.raw);
    CHECK(px_team_rows_release(&c.rows));
    px_view *views[] = {row, col, val, xv, y_px, y_raw};
    for (int k = 0; k < 6; ++k) CHECK(px_view_release(&views[k]));
    free(x);
    free(ref);
    free(got);
}

/* The matrices: Laplacians (target 1.0x cuSPARSE), power-law rows of several skews
   (0.95x), and the shapes of two of SuiteSparse's well-known kinds made by a generator:
   a Graph500 R-MAT graph (kron_g500-logn21) and a 27-point 3-D FEM mesh (0.95x). Each is
   made, measured, and freed before the next. */
static void bench_matrices(bool quick)
{
    const int64_t s = quick ? 16 : 1; /* --quick: a sixteenth of the rows, or so */
    csr m = csr_laplacian2d(quick ? 512 : 4096);
    bench_spmv("laplace 2-D", &m, 1.0, true);
    csr_free(&m);
    m = csr_laplacian3d(quick ? 64 : 256);
    bench_spmv("laplace 3-D", &m, 1.0, true);
    csr_free(&m);
    const struct {
        const char *name;
        int64_t rows;
        double mean;
        int64_t max;
    } pl[] = {
        {"power-law 8/100", (int64_t)1 << 22, 8.0, 100},
        {"power-law 16/4096", (int64_t)1 << 21, 16.0, 4096},
        {"power-law 32/10^4", (int64_t)1 << 22, 32.0, 10000},
        {"power-law 64/1000", (int64_t)1 << 21, 64.0, 1000},
    };
    for (size_t k = 0; k < sizeof pl / sizeof pl[0]; ++k) {
        m = csr_powerlaw_mean(pl[k].rows / s, pl[k].mean, pl[k].max, 42 + k);
        bench_spmv(pl[k].name, &m, 0.95, true);
        csr_free(&m);
    }
    m = csr_powerlaw((quick ? 512 : 4096) * (int64_t)(quick ? 512 : 4096), quick ? 1024 : 4096, 42);
    bench_spmv("power-law 7.5/4096", &m, 0.95, true);
    csr_free(&m);
    m = csr_rmat(quick ? 17 : 21, 16, 7);
    bench_spmv("R-MAT 21 (kron_g500)", &m, 0.95, true);
    csr_free(&m);
    m = csr_stencil27(quick ? 48 : 128, 5);
    bench_spmv("FEM 27-point 3-D", &m, 0.95, true);
    csr_free(&m);
}

/* ---- Tiled stencil ----------------------------------------------------------------------- */

/* One of the stencils: everything the two cases differ in. */
typedef struct stencil_case {
    const char *name;
    int64_t halo, tile_i; /* tiles are tile_i x 32: the shapes raw_team.cu compiles in */
    double alpha;
    const px_kernel *tiled, *flat;
    cudaError_t (*raw)(double *out, const double *in, int64_t nx, int64_t ny, double alpha,
                       cudaStream_t st);
} stencil_case;

static const stencil_case five_point = {
    "stencil", 1, 8, 0.2, PX_KERNEL(stencil_tiled), PX_KERNEL(stencil_flat), raw_stencil_tiled};
static const stencil_case radius4 = {
    "stencil wide", WIDE_R, 16, 0.05, PX_KERNEL(wide_tiled), PX_KERNEL(wide_flat), raw_wide_tiled};

typedef struct stencil_ctx {
    const stencil_case *sc;
    stencil_args tiled, flat; /* portex: write out[0], out[1] */
    px_team_policy policy;
    px_policy interior;
    double *raw_out; /* raw: writes out[2] */
    const double *in;
} stencil_ctx;

static void stencil_portex_tiled(void *p)
{
    const stencil_ctx *c = p;
    CHECK(px_parallel_for_team(g.inst, NULL, c->policy, c->sc->tiled, &c->tiled));
}

static void stencil_portex_flat(void *p)
{
    const stencil_ctx *c = p;
    CHECK(px_parallel_for(g.inst, NULL, c->interior, c->sc->flat, &c->flat));
}

static void stencil_raw(void *p)
{
    const stencil_ctx *c = p;
    CU(c->sc->raw(c->raw_out, c->in, c->tiled.nx, c->tiled.ny, c->tiled.alpha, g.raw_stream));
}

static void bench_stencil(int64_t side, const stencil_case *sc)
{
    const int64_t cells = side * side;
    const size_t bytes = (size_t)cells * sizeof(double);
    double *h = malloc(bytes), *got = malloc(bytes);
    if (!h || !got) exit(2);
    uint64_t seed = 9;
    for (int64_t k = 0; k < cells; ++k) h[k] = csr_random(&seed);
    px_view *in = bench_device_view("in", PX_F64, 2, side, side, PX_VIEW_NO_INIT);
    px_view *out[3] = {bench_device_view("out (tiled)", PX_F64, 2, side, side, PX_VIEW_NO_INIT),
                       bench_device_view("out (flat)", PX_F64, 2, side, side, PX_VIEW_NO_INIT),
                       bench_device_view("out (raw)", PX_F64, 2, side, side, PX_VIEW_NO_INIT)};
    /* Every output starts as the input: the edges, which no kernel writes, agree. */
    bench_to_device(in, h, bytes);
    for (int k = 0; k < 3; ++k) bench_to_device(out[k], h, bytes);

    stencil_ctx c;
    memset(&c, 0, sizeof c);
    c.sc = sc;
    c.tiled.nx = c.tiled.ny = side;
    c.tiled.tile_i = sc->tile_i;
    c.tiled.tile_j = 32;
    c.tiled.alpha = sc->alpha;
    CHECK(px_view_get_span(in, &c.tiled.in));
    c.flat = c.tiled;
    CHECK(px_view_get_span(out[0], &c.tiled.out));
    CHECK(px_view_get_span(out[1], &c.flat.out));
    px_span_f64_right rs;
    CHECK(px_view_get_span(out[2], &rs));
    c.raw_out = rs.data;
    c.in = c.tiled.in.data;
    c.policy = tiled_policy(&c.tiled, sc->halo);
    c.interior = px_mdrange2(sc->halo, side - sc->halo, sc->halo, side - sc->halo);

    stencil_portex_tiled(&c);
    stencil_portex_flat(&c);
    stencil_raw(&c);
    sync_both();
    double *want = h; /* the raw result, read into h (the input is on the device already) */
    bench_to_host(want, out[2], bytes);
    double worst = 0.0;
    bool same_bits = true;
    for (int k = 0; k < 2; ++k) {
        bench_to_host(got, out[k], bytes);
        same_bits = same_bits && memcmp(got, want, bytes) == 0;
        for (int64_t e = 0; e < cells; ++e) {
            const double d = fabs(got[e] - want[e]);
            if (!(d <= worst)) worst = d;
        }
    }
    const bool ok = worst <= 1e-12;
    printf("%s: %lld x %lld grid, %lld x %lld tiles; max difference of portex tiled and flat from "
           "raw tiled %.3g (bit-identical: %s): %s\n",
           sc->name, (long long)side, (long long)side, (long long)c.tiled.tile_i,
           (long long)c.tiled.tile_j, worst, same_bits ? "yes" : "no", ok ? "OK" : "MISMATCH");
    if (!ok) {
        g.failed = 1;
    } else {
        variant v[3] = {{"raw tiled", stencil_raw, g.raw_stream, BY_EVENTS, 0},
                        {"portex tiled", stencil_portex_tiled, g.px_stream, BY_EVENTS, 0},
                        {"portex flat", stencil_portex_flat, g.px_stream, BY_EVENTS, 0}};
        measure(v, 3, &c, 5, 2, g.reps);
        const double moved = 16.0 * (double)cells; /* in once, out once */
        char size[32];
        snprintf(size, sizeof size, "%s %lld^2", sc->name, (long long)side);
        print_header();
        print_row(size, "raw tiled", v[0].ms, v[1].ms, moved, false, 0.95);
        print_row("  (flat PX_FOR_2D)", "raw tiled", v[0].ms, v[2].ms, moved, false, 0.0);
        print_row("  (tiled vs flat)", "portex flat", v[2].ms, v[1].ms, moved, false, 0.0);
    }
    for (int k = 0; k < 3; ++k) CHECK(px_view_release(&out[k]));
    CHECK(px_view_release(&in));
    free(h);
    free(got);
}

/* ---- Dispatch ------------------------------------------------------------------------------ */

typedef struct launch_ctx {
    int count; /* launches per call */
} launch_ctx;

/* A league of one team of 256 threads: one block of 256 threads, as the raw launch. */
enum { empty_threads = 256 };

static void empty_team(void)
{
    const bt_empty_args a = {0};
    CHECK(px_parallel_for_team(g.inst, "empty", px_teams(1, empty_threads, 1),
                               PX_KERNEL(bt_empty_team), &a));
}

static void dispatch_portex(void *p)
{
    const launch_ctx *c = p;
    for (int k = 0; k < c->count; ++k) empty_team();
    CHECK(px_instance_fence(g.inst));
}

/* The same with PX_AUTO sizes: what the backend's choice of shape costs per dispatch. */
static void dispatch_portex_auto(void *p)
{
    const launch_ctx *c = p;
    const bt_empty_args a = {0};
    for (int k = 0; k < c->count; ++k)
        CHECK(px_parallel_for_team(g.inst, "empty", px_teams(1, PX_AUTO, PX_AUTO),
                                   PX_KERNEL(bt_empty_team), &a));
    CHECK(px_instance_fence(g.inst));
}

static void dispatch_raw(void *p)
{
    const launch_ctx *c = p;
    for (int k = 0; k < c->count; ++k) CU(raw_team_empty(empty_threads, g.raw_stream));
    CU(cudaStreamSynchronize(g.raw_stream));
}

static void roundtrip_portex(void *p)
{
    (void)p;
    empty_team();
    CHECK(px_instance_fence(g.inst));
}

static void roundtrip_raw(void *p)
{
    (void)p;
    CU(raw_team_empty(empty_threads, g.raw_stream));
    CU(cudaStreamSynchronize(g.raw_stream));
}

static void bench_dispatch(int count, int iterations)
{
    launch_ctx c = {count};
    variant v[3] = {
        {"raw <<<>>> x N + sync", dispatch_raw, g.raw_stream, BY_HOST_CLOCK, 0},
        {"portex team x N + fence", dispatch_portex, g.px_stream, BY_HOST_CLOCK, 0},
        {"portex auto x N + fence", dispatch_portex_auto, g.px_stream, BY_HOST_CLOCK, 0}};
    measure(v, 3, &c, 1, 1, g.reps);
    variant r[2] = {{"raw <<<>>> + sync", roundtrip_raw, g.raw_stream, BY_HOST_CLOCK, 0},
                    {"portex team + fence", roundtrip_portex, g.px_stream, BY_HOST_CLOCK, 0}};
    measure(r, 2, NULL, 1, 100, iterations);
    print_header();
    char name[32];
    snprintf(name, sizeof name, "dispatch x %d", count);
    print_row(name, "raw <<<>>>", v[0].ms / count, v[1].ms / count, 0, true, 1.05);
    print_row("  (PX_AUTO sizes)", "raw <<<>>>", v[0].ms / count, v[2].ms / count, 0, true, 1.05);
    print_row("launch+fence", "raw <<<>>>", r[0].ms, r[1].ms, 0, true, 1.05);
}

/* ---- The program --------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    bool quick = false;
    for (int k = 1; k < argc; ++k) {
        if (!strcmp(argv[k], "--quick"))
            quick = true;
        else if (!strcmp(argv[k], "--reps") && k + 1 < argc)
            g.reps = atoi(argv[++k]);
        else {
            fprintf(stderr, "usage: %s [--quick] [--reps N]\n", argv[0]);
            return 2;
        }
    }
    if (g.reps < 1) g.reps = quick ? 3 : 21;

    CHECK(px_init(NULL));
    if (!bench_cuda_usable("bench_team")) return 77;
    CU(cudaSetDevice(0));
    CHECK(px_instance_default(PX_EXEC_CUDA, 0, &g.inst));
    CHECK(px_instance_cuda_stream(g.inst, &g.px_stream));
    CU(cudaStreamCreateWithFlags(&g.raw_stream, cudaStreamNonBlocking));
    bench_events_create();
    struct cudaDeviceProp prop;
    CU(cudaGetDeviceProperties(&prop, 0));
    printf("bench_team: portex %s team kernels vs cuSPARSE and raw CUDA on %s (%d SMs); %d timed "
           "rounds after warm-up, medians\n\n",
           px_version_string(), prop.name, prop.multiProcessorCount, g.reps);

    bench_matrices(quick);

    bench_stencil(quick ? 1024 : 8192, &five_point);
    bench_stencil(quick ? 1024 : 8192, &radius4);
    bench_dispatch(quick ? 1000 : 10000, quick ? 201 : 5001);

    bench_events_destroy();
    CU(cudaStreamDestroy(g.raw_stream));
    CHECK(px_finalize());
    return g.failed;
}
