/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* bench_host_curve: what a portex dispatch costs on a host backend at every size, each
 * kernel kind against the same loop written plainly, in one process, on the same buffers.
 *
 *   bench_host_curve [--backend serial|openmp|threads] [--quick] [--reps N] [--csv DIR]
 *
 * Kinds, from 2^10 to 2^26 elements in steps of 4x (--quick: to 2^20):
 *   for      triad a = b + s*c over doubles (PX_FOR)
 *   reduce   dot x . y over doubles (PX_REDUCE into host memory)
 *   scan     inclusive scan of int64 (PX_SCAN through px_parallel_scan)
 * against, for the serial backend, plain C loops on the calling thread; for the OpenMP and
 * threads backends, plain OpenMP (`parallel for schedule(static)`, `reduction(+:s)`, a
 * two-pass scan over per-thread chunks) on as many threads as the backend's instance has.
 * The kernels are bench_openmp's (bench_openmp_kernels.c, plain C).
 *
 * Timing: each sample is enough back-to-back calls for about a millisecond; two untimed
 * rounds, then N (default 11; 3 with --quick) with the two sides alternating which goes
 * first; medians. On the threads backend, whose threads are not OpenMP's, each sample
 * first pauses 20 ms (libgomp's threads spin a few milliseconds after a region, on the
 * cores the other pool uses) and makes two untimed calls. The ratio is portex's time over plain's (below 1: portex faster): the
 * cost curve's shape is where dispatch shows (small sizes) and where it does not. Before
 * timing, each size runs once each way and is compared (triad and scan bit for bit, dot
 * within 1e-12 relative). --csv DIR writes DIR/<backend>_cost_curve.csv in the columns of
 * bench_kernels_cuda's curve (scripts/plot/cost_curve_plot.py draws either).
 *
 * Exit status: 0; 1 when a result differs; 2 on an error. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <errno.h>
#include <math.h>
#include <omp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "bench_openmp_kernels.h"
#include "bench_util.h"

enum { KIND_FOR, KIND_REDUCE, KIND_SCAN, KINDS };
static const char *const kind_names[KINDS] = {"triad", "dot", "scan"};

typedef struct curve {
    px_instance *inst;
    int nt;      /* threads of the plain side (1: plain C on this thread) */
    int kind;    /* KIND_* */
    int calls;   /* per sample */
    bool settle; /* pause and warm before each sample (two pools of threads) */
    int64_t n;   /* elements */
    double *a, *b, *c, dot;
    int64_t *in, *out_px, *out_plain, *part;
    px_view *va, *vb, *vc, *vin, *vout;
} curve;

/* The plain side on the calling thread alone: plain C, no OpenMP region. */
static void plain_serial(curve *q)
{
    const int64_t n = q->n;
    double *restrict a = q->a;
    const double *restrict b = q->b, *restrict c = q->c;
    switch (q->kind) {
    case KIND_FOR:
        for (int64_t i = 0; i < n; ++i) a[i] = b[i] + 1.5 * c[i];
        break;
    case KIND_REDUCE: {
        double s = 0.0;
        for (int64_t i = 0; i < n; ++i) s += b[i] * c[i];
        q->dot = s;
        break;
    }
    default: {
        const int64_t *restrict in = q->in;
        int64_t *restrict out = q->out_plain, run = 0;
        for (int64_t i = 0; i < n; ++i) out[i] = (run += in[i]);
    }
    }
}

static void plain_once(curve *q)
{
    if (q->nt == 1) {
        plain_serial(q);
        return;
    }
    const int64_t n = q->n;
    double *restrict a = q->a;
    const double *restrict b = q->b, *restrict c = q->c;
    switch (q->kind) {
    case KIND_FOR:
#pragma omp parallel for schedule(static) num_threads(q->nt)
        for (int64_t i = 0; i < n; ++i) a[i] = b[i] + 1.5 * c[i];
        break;
    case KIND_REDUCE: {
        double s = 0.0;
#pragma omp parallel for schedule(static) reduction(+ : s) num_threads(q->nt)
        for (int64_t i = 0; i < n; ++i) s += b[i] * c[i];
        q->dot = s;
        break;
    }
    default: { /* two passes over a contiguous chunk per thread */
        const int64_t *restrict in = q->in;
        int64_t *restrict out = q->out_plain, *part = q->part;
        const int nt = q->nt;
#pragma omp parallel num_threads(nt)
        {
            const int t = omp_get_thread_num(), T = omp_get_num_threads();
            const int64_t lo = n * t / T, hi = n * (t + 1) / T;
            int64_t s = 0;
            for (int64_t i = lo; i < hi; ++i) s += in[i];
            part[t] = s;
#pragma omp barrier
            int64_t run = 0;
            for (int k = 0; k < t; ++k) run += part[k];
            for (int64_t i = lo; i < hi; ++i) out[i] = (run += in[i]);
        }
    }
    }
}

static void portex_once(curve *q)
{
    const px_policy p = px_range(0, q->n);
    switch (q->kind) {
    case KIND_FOR: {
        bomp_triad_args a = {1.5, {0}, {0}, {0}};
        CHECK(px_view_get_span(q->va, &a.a));
        CHECK(px_view_get_span(q->vb, &a.b));
        CHECK(px_view_get_span(q->vc, &a.c));
        CHECK(px_parallel_for(q->inst, "triad", p, PX_KERNEL(bomp_triad), &a));
        break;
    }
    case KIND_REDUCE: {
        bomp_dot_args a;
        CHECK(px_view_get_span(q->vb, &a.x));
        CHECK(px_view_get_span(q->vc, &a.y));
        CHECK(px_parallel_reduce(q->inst, "dot", p, PX_KERNEL(bomp_dot), &a, &q->dot));
        break;
    }
    default: {
        bomp_scan_args a;
        CHECK(px_view_get_span(q->vin, &a.in));
        CHECK(px_view_get_span(q->vout, &a.out));
        CHECK(px_parallel_scan(q->inst, "scan", p, PX_KERNEL(bomp_scan), &a, NULL));
    }
    }
    CHECK(px_instance_fence(q->inst));
}

static double sample(int side, void *ctx)
{
    curve *q = ctx;
    if (q->settle) {
        /* The two sides are two pools of threads (libgomp's and the threads backend's):
           let the one that ran last stop spinning on the cores, then wake this one and
           warm the cache, untimed (as bench_openmp --backend threads does). */
        const struct timespec pause = {0, 20 * 1000 * 1000};
        nanosleep(&pause, NULL);
        for (int k = 0; k < 2; ++k) {
            if (side)
                portex_once(q);
            else
                plain_once(q);
        }
    }
    const double t0 = now_ms();
    for (int k = 0; k < q->calls; ++k) {
        if (side)
            portex_once(q);
        else
            plain_once(q);
    }
    return (now_ms() - t0) / q->calls;
}

/* Views of the first n elements of the buffers (their spans are what the kernels take). */
static void wrap(curve *q)
{
    px_view **old[5] = {&q->va, &q->vb, &q->vc, &q->vin, &q->vout};
    for (int k = 0; k < 5; ++k)
        if (*old[k]) CHECK(px_view_release(old[k]));
    q->va = bench_host_wrap("a", PX_F64, 1, q->n, 0, q->a);
    q->vb = bench_host_wrap("b", PX_F64, 1, q->n, 0, q->b);
    q->vc = bench_host_wrap("c", PX_F64, 1, q->n, 0, q->c);
    q->vin = bench_host_wrap("in", PX_I64, 1, q->n, 0, q->in);
    q->vout = bench_host_wrap("out", PX_I64, 1, q->n, 0, q->out_px);
}

/* Both sides once from the same inputs; true when they agree. */
static bool agree(curve *q)
{
    plain_once(q);
    const double dot_plain = q->dot;
    double *a_plain = malloc((size_t)q->n * sizeof *a_plain);
    if (!a_plain) exit(2);
    memcpy(a_plain, q->a, (size_t)q->n * sizeof *a_plain);
    portex_once(q);
    bool ok = true;
    if (q->kind == KIND_FOR) ok = memcmp(a_plain, q->a, (size_t)q->n * sizeof *a_plain) == 0;
    if (q->kind == KIND_REDUCE) ok = fabs(q->dot - dot_plain) <= 1e-12 * fabs(dot_plain);
    if (q->kind == KIND_SCAN)
        ok = memcmp(q->out_plain, q->out_px, (size_t)q->n * sizeof *q->out_px) == 0;
    free(a_plain);
    return ok;
}

int main(int argc, char **argv)
{
    const char *backend = "openmp", *csv_dir = NULL;
    bool quick = false;
    int reps = 0;
    for (int k = 1; k < argc; ++k) {
        if (!strcmp(argv[k], "--quick"))
            quick = true;
        else if (!strcmp(argv[k], "--reps") && k + 1 < argc)
            reps = atoi(argv[++k]);
        else if (!strcmp(argv[k], "--backend") && k + 1 < argc)
            backend = argv[++k];
        else if (!strcmp(argv[k], "--csv") && k + 1 < argc)
            csv_dir = argv[++k];
        else {
            fprintf(
                stderr,
                "usage: %s [--backend serial|openmp|threads] [--quick] [--reps N] [--csv DIR]\n",
                argv[0]);
            return 2;
        }
    }
    if (reps < 1) reps = quick ? 3 : 11;
    const px_exec_space exec = !strcmp(backend, "serial")    ? PX_EXEC_SERIAL
                               : !strcmp(backend, "threads") ? PX_EXEC_THREADS
                                                             : PX_EXEC_OPENMP;
    CHECK(px_init(NULL));
    if (!px_exec_space_available(exec)) {
        printf("bench_host_curve: the %s backend is not in this build: skipped\n", backend);
        CHECK(px_finalize());
        return 77;
    }
    curve q;
    memset(&q, 0, sizeof q);
    CHECK(px_instance_default(exec, 0, &q.inst));
    CHECK(px_instance_concurrency(q.inst, &q.nt));
    if (exec == PX_EXEC_SERIAL) q.nt = 1;
    q.settle = exec == PX_EXEC_THREADS;

    const int lo = 10, hi = quick ? 20 : 26;
    const int64_t most = (int64_t)1 << hi;
    q.a = malloc((size_t)most * sizeof *q.a);
    q.b = malloc((size_t)most * sizeof *q.b);
    q.c = malloc((size_t)most * sizeof *q.c);
    q.in = malloc((size_t)most * sizeof *q.in);
    q.out_px = malloc((size_t)most * sizeof *q.out_px);
    q.out_plain = malloc((size_t)most * sizeof *q.out_plain);
    q.part = calloc(1024, sizeof *q.part);
    if (!q.a || !q.b || !q.c || !q.in || !q.out_px || !q.out_plain || !q.part) exit(2);
#pragma omp parallel for schedule(static) num_threads(q.nt) if (q.nt > 1)
    for (int64_t i = 0; i < most; ++i) { /* first touch as both sides cut the range */
        q.a[i] = 0.0;
        q.b[i] = (double)(i % 1000) * 1e-3;
        q.c[i] = (double)(i % 777) * 1e-3;
        q.in[i] = (int64_t)(i % 13) - 6;
        q.out_px[i] = q.out_plain[i] = 0;
    }

    FILE *csv = NULL;
    if (csv_dir) {
        char path[4096];
        if (mkdir(csv_dir, 0777) != 0 && errno != EEXIST) {
            fprintf(stderr, "--csv %s: %s\n", csv_dir, strerror(errno));
            return 2;
        }
        snprintf(path, sizeof path, "%s/%s_cost_curve.csv", csv_dir, backend);
        csv = fopen(path, "w");
        if (!csv) {
            fprintf(stderr, "%s: %s\n", path, strerror(errno));
            return 2;
        }
        fprintf(csv,
                "# bench_host_curve cost curve; %s backend, %d thread(s), against plain %s; "
                "median time per call of back-to-back calls\n",
                backend, q.nt, exec == PX_EXEC_SERIAL ? "C" : "OpenMP");
        fprintf(csv, "case,variant,n,bytes,calls_per_sample,median_us,gb_per_s\n");
    }
    printf("bench_host_curve: portex %s, %s backend, %d thread(s), against plain %s; %d timed "
           "rounds, medians; ratio = portex time / plain time\n\n",
           px_version_string(), backend, q.nt, exec == PX_EXEC_SERIAL ? "C" : "OpenMP", reps);
    printf("| %-6s | %-5s | %12s | %12s | %5s |\n", "n", "kind", "plain us", "portex us", "ratio");
    printf("|--------|-------|-------------:|-------------:|------:|\n");
    const double bytes_per[KINDS] = {24.0, 16.0, 16.0};
    int failed = 0;
    for (int lg = lo; lg <= hi; lg += 2) {
        q.n = (int64_t)1 << lg;
        wrap(&q);
        for (int kind = 0; kind < KINDS; ++kind) {
            q.kind = kind;
            q.calls = 1;
            if (!agree(&q)) {
                printf("| 2^%-4d | %-5s | results differ\n", lg, kind_names[kind]);
                failed = 1;
                continue;
            }
            /* About a millisecond a sample. */
            const double one = sample(0, &q);
            q.calls = one > 0.0 && one < 1.0 ? (int)(1.0 / one) + 1 : 1;
            if (q.calls > 10000) q.calls = 10000;
            const bench_pair pr = bench_paired(sample, &q, 2, reps);
            printf("| 2^%-4d | %-5s | %12.2f | %12.2f | %5.3f |\n", lg, kind_names[kind],
                   pr.base * 1e3, pr.test * 1e3, pr.ratio);
            if (csv) {
                const double bytes = bytes_per[kind] * (double)q.n;
                fprintf(csv, "%s,plain,%lld,%.0f,%d,%.4f,%.2f\n", kind_names[kind], (long long)q.n,
                        bytes, q.calls, pr.base * 1e3, bytes / pr.base * 1e-6);
                fprintf(csv, "%s,portex,%lld,%.0f,%d,%.4f,%.2f\n", kind_names[kind], (long long)q.n,
                        bytes, q.calls, pr.test * 1e3, bytes / pr.test * 1e-6);
            }
        }
    }
    if (csv && fclose(csv) != 0) return 2;
    if (csv) printf("\nwritten: %s/%s_cost_curve.csv\n", csv_dir, backend);
    px_view *views[5] = {q.va, q.vb, q.vc, q.vin, q.vout};
    for (int k = 0; k < 5; ++k) CHECK(px_view_release(&views[k]));
    CHECK(px_finalize());
    free(q.a);
    free(q.b);
    free(q.c);
    free(q.in);
    free(q.out_px);
    free(q.out_plain);
    free(q.part);
    return failed;
}
