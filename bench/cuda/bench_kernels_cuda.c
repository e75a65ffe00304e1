/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* bench_kernels_cuda: portex's CUDA kernels against raw CUDA and CUB, in one process, on the
 * same device buffers.
 *
 *   bench_kernels_cuda [--quick] [--csv DIR] [--reps N]
 *
 * Cases (full sizes; --quick shrinks sizes and repetitions for a smoke run):
 *   triad          a = b + s*c over 3 x 2^28 doubles (PX_FOR); raw: the better of one
 *                  thread per element and a grid-stride loop over one full wave
 *   triad again    in a child process with PX_CUDA_FOR_GRID flipped (the backend reads it
 *                  once per process), so one run gives both launch shapes
 *   dot            2^28 doubles (PX_REDUCE) into a device view, against CUB's
 *                  TransformReduce into device memory (events); and into a host double,
 *                  against CUB + cudaMemcpyAsync to pinned memory + sync (host clock)
 *   scale2d        out = s * in, 16384 x 16384 row-major doubles (PX_FOR_2D); raw: 32 x 8
 *                  blocks, the last index on threadIdx.x
 *   scan           inclusive, 2^28 int64 (PX_SCAN) against cub::DeviceScan::InclusiveSum;
 *                  also through strided spans, for what a run-time stride costs
 *   prefix sum     px_prefix_sum of a view, int64 and double at 2^20, 2^24 and 2^28,
 *                  against cub::DeviceScan::InclusiveSum on the same buffers
 *   dispatch       10000 empty launches back to back, then one sync: host time per launch
 *   launch+fence   one empty launch and a wait for it, per iteration (host clock)
 *   reduce->host   dot of 1000 doubles into a host double, per iteration; raw: one block,
 *                  cudaMemcpyAsync to pinned memory, cudaStreamSynchronize
 *   cost curve     triad and dot from 2^10 to 2^28 elements, ratios per size, and the
 *                  triad's worst ratio as a table row; with --csv DIR also written to
 *                  DIR/cuda_cost_curve.csv (scripts/plot/cost_curve_plot.py draws it)
 *
 * portex runs on the default CUDA instance, raw CUDA on a non-blocking stream of its own.
 * Inputs are random (never zero). Before timing, each case runs once each way into
 * outputs poisoned with different random values, and portex's result is compared with
 * raw's. Timing: warm-up, then N rounds (default 21; 3 with --quick) in which every
 * variant runs once, the one to go first rotating, so that slow phases of the GPU hit all
 * alike; the tables give medians. GPU-side cases are timed with CUDA events on the
 * variant's own stream, round trips with the host clock. Ratios read so that the target is
 * as the issue states it: bandwidth cases give raw time / portex time (>= target), latency
 * cases portex time / raw time (<= target).
 *
 * Exit status: 0; 1 when a result differs; 2 on an error; 77 without a usable GPU. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, posix_spawn, fdopen */

#include <errno.h>
#include <math.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <portex.h>
#include <portex/cuda.h>

#include "kernels_cuda_k.h"
#include "raw_kernels.h"
#include "bench_util.h"
#include "bench_variant.h"
#include "bench_views.h"

extern char **environ;

/* What every case uses. */
static struct {
    bool quick;
    int reps;
    px_instance *inst;       /* portex: the default CUDA instance of device 0 */
    cudaStream_t px_stream;  /* its stream, for events */
    cudaStream_t raw_stream; /* raw CUDA: a non-blocking stream of its own */
    int failed;              /* a result differed */
} g;

/* Both streams idle: before a comparison, or before the other side reads what one wrote. */
static void sync_both(void)
{
    CU(cudaStreamSynchronize(g.raw_stream));
    CHECK(px_instance_fence(g.inst));
}

/* ---- Results ------------------------------------------------------------------------------ */

typedef struct row {
    char name[32];
    char size[32];
    double raw_ms, px_ms; /* medians per call */
    double bytes;         /* moved per call, for GB/s; 0 where it means nothing */
    bool latency;         /* ratio portex/raw, met when <= target; else raw/portex, >= */
    double target;
    bool measured;
} row;

#define MAX_ROWS 32
static row rows[MAX_ROWS];
static int nrows;

static row *add_row(const char *name, const char *size, double raw_ms, double px_ms, double bytes,
                    bool latency, double target)
{
    if (nrows == MAX_ROWS) {
        fprintf(stderr, "more table rows than MAX_ROWS (%d)\n", MAX_ROWS);
        exit(2);
    }
    row *r = &rows[nrows++];
    memset(r, 0, sizeof *r);
    snprintf(r->name, sizeof r->name, "%s", name);
    snprintf(r->size, sizeof r->size, "%s", size);
    r->raw_ms = raw_ms;
    r->px_ms = px_ms;
    r->bytes = bytes;
    r->latency = latency;
    r->target = target;
    r->measured = true;
    return r;
}

static double gbs(double bytes, double ms) { return bytes / ms * 1e-6; }

static double ratio_of(const row *r)
{
    return r->latency ? r->px_ms / r->raw_ms : r->raw_ms / r->px_ms;
}

/* "1.234 ms, 4321 GB/s" or "3.41 us". */
static void format_time(char *buf, size_t len, double ms, double bytes)
{
    int k = ms < 0.1 ? snprintf(buf, len, "%.2f us", ms * 1e3) : snprintf(buf, len, "%.3f ms", ms);
    if (bytes > 0 && k > 0 && (size_t)k < len)
        snprintf(buf + k, len - (size_t)k, ", %.0f GB/s", gbs(bytes, ms));
}

static void print_table(void)
{
    printf("\n| %-18s | %-16s | %-22s | %-22s | %5s | %6s | %-4s |\n", "case", "size", "raw",
           "portex", "ratio", "target", "met?");
    printf("|--------------------|------------------|------------------------|"
           "------------------------|------:|-------:|------|\n");
    for (int k = 0; k < nrows; ++k) {
        const row *r = &rows[k];
        char raw[40], px[40], target[16];
        snprintf(target, sizeof target, "%s %.2f", r->latency ? "<=" : ">=", r->target);
        if (!r->measured) {
            printf("| %-18s | %-16s | %-22s | %-22s | %5s | %6s | %-4s |\n", r->name, r->size,
                   "not measured", "not measured", "-", target, "n/a");
            continue;
        }
        format_time(raw, sizeof raw, r->raw_ms, r->bytes);
        format_time(px, sizeof px, r->px_ms, r->bytes);
        const double q = ratio_of(r);
        const bool met = r->latency ? q <= r->target : q >= r->target;
        printf("| %-18s | %-16s | %-22s | %-22s | %5.3f | %6s | %-4s |\n", r->name, r->size, raw,
               px, q, target, met ? "yes" : "NO");
    }
    printf("\nratio: raw time / portex time for bandwidth cases, portex time / raw time for "
           "latency cases (dispatch, launch+fence, reduce->host)\n");
}

/* ---- Buffers and checks ------------------------------------------------------------------ */

static void expect_close(const char *what, const double *got, const double *want, int64_t n,
                         double tol)
{
    double d = 0.0;
    sync_both();
    CU(raw_max_rel_diff_f64(got, want, n, &d, g.raw_stream));
    if (!(d <= tol)) {
        fprintf(stderr, "%s: results differ by %g (relative; tolerance %g)\n", what, d, tol);
        g.failed = 1;
    }
}

static void expect_scalar(const char *what, double got, double want, double tol)
{
    const double d = fabs(got - want) / fabs(want);
    if (!(d <= tol)) {
        fprintf(stderr, "%s: portex %.17g, raw %.17g (relative difference %g, tolerance %g)\n",
                what, got, want, d, tol);
        g.failed = 1;
    }
}

/* Element-wise kernels with fused multiply-adds on both sides give the same bits; allow an
 * ulp in case the compiler contracts one side differently. */
#define TOL_ELEMENTWISE 1e-15
/* Sums of 2^28 positive terms in different orders: rounding is far under 1e-13; one
 * missing term (about 1/n of the sum) is 4e-9. */
#define TOL_SUM 1e-11

/* ---- triad ------------------------------------------------------------------------------- */

typedef struct triad_ctx {
    int64_t n;
    double s;
    px_span_f64_1d_restrict a_px, a_raw, b, c;
    int wave; /* blocks of the raw grid-stride loop */
} triad_ctx;

static void triad_portex(void *p)
{
    const triad_ctx *t = p;
    const kc_triad_args a = {t->s, t->a_px, t->b, t->c};
    CHECK(px_parallel_for(g.inst, "triad", px_range(0, t->n), PX_KERNEL(kc_triad), &a));
}

static void triad_flat(void *p)
{
    const triad_ctx *t = p;
    CU(raw_triad_flat(t->a_raw.data, t->b.data, t->c.data, t->s, t->n, g.raw_stream));
}

static void triad_gridstride(void *p)
{
    const triad_ctx *t = p;
    CU(raw_triad_gridstride(t->a_raw.data, t->b.data, t->c.data, t->s, t->n, t->wave,
                            g.raw_stream));
}

static void triad_variants(variant v[3])
{
    const variant init[3] = {{"raw one thread per element", triad_flat, g.raw_stream, BY_EVENTS, 0},
                             {"raw grid-stride", triad_gridstride, g.raw_stream, BY_EVENTS, 0},
                             {"portex", triad_portex, g.px_stream, BY_EVENTS, 0}};
    memcpy(v, init, sizeof init);
}

/* Both raw kernels and portex once, into outputs poisoned with different values. */
static void triad_verify(triad_ctx *t)
{
    CU(raw_fill_f64(t->a_px.data, t->n, 101, g.raw_stream));
    CU(raw_fill_f64(t->a_raw.data, t->n, 102, g.raw_stream));
    sync_both();
    triad_flat(t);
    triad_portex(t);
    expect_close("triad", t->a_px.data, t->a_raw.data, t->n, TOL_ELEMENTWISE);
    CU(raw_fill_f64(t->a_raw.data, t->n, 103, g.raw_stream));
    triad_gridstride(t);
    expect_close("triad (raw grid-stride)", t->a_px.data, t->a_raw.data, t->n, TOL_ELEMENTWISE);
}

/* Times the triad at t->n; v[0..2] as triad_variants. */
static void triad_measure(triad_ctx *t, variant v[3], int batch)
{
    triad_variants(v);
    measure(v, 3, t, batch, 2, g.reps);
}

static double best_raw(const variant v[3]) { return v[0].ms < v[1].ms ? v[0].ms : v[1].ms; }

/* One line with every variant of a case: the baselines' figures beside the table's. */
static void print_variants(const char *title, const variant *v, int nv, double bytes)
{
    printf("%s:", title);
    for (int k = 0; k < nv; ++k)
        printf("  %s %.3f ms (%.0f GB/s)%s", v[k].name, v[k].ms, gbs(bytes, v[k].ms),
               k < nv - 1 ? ";" : "\n");
}

static void triad_print(const char *mode, const triad_ctx *t, const variant v[3])
{
    char title[64];
    snprintf(title, sizeof title, "triad [%s], n = %lld", mode, (long long)t->n);
    print_variants(title, v, 3, 3.0 * 8.0 * (double)t->n);
}

/* ---- The other launch shape, in a child process ------------------------------------------ */

typedef struct child_result {
    bool ok;
    double px_ms, flat_ms, gs_ms;
} child_result;

/* Runs this program again with --child-triad and PX_CUDA_FOR_GRID set to the other launch
 * shape (unset for flat, "sm" for grid-stride), and reads its one line of results. Run
 * before this process allocates, so the two never hold the GPU's memory at once. */
static child_result run_child(const char *self, bool grid_sm)
{
    child_result res = {false, 0, 0, 0};
    size_t nenv = 0;
    while (environ[nenv]) ++nenv;
    char **env = calloc(nenv + 2, sizeof *env);
    if (!env) exit(2);
    size_t k = 0;
    for (size_t i = 0; i < nenv; ++i)
        if (strncmp(environ[i], "PX_CUDA_FOR_GRID=", 17) != 0) env[k++] = environ[i];
    if (!grid_sm) env[k++] = "PX_CUDA_FOR_GRID=sm";
    env[k] = NULL;

    char reps[16];
    snprintf(reps, sizeof reps, "%d", g.reps);
    char *argv[] = {(char *)self, "--child-triad", "--reps", reps, g.quick ? "--quick" : NULL,
                    NULL};

    int fd[2];
    if (pipe(fd) != 0) exit(2);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fd[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&fa, fd[0]);
    posix_spawn_file_actions_addclose(&fa, fd[1]);
    pid_t pid;
    int err = posix_spawn(&pid, "/proc/self/exe", &fa, NULL, argv, env);
    if (err != 0) err = posix_spawn(&pid, self, &fa, NULL, argv, env);
    posix_spawn_file_actions_destroy(&fa);
    close(fd[1]);
    free(env);
    if (err != 0) {
        fprintf(stderr, "triad child: cannot start %s: %s\n", self, strerror(err));
        close(fd[0]);
        return res;
    }
    FILE *f = fdopen(fd[0], "r");
    char line[256];
    bool got = false;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "child-triad %lf %lf %lf", &res.px_ms, &res.flat_ms, &res.gs_ms) == 3)
            got = true;
    if (f) fclose(f);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
    if (code == 1) g.failed = 1; /* its result differed: it said so on stderr */
    if (code != 0) fprintf(stderr, "triad child: exit status %d\n", code);
    res.ok = got && code == 0;
    return res;
}

/* ---- dot --------------------------------------------------------------------------------- */

typedef struct dot_ctx {
    int64_t n;
    px_span_f64_1d x, y;
    px_view *result; /* portex's result view: one double in DEVICE(0) */
    double *cub_out; /* raw's result, device */
    void *cub_tmp;   /* CUB's temporary storage, allocated once */
    size_t cub_tmp_bytes;
    double *pinned;           /* raw's host result, pinned */
    double px_host, raw_host; /* the last results into host memory */
} dot_ctx;

static void dot_cub(void *p)
{
    dot_ctx *d = p;
    size_t bytes = d->cub_tmp_bytes;
    CU(raw_dot_cub(d->cub_tmp, &bytes, d->x.data, d->y.data, d->n, d->cub_out, g.raw_stream));
}

static void dot_portex_view(void *p)
{
    const dot_ctx *d = p;
    const kc_dot_args a = {d->x, d->y};
    CHECK(px_parallel_reduce_view(g.inst, "dot", px_range(0, d->n), PX_KERNEL(kc_dot), &a,
                                  d->result));
}

/* Into host memory: what portex's px_parallel_reduce does, written by hand. */
static void raw_to_host(dot_ctx *d)
{
    CU(cudaMemcpyAsync(d->pinned, d->cub_out, sizeof(double), cudaMemcpyDeviceToHost,
                       g.raw_stream));
    CU(cudaStreamSynchronize(g.raw_stream));
    d->raw_host = *d->pinned;
}

static void dot_cub_host(void *p)
{
    dot_cub(p);
    raw_to_host(p);
}

static void dot_small_host(void *p)
{
    dot_ctx *d = p;
    CU(raw_dot_small(d->x.data, d->y.data, d->n, d->cub_out, g.raw_stream));
    raw_to_host(d);
}

static void dot_portex_host(void *p)
{
    dot_ctx *d = p;
    const kc_dot_args a = {d->x, d->y};
    CHECK(px_parallel_reduce(g.inst, "dot", px_range(0, d->n), PX_KERNEL(kc_dot), &a, &d->px_host));
}

/* CUB's storage for d->n items; grown when a size needs more. */
static void dot_storage(dot_ctx *d)
{
    size_t bytes = 0;
    CU(raw_dot_cub(NULL, &bytes, d->x.data, d->y.data, d->n, d->cub_out, g.raw_stream));
    if (bytes <= d->cub_tmp_bytes) return;
    CU(cudaStreamSynchronize(g.raw_stream));
    if (d->cub_tmp) CU(cudaFree(d->cub_tmp));
    CU(cudaMalloc(&d->cub_tmp, bytes));
    d->cub_tmp_bytes = bytes;
}

static double view_result(px_view *v)
{
    px_view_info info;
    CHECK(px_view_info_get(v, &info));
    double r;
    sync_both();
    CU(cudaMemcpy(&r, info.data, sizeof r, cudaMemcpyDeviceToHost));
    return r;
}

/* ---- scale2d and scan ------------------------------------------------------------------------ */

typedef struct scale2d_ctx {
    int64_t rows, cols;
    double s;
    px_span_f64_right_restrict in, out_px, out_raw;
} scale2d_ctx;

static void scale2d_portex(void *p)
{
    const scale2d_ctx *c = p;
    const kc_scale2d_args a = {c->s, c->in, c->out_px};
    CHECK(px_parallel_for(g.inst, "scale2d", px_mdrange2(0, c->rows, 0, c->cols),
                          PX_KERNEL(kc_scale2d), &a));
}

static void scale2d_raw(void *p)
{
    const scale2d_ctx *c = p;
    CU(raw_scale2d(c->out_raw.data, c->in.data, c->s, c->rows, c->cols, g.raw_stream));
}

typedef struct scan_ctx {
    int64_t n;
    px_span_i64_1d in, out_px, out_raw;
    px_span_i64 in_strided, out_strided; /* the same views as in and out_px */
    void *tmp;
    size_t tmp_bytes;
} scan_ctx;

static void scan_portex(void *p)
{
    const scan_ctx *c = p;
    const kc_scan_args a = {c->in, c->out_px};
    CHECK(px_parallel_scan(g.inst, "scan", px_range(0, c->n), PX_KERNEL(kc_scan), &a, NULL));
}

static void scan_portex_strided(void *p)
{
    const scan_ctx *c = p;
    const kc_scan_strided_args a = {c->in_strided, c->out_strided};
    CHECK(
        px_parallel_scan(g.inst, "scan", px_range(0, c->n), PX_KERNEL(kc_scan_strided), &a, NULL));
}

static void scan_raw(void *p)
{
    scan_ctx *c = p;
    size_t bytes = c->tmp_bytes;
    CU(raw_scan_cub(c->tmp, &bytes, c->in.data, c->out_raw.data, c->n, g.raw_stream));
}

/* A prefix sum of a view (px_prefix_sum) against CUB called directly, same buffers. */
typedef struct prefix_ctx {
    px_view *in, *out;   /* portex's */
    void *raw_out, *tmp; /* raw CUB's (raw_in: in's memory) */
    const void *raw_in;
    size_t tmp_bytes;
    int64_t n;
    bool f64, exclusive;
} prefix_ctx;

static void prefix_portex(void *p)
{
    const prefix_ctx *c = p;
    CHECK(px_prefix_sum(g.inst, c->out, c->in, c->exclusive ? PX_PREFIX_SUM_EXCLUSIVE : 0));
}

static void prefix_raw(void *p)
{
    prefix_ctx *c = p;
    size_t bytes = c->tmp_bytes;
    CU(raw_prefix_sum_cub(c->tmp, &bytes, c->raw_in, c->raw_out, c->n, c->f64, c->exclusive,
                          g.raw_stream));
}

/* ---- Dispatch and round trips ----------------------------------------------------------------- */

typedef struct launch_ctx {
    int count; /* launches per call of the dispatch variants */
} launch_ctx;

static void empty_portex(void)
{
    const kc_empty_args a = {0};
    CHECK(px_parallel_for(g.inst, "empty", px_range(0, 1), PX_KERNEL(kc_empty), &a));
}

static void dispatch_portex(void *p)
{
    const launch_ctx *c = p;
    for (int k = 0; k < c->count; ++k) empty_portex();
    CHECK(px_instance_fence(g.inst));
}

static void dispatch_raw(void *p)
{
    const launch_ctx *c = p;
    for (int k = 0; k < c->count; ++k) CU(raw_empty(g.raw_stream));
    CU(cudaStreamSynchronize(g.raw_stream));
}

static void roundtrip_portex(void *p)
{
    (void)p;
    empty_portex();
    CHECK(px_instance_fence(g.inst));
}

static void roundtrip_raw(void *p)
{
    (void)p;
    CU(raw_empty(g.raw_stream));
    CU(cudaStreamSynchronize(g.raw_stream));
}

/* ---- The program --------------------------------------------------------------------------- */

static void usage(const char *self)
{
    fprintf(stderr, "usage: %s [--quick] [--csv DIR] [--reps N]\n", self);
    exit(2);
}

static void size_pow2(char *buf, size_t len, const char *pre, int lg, const char *post)
{
    snprintf(buf, len, "%s2^%d%s", pre, lg, post);
}

int main(int argc, char **argv)
{
    const char *csv_dir = NULL;
    bool child = false;
    for (int k = 1; k < argc; ++k) {
        if (!strcmp(argv[k], "--quick"))
            g.quick = true;
        else if (!strcmp(argv[k], "--csv") && k + 1 < argc)
            csv_dir = argv[++k];
        else if (!strcmp(argv[k], "--reps") && k + 1 < argc)
            g.reps = atoi(argv[++k]);
        else if (!strcmp(argv[k], "--child-triad"))
            child = true; /* see run_child */
        else
            usage(argv[0]);
    }
    if (g.reps < 1) g.reps = g.quick ? 3 : 21;

    /* Sizes: log2 of the 1-D lengths, the 2-D extent, the cost curve's range and step. */
    const int lg_n = g.quick ? 20 : 28;
    const int64_t n = (int64_t)1 << lg_n;
    const int64_t side = g.quick ? 1024 : 16384;
    const int curve_lo = 10, curve_hi = lg_n, curve_step = g.quick ? 2 : 1;
    const int dispatch_count = g.quick ? 1000 : 10000;
    const int iterations = g.quick ? 201 : 5001; /* round-trip samples (odd: a true median) */
    const int64_t small_n = 1000;

    CHECK(px_init(NULL));
    if (!bench_cuda_usable("bench_kernels_cuda")) return 77;
    /* The launch shape the backend will use for 1-D loops here (read the same way). */
    const char *grid_env = getenv("PX_CUDA_FOR_GRID");
    const bool grid_sm = grid_env && !strcmp(grid_env, "sm");
    const char *mode = grid_sm ? "grid=sm" : "flat";
    child_result other = {false, 0, 0, 0};
    if (!child) other = run_child(argv[0], grid_sm);

    CU(cudaSetDevice(0));
    CHECK(px_instance_default(PX_EXEC_CUDA, 0, &g.inst));
    CHECK(px_instance_cuda_stream(g.inst, &g.px_stream));
    CU(cudaStreamCreateWithFlags(&g.raw_stream, cudaStreamNonBlocking));
    bench_events_create();

    if (!child) { /* a child's stdout carries its result line only */
        struct cudaDeviceProp prop;
        int runtime = 0;
        CU(cudaGetDeviceProperties(&prop, 0));
        CU(cudaRuntimeGetVersion(&runtime));
        printf("bench_kernels_cuda: portex %s vs raw CUDA/CUB on %s (%d SMs), CUDA runtime %d.%d\n"
               "%d timed rounds after warm-up, medians; portex 1-D for: %s%s\n\n",
               px_version_string(), prop.name, prop.multiProcessorCount, runtime / 1000,
               runtime % 1000 / 10, g.reps, mode,
               grid_sm ? " (PX_CUDA_FOR_GRID=sm: grid-stride over one wave)"
                       : " (one thread per element)");
    }

    /* ---- triad, and dot on the same buffers ---- */
    px_view *va_px = bench_device_view("a (portex)", PX_F64, 1, n, 0, PX_VIEW_NO_INIT);
    px_view *va_raw = bench_device_view("a (raw)", PX_F64, 1, n, 0, PX_VIEW_NO_INIT);
    px_view *vb = bench_device_view("b", PX_F64, 1, n, 0, PX_VIEW_NO_INIT);
    px_view *vc = bench_device_view("c", PX_F64, 1, n, 0, PX_VIEW_NO_INIT);
    triad_ctx t;
    memset(&t, 0, sizeof t);
    t.n = n;
    t.s = 0.75;
    CHECK(px_view_get_span(va_px, &t.a_px));
    CHECK(px_view_get_span(va_raw, &t.a_raw));
    CHECK(px_view_get_span(vb, &t.b));
    CHECK(px_view_get_span(vc, &t.c));
    CU(raw_triad_gridstride_blocks(0, &t.wave));
    CU(raw_fill_f64(t.b.data, n, 1, g.raw_stream));
    CU(raw_fill_f64(t.c.data, n, 2, g.raw_stream));
    sync_both();

    char size[32];
    variant tv[3];
    triad_verify(&t);
    triad_measure(&t, tv, 1);
    if (child) {
        printf("child-triad %.9g %.9g %.9g\n", tv[2].ms, tv[0].ms, tv[1].ms);
        fflush(stdout);
    } else {
        triad_print(mode, &t, tv);
        char name[32];
        size_pow2(size, sizeof size, "3 x ", lg_n, " f64");
        snprintf(name, sizeof name, "triad [%s]", mode);
        add_row(name, size, best_raw(tv), tv[2].ms, 3.0 * 8.0 * (double)n, false, 0.99);
        const char *other_mode = grid_sm ? "flat" : "grid=sm";
        snprintf(name, sizeof name, "triad [%s]", other_mode);
        if (other.ok) {
            const variant ov[3] = {{tv[0].name, NULL, NULL, BY_EVENTS, other.flat_ms},
                                   {tv[1].name, NULL, NULL, BY_EVENTS, other.gs_ms},
                                   {"portex", NULL, NULL, BY_EVENTS, other.px_ms}};
            triad_print(other_mode, &t, ov);
            add_row(name, size, best_raw(ov), other.px_ms, 3.0 * 8.0 * (double)n, false, 0.99);
        } else {
            add_row(name, size, 0, 0, 0, false, 0.99)->measured = false;
        }
    }

    FILE *csv = NULL; /* the cost curve (--csv DIR): triad and dot, then scan */
    dot_ctx d;
    memset(&d, 0, sizeof d);
    if (!child) {
        d.n = n;
        CHECK(px_view_get_span(vb, &d.x));
        CHECK(px_view_get_span(vc, &d.y));
        d.result = bench_device_view("dot result", PX_F64, 1, 1, 0, PX_VIEW_NO_INIT);
        CU(cudaMalloc((void **)&d.cub_out, sizeof(double)));
        CU(cudaMallocHost((void **)&d.pinned, sizeof(double)));
        dot_storage(&d);

        dot_cub_host(&d);
        dot_portex_host(&d);
        expect_scalar("dot (host result)", d.px_host, d.raw_host, TOL_SUM);
        dot_portex_view(&d);
        expect_scalar("dot (view result)", view_result(d.result), d.raw_host, TOL_SUM);

        variant dv[4] = {{"raw CUB -> device", dot_cub, g.raw_stream, BY_EVENTS, 0},
                         {"portex -> view", dot_portex_view, g.px_stream, BY_EVENTS, 0},
                         {"raw CUB -> pinned + sync", dot_cub_host, g.raw_stream, BY_HOST_CLOCK, 0},
                         {"portex -> host", dot_portex_host, g.px_stream, BY_HOST_CLOCK, 0}};
        measure(dv, 4, &d, 1, 2, g.reps);
        const double bytes = 2.0 * 8.0 * (double)n;
        char title[64];
        snprintf(title, sizeof title, "dot, n = %lld", (long long)n);
        print_variants(title, dv, 4, bytes);
        size_pow2(size, sizeof size, "", lg_n, " f64");
        add_row("dot -> view", size, dv[0].ms, dv[1].ms, bytes, false, 0.97);
        add_row("dot -> host", size, dv[2].ms, dv[3].ms, bytes, false, 0.97);

        /* ---- cost curve: triad and dot over sizes, same buffers (scan's below) ---- */
        if (csv_dir) {
            char path[4096];
            if (mkdir(csv_dir, 0777) != 0 && errno != EEXIST) {
                fprintf(stderr, "--csv %s: %s\n", csv_dir, strerror(errno));
                exit(2);
            }
            snprintf(path, sizeof path, "%s/cuda_cost_curve.csv", csv_dir);
            csv = fopen(path, "w");
            if (!csv) {
                fprintf(stderr, "%s: %s\n", path, strerror(errno));
                exit(2);
            }
            struct cudaDeviceProp prop;
            CU(cudaGetDeviceProperties(&prop, 0));
            fprintf(csv,
                    "# bench_kernels_cuda cost curve; device: %s; portex 1-D for: %s; "
                    "median time per call of back-to-back calls on one stream\n",
                    prop.name, mode);
            fprintf(csv, "case,variant,n,bytes,calls_per_sample,median_us,gb_per_s\n");
        }
        printf("\ncost curve (GB/s; median time per call of back-to-back calls; sizes under the "
               "L2 run from cache):\n");
        printf("| %-6s | %10s | %10s | %5s | %10s | %10s | %5s |\n", "n", "triad raw", "portex",
               "ratio", "dot CUB", "portex", "ratio");
        printf("|--------|-----------:|-----------:|------:|-----------:|-----------:|------:|\n");
        /* The triad's worst size: where portex's dispatch shows most against raw's. */
        int worst_lg = curve_lo;
        double worst_raw = 0.0, worst_px = 0.0;
        for (int lg = curve_lo; lg <= curve_hi; lg += curve_step) {
            const int64_t m = (int64_t)1 << lg;
            /* Enough calls per sample that launch gaps, not event resolution, set the time. */
            int batch = (int)(((int64_t)1 << 24) / m);
            batch = batch < 1 ? 1 : batch > 256 ? 256 : batch;
            t.n = m;
            d.n = m;
            dot_storage(&d);
            variant cv[3], dcv[2] = {{"raw_cub", dot_cub, g.raw_stream, BY_EVENTS, 0},
                                     {"portex_view", dot_portex_view, g.px_stream, BY_EVENTS, 0}};
            triad_measure(&t, cv, batch);
            measure(dcv, 2, &d, batch, 2, g.reps);
            const double tb = 3.0 * 8.0 * (double)m, db = 2.0 * 8.0 * (double)m;
            if (worst_px == 0.0 || best_raw(cv) / cv[2].ms < worst_raw / worst_px) {
                worst_lg = lg;
                worst_raw = best_raw(cv);
                worst_px = cv[2].ms;
            }
            printf("| 2^%-4d | %10.1f | %10.1f | %5.3f | %10.1f | %10.1f | %5.3f |\n", lg,
                   gbs(tb, best_raw(cv)), gbs(tb, cv[2].ms), best_raw(cv) / cv[2].ms,
                   gbs(db, dcv[0].ms), gbs(db, dcv[1].ms), dcv[0].ms / dcv[1].ms);
            if (csv) {
                const char *tn[3] = {"raw_flat", "raw_gridstride", "portex"};
                for (int k = 0; k < 3; ++k)
                    fprintf(csv, "triad,%s,%lld,%.0f,%d,%.4f,%.2f\n", tn[k], (long long)m, tb,
                            batch, cv[k].ms * 1e3, gbs(tb, cv[k].ms));
                for (int k = 0; k < 2; ++k)
                    fprintf(csv, "dot,%s,%lld,%.0f,%d,%.4f,%.2f\n", dcv[k].name, (long long)m, db,
                            batch, dcv[k].ms * 1e3, gbs(db, dcv[k].ms));
            }
        }
        snprintf(size, sizeof size, "2^%d of 2^%d..2^%d", worst_lg, curve_lo, curve_hi);
        add_row("triad curve, worst", size, worst_raw, worst_px,
                3.0 * 8.0 * (double)((int64_t)1 << worst_lg), false, 0.97);
    }
    sync_both();
    CHECK(px_view_release(&va_px));
    CHECK(px_view_release(&va_raw));
    CHECK(px_view_release(&vb));
    CHECK(px_view_release(&vc));
    if (child) {
        bench_events_destroy();
        CU(cudaStreamDestroy(g.raw_stream));
        CHECK(px_finalize());
        return g.failed;
    }

    /* ---- scale2d ---- */
    {
        px_view *vin = bench_device_view("in", PX_F64, 2, side, side, PX_VIEW_NO_INIT);
        px_view *vpx = bench_device_view("out (portex)", PX_F64, 2, side, side, PX_VIEW_NO_INIT);
        px_view *vraw = bench_device_view("out (raw)", PX_F64, 2, side, side, PX_VIEW_NO_INIT);
        scale2d_ctx c = {side, side, 1.25, {0}, {0}, {0}};
        CHECK(px_view_get_span(vin, &c.in));
        CHECK(px_view_get_span(vpx, &c.out_px));
        CHECK(px_view_get_span(vraw, &c.out_raw));
        const int64_t count = side * side;
        CU(raw_fill_f64(c.in.data, count, 3, g.raw_stream));
        CU(raw_fill_f64(c.out_px.data, count, 104, g.raw_stream));
        CU(raw_fill_f64(c.out_raw.data, count, 105, g.raw_stream));
        sync_both();
        scale2d_raw(&c);
        scale2d_portex(&c);
        expect_close("scale2d", c.out_px.data, c.out_raw.data, count, TOL_ELEMENTWISE);
        variant v[2] = {{"raw 32x8", scale2d_raw, g.raw_stream, BY_EVENTS, 0},
                        {"portex", scale2d_portex, g.px_stream, BY_EVENTS, 0}};
        measure(v, 2, &c, 1, 2, g.reps);
        snprintf(size, sizeof size, "%lldx%lld f64", (long long)side, (long long)side);
        print_variants("scale2d", v, 2, 2.0 * 8.0 * (double)count);
        add_row("scale2d", size, v[0].ms, v[1].ms, 2.0 * 8.0 * (double)count, false, 0.95);
        sync_both();
        CHECK(px_view_release(&vin));
        CHECK(px_view_release(&vpx));
        CHECK(px_view_release(&vraw));
    }

    /* ---- scan ---- */
    {
        px_view *vin = bench_device_view("scan in", PX_I64, 1, n, 0, PX_VIEW_NO_INIT);
        px_view *vpx = bench_device_view("scan out (portex)", PX_I64, 1, n, 0, PX_VIEW_NO_INIT);
        px_view *vraw = bench_device_view("scan out (raw)", PX_I64, 1, n, 0, PX_VIEW_NO_INIT);
        scan_ctx c;
        memset(&c, 0, sizeof c);
        c.n = n;
        CHECK(px_view_get_span(vin, &c.in));
        CHECK(px_view_get_span(vpx, &c.out_px));
        CHECK(px_view_get_span(vraw, &c.out_raw));
        CHECK(px_view_get_span(vin, &c.in_strided));
        CHECK(px_view_get_span(vpx, &c.out_strided));
        CU(raw_scan_cub(NULL, &c.tmp_bytes, c.in.data, c.out_raw.data, n, g.raw_stream));
        CU(cudaMalloc(&c.tmp, c.tmp_bytes));
        CU(raw_fill_i64(c.in.data, n, 4, g.raw_stream));
        CU(raw_fill_i64(c.out_px.data, n, 106, g.raw_stream));
        CU(raw_fill_i64(c.out_raw.data, n, 107, g.raw_stream));
        sync_both();
        scan_raw(&c);
        const char *const forms[2] = {"scan", "scan (strided spans)"};
        void (*const runs[2])(void *) = {scan_portex, scan_portex_strided};
        for (int k = 0; k < 2; ++k) {
            CU(raw_fill_i64(c.out_px.data, n, 108 + (uint64_t)k, g.raw_stream));
            sync_both();
            runs[k](&c);
            sync_both();
            int64_t differ = 0;
            CU(raw_count_diff_i64(c.out_px.data, c.out_raw.data, n, &differ, g.raw_stream));
            if (differ != 0) {
                fprintf(stderr, "%s: %lld of %lld elements differ\n", forms[k], (long long)differ,
                        (long long)n);
                g.failed = 1;
            }
        }
        variant v[3] = {{"raw CUB InclusiveSum", scan_raw, g.raw_stream, BY_EVENTS, 0},
                        {"portex", scan_portex, g.px_stream, BY_EVENTS, 0},
                        {"portex strided spans", scan_portex_strided, g.px_stream, BY_EVENTS, 0}};
        measure(v, 3, &c, 1, 2, g.reps);
        size_pow2(size, sizeof size, "", lg_n, " i64");
        print_variants("scan", v, 3, 2.0 * 8.0 * (double)n);
        add_row("scan (inclusive)", size, v[0].ms, v[1].ms, 2.0 * 8.0 * (double)n, false, 1.00);
        /* The cost curve's scan: the same buffers, their first m elements. */
        printf("\nscan cost curve (GB/s, in + out):\n| %-6s | %10s | %10s | %5s |\n", "n", "CUB",
               "portex", "ratio");
        printf("|--------|-----------:|-----------:|------:|\n");
        for (int lg = curve_lo; lg <= curve_hi; lg += curve_step) {
            const int64_t m = (int64_t)1 << lg;
            int batch = (int)(((int64_t)1 << 24) / m);
            batch = batch < 1 ? 1 : batch > 256 ? 256 : batch;
            c.n = m;
            variant cv[2] = {{"raw_cub", scan_raw, g.raw_stream, BY_EVENTS, 0},
                             {"portex", scan_portex, g.px_stream, BY_EVENTS, 0}};
            measure(cv, 2, &c, batch, 2, g.reps);
            const double sb = 2.0 * 8.0 * (double)m;
            printf("| 2^%-4d | %10.1f | %10.1f | %5.3f |\n", lg, gbs(sb, cv[0].ms),
                   gbs(sb, cv[1].ms), cv[0].ms / cv[1].ms);
            for (int k = 0; csv && k < 2; ++k)
                fprintf(csv, "scan,%s,%lld,%.0f,%d,%.4f,%.2f\n", cv[k].name, (long long)m, sb,
                        batch, cv[k].ms * 1e3, gbs(sb, cv[k].ms));
            if (lg == 20 || lg == 24) { /* the sizes the scan's target names beside 2^28 */
                char sz[32];
                snprintf(sz, sizeof sz, "2^%d i64", lg);
                add_row("scan (inclusive)", sz, cv[0].ms, cv[1].ms, sb, false, 1.00);
            }
        }
        c.n = n;
        if (csv && fclose(csv) != 0) exit(2);
        if (csv) printf("written: %s/cuda_cost_curve.csv\n", csv_dir);
        csv = NULL;
        sync_both();
        CU(cudaFree(c.tmp));
        CHECK(px_view_release(&vin));
        CHECK(px_view_release(&vpx));
        CHECK(px_view_release(&vraw));
    }

    /* ---- prefix sums of views: int64 and double, 2^20, 2^24 and the full size ---- */
    for (int f64 = 0; f64 < 2; ++f64) {
        const px_dtype t = f64 ? PX_F64 : PX_I64;
        const int lgs[3] = {g.quick ? 16 : 20, g.quick ? 18 : 24, lg_n};
        for (int s = 0; s < 3; ++s) {
            const int64_t m = (int64_t)1 << lgs[s];
            prefix_ctx c;
            memset(&c, 0, sizeof c);
            c.n = m;
            c.f64 = f64 == 1;
            c.in = bench_device_view("prefix in", t, 1, m, 0, PX_VIEW_NO_INIT);
            c.out = bench_device_view("prefix out (portex)", t, 1, m, 0, PX_VIEW_NO_INIT);
            px_view *raw_out = bench_device_view("prefix out (raw)", t, 1, m, 0, PX_VIEW_NO_INIT);
            px_view_info ii, ri;
            CHECK(px_view_info_get(c.in, &ii));
            CHECK(px_view_info_get(raw_out, &ri));
            c.raw_in = ii.data;
            c.raw_out = ri.data;
            if (f64)
                CU(raw_fill_f64(ii.data, m, 5, g.raw_stream));
            else
                CU(raw_fill_i64(ii.data, m, 5, g.raw_stream));
            CU(raw_prefix_sum_cub(NULL, &c.tmp_bytes, c.raw_in, c.raw_out, m, c.f64, false,
                                  g.raw_stream));
            CU(cudaMalloc(&c.tmp, c.tmp_bytes));
            sync_both();
            prefix_raw(&c);
            prefix_portex(&c);
            sync_both();
            px_view_info oi;
            CHECK(px_view_info_get(c.out, &oi));
            /* Floating-point sums may associate differently from run to run (the look-back
               takes what earlier tiles have published): a tolerance; integers exactly. */
            int64_t differ = 0;
            if (f64)
                expect_close("prefix sum f64", oi.data, c.raw_out, m, 1e-12);
            else
                CU(raw_count_diff_i64(oi.data, c.raw_out, m, &differ, g.raw_stream));
            if (differ != 0) {
                fprintf(stderr, "prefix sum %s 2^%d: %lld of %lld elements differ from CUB's\n",
                        px_dtype_string(t), lgs[s], (long long)differ, (long long)m);
                g.failed = 1;
            }
            variant v[2] = {{"raw CUB InclusiveSum", prefix_raw, g.raw_stream, BY_EVENTS, 0},
                            {"portex px_prefix_sum", prefix_portex, g.px_stream, BY_EVENTS, 0}};
            int batch = (int)(((int64_t)1 << 24) / m);
            batch = batch < 1 ? 1 : batch;
            measure(v, 2, &c, batch, 2, g.reps);
            size_pow2(size, sizeof size, "", lgs[s], f64 ? " f64" : " i64");
            print_variants("prefix sum", v, 2, 2.0 * 8.0 * (double)m);
            add_row("prefix sum (px_prefix_sum)", size, v[0].ms, v[1].ms, 2.0 * 8.0 * (double)m,
                    false, 1.00);
            sync_both();
            CU(cudaFree(c.tmp));
            CHECK(px_view_release(&c.in));
            CHECK(px_view_release(&c.out));
            CHECK(px_view_release(&raw_out));
        }
    }

    /* ---- dispatch throughput, launch + fence, reduce into a host double ---- */
    {
        launch_ctx c = {dispatch_count};
        variant v[2] = {{"raw <<<>>> x N + sync", dispatch_raw, g.raw_stream, BY_HOST_CLOCK, 0},
                        {"portex x N + fence", dispatch_portex, g.px_stream, BY_HOST_CLOCK, 0}};
        measure(v, 2, &c, 1, 1, g.reps);
        snprintf(size, sizeof size, "%d launches", dispatch_count);
        add_row("dispatch (empty)", size, v[0].ms / dispatch_count, v[1].ms / dispatch_count, 0,
                true, 1.05);

        variant r[2] = {{"raw <<<>>> + sync", roundtrip_raw, g.raw_stream, BY_HOST_CLOCK, 0},
                        {"portex for + fence", roundtrip_portex, g.px_stream, BY_HOST_CLOCK, 0}};
        measure(r, 2, NULL, 1, 100, iterations);
        add_row("launch+fence", "1 block", r[0].ms, r[1].ms, 0, true, 1.05);

        /* A small reduction into a host double: its inputs are small views of their own. */
        px_view *vx = bench_device_view("x (small)", PX_F64, 1, small_n, 0, PX_VIEW_NO_INIT);
        px_view *vy = bench_device_view("y (small)", PX_F64, 1, small_n, 0, PX_VIEW_NO_INIT);
        d.n = small_n;
        CHECK(px_view_get_span(vx, &d.x));
        CHECK(px_view_get_span(vy, &d.y));
        CU(raw_fill_f64(d.x.data, small_n, 5, g.raw_stream));
        CU(raw_fill_f64(d.y.data, small_n, 6, g.raw_stream));
        sync_both();
        dot_small_host(&d);
        dot_portex_host(&d);
        expect_scalar("dot (small, host result)", d.px_host, d.raw_host, TOL_SUM);
        variant s[2] = {
            {"raw 1 block + pinned + sync", dot_small_host, g.raw_stream, BY_HOST_CLOCK, 0},
            {"portex reduce -> host", dot_portex_host, g.px_stream, BY_HOST_CLOCK, 0}};
        measure(s, 2, &d, 1, 100, iterations);
        snprintf(size, sizeof size, "%lld f64", (long long)small_n);
        add_row("reduce->host", size, s[0].ms, s[1].ms, 0, true, 1.10);
        printf("round trips (medians of %d): launch+fence raw %.2f us, portex %.2f us; "
               "reduce->host raw %.2f us, portex %.2f us; dispatch per launch raw %.2f us, "
               "portex %.2f us\n",
               iterations, r[0].ms * 1e3, r[1].ms * 1e3, s[0].ms * 1e3, s[1].ms * 1e3,
               v[0].ms * 1e3 / dispatch_count, v[1].ms * 1e3 / dispatch_count);
        sync_both();
        CHECK(px_view_release(&vx));
        CHECK(px_view_release(&vy));
    }

    print_table();

    CHECK(px_view_release(&d.result));
    CU(cudaFree(d.cub_out));
    CU(cudaFree(d.cub_tmp));
    CU(cudaFreeHost(d.pinned));
    bench_events_destroy();
    CU(cudaStreamDestroy(g.raw_stream));
    CHECK(px_finalize());
    return g.failed;
}
