/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The backends with teams of host threads, OpenMP and threads, held to the promises they
 * share (docs/openmp.md, docs/threads.md): results equal the serial backend's (integers bit
 * for bit, doubles within 1e-12 relative), the same run to run and the same on both
 * backends; thread counts, the public call every thread of a team names in messages,
 * partitions with their own threads (and their drivers bound),
 * used from several host threads at once and from inside an OpenMP team; one instance
 * used from several host threads at once; large host copies; the configuration each
 * reports. Registered for the OpenMP and threads runs (1, 2 and 3 threads:
 * PX_NUM_THREADS); the backend under test is PX_TEST_BACKEND's. */
#define _GNU_SOURCE /* strndup, setenv, sched_getaffinity */
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "common.h"
#include "kernels.h"

static px_instance *serial_inst(void)
{
    px_instance *s = NULL;
    TK_OK(px_instance_default(PX_EXEC_SERIAL, 0, &s));
    return s;
}

static int configured_threads(void) { return (int)tk_env_ll("PX_NUM_THREADS", 1, 4096, 1); }

/* px_print_configuration's lines of the backend under test, from its heading to the next
   backend's (free them). */
static char *backend_lines(void)
{
    char *buf = tk_configuration();
    char heading[64];
    snprintf(heading, sizeof heading, "backend %s: compiled in", px_exec_space_string(tk_exec()));
    const char *own = strstr(buf, heading);
    TK_ASSERT(own != NULL, "no '%s' in: %s", heading, buf);
    const char *next = strstr(own + 1, "\n  backend ");
    char *lines = strndup(own, next ? (size_t)(next - own) : strlen(own));
    ck_assert_ptr_nonnull(lines);
    free(buf);
    return lines;
}

/* Every element of a double view: a reproducible value in (-1, 1). */
static void random_doubles(px_view *v, uint64_t seed)
{
    const px_view_info in = tk_info(v);
    int64_t n = 1;
    for (int d = 0; d < in.rank; ++d) n *= in.extent[d];
    tk_rng r = tk_rng_seed(seed);
    for (int64_t i = 0; i < n; ++i) ((double *)tk_data(v))[i] = tk_uniform(&r, -1, 1);
}

static bool close_rel(double a, double b, double tol)
{
    if (a == b) return true;
    return fabs(a - b) <= tol * fmax(fabs(a), fabs(b));
}

/* ---- Results against the serial backend ---------------------------------------------------- */

#define RED(inst, k, args, out) \
    TK_OK(px_parallel_reduce((inst), #k, px_range(0, n), PX_KERNEL(k), (args), (out)))

START_TEST(team_reduce_matches_serial)
{
    px_instance *team = tk_inst(), *ser = serial_inst();
    const int64_t sizes[] = {0, 1, 2, 3, 7, 1000, 100003};
    for (size_t si = 0; si < sizeof sizes / sizeof *sizes; ++si) {
        const int64_t n = sizes[si];
        px_view *xd = tk_view1("xd", px_host(), PX_F64, n),
                *xi = tk_view1("xi", px_host(), PX_I64, n);
        px_view *xu = tk_view1("xu", px_host(), PX_U32, n);
        double *d = tk_data(xd);
        int64_t *l = tk_data(xi);
        uint32_t *u = tk_data(xu);
        tk_rng r = tk_rng_seed(42 + (uint64_t)n);
        for (int64_t i = 0; i < n; ++i) {
            d[i] = tk_uniform(&r, -1, 1);
            l[i] = tk_int(&r, -1000000, 1000000);
            u[i] = (uint32_t)tk_int(&r, 0, 4000000000);
        }
        red_args_double ad;
        red_args_int64_t al;
        red_args_uint32_t au;
        TK_OK(px_view_span_f64(xd, &ad.x));
        TK_OK(px_view_span_i64(xi, &al.x));
        TK_OK(px_view_span_u32(xu, &au.x));

        double ds[2];
        RED(ser, red_sum_double, &ad, &ds[0]);
        RED(team, red_sum_double, &ad, &ds[1]);
        TK_ASSERT(close_rel(ds[0], ds[1], 1e-12), "n %lld: sum %.17g vs serial %.17g", (long long)n,
                  ds[1], ds[0]);
        RED(ser, red_max_double, &ad, &ds[0]);
        RED(team, red_max_double, &ad, &ds[1]);
        TK_ASSERT(ds[0] == ds[1], "n %lld: max %.17g vs serial %.17g", (long long)n, ds[1], ds[0]);
        int64_t ls[2];
        RED(ser, red_sum_int64_t, &al, &ls[0]);
        RED(team, red_sum_int64_t, &al, &ls[1]);
        ck_assert_int_eq(ls[0], ls[1]);
        RED(ser, red_min_int64_t, &al, &ls[0]);
        RED(team, red_min_int64_t, &al, &ls[1]);
        ck_assert_int_eq(ls[0], ls[1]);
        uint32_t us[2];
        RED(ser, red_sum_uint32_t, &au, &us[0]); /* wraps: still exact */
        RED(team, red_sum_uint32_t, &au, &us[1]);
        ck_assert_uint_eq(us[0], us[1]);
        px_valloc_f64 v[2];
        RED(ser, red_minloc_f64, &ad, &v[0]);
        RED(team, red_minloc_f64, &ad, &v[1]);
        TK_ASSERT(v[0].val == v[1].val && v[0].loc == v[1].loc,
                  "minloc (%g, %lld) vs serial (%g, %lld)", v[1].val, (long long)v[1].loc, v[0].val,
                  (long long)v[0].loc);
        tk_stats st[2];
        RED(ser, red_stats, &ad, &st[0]);
        RED(team, red_stats, &ad, &st[1]);
        TK_ASSERT(st[0].count == st[1].count && close_rel(st[0].sum, st[1].sum, 1e-12),
                  "custom join differs");
        TK_RELEASE(xd, xi, xu);
    }
}
END_TEST

/* The same dispatch gives the same bits every time (partials joined in a fixed order). */
START_TEST(team_reduce_reproducible)
{
    const int64_t n = 1000003;
    px_view *x = tk_view1("x", px_host(), PX_F64, n);
    double *d = tk_data(x);
    tk_rng r = tk_rng_seed(7);
    for (int64_t i = 0; i < n; ++i)
        d[i] = tk_uniform(&r, -1e6, 1e6) * pow(10, (double)(i % 13) - 6);
    red_args_double a;
    TK_OK(px_view_span_f64(x, &a.x));
    double first = 0;
    for (int rep = 0; rep < 8; ++rep) {
        double s = 0;
        RED(tk_inst(), red_sum_double, &a, &s);
        if (rep == 0) first = s;
        TK_ASSERT(memcmp(&s, &first, sizeof s) == 0, "run %d: %.17g, first %.17g", rep, s, first);
    }
    px_view_release(&x);
}
END_TEST

/* Both backends cut work alike (src/backends/host/launch.c): with the same thread count, a
   reduction and a scan give the same bits on OpenMP as on threads. */
START_TEST(team_backends_agree)
{
    if (!px_exec_space_available(PX_EXEC_OPENMP) || !px_exec_space_available(PX_EXEC_THREADS))
        TK_SKIP("the OpenMP and threads backends are not both compiled in");
    px_instance *inst[2] = {NULL, NULL};
    TK_OK(px_instance_default(PX_EXEC_OPENMP, 0, &inst[0]));
    TK_OK(px_instance_default(PX_EXEC_THREADS, 0, &inst[1]));
    int c[2];
    TK_OK(px_instance_concurrency(inst[0], &c[0]));
    TK_OK(px_instance_concurrency(inst[1], &c[1]));
    ck_assert_int_eq(c[0], c[1]);
    const int64_t n = 300007;
    px_view *x = tk_view1("x", px_host(), PX_F64, n);
    px_view *o[2] = {tk_view1("o0", px_host(), PX_F64, n), tk_view1("o1", px_host(), PX_F64, n)};
    double *d = tk_data(x);
    tk_rng r = tk_rng_seed(17);
    for (int64_t i = 0; i < n; ++i) d[i] = tk_uniform(&r, -1e3, 1e3) * pow(10, (double)(i % 7) - 3);
    red_args_double a;
    TK_OK(px_view_span_f64(x, &a.x));
    double sum[2], total[2];
    for (int b = 0; b < 2; ++b) {
        RED(inst[b], red_sum_double, &a, &sum[b]);
        scan_f64_args s;
        s.in = a.x;
        TK_OK(px_view_span_f64(o[b], &s.out));
        TK_OK(px_parallel_scan(inst[b], "sf", px_range(0, n), PX_KERNEL(scan_incl_f64), &s,
                               &total[b]));
    }
    TK_ASSERT(memcmp(&sum[0], &sum[1], sizeof sum[0]) == 0, "sum: OpenMP %.17g, threads %.17g",
              sum[0], sum[1]);
    TK_ASSERT(memcmp(&total[0], &total[1], sizeof total[0]) == 0,
              "scan total: OpenMP %.17g, threads %.17g", total[0], total[1]);
    TK_ASSERT(memcmp(tk_data(o[0]), tk_data(o[1]), (size_t)n * sizeof(double)) == 0,
              "the scans' outputs differ");
    px_view *views[] = {x, o[0], o[1]};
    tk_release_all(views, 3);
}
END_TEST

/* 2-D and 3-D reductions, untiled and tiled, both orders. */
START_TEST(team_reduce_md_matches_serial)
{
    const int64_t e2[2] = {37, 101}, e3[3] = {5, 19, 23};
    px_view *x2 = tk_view("x2", px_host(), PX_F64, 2, e2),
            *x3 = tk_view("x3", px_host(), PX_I64, 3, e3);
    random_doubles(x2, 3);
    int64_t *l = tk_data(x3);
    for (int64_t i = 0; i < e3[0] * e3[1] * e3[2]; ++i) l[i] = i * 7919 % 1009 - 500;
    red_args_double a2;
    red_args_int64_t a3;
    TK_OK(px_view_span_f64(x2, &a2.x));
    TK_OK(px_view_span_i64(x3, &a3.x));
    const int64_t tiles[][3] = {{0, 0, 0}, {1, 1, 1}, {4, 16, 0}, {8, 0, 5}, {100, 200, 300}};
    for (size_t t = 0; t < sizeof tiles / sizeof *tiles; ++t)
        for (int it = 0; it < 2; ++it) {
            px_policy p2 = px_policy_iterate(
                px_policy_tile(px_mdrange2(1, e2[0], 0, e2[1] - 2), tiles[t][0], tiles[t][1], 0),
                (px_iterate)it);
            px_policy p3 =
                px_policy_iterate(px_policy_tile(px_mdrange3(0, e3[0], 2, e3[1], 1, e3[2]),
                                                 tiles[t][0], tiles[t][1], tiles[t][2]),
                                  (px_iterate)it);
            double s2[2];
            int64_t s3[2];
            TK_OK(px_parallel_reduce(serial_inst(), "r2", p2, PX_KERNEL(red2_sum), &a2, &s2[0]));
            TK_OK(px_parallel_reduce(tk_inst(), "r2", p2, PX_KERNEL(red2_sum), &a2, &s2[1]));
            TK_ASSERT(close_rel(s2[0], s2[1], 1e-12), "tile %zu order %d: %.17g vs %.17g", t, it,
                      s2[1], s2[0]);
            TK_OK(px_parallel_reduce(serial_inst(), "r3", p3, PX_KERNEL(red3_sum), &a3, &s3[0]));
            TK_OK(px_parallel_reduce(tk_inst(), "r3", p3, PX_KERNEL(red3_sum), &a3, &s3[1]));
            ck_assert_int_eq(s3[0], s3[1]);
            int64_t c[2];
            count_args ca = {0};
            TK_OK(px_parallel_reduce(tk_inst(), "c3", p3, PX_KERNEL(count3), &ca, &c[0]));
            ck_assert_int_eq(c[0], (e3[0] - 0) * (e3[1] - 2) * (e3[2] - 1));
        }
    TK_RELEASE(x2, x3);
}
END_TEST

/* Scans: outputs and totals equal the serial backend's, for sizes around the thread
   count and a large one. */
START_TEST(team_scan_matches_serial)
{
    const int64_t sizes[] = {0, 1, 2, 3, 4, 5, 17, 1000003};
    for (size_t si = 0; si < sizeof sizes / sizeof *sizes; ++si) {
        const int64_t n = sizes[si];
        px_view *in = tk_view1("in", px_host(), PX_I64, n),
                *o1 = tk_view1("o1", px_host(), PX_I64, n);
        px_view *o2 = tk_view1("o2", px_host(), PX_I64, n);
        px_view *fin = tk_view1("fin", px_host(), PX_F64, n),
                *f1 = tk_view1("f1", px_host(), PX_F64, n);
        px_view *f2 = tk_view1("f2", px_host(), PX_F64, n);
        tk_rng r = tk_rng_seed(11 + (uint64_t)n);
        for (int64_t i = 0; i < n; ++i) {
            ((int64_t *)tk_data(in))[i] = tk_int(&r, -1000, 1000);
            ((double *)tk_data(fin))[i] = tk_uniform(&r, 0, 1);
        }
        scan_i64_args a1, a2;
        TK_OK(px_view_span_i64(in, &a1.in));
        a2.in = a1.in;
        TK_OK(px_view_span_i64(o1, &a1.out));
        TK_OK(px_view_span_i64(o2, &a2.out));
        const px_kernel *ks[] = {PX_KERNEL(scan_excl_i64), PX_KERNEL(scan_incl_i64)};
        for (int k = 0; k < 2; ++k) {
            int64_t t[2] = {-1, -2};
            TK_OK(px_parallel_scan(serial_inst(), "s", px_range(0, n), ks[k], &a1, &t[0]));
            TK_OK(px_parallel_scan(tk_inst(), "s", px_range(0, n), ks[k], &a2, &t[1]));
            ck_assert_int_eq(t[0], t[1]);
            tk_same(o1, o2, __LINE__);
        }
        scan_f64_args b1, b2;
        TK_OK(px_view_span_f64(fin, &b1.in));
        b2.in = b1.in;
        TK_OK(px_view_span_f64(f1, &b1.out));
        TK_OK(px_view_span_f64(f2, &b2.out));
        double t[2] = {0, 0};
        TK_OK(px_parallel_scan(serial_inst(), "sf", px_range(0, n), PX_KERNEL(scan_incl_f64), &b1,
                               &t[0]));
        TK_OK(px_parallel_scan(tk_inst(), "sf", px_range(0, n), PX_KERNEL(scan_incl_f64), &b2,
                               &t[1]));
        TK_ASSERT(close_rel(t[0], t[1], 1e-12), "n %lld: total %.17g vs %.17g", (long long)n, t[1],
                  t[0]);
        for (int64_t i = 0; i < n; ++i) {
            const double x = ((double *)tk_data(f1))[i], y = ((double *)tk_data(f2))[i];
            TK_ASSERT(close_rel(x, y, 1e-12), "n %lld: out[%lld] %.17g vs %.17g", (long long)n,
                      (long long)i, y, x);
        }
        px_view *views[] = {in, o1, o2, fin, f1, f2};
        tk_release_all(views, 6);
    }
}
END_TEST

/* ---- Threads and partitions --------------------------------------------------------------- */

START_TEST(team_threads_and_shares)
{
    const int T = configured_threads();
    int c = 0;
    TK_OK(px_instance_concurrency(tk_inst(), &c));
    ck_assert_int_eq(c, T);
    TK_OK(px_instance_concurrency(serial_inst(), &c));
    ck_assert_int_eq(c, 1);

    /* Weights 1 : 2 share the threads; every partition has at least one. */
    px_instance *p[3] = {NULL, NULL, NULL};
    const double w[2] = {1, 2};
    TK_OK(px_partition(tk_inst(), 2, w, p));
    int a = 0, b = 0;
    TK_OK(px_instance_concurrency(p[0], &a));
    TK_OK(px_instance_concurrency(p[1], &b));
    TK_ASSERT(a >= 1 && b >= 1 && (T < 2 || a + b == T) && b >= a, "shares %d + %d of %d", a, b, T);
    px_exec_space e = PX_EXEC_COUNT;
    TK_OK(px_instance_exec_space(p[0], &e));
    ck_assert_int_eq(e, tk_exec());
    tk_destroy_all(p, 2);
    /* More partitions than threads: one thread each. */
    TK_OK(px_partition(tk_inst(), 3, NULL, p));
    for (int i = 0; i < 3; ++i) {
        TK_OK(px_instance_concurrency(p[i], &a));
        TK_ASSERT(T < 3 ? a == 1 : a == T / 3 || a == T / 3 + 1, "partition %d: %d threads of %d",
                  i, a, T);
    }
    tk_destroy_all(p, 3);
}
END_TEST

/* The team's threads (OpenMP's, or the threads backend's workers) work in the name of the
   public call: a failing portex call a kernel makes (nested in the dispatch, as the
   library's own calls are) names px_parallel_for on whichever thread runs the index, not
   only on the dispatching one. */
START_TEST(team_threads_name_the_call)
{
    const int T = configured_threads();
    const int64_t n = 3000;
    px_view *named = tk_view1("named", px_host(), PX_I32, n);
    px_view *off = tk_view1("off_caller", px_host(), PX_I32, n);
    host_caller_args a = {.caller_error = (uint64_t)(uintptr_t)px_last_error()};
    TK_OK(px_view_span_i32(named, &a.named));
    TK_OK(px_view_span_i32(off, &a.off_caller));
    TK_OK(px_parallel_for(tk_inst(), "probe", px_range(0, n), PX_KERNEL(host_caller_probe), &a));
    const int32_t *nm = tk_data(named), *of = tk_data(off);
    int64_t elsewhere = 0;
    for (int64_t i = 0; i < n; ++i) {
        TK_ASSERT(nm[i] == 1, "index %lld (on %s thread): the message does not name the dispatch",
                  (long long)i, of[i] ? "a team" : "the calling");
        elsewhere += of[i];
    }
    /* With more than one thread the team shares the range: the hop is what is tested. */
    TK_ASSERT(T == 1 ? elsewhere == 0 : elsewhere > 0,
              "%lld of %lld indices off the calling "
              "thread with %d threads",
              (long long)elsewhere, (long long)n, T);
    px_view_release(&named);
    px_view_release(&off);
}
END_TEST

/* Each host thread drives its own partition: an axpy and a reduction, many times. */
typedef struct part_job {
    px_instance *inst;
    px_view *x, *y;
    int64_t n;
    int rounds;
    bool ok;
    char why[200];
} part_job;

static void *part_worker(void *arg)
{
    part_job *j = arg;
    axpy_args a;
    red_args_double r;
    j->ok = px_view_span_f64(j->x, &a.x) == PX_OK && px_view_span_f64(j->y, &a.y) == PX_OK;
    r.x = a.y;
    a.a = 1.0;
    for (int k = 0; j->ok && k < j->rounds; ++k) {
        double s = -1;
        j->ok = px_parallel_for(j->inst, "axpy", px_range(0, j->n), PX_KERNEL(axpy), &a) == PX_OK &&
                px_parallel_reduce(j->inst, "sum", px_range(0, j->n), PX_KERNEL(red_sum_double), &r,
                                   &s) == PX_OK;
        /* x = 1: after k + 1 rounds every y is k + 1, summed exactly. */
        if (j->ok && s != (double)(k + 1) * (double)j->n) {
            snprintf(j->why, sizeof j->why, "round %d: sum %.17g, want %.17g", k, s,
                     (double)(k + 1) * (double)j->n);
            j->ok = false;
        } else if (!j->ok) {
            snprintf(j->why, sizeof j->why, "%s", px_last_error());
        }
    }
    return NULL;
}

static void make_jobs(part_job *jobs, px_instance **parts, int n)
{
    for (int i = 0; i < n; ++i) {
        const double one = 1.0;
        jobs[i] = (part_job){.inst = parts[i], .n = 50000 + 17 * i, .rounds = 40};
        jobs[i].x = tk_view1("x", px_host(), PX_F64, jobs[i].n);
        jobs[i].y = tk_view1("y", px_host(), PX_F64, jobs[i].n);
        TK_OK(px_fill(jobs[i].x, &one, NULL));
    }
}

static void check_jobs(part_job *jobs, int n)
{
    for (int i = 0; i < n; ++i) {
        TK_ASSERT(jobs[i].ok, "partition %d: %s", i, jobs[i].why);
        px_view_release(&jobs[i].x);
        px_view_release(&jobs[i].y);
    }
}

/* n jobs, one per instance of insts, each on a host thread of its own; all checked. */
static void run_jobs_on_threads(px_instance **insts, int n)
{
    part_job jobs[8];
    pthread_t th[8];
    ck_assert_int_le(n, 8);
    make_jobs(jobs, insts, n);
    for (int i = 0; i < n; ++i)
        ck_assert_int_eq(pthread_create(&th[i], NULL, part_worker, &jobs[i]), 0);
    for (int i = 0; i < n; ++i) pthread_join(th[i], NULL);
    check_jobs(jobs, n);
}

START_TEST(team_partitions_from_threads)
{
    enum { N = 3 };
    px_instance *parts[N];
    TK_OK(px_partition(tk_inst(), N, (const double[]){1, 1, 2}, parts));
    run_jobs_on_threads(parts, N);
    tk_destroy_all(parts, N);
}
END_TEST

/* One instance (the default one, its whole team) driven by several host threads at once:
   each dispatch runs whole and right, whichever thread's runs on the team. */
START_TEST(team_instance_from_threads)
{
    enum { N = 3 };
    px_instance *insts[N] = {tk_inst(), tk_inst(), tk_inst()};
    run_jobs_on_threads(insts, N);
}
END_TEST

#ifdef __linux__
/* The CPUs a new thread may run on before and after it drives a partition. */
typedef struct affinity_probe {
    px_instance *part;
    cpu_set_t before, after;
    bool ok;
} affinity_probe;

static void *probe_partition(void *arg)
{
    affinity_probe *p = arg;
    axpy_args a = {0};
    p->ok = sched_getaffinity(0, sizeof p->before, &p->before) == 0 &&
            px_parallel_for(p->part, "nothing", px_range(0, 0), PX_KERNEL(axpy), &a) == PX_OK &&
            sched_getaffinity(0, sizeof p->after, &p->after) == 0;
    return NULL;
}
#endif

/* A partition's driver is bound to the partition's first place: after a dispatch on the
   partition, the thread that made it runs on fewer CPUs than before, all of them CPUs it
   could run on. (Bare: the suites' fixture skips the topology, hence the binding.) */
START_TEST(team_partition_binds_driver)
{
#ifdef __linux__
    TK_OK(px_init(NULL));
    char *lines = backend_lines();
    const bool hwloc = strstr(lines, "binding: hwloc") != NULL;
    free(lines);
    if (!hwloc) {
        TK_OK(px_finalize());
        TK_SKIP("the backend does not bind threads here");
    }
    px_instance *parts[2];
    TK_OK(px_partition(tk_inst(), 2, NULL, parts));
    affinity_probe p = {.part = parts[1]};
    pthread_t th;
    ck_assert_int_eq(pthread_create(&th, NULL, probe_partition, &p), 0);
    pthread_join(th, NULL);
    tk_destroy_all(parts, 2);
    TK_OK(px_finalize());
    TK_ASSERT(p.ok, "sched_getaffinity or the dispatch failed");
    if (CPU_COUNT(&p.before) < 2) TK_SKIP("the process runs on one CPU");
    cpu_set_t both;
    CPU_AND(&both, &p.before, &p.after);
    TK_ASSERT(CPU_COUNT(&p.after) < CPU_COUNT(&p.before) && CPU_EQUAL(&both, &p.after),
              "the driver may run on %d CPUs after the dispatch, %d before", CPU_COUNT(&p.after),
              CPU_COUNT(&p.before));
#else
    TK_SKIP("no sched_getaffinity here");
#endif
}
END_TEST

#ifdef _OPENMP
/* The same from the threads of an OpenMP team of the caller's: nested teams on OpenMP. */
START_TEST(team_partitions_nested)
{
    enum { N = 2 };
    px_instance *parts[N];
    TK_OK(px_partition(tk_inst(), N, NULL, parts));
    part_job jobs[N];
    make_jobs(jobs, parts, N);
#pragma omp parallel num_threads(N)
    {
        const int t = omp_get_thread_num();
        if (t < N && omp_get_num_threads() == N) part_worker(&jobs[t]);
    }
    /* A team smaller than asked (a limit of the OpenMP runtime) leaves the rest here. */
    for (int i = 0; i < N; ++i)
        if (!jobs[i].ok && jobs[i].why[0] == '\0') part_worker(&jobs[i]);
    check_jobs(jobs, N);
    tk_destroy_all(parts, N);
}
END_TEST
#endif

/* ---- Copies and fills on the team ----------------------------------------------------------- */

START_TEST(team_large_host_copies)
{
    /* 8 MiB, above the size where copies are split among the threads: contiguous, strided
       (a LEFT view from a RIGHT one) and a fill of a strided subview. */
    const int64_t e[2] = {1024, 1031};
    px_view *a = tk_view("a", px_host(), PX_F64, 2, e), *b = tk_view("b", px_host(), PX_F64, 2, e);
    random_doubles(a, 5);
    tk_copy(tk_inst(), b, a, PX_COPY_HOST_MEMCPY, __LINE__);
    tk_same(a, b, __LINE__);
    px_view_desc dl = tk_desc("left", px_host(), PX_F64, 2, e);
    dl.layout = PX_LAYOUT_LEFT;
    px_view *l = NULL;
    TK_OK(px_view_create(&l, &dl));
    tk_copy(tk_inst(), l, a, PX_COPY_HOST_STRIDED, __LINE__);
    for (int64_t i = 0; i < e[0]; i += 97)
        for (int64_t j = 0; j < e[1]; j += 13)
            TK_ASSERT(((double *)tk_data(l))[j * e[0] + i] == ((double *)tk_data(a))[i * e[1] + j],
                      "(%lld, %lld)", (long long)i, (long long)j);
    const double v = 2.5;
    px_view *s = tk_sub2(b, 3, 1020, 5, 1000);
    tk_fill(tk_inst(), s, &v, PX_COPY_HOST_FILL, __LINE__);
    tk_all_are(s, &v, __LINE__);
    /* Outside the subview, b still equals a. */
    for (int64_t i = 0; i < e[0]; ++i)
        for (int64_t j = 0; j < e[1]; ++j) {
            const bool in = i >= 3 && i < 1020 && j >= 5 && j < 1000;
            const double want = in ? v : ((double *)tk_data(a))[i * e[1] + j];
            TK_ASSERT(((double *)tk_data(b))[i * e[1] + j] == want, "b(%lld, %lld)", (long long)i,
                      (long long)j);
        }
    px_view *views[] = {a, b, l, s};
    tk_release_all(views, 4);
}
END_TEST

/* ---- Configuration ------------------------------------------------------------------------ */

START_TEST(team_configuration)
{
    char *lines = backend_lines();
    char want[64];
    snprintf(want, sizeof want, "%d threads (PX_NUM_THREADS)", configured_threads());
    TK_ASSERT(strstr(lines, want) != NULL, "no '%s' in: %s", want, lines);
    TK_ASSERT(strstr(lines, "binding: ") != NULL, "%s", lines);
    free(lines);
}
END_TEST

/* The option beats the environment; a bad count is refused by px_init, naming it. */
START_TEST(team_init_options)
{
    px_init_options o = {.skip_topology = true, .num_threads = 5};
    TK_OK(px_init(&o));
    px_instance *inst = NULL;
    TK_OK(px_instance_default(tk_exec(), 0, &inst));
    int c = 0;
    TK_OK(px_instance_concurrency(inst, &c));
    ck_assert_int_eq(c, 5);
    TK_OK(px_finalize());

    o.num_threads = -1;
    TK_FAIL(px_init(&o), PX_ERR_INVALID_ARGUMENT, "px_init");
    TK_ERROR_HAS("num_threads");
    ck_assert(!px_is_initialized());

    const char *was = getenv("PX_NUM_THREADS");
    char keep[32];
    snprintf(keep, sizeof keep, "%s", was ? was : "");
    setenv("PX_NUM_THREADS", "lots", 1);
    o.num_threads = 0;
    TK_FAIL(px_init(&o), PX_ERR_INVALID_ARGUMENT, "px_init");
    TK_ERROR_HAS("PX_NUM_THREADS");
    if (was)
        setenv("PX_NUM_THREADS", keep, 1);
    else
        unsetenv("PX_NUM_THREADS");
    ck_assert(!px_is_initialized());
}
END_TEST

static const char *need_team_backend(void)
{
    return tk_exec() == PX_EXEC_OPENMP || tk_exec() == PX_EXEC_THREADS
               ? NULL
               : "the backend under test has no team of host threads (OpenMP, threads)";
}

int main(void)
{
    tk_require("host_team_backend", need_team_backend);
    TK_ADD(tk_case("host_team_backend", "results"), team_reduce_matches_serial,
           team_reduce_reproducible, team_backends_agree, team_reduce_md_matches_serial,
           team_scan_matches_serial);
    TK_ADD(tk_case("host_team_backend", "threads"), team_threads_and_shares,
           team_threads_name_the_call, team_partitions_from_threads, team_instance_from_threads,
           team_configuration);
#ifdef _OPENMP
    TK_ADD(tk_case("host_team_backend", "nested"), team_partitions_nested);
#endif
    TK_ADD(tk_case("host_team_backend", "copies"), team_large_host_copies);
    TK_ADD(tk_case_bare("host_team_backend", "init"), team_init_options,
           team_partition_binds_driver);
    return tk_run();
}
