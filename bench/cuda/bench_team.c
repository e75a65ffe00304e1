/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* bench_team: portex team kernels against raw CUDA on one GPU, in one process.
 *
 *   bench_team [--quick] [--reps N]
 *
 * Cases (full sizes; --quick shrinks them for a smoke run):
 *   spmv laplace    y = A x, A the 5-point Laplacian of a 4096 x 4096 grid (16M rows,
 *                   80M entries): examples/spmv_kernels.c (a thread per row, lanes over
 *                   its entries) against cusparseSpMV (CSR, 32-bit indices, double,
 *                   CUSPARSE_SPMV_ALG_DEFAULT, buffer and preprocessing made once);
 *                   then the lane sweep: spmv_policy_lanes with teams of 256 x 1,
 *                   128 x 2, ..., 16 x 16 threads x lanes, each against cuSPARSE
 *   spmv powerlaw   the same on 16M rows of power-law lengths (mean about 7.5, up to 4096;
 *                   common/csr.h), random columns; rows past 32 lane-steps go to
 *                   spmv_long, a team per row (found once, like cuSPARSE's preprocessing)
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

/* Lane counts of the sweep: 1, 2, 4, 8, 16. */
enum { sweep_shapes = 5 };

typedef struct spmv_ctx {
    spmv_args args; /* portex: writes y_px */
    px_team_policy policy;
    int64_t nlong; /* rows for spmv_long */
    raw_spmv *raw; /* cuSPARSE: writes y_raw */
    /* The lane sweep: spmv_policy_lanes with 1, 2, 4, ... lanes, each with its long rows. */
    spmv_args lanes_args[sweep_shapes];
    px_team_policy lanes_policy[sweep_shapes];
    int64_t lanes_nlong[sweep_shapes];
} spmv_ctx;

static void spmv_portex(void *p)
{
    const spmv_ctx *c = p;
    CHECK(spmv_dispatch(g.inst, c->policy, c->nlong, &c->args));
}

static void spmv_lanes(const spmv_ctx *c, int k)
{
    CHECK(spmv_dispatch(g.inst, c->lanes_policy[k], c->lanes_nlong[k], &c->lanes_args[k]));
}

static void spmv_lanes0(void *p) { spmv_lanes(p, 0); }
static void spmv_lanes1(void *p) { spmv_lanes(p, 1); }
static void spmv_lanes2(void *p) { spmv_lanes(p, 2); }
static void spmv_lanes3(void *p) { spmv_lanes(p, 3); }
static void spmv_lanes4(void *p) { spmv_lanes(p, 4); }
static void (*const spmv_sweep[sweep_shapes])(void *) = {spmv_lanes0, spmv_lanes1, spmv_lanes2,
                                                         spmv_lanes3, spmv_lanes4};

static void spmv_cusparse(void *p)
{
    const spmv_ctx *c = p;
    if (raw_spmv_run(c->raw) != 0) {
        fprintf(stderr, "cusparseSpMV: %s failed\n", raw_spmv_error());
        exit(2);
    }
}

/* spmv_dispatch with each lane count of the sweep (spmv_policy_lanes: 256 threads x lanes a
   team, a row a thread, rows past 32 lane-steps to spmv_long), each checked, then timed
   against cuSPARSE again (base_ms): what the lane choice is worth on this matrix. */
static void sweep_lanes(const csr *m, spmv_ctx *c, const double *x, const double *ref, double *got,
                        px_view *y, double base_ms, double bytes)
{
    variant v[sweep_shapes];
    char names[sweep_shapes][64];
    px_view *long_views[sweep_shapes] = {NULL};
    bool ok = true;
    for (int k = 0; k < sweep_shapes && ok; ++k) {
        const int32_t lanes = 1 << k;
        c->lanes_args[k] = c->args;
        c->lanes_policy[k] = spmv_policy_lanes(&c->lanes_args[k], lanes, PX_EXEC_CUDA);
        int32_t *long_rows = csr_long_rows(m, c->lanes_args[k].max_len, &c->lanes_nlong[k]);
        const int64_t nl = c->lanes_nlong[k];
        long_views[k] =
            bench_device_view("long rows", PX_I32, 1, nl > 0 ? nl : 1, 0, PX_VIEW_NO_INIT);
        bench_to_device(long_views[k], long_rows, (size_t)nl * sizeof *long_rows);
        free(long_rows);
        CHECK(px_view_get_span(long_views[k], &c->lanes_args[k].long_rows));
        px_span sp;
        CHECK(px_view_span(y, &sp));
        CU(cudaMemset(sp.data, 0xff, (size_t)m->nrows * sizeof(double)));
        spmv_sweep[k](c);
        CHECK(px_instance_fence(g.inst));
        bench_to_host(got, y, (size_t)m->nrows * sizeof *got);
        const double d = csr_max_rel_diff(m, x, got, ref);
        if (!(d <= 1e-12)) {
            printf("spmv lanes %d: max relative difference from plain C %.3g: MISMATCH\n", lanes,
                   d);
            g.failed = 1;
            ok = false;
        }
        snprintf(names[k], sizeof names[k], "  (%d x %d, %lld long)", c->lanes_policy[k].team_size,
                 lanes, (long long)nl);
        v[k] = (variant){names[k], spmv_sweep[k], g.px_stream, BY_EVENTS, 0};
    }
    if (ok) {
        measure(v, sweep_shapes, c, 5, 2, g.reps);
        for (int k = 0; k < sweep_shapes; ++k)
            print_row(names[k], "cuSPARSE", base_ms, v[k].ms, bytes, false, 0.90);
    }
    for (int k = 0; k < sweep_shapes; ++k)
        if (long_views[k]) CHECK(px_view_release(&long_views[k]));
}

static void bench_spmv(const char *name, const csr *m)
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
    spmv_ctx c;
    memset(&c, 0, sizeof c);
    c.args.nrows = n;
    c.policy = spmv_policy(&c.args, (double)m->nnz / (double)n, PX_EXEC_CUDA);
    /* The long rows are found once, as cuSPARSE's buffer and preprocessing are made once. */
    int32_t *long_rows = csr_long_rows(m, c.args.max_len, &c.nlong);
    px_view *lr =
        bench_device_view("long rows", PX_I32, 1, c.nlong > 0 ? c.nlong : 1, 0, PX_VIEW_NO_INIT);
    bench_to_device(lr, long_rows, (size_t)c.nlong * sizeof *long_rows);
    free(long_rows);
    bench_to_device(row, m->row, (size_t)(n + 1) * sizeof *m->row);
    bench_to_device(col, m->col, (size_t)m->nnz * sizeof *m->col);
    bench_to_device(val, m->val, (size_t)m->nnz * sizeof *m->val);
    bench_to_device(xv, x, (size_t)n * sizeof *x);
    /* Outputs start as NaN (all bytes 0xff): a row a kernel misses fails the check. */
    px_span sp;
    CHECK(px_view_span(y_px, &sp));
    CU(cudaMemset(sp.data, 0xff, (size_t)n * sizeof(double)));
    CHECK(px_view_span(y_raw, &sp));
    CU(cudaMemset(sp.data, 0xff, (size_t)n * sizeof(double)));

    CHECK(px_view_get_span(row, &c.args.row));
    CHECK(px_view_get_span(col, &c.args.col));
    CHECK(px_view_get_span(val, &c.args.val));
    CHECK(px_view_get_span(xv, &c.args.x));
    CHECK(px_view_get_span(y_px, &c.args.y));
    CHECK(px_view_get_span(lr, &c.args.long_rows));
    px_span_f64_1d yr;
    CHECK(px_view_get_span(y_raw, &yr));
    if (raw_spmv_create(&c.raw, n, m->nnz, c.args.row.data, c.args.col.data, c.args.val.data,
                        c.args.x.data, yr.data, g.raw_stream) != 0) {
        fprintf(stderr, "cuSPARSE: %s failed\n", raw_spmv_error());
        exit(2);
    }

    /* Check both before timing. */
    spmv_portex(&c);
    spmv_cusparse(&c);
    sync_both();
    bench_to_host(got, y_px, (size_t)n * sizeof *got);
    const double d_px = csr_max_rel_diff(m, x, got, ref);
    bench_to_host(got, y_raw, (size_t)n * sizeof *got);
    const double d_raw = csr_max_rel_diff(m, x, got, ref);
    const bool ok = d_px <= 1e-12 && d_raw <= 1e-12;
    const int64_t longest = csr_longest_row(m);
    printf(
        "%s: %lld rows, %lld entries (mean %.2f, longest %lld), teams of %d x %d, %lld rows "
        "longer than %lld in teams of 8 x 32; max relative difference from plain C: portex %.3g, "
        "cuSPARSE %.3g: %s\n",
        name, (long long)n, (long long)m->nnz, (double)m->nnz / (double)n, (long long)longest,
        c.policy.team_size, c.policy.vector_length, (long long)c.nlong, (long long)c.args.max_len,
        d_px, d_raw, ok ? "OK" : "MISMATCH");
    if (!ok) {
        g.failed = 1;
    } else {
        variant v[2] = {{"cuSPARSE", spmv_cusparse, g.raw_stream, BY_EVENTS, 0},
                        {"portex team", spmv_portex, g.px_stream, BY_EVENTS, 0}};
        measure(v, 2, &c, 5, 2, g.reps);
        /* The least traffic: A once, x and y once each. */
        const double bytes = (double)m->nnz * 12.0 + (double)(n + 1) * 4.0 + 16.0 * (double)n;
        print_header();
        print_row(name, "cuSPARSE", v[0].ms, v[1].ms, bytes, false, 0.90);
        sweep_lanes(m, &c, x, ref, got, y_px, v[0].ms, bytes);
    }
    raw_spmv_destroy(c.raw);
    px_view *views[] = {row, col, val, xv, y_px, y_raw, lr};
    for (int k = 0; k < 7; ++k) CHECK(px_view_release(&views[k]));
    free(x);
    free(ref);
    free(got);
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

    const int64_t grid = quick ? 512 : 4096;
    csr lap = csr_laplacian2d(grid);
    bench_spmv("spmv laplace", &lap);
    csr_free(&lap);
    csr pl = csr_powerlaw(grid * grid, quick ? 1024 : 4096, 42);
    bench_spmv("spmv powerlaw", &pl);
    csr_free(&pl);

    bench_stencil(quick ? 1024 : 8192, &five_point);
    bench_stencil(quick ? 1024 : 8192, &radius4);
    bench_dispatch(quick ? 1000 : 10000, quick ? 201 : 5001);

    bench_events_destroy();
    CU(cudaStreamDestroy(g.raw_stream));
    CHECK(px_finalize());
    return g.failed;
}
