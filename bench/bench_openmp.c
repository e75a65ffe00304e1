/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* bench_openmp: portex's OpenMP backend against the same loops written with plain OpenMP,
 * in one process, on the same buffers, with the same threads; or (--backend threads)
 * portex's threads backend against its OpenMP backend, the same rows.
 *
 *   bench_openmp [--quick] [--reps N] [--threads LIST] [--csv FILE] [--backend openmp|threads]
 *
 * Cases (full sizes; --quick shrinks sizes and repetitions for a smoke run):
 *   triad       a = b + s*c, 3 x 2^25 doubles (256 MiB per array; PX_FOR) against
 *               `#pragma omp parallel for schedule(static)`
 *   dot         2^25 doubles (PX_REDUCE, sum) against `parallel for reduction(+:s)`
 *   stencil2d   one step of a 5-point heat stencil over the interior of a 4096 x 4096 grid
 *               of doubles (PX_FOR_2D, default policy) against `parallel for` over the rows
 *   empty       10^4 dispatches of an empty kernel over as many indices as threads, against
 *               an empty `parallel for` over the same range: time per call
 *   scan        inclusive scan of 2^26 int64 (PX_SCAN through px_parallel_scan; then
 *               px_prefix_sum of the same views) against a hand-written two-pass scan
 *               (per-thread chunk sums, their exclusive prefix, a second pass)
 *   scaling     triad and stencil2d at every thread count of --threads (default: powers of
 *               two up to the cores of the process's CPU set, and that count); --csv FILE
 *               writes the curve (scripts/plot/openmp_scaling_plot.py draws it)
 *   partitions  at all cores: two partitions of half the threads each (px_partition, equal
 *               weights), each driven by its own pthread and each doing k sweeps of triad
 *               (or stencil2d) over its half of the arrays, against one instance with all
 *               threads doing the k sweeps over the whole arrays
 * triad, dot, stencil2d, empty and scan run at 1 thread and at all cores.
 *
 * Threads. The thread count is set by px_finalize + px_init with px_init_options.num_threads
 * = T (PX_NUM_THREADS and OMP_NUM_THREADS do not matter), and the plain loops say
 * num_threads(T). Both sides run on the same OpenMP threads: the plain regions and portex's
 * are opened by the same (main) thread, so libgomp gives thread i of both the same pool
 * thread, which portex binds (hwloc, thread i on core i, unless OMP_PROC_BIND/OMP_PLACES
 * or PX_OPENMP_BIND=none say otherwise; the binding line shows it). A portex dispatch runs
 * before anything else at every thread count, so that the binding is in place before the
 * buffers are touched.
 *
 * First touch. Buffers are allocated fresh for every thread count and initialised by a
 * plain `parallel for schedule(static)` on those threads: thread i first touches the i-th
 * contiguous share, which is the share both sides give thread i (portex cuts a 1-D range
 * and the rows of an untiled 2-D range into one contiguous block per thread, as static
 * scheduling does; for the grid, the same block up to a row), so each side finds its pages
 * on its thread's NUMA node. The partitions' halves are the whole team's shares too:
 * partition p's thread j sits on place p * T/2 + j and gets what thread p * T/2 + j gets.
 *
 * Timing: each case runs twice each way untimed, then N times (default 21, at least 5)
 * with the two sides alternating which goes first; tables give the medians and, as the
 * ratio, the median of the per-run ratios portex / plain (a time ratio: below 1 is portex
 * faster). Targets are printed beside the ratios. Before timing, every case runs once each
 * way from the same inputs and the results are compared: bit for bit (triad, stencil,
 * scan, partitions) or within 1e-12 relative (dot: OpenMP's reduction joins the threads'
 * partial sums in an order of its own; portex in thread order).
 *
 * --backend threads. The same cases, the same buffers and the same first touch, but the two
 * sides are portex's: the OpenMP backend's instance (the base, where the plain loops were)
 * and the threads backend's (the one measured, where the OpenMP backend was), both with T
 * threads; the tables give threads / OpenMP time ratios, against 1.10 everywhere, the
 * empty dispatch included. The partitions row compares two partitions of each backend
 * (each driven by its own pthread). The threads backend binds worker i to core i as the
 * OpenMP backend binds thread i, so each side finds its pages where it looks for them.
 * Before timing, the threads backend's results are compared with the plain loops' as above
 * and, for dot, with the OpenMP backend's bit for bit (both cut the range alike). Before
 * each sample the process sleeps 20 ms, so that the pool the previous sample used has
 * stopped spinning (libgomp spins a few milliseconds after a region, on the cores the other
 * pool is bound to), then makes untimed calls (2, or a tenth of the sample's) that wake
 * this side's pool and bring the data into cache as back-to-back calls find them.
 *
 * Exit status: 0; 1 when a result differs; 2 on an error. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, pthread barriers */

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <hwloc.h>
#include <omp.h>

#include "bench_openmp_kernels.h"
#include "bench_util.h"

#define MAX_COUNTS 32 /* thread counts in one run */
#define SETTLE_MS 20  /* --backend threads: the pause between samples */
#define PAD 8         /* int64 per cache line: the plain scan's partial sums */

/* ---- The plain OpenMP loops: what a C programmer writes without portex --------------------- */

/* The pointers are restrict parameters, as portex's spans are restrict. (GCC's function for
   a parallel region reads them through a struct and no longer treats them as restrict: it
   vectorises the loops with a run-time overlap check. Restrict pointers declared inside the
   region do not change that.) */

BENCH_NOINLINE static void plain_triad(int nt, int64_t n, double s, double *restrict a,
                                       const double *restrict b, const double *restrict c)
{
#pragma omp parallel for schedule(static) num_threads(nt)
    for (int64_t i = 0; i < n; ++i) a[i] = b[i] + s * c[i];
}

BENCH_NOINLINE static double plain_dot(int nt, int64_t n, const double *restrict x,
                                       const double *restrict y)
{
    double s = 0.0;
#pragma omp parallel for schedule(static) num_threads(nt) reduction(+ : s)
    for (int64_t i = 0; i < n; ++i) s += x[i] * y[i];
    return s;
}

BENCH_NOINLINE static void plain_stencil(int nt, int64_t nx, int64_t ny, double alpha,
                                         const double *restrict in, double *restrict out)
{
#pragma omp parallel for schedule(static) num_threads(nt)
    for (int64_t i = 1; i < nx - 1; ++i) bench_heat_row(i, ny, alpha, in, out);
}

BENCH_NOINLINE static void plain_empty(int nt, int64_t n)
{
#pragma omp parallel for schedule(static) num_threads(nt)
    for (int64_t i = 0; i < n; ++i) {}
}

/* Inclusive scan in two passes; part holds PAD * (threads + 1) values. Returns the total. */
BENCH_NOINLINE static int64_t plain_scan(int nt, int64_t n, const int64_t *restrict in,
                                         int64_t *restrict out, int64_t *part)
{
    int team_size = 1;
#pragma omp parallel num_threads(nt)
    {
        const int t = omp_get_thread_num(), team = omp_get_num_threads();
        if (t == 0) team_size = team;
        const int64_t q = n / team, r = n % team;
        const int64_t lo = t * q + (t < r ? t : r), hi = lo + q + (t < r ? 1 : 0);
        int64_t sum = 0;
        for (int64_t i = lo; i < hi; ++i) sum += in[i];
        part[(t + 1) * PAD] = sum;
#pragma omp barrier
        int64_t run = 0;
        for (int u = 1; u <= t; ++u) run += part[u * PAD];
        for (int64_t i = lo; i < hi; ++i) {
            run += in[i];
            out[i] = run;
        }
    }
    int64_t total = 0;
    for (int u = 1; u <= team_size; ++u) total += part[u * PAD];
    return total;
}

/* Initialisation, and with it the first touch: thread i writes the i-th static share. */
static double rnd01(uint64_t seed, int64_t i) /* (0, 1], never zero */
{
    uint64_t z = seed * 0x9e3779b97f4a7c15u + (uint64_t)i * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    z ^= z >> 31;
    return (double)((z >> 11) + 1) * 0x1.0p-53;
}

static void touch_f64(int nt, double *p, int64_t n, uint64_t seed)
{
#pragma omp parallel for schedule(static) num_threads(nt)
    for (int64_t i = 0; i < n; ++i) p[i] = rnd01(seed, i);
}

static void touch_i64(int nt, int64_t *p, int64_t n, uint64_t seed)
{
#pragma omp parallel for schedule(static) num_threads(nt)
    for (int64_t i = 0; i < n; ++i) p[i] = (int64_t)(rnd01(seed, i) * 1000.0) - 300;
}

/* ---- State -------------------------------------------------------------------------------- */

/* --backend threads: the threads backend against the OpenMP backend. */
static bool vs_openmp;

typedef struct bench {
    int nt;            /* threads of this configuration */
    px_instance *inst; /* the measured side's: the default OpenMP (or threads) instance */
    px_instance *omp;  /* --backend threads: the OpenMP instance, the base side's */
    /* triad, dot */
    int64_t n;
    double s;
    double *a, *b, *c;
    bomp_triad_args triad;
    bomp_dot_args dot;
    double dot_plain, dot_portex;
    /* stencil */
    int64_t nx, ny;
    double alpha;
    double *in, *out;
    bomp_stencil_args stencil;
    /* empty dispatch */
    int64_t empty_n;
    /* scan */
    int64_t scan_n;
    int64_t *sin, *sout, *spart;
    bomp_scan_args scan;
    int64_t total_plain, total_portex;
    px_view *scan_in, *scan_out; /* the same buffers as views, for px_prefix_sum */
} bench;

static void *alloc_bytes(size_t bytes)
{
    void *p = NULL;
    /* Page aligned; large blocks come from mmap, fresh pages that nobody touched yet. */
    if (posix_memalign(&p, 4096, bytes ? bytes : 1) != 0) {
        fprintf(stderr, "out of memory (%zu bytes)\n", bytes);
        exit(2);
    }
    return p;
}

/* ---- Timing ------------------------------------------------------------------------------- */

typedef void (*side_fn)(bench *b);

typedef struct timing {
    double plain, portex; /* medians, ms per call */
    double ratio;         /* median over runs of portex / plain */
} timing;

/* The two sides of a case for bench_paired: `calls` calls of one of them, time per call. */
typedef struct sides {
    bench *b;
    side_fn f[2]; /* plain, portex */
    int calls;
} sides;

static double sample_side(int i, void *p)
{
    const sides *s = p;
    side_fn f = s->f[i];
    px_instance *measured = s->b->inst;
    if (vs_openmp) {
        /* Both sides are portex's: the base side on the OpenMP instance. The other side's
           pool stops spinning first, and this side's is woken (and the data in cache) by
           untimed calls before the timed ones. */
        const struct timespec settle = {0, SETTLE_MS * 1000000L};
        nanosleep(&settle, NULL);
        f = s->f[1];
        if (i == 0) s->b->inst = s->b->omp;
        for (int m = 0; m < (s->calls < 20 ? 2 : s->calls / 10); ++m) f(s->b);
    }
    const double t0 = now_ms();
    for (int m = 0; m < s->calls; ++m) f(s->b);
    const double ms = (now_ms() - t0) / s->calls;
    s->b->inst = measured;
    return ms;
}

static timing measure(bench *b, side_fn plain, side_fn portex, int calls, int reps)
{
    sides s = {b, {plain, portex}, calls};
    const bench_pair r = bench_paired(sample_side, &s, 2, reps);
    return (timing){r.base, r.test, r.ratio};
}

/* ---- The cases ---------------------------------------------------------------------------- */

static void triad_plain(bench *b) { plain_triad(b->nt, b->n, b->s, b->a, b->b, b->c); }
static void triad_portex(bench *b)
{
    CHECK(px_parallel_for(b->inst, "triad", px_range(0, b->n), PX_KERNEL(bomp_triad), &b->triad));
}

static void dot_plain(bench *b) { b->dot_plain = plain_dot(b->nt, b->n, b->b, b->c); }
static void dot_portex(bench *b)
{
    CHECK(px_parallel_reduce(b->inst, "dot", px_range(0, b->n), PX_KERNEL(bomp_dot), &b->dot,
                             &b->dot_portex));
}

static void stencil_plain(bench *b) { plain_stencil(b->nt, b->nx, b->ny, b->alpha, b->in, b->out); }
static void stencil_portex(bench *b)
{
    CHECK(px_parallel_for(b->inst, "stencil", px_mdrange2(1, b->nx - 1, 1, b->ny - 1),
                          PX_KERNEL(bomp_stencil), &b->stencil));
}

static void empty_plain(bench *b) { plain_empty(b->nt, b->empty_n); }
static void empty_portex(bench *b)
{
    const bomp_empty_args args = {0};
    CHECK(px_parallel_for(b->inst, "empty", px_range(0, b->empty_n), PX_KERNEL(bomp_empty), &args));
}

static void scan_plain(bench *b)
{
    b->total_plain = plain_scan(b->nt, b->scan_n, b->sin, b->sout, b->spart);
}
static void scan_portex(bench *b)
{
    CHECK(px_parallel_scan(b->inst, "scan", px_range(0, b->scan_n), PX_KERNEL(bomp_scan), &b->scan,
                           &b->total_portex));
}

/* The same inclusive scan as a library call on the views (portex/prefix_sum.h). */
static void prefix_portex(bench *b)
{
    CHECK(px_prefix_sum(b->inst, b->scan_out, b->scan_in, PX_PREFIX_SUM_INCLUSIVE));
}

/* Runs one side, then the other, each into `out` (the buffer both write) poisoned
   beforehand with the same bytes, and compares what they left there bit for bit: true when
   equal and something was written. */
static bool same_output(bench *b, side_fn first, side_fn second, void *out, size_t bytes)
{
    unsigned char *poison = malloc(bytes), *expect = malloc(bytes);
    if (!poison || !expect) exit(2);
    memset(poison, 0xa5, bytes);
    memcpy(out, poison, bytes);
    first(b);
    memcpy(expect, out, bytes);
    memcpy(out, poison, bytes);
    second(b);
    const bool same = memcmp(expect, out, bytes) == 0 && memcmp(poison, out, bytes) != 0;
    free(poison);
    free(expect);
    return same;
}

/* ---- Partitions: two instances driven by two pthreads -------------------------------------- */

typedef struct part_job {
    px_instance *inst;
    const px_kernel *kernel;
    px_policy policy;
    const void *args;
    int sweeps;
} part_job;

static void run_job(const part_job *j)
{
    for (int k = 0; k < j->sweeps; ++k)
        CHECK(px_parallel_for(j->inst, j->kernel->name, j->policy, j->kernel, j->args));
}

static struct {
    pthread_barrier_t start, done;
    pthread_t thread[2];
    part_job job[2];      /* what each pthread runs on its partition */
    part_job whole;       /* the same work as one job on the whole instance */
    px_instance *base[2]; /* --backend threads: the OpenMP instance's partitions */
    bool on_base;         /* this round runs on base[] (set before the start barrier) */
    bool quit;
} duo;

static void *duo_main(void *arg)
{
    const int half = *(const int *)arg;
    for (;;) {
        pthread_barrier_wait(&duo.start);
        if (duo.quit) return NULL;
        part_job j = duo.job[half];
        if (duo.on_base) j.inst = duo.base[half];
        run_job(&j);
        pthread_barrier_wait(&duo.done);
    }
}

static void duo_start(void)
{
    if (pthread_barrier_init(&duo.start, NULL, 3) || pthread_barrier_init(&duo.done, NULL, 3))
        exit(2);
    duo.quit = false;
    static const int halves[2] = {0, 1};
    for (int i = 0; i < 2; ++i)
        if (pthread_create(&duo.thread[i], NULL, duo_main, (void *)&halves[i])) exit(2);
}

static void duo_stop(void)
{
    duo.quit = true;
    pthread_barrier_wait(&duo.start);
    for (int i = 0; i < 2; ++i) pthread_join(duo.thread[i], NULL);
    pthread_barrier_destroy(&duo.start);
    pthread_barrier_destroy(&duo.done);
}

/* The "plain" side is the whole instance, the "portex" side the two partitions (with
   --backend threads, both sides are partitions: the OpenMP instance's, the threads one's). */
static void duo_whole(bench *b)
{
    (void)b;
    run_job(&duo.whole);
}
static void duo_parts(bench *b)
{
    duo.on_base = vs_openmp && b->inst == b->omp;
    pthread_barrier_wait(&duo.start);
    pthread_barrier_wait(&duo.done);
}

/* ---- Configuration and output ------------------------------------------------------------- */

typedef struct row {
    char name[32];
    int threads;
    char size[32];
    timing t;
    double bytes;  /* per call, for GB/s; 0: none */
    double target; /* the time ratio portex / plain should not exceed */
} row;

static row rows[64];
static int nrows;

/* The target of a row: portex against plain OpenMP, or 1.10 for threads against OpenMP. */
static double target(double vs_plain) { return vs_openmp ? 1.10 : vs_plain; }
/* The two sides' names in the tables. */
static const char *base_name(void) { return vs_openmp ? "openmp" : "plain"; }
static const char *test_name(void) { return vs_openmp ? "threads" : "portex"; }

static void add_row(const char *name, int threads, const char *size, timing t, double bytes,
                    double target)
{
    if (nrows == (int)(sizeof rows / sizeof rows[0])) return;
    row *r = &rows[nrows++];
    snprintf(r->name, sizeof r->name, "%s", name);
    r->threads = threads;
    snprintf(r->size, sizeof r->size, "%s", size);
    r->t = t;
    r->bytes = bytes;
    r->target = target;
}

static double gbs(double bytes, double ms) { return ms > 0 ? bytes / (ms * 1e6) : 0.0; }

static void fmt_time(char *buf, size_t len, double ms)
{
    if (ms < 1.0)
        snprintf(buf, len, "%.3f us", ms * 1e3);
    else
        snprintf(buf, len, "%.2f ms", ms);
}

/* Cores of the process's CPU set (hwloc), or 0. */
static int process_cores(void)
{
    hwloc_topology_t t;
    if (hwloc_topology_init(&t) != 0) return 0;
    int n = 0;
    if (hwloc_topology_load(t) == 0) {
        hwloc_bitmap_t set = hwloc_bitmap_alloc();
        if (set && hwloc_get_cpubind(t, set, HWLOC_CPUBIND_PROCESS) == 0)
            n = hwloc_get_nbobjs_inside_cpuset_by_type(t, set, HWLOC_OBJ_CORE);
        if (n <= 0) n = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_CORE);
        hwloc_bitmap_free(set);
    }
    hwloc_topology_destroy(t);
    return n > 0 ? n : 0;
}

/* src into dst[len], cut to fit. */
static void copy_str(char *dst, size_t len, const char *src)
{
    size_t k = strlen(src);
    if (k >= len) k = len - 1;
    memcpy(dst, src, k);
    dst[k] = '\0';
}

static void cpu_model(char *buf, size_t len)
{
    snprintf(buf, len, "unknown CPU");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return;
    char line[256];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) != 0) continue;
        const char *v = strchr(line, ':');
        if (!v) break;
        v++;
        while (*v == ' ' || *v == '\t') v++;
        copy_str(buf, len, v);
        buf[strcspn(buf, "\n")] = '\0';
        break;
    }
    fclose(f);
}

/* px_print_configuration's lines of the measured backend ("OpenMP ..., N threads ..." or
   "POSIX threads, N threads ...", and "binding: ..."), the whole report to stdout when
   `echo`. */
static void omp_config(char *threads_line, char *bind_line, size_t len, bool echo)
{
    snprintf(threads_line, len, "?");
    snprintf(bind_line, len, "binding: ?");
    FILE *f = tmpfile();
    if (!f) return;
    CHECK(px_print_configuration(f));
    rewind(f);
    const char *own = vs_openmp ? "backend THREADS:" : "backend OPENMP:";
    bool in_own = false;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (echo) fputs(line, stdout);
        char *p = line;
        while (*p == ' ') p++;
        p[strcspn(p, "\n")] = '\0';
        if (!strncmp(p, "backend ", 8) || p - line < 4) /* a backend's lines are indented 4 */
            in_own = !strncmp(p, own, strlen(own));
        else if (in_own && !strncmp(p, "binding:", 8))
            copy_str(bind_line, len, p);
        else if (in_own)
            copy_str(threads_line, len, p);
    }
    fclose(f);
}

static void px_start(bench *b, int nt)
{
    px_init_options o;
    memset(&o, 0, sizeof o);
    o.num_threads = nt;
    CHECK(px_init(&o));
    CHECK(px_instance_default(PX_EXEC_OPENMP, 0, &b->omp));
    b->inst = b->omp;
    if (vs_openmp) CHECK(px_instance_default(PX_EXEC_THREADS, 0, &b->inst));
    for (int k = 0; k < 2; ++k) {
        int conc = 0;
        px_instance *inst = k ? b->inst : b->omp;
        CHECK(px_instance_concurrency(inst, &conc));
        if (conc != nt) {
            fprintf(stderr, "asked for %d threads, the %s instance has %d\n", nt,
                    k && vs_openmp ? "threads" : "OpenMP", conc);
            exit(2);
        }
    }
    b->nt = nt;
    /* Binds portex's threads (and so the pool threads the plain loops use) now; with
       --backend threads, the threads backend's workers too. */
    b->empty_n = nt;
    px_instance *measured = b->inst;
    b->inst = b->omp;
    empty_portex(b);
    b->inst = measured;
    empty_portex(b);
}

static int parse_list(const char *s, int *out, int max)
{
    int n = 0;
    while (*s && n < max) {
        char *end;
        const long v = strtol(s, &end, 10);
        if (end == s || v < 1 || v > 4096) return -1;
        out[n++] = (int)v;
        s = end;
        if (*s == ',')
            s++;
        else if (*s)
            return -1;
    }
    return n;
}

static int cmp_int(const void *x, const void *y)
{
    const int a = *(const int *)x, b = *(const int *)y;
    return (a > b) - (a < b);
}

static void usage(const char *self)
{
    fprintf(stderr,
            "usage: %s [--quick] [--reps N] [--threads LIST] [--csv FILE] [--backend "
            "openmp|threads]\n",
            self);
    exit(2);
}

int main(int argc, char **argv)
{
    bool quick = false;
    int reps = 0;
    const char *threads_arg = NULL, *csv_path = NULL;
    for (int k = 1; k < argc; ++k) {
        if (!strcmp(argv[k], "--quick"))
            quick = true;
        else if (!strcmp(argv[k], "--reps") && k + 1 < argc)
            reps = atoi(argv[++k]);
        else if (!strcmp(argv[k], "--threads") && k + 1 < argc)
            threads_arg = argv[++k];
        else if (!strcmp(argv[k], "--csv") && k + 1 < argc)
            csv_path = argv[++k];
        else if (!strcmp(argv[k], "--backend") && k + 1 < argc && !strcmp(argv[k + 1], "openmp"))
            vs_openmp = false, ++k;
        else if (!strcmp(argv[k], "--backend") && k + 1 < argc && !strcmp(argv[k + 1], "threads"))
            vs_openmp = true, ++k;
        else
            usage(argv[0]);
    }
    if (reps <= 0) reps = quick ? 5 : 21;
    if (reps < 5) reps = 5;

    const int lg_n = quick ? 18 : 25, lg_scan = quick ? 18 : 26;
    const int64_t grid = quick ? 256 : 4096;
    const int empty_calls = quick ? 1000 : 10000;
    const int sweeps = quick ? 2 : 4;

    /* Thread counts: the scaling list, and 1 and all cores for the main table. */
    const int cores = process_cores();
    if (cores < 1) {
        fprintf(stderr, "hwloc found no cores\n");
        return 2;
    }
    int list[MAX_COUNTS], nlist = 0;
    if (threads_arg) {
        int asked[MAX_COUNTS];
        const int na = parse_list(threads_arg, asked, MAX_COUNTS);
        if (na <= 0) usage(argv[0]);
        for (int i = 0; i < na; ++i) {
            if (asked[i] > cores) {
                fprintf(stderr, "--threads: %d left out (the process has %d cores)\n", asked[i],
                        cores);
                continue;
            }
            list[nlist++] = asked[i];
        }
    } else {
        for (int t = 1; t < cores; t *= 2) list[nlist++] = t;
        list[nlist++] = cores;
    }
    qsort(list, (size_t)nlist, sizeof list[0], cmp_int);
    int counts[MAX_COUNTS + 2], ncounts = 0; /* list + {1, cores}, sorted, unique */
    {
        int all[MAX_COUNTS + 2], na = 0;
        for (int i = 0; i < nlist; ++i) all[na++] = list[i];
        all[na++] = 1;
        all[na++] = cores;
        qsort(all, (size_t)na, sizeof all[0], cmp_int);
        for (int i = 0; i < na; ++i)
            if (ncounts == 0 || counts[ncounts - 1] != all[i]) counts[ncounts++] = all[i];
    }

    char model[160];
    cpu_model(model, sizeof model);
    if (vs_openmp && !px_exec_space_available(PX_EXEC_THREADS)) {
        fprintf(stderr, "--backend threads: this portex has no threads backend\n");
        return 2;
    }
    printf("bench_openmp: %s, %d runs each after 2 warm-ups, medians\n%s\nmachine: %s, %d cores "
           "in the process's CPU set\n\n",
           vs_openmp ? "portex threads backend vs portex OpenMP backend (--backend threads)"
                     : "portex OpenMP backend vs plain OpenMP loops",
           reps, BENCH_BUILD, model, cores);

    FILE *csv = NULL;
    if (csv_path) {
        csv = fopen(csv_path, "w");
        if (!csv) {
            fprintf(stderr, "%s: %s\n", csv_path, strerror(errno));
            return 2;
        }
        fprintf(csv,
                "# bench_openmp scaling; %s; %d cores; median time per call, GB/s counting "
                "triad 24 B and stencil 16 B per point\n",
                model, cores);
        fprintf(csv, "case,variant,threads,bytes,median_ms,gb_per_s,ratio\n");
    }

    typedef struct scale_pt {
        int threads;
        timing triad, stencil;
    } scale_pt;
    scale_pt curve[MAX_COUNTS];
    int ncurve = 0;
    char bind_all[256] = "", threads_all[256] = "";
    struct {
        bool done;
        int shares[2];
        timing triad, stencil;
    } parts = {false, {0, 0}, {0, 0, 0}, {0, 0, 0}};
    int failed = 0;

    char size_n[32], size_grid[32], size_scan[32];
    snprintf(size_n, sizeof size_n, "2^%d f64", lg_n);
    snprintf(size_grid, sizeof size_grid, "%lldx%lld f64", (long long)grid, (long long)grid);
    snprintf(size_scan, sizeof size_scan, "2^%d i64", lg_scan);

    for (int ci = 0; ci < ncounts; ++ci) {
        const int nt = counts[ci];
        const bool main_row = nt == 1 || nt == cores;
        bool in_list = false;
        for (int i = 0; i < nlist; ++i) in_list = in_list || list[i] == nt;
        bench B;
        memset(&B, 0, sizeof B);
        bench *b = &B;
        px_start(b, nt);
        char tl[256], bl[256];
        omp_config(tl, bl, sizeof tl, nt == cores);
        if (nt == cores) {
            copy_str(threads_all, sizeof threads_all, tl);
            copy_str(bind_all, sizeof bind_all, bl);
            printf("\n");
        }
        printf("%d thread(s): %s; %s\n", nt, tl, bl);
        fflush(stdout);

        /* ---- triad and dot, and the triad partitions ---- */
        b->n = (int64_t)1 << lg_n;
        b->s = 0.5;
        b->a = alloc_bytes((size_t)b->n * sizeof(double));
        b->b = alloc_bytes((size_t)b->n * sizeof(double));
        b->c = alloc_bytes((size_t)b->n * sizeof(double));
        touch_f64(nt, b->a, b->n, 1);
        touch_f64(nt, b->b, b->n, 2);
        touch_f64(nt, b->c, b->n, 3);
        /* Views over the benchmark's own buffers, so that they outlive px_finalize. */
        px_view *va = bench_host_wrap("a", PX_F64, 1, b->n, 0, b->a);
        px_view *vb = bench_host_wrap("b", PX_F64, 1, b->n, 0, b->b);
        px_view *vc = bench_host_wrap("c", PX_F64, 1, b->n, 0, b->c);
        b->triad.s = b->s;
        CHECK(px_view_get_span(va, &b->triad.a));
        CHECK(px_view_get_span(vb, &b->triad.b));
        CHECK(px_view_get_span(vc, &b->triad.c));
        b->dot.x = b->triad.b;
        b->dot.y = b->triad.c;
        const double triad_bytes = 24.0 * (double)b->n, dot_bytes = 16.0 * (double)b->n;

        if (!same_output(b, triad_plain, triad_portex, b->a, (size_t)b->n * sizeof(double))) {
            fprintf(stderr, "triad, %d threads: portex's a differs from the plain loop's\n", nt);
            failed = 1;
        }
        const timing triad_t = measure(b, triad_plain, triad_portex, 1, reps);
        if (main_row) add_row("triad", nt, size_n, triad_t, triad_bytes, target(1.05));

        if (main_row) {
            dot_plain(b);
            dot_portex(b);
            const double rel = fabs(b->dot_portex - b->dot_plain) / fabs(b->dot_plain);
            if (!(rel <= 1e-12)) {
                fprintf(stderr, "dot, %d threads: portex %.17g, plain %.17g\n", nt, b->dot_portex,
                        b->dot_plain);
                failed = 1;
            }
            if (vs_openmp) {
                /* Both backends cut the range alike: the same bits. */
                const double on_threads = b->dot_portex;
                px_instance *measured = b->inst;
                b->inst = b->omp;
                dot_portex(b);
                b->inst = measured;
                if (memcmp(&on_threads, &b->dot_portex, sizeof on_threads) != 0) {
                    fprintf(stderr,
                            "dot, %d threads: threads backend %.17g, OpenMP backend %.17g\n", nt,
                            on_threads, b->dot_portex);
                    failed = 1;
                }
            }
            add_row("dot", nt, size_n, measure(b, dot_plain, dot_portex, 1, reps), dot_bytes,
                    target(1.05));
        }

        px_instance *part[2] = {NULL, NULL};
        duo.base[0] = duo.base[1] = NULL;
        if (nt == cores && nt >= 2) {
            CHECK(px_partition(b->inst, 2, (const double[]){0.5, 0.5}, part));
            if (vs_openmp) CHECK(px_partition(b->omp, 2, (const double[]){0.5, 0.5}, duo.base));
            for (int i = 0; i < 2; ++i) CHECK(px_instance_concurrency(part[i], &parts.shares[i]));
            const int64_t h = b->n / 2;
            for (int i = 0; i < 2; ++i)
                duo.job[i] = (part_job){part[i], PX_KERNEL(bomp_triad),
                                        px_range(i * h, i ? b->n : h), &b->triad, sweeps};
            duo.whole =
                (part_job){b->inst, PX_KERNEL(bomp_triad), px_range(0, b->n), &b->triad, sweeps};
            duo_start();
            if (!same_output(b, duo_whole, duo_parts, b->a, (size_t)b->n * sizeof(double))) {
                fprintf(stderr, "triad on two partitions: a differs from the whole instance's\n");
                failed = 1;
            }
            parts.triad = measure(b, duo_whole, duo_parts, 1, reps);
            duo_stop();
        }
        CHECK(px_view_release(&va));
        CHECK(px_view_release(&vb));
        CHECK(px_view_release(&vc));
        free(b->a);
        free(b->b);
        free(b->c);

        /* ---- stencil, and its partitions ---- */
        b->nx = b->ny = grid;
        b->alpha = 0.2;
        const size_t grid_bytes = (size_t)(grid * grid) * sizeof(double);
        b->in = alloc_bytes(grid_bytes);
        b->out = alloc_bytes(grid_bytes);
        touch_f64(nt, b->in, grid * grid, 4);
        touch_f64(nt, b->out, grid * grid, 5);
        px_view *vin = bench_host_wrap("in", PX_F64, 2, grid, grid, b->in);
        px_view *vout = bench_host_wrap("out", PX_F64, 2, grid, grid, b->out);
        b->stencil.alpha = b->alpha;
        CHECK(px_view_get_span(vin, &b->stencil.in));
        CHECK(px_view_get_span(vout, &b->stencil.out));
        const double stencil_bytes = 16.0 * (double)((grid - 2) * (grid - 2));
        if (!same_output(b, stencil_plain, stencil_portex, b->out, grid_bytes)) {
            fprintf(stderr, "stencil2d, %d threads: portex's out differs from the plain loop's\n",
                    nt);
            failed = 1;
        }
        const timing stencil_t = measure(b, stencil_plain, stencil_portex, 1, reps);
        if (main_row) add_row("stencil2d", nt, size_grid, stencil_t, stencil_bytes, target(1.05));
        if (part[0]) {
            const int64_t mid = 1 + (grid - 2) / 2;
            duo.job[0] = (part_job){part[0], PX_KERNEL(bomp_stencil),
                                    px_mdrange2(1, mid, 1, grid - 1), &b->stencil, sweeps};
            duo.job[1] = (part_job){part[1], PX_KERNEL(bomp_stencil),
                                    px_mdrange2(mid, grid - 1, 1, grid - 1), &b->stencil, sweeps};
            duo.whole = (part_job){b->inst, PX_KERNEL(bomp_stencil),
                                   px_mdrange2(1, grid - 1, 1, grid - 1), &b->stencil, sweeps};
            duo_start();
            if (!same_output(b, duo_whole, duo_parts, b->out, grid_bytes)) {
                fprintf(stderr,
                        "stencil2d on two partitions: out differs from the whole instance's\n");
                failed = 1;
            }
            parts.stencil = measure(b, duo_whole, duo_parts, 1, reps);
            duo_stop();
            parts.done = true;
            for (int i = 0; i < 2; ++i) CHECK(px_instance_destroy(&part[i]));
            for (int i = 0; i < 2 && vs_openmp; ++i) CHECK(px_instance_destroy(&duo.base[i]));
        }
        CHECK(px_view_release(&vin));
        CHECK(px_view_release(&vout));
        free(b->in);
        free(b->out);

        if (in_list) {
            curve[ncurve++] = (scale_pt){nt, triad_t, stencil_t};
            if (csv) {
                fprintf(csv, "triad,%s,%d,%.0f,%.6f,%.3f,\n", base_name(), nt, triad_bytes,
                        triad_t.plain, gbs(triad_bytes, triad_t.plain));
                fprintf(csv, "triad,%s,%d,%.0f,%.6f,%.3f,%.4f\n", test_name(), nt, triad_bytes,
                        triad_t.portex, gbs(triad_bytes, triad_t.portex), triad_t.ratio);
                fprintf(csv, "stencil2d,%s,%d,%.0f,%.6f,%.3f,\n", base_name(), nt, stencil_bytes,
                        stencil_t.plain, gbs(stencil_bytes, stencil_t.plain));
                fprintf(csv, "stencil2d,%s,%d,%.0f,%.6f,%.3f,%.4f\n", test_name(), nt,
                        stencil_bytes, stencil_t.portex, gbs(stencil_bytes, stencil_t.portex),
                        stencil_t.ratio);
            }
        }

        if (main_row) {
            /* ---- empty dispatch ---- */
            b->empty_n = nt;
            char size[32];
            snprintf(size, sizeof size, "%d indices", nt);
            add_row("empty dispatch", nt, size,
                    measure(b, empty_plain, empty_portex, empty_calls, reps), 0, target(1.20));

            /* ---- scan ---- */
            b->scan_n = (int64_t)1 << lg_scan;
            const size_t scan_bytes = (size_t)b->scan_n * sizeof(int64_t);
            b->sin = alloc_bytes(scan_bytes);
            b->sout = alloc_bytes(scan_bytes);
            b->spart = alloc_bytes((size_t)(nt + 1) * PAD * sizeof(int64_t));
            touch_i64(nt, b->sin, b->scan_n, 6);
            touch_i64(nt, b->sout, b->scan_n, 7);
            px_view *vsin = bench_host_wrap("in", PX_I64, 1, b->scan_n, 0, b->sin),
                    *vsout = bench_host_wrap("out", PX_I64, 1, b->scan_n, 0, b->sout);
            CHECK(px_view_get_span(vsin, &b->scan.in));
            CHECK(px_view_get_span(vsout, &b->scan.out));
            if (!same_output(b, scan_plain, scan_portex, b->sout, scan_bytes) ||
                b->total_plain != b->total_portex || b->total_plain != b->sout[b->scan_n - 1]) {
                fprintf(stderr,
                        "scan, %d threads: portex's differs from the plain scan's (totals %lld, "
                        "%lld)\n",
                        nt, (long long)b->total_portex, (long long)b->total_plain);
                failed = 1;
            }
            add_row("inclusive scan", nt, size_scan, measure(b, scan_plain, scan_portex, 1, reps),
                    16.0 * (double)b->scan_n, target(1.25));
            b->scan_in = vsin;
            b->scan_out = vsout;
            if (!same_output(b, scan_plain, prefix_portex, b->sout, scan_bytes)) {
                fprintf(stderr, "prefix sum, %d threads: portex's differs from the plain scan's\n",
                        nt);
                failed = 1;
            }
            add_row("px_prefix_sum", nt, size_scan, measure(b, scan_plain, prefix_portex, 1, reps),
                    16.0 * (double)b->scan_n, target(1.25));
            CHECK(px_view_release(&vsin));
            CHECK(px_view_release(&vsout));
            free(b->sin);
            free(b->sout);
            free(b->spart);
        }
        CHECK(px_finalize());
    }
    if (csv) fclose(csv);

    /* ---- Tables ---- */
    printf("\n%s (%d cores: %s; %s)\n",
           vs_openmp ? "portex threads backend vs portex OpenMP backend" : "portex vs plain OpenMP",
           cores, threads_all, bind_all);
    if (quick)
        printf("--quick: smoke-test sizes that fit in the caches; the ratios are not measurements "
               "against "
               "the targets\n");
    printf("\n");
    char gb_base[24], gb_test[24];
    snprintf(gb_base, sizeof gb_base, "%s GB/s", base_name());
    snprintf(gb_test, sizeof gb_test, "%s GB/s", test_name());
    printf("| %-14s | %7s | %-13s | %11s | %11s | %5s | %6s | %-6s | %11s | %12s |\n", "case",
           "threads", "size", base_name(), test_name(), "ratio", "target", "met", gb_base, gb_test);
    printf("|----------------|--------:|---------------|------------:|------------:|------:|-------"
           ":|--------|"
           "------------:|-------------:|\n");
    for (int k = 0; k < nrows; ++k) {
        const row *r = &rows[k];
        char tp[32], tx[32], target[16], gp[16] = "", gx[16] = "";
        fmt_time(tp, sizeof tp, r->t.plain);
        fmt_time(tx, sizeof tx, r->t.portex);
        snprintf(target, sizeof target, "<= %.2f", r->target);
        if (r->bytes > 0) {
            snprintf(gp, sizeof gp, "%.2f", gbs(r->bytes, r->t.plain));
            snprintf(gx, sizeof gx, "%.2f", gbs(r->bytes, r->t.portex));
        }
        printf("| %-14s | %7d | %-13s | %11s | %11s | %5.3f | %6s | %-6s | %11s | %12s |\n",
               r->name, r->threads, r->size, tp, tx, r->t.ratio, target,
               r->t.ratio <= r->target ? "yes" : "**no**", gp, gx);
    }
    if (vs_openmp)
        printf("\nratio: median over the runs of threads backend time / OpenMP backend time, each "
               "pair back to back, %d ms apart (target <= 1.10 is the threads backend >= 0.91x the "
               "OpenMP backend's throughput). empty dispatch: time per call, %d calls per sample. "
               "GB/s: triad 24 B, dot 16 B, stencil 16 B per interior point, scan 16 B per element "
               "(scans read the input twice).\n",
               SETTLE_MS, empty_calls);
    else
        printf("\nratio: median over the runs of portex time / plain time, each pair back to back "
               "(target <= 1.05 is portex >= 0.95x plain throughput). empty dispatch: time per "
               "call, %d calls per sample. GB/s: triad 24 B, dot 16 B, stencil 16 B per interior "
               "point, scan 16 B per element (both scans read the input twice).\n",
               empty_calls);

    printf("\nscaling (GB/s; ratio = %s time / %s time)\n\n", test_name(), base_name());
    printf("| threads | triad %-7s | triad %-7s | ratio | stencil2d %-7s | stencil2d %-7s | "
           "ratio |\n",
           base_name(), test_name(), base_name(), test_name());
    printf("|--------:|--------------:|--------------:|------:|------------------:|----------------"
           "--:|--"
           "----:|\n");
    const double triad_bytes = 24.0 * (double)((int64_t)1 << lg_n);
    const double stencil_bytes = 16.0 * (double)((grid - 2) * (grid - 2));
    for (int k = 0; k < ncurve; ++k) {
        const scale_pt *p = &curve[k];
        printf("| %7d | %13.2f | %13.2f | %5.3f | %17.2f | %17.2f | %5.3f |\n", p->threads,
               gbs(triad_bytes, p->triad.plain), gbs(triad_bytes, p->triad.portex), p->triad.ratio,
               gbs(stencil_bytes, p->stencil.plain), gbs(stencil_bytes, p->stencil.portex),
               p->stencil.ratio);
    }
    if (csv_path)
        printf("\nwritten: %s (scripts/plot/openmp_scaling_plot.py draws it)\n", csv_path);

    if (parts.done) {
        if (vs_openmp)
            printf("\npartitions: 2 x px_partition(%d + %d threads), each driven by its own "
                   "pthread, each doing %d sweeps over its half: the threads backend's against "
                   "the OpenMP backend's\n\n",
                   parts.shares[0], parts.shares[1], sweeps);
        else
            printf("\npartitions: 2 x px_partition(%d + %d threads), each driven by its own "
                   "pthread, each doing %d sweeps over its half; against the whole instance (%d "
                   "threads) doing the %d sweeps over everything\n\n",
                   parts.shares[0], parts.shares[1], sweeps, cores, sweeps);
        printf("| %-9s | %-13s | %14s | %12s | %5s | %7s | %-6s |\n", "job", "size",
               vs_openmp ? "OpenMP parts" : "whole instance",
               vs_openmp ? "threads parts" : "2 partitions", "ratio", "target", "met");
        printf("|-----------|---------------|---------------:|-------------:|------:|--------:|----"
               "----|\n");
        const struct {
            const char *name, *size;
            timing t;
        } pr[2] = {{"triad", size_n, parts.triad}, {"stencil2d", size_grid, parts.stencil}};
        for (int k = 0; k < 2; ++k) {
            char tw[32], tp[32];
            fmt_time(tw, sizeof tw, pr[k].t.plain);
            fmt_time(tp, sizeof tp, pr[k].t.portex);
            printf("| %-9s | %-13s | %14s | %12s | %5.3f | %7s | %-6s |\n", pr[k].name, pr[k].size,
                   tw, tp, pr[k].t.ratio, "<= 1.10", pr[k].t.ratio <= 1.10 ? "yes" : "**no**");
        }
        printf("\nratio: median over the runs of %s, back to back; a sample is one job of %d "
               "sweeps\n",
               vs_openmp ? "the threads partitions' time / the OpenMP partitions'"
                         : "the partitions' time / the whole instance's",
               sweeps);
    } else {
        printf("\npartitions: not run (one core)\n");
    }
    printf("\nresults %s\n",
           failed ? "DIFFER (see above)"
                  : "agree: triad, stencil, scan and partitions bit for bit, dot within 1e-12");
    return failed;
}
