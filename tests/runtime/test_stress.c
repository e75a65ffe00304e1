/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Several host threads at once on the backend under test (serial; threads, whose teams
 * several threads then dispatch on at once). Each makes and releases views of
 * its own (create, wrap, subview, mirror), instances and partitions, events; runs
 * dispatches and copies on its own instances and checks every result; retains and
 * releases a view all threads share; takes and drops references to px_init; and calls
 * px_fence_all, while the main thread fences and reads memory statistics too. Whatever
 * portex keeps for all threads (the live-object registry, counters, memory statistics,
 * the default instances, the last error per thread) is used from every thread at once.
 *
 * Bounded: a fixed number of rounds per thread (PX_STRESS_ROUNDS to change it), under a
 * watchdog. Meant for ThreadSanitizer (.ci/run builds the serial suite with it), where a
 * data race fails the test; in other builds it checks the results. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "common.h"
#include "kernels.h"

enum { NTHREADS = 4, ROUNDS_DEFAULT = 2000 };

typedef struct stress_thread {
    int id;
    int rounds;
    px_view *shared;
    tk_werr err;
    pthread_t th;
} stress_thread;

#define W(t, expr) TK_W_OK(&(t)->err, expr)

static px_view *new_view(stress_thread *t, const char *label, px_dtype dt, px_layout layout,
                         int rank, const int64_t *extent)
{
    px_view_desc d = tk_desc(label, px_host(), dt, rank, extent);
    d.layout = layout;
    px_view *v = NULL;
    W(t, px_view_create(&v, &d));
    return v;
}

static void release(stress_thread *t, px_view **v)
{
    if (*v) W(t, px_view_release(v));
}

static void *data_of(stress_thread *t, const px_view *v)
{
    px_view_info in;
    memset(&in, 0, sizeof in);
    W(t, px_view_info_get(v, &in));
    return in.data;
}

/* A 2-D view written through its span, a subview read back, a mirror, a wrapped view. */
static void views_round(stress_thread *t, tk_rng *r)
{
    const int64_t e[2] = {tk_int(r, 1, 24), tk_int(r, 1, 24)};
    px_view *v =
        new_view(t, "mine", PX_I64, tk_int(r, 0, 1) ? PX_LAYOUT_LEFT : PX_LAYOUT_RIGHT, 2, e);
    px_view *sub = NULL, *mirror = NULL, *w = NULL;
    px_span_i64 s, ss;
    W(t, px_view_span_i64(v, &s));
    if (t->err.failed) goto out;
    for (int64_t i = 0; i < e[0]; ++i)
        for (int64_t j = 0; j < e[1]; ++j) PX_AT2(s, i, j) = 1000 * i + j + t->id;
    const int64_t r0 = tk_int(r, 0, e[0] - 1), c0 = tk_int(r, 0, e[1] - 1);
    px_slice sl[2] = {px_slice_range(r0, e[0]), px_slice_range(c0, e[1])};
    W(t, px_view_subview(&sub, v, sl, 2));
    W(t, px_view_span_i64(sub, &ss));
    for (int64_t i = 0; i < e[0] - r0 && !t->err.failed; ++i)
        for (int64_t j = 0; j < e[1] - c0; ++j)
            TK_W_CHECK(&t->err, PX_AT2(ss, i, j) == 1000 * (i + r0) + (j + c0) + t->id,
                       "subview (%lld, %lld)", (long long)i, (long long)j);
    W(t, px_view_create_mirror(&mirror, px_host(), sub));
    W(t, px_deep_copy(mirror, sub, NULL));
    if (!t->err.failed) {
        const int64_t *m = data_of(t, mirror);
        TK_W_CHECK(&t->err, m[0] == 1000 * r0 + c0 + t->id, "mirror[0] = %lld", (long long)m[0]);
    }
    px_view_desc d = tk_desc("wrapped", px_host(), PX_I64, 2, e);
    d.layout = s.stride[0] == 1 ? PX_LAYOUT_LEFT : PX_LAYOUT_RIGHT;
    W(t, px_view_wrap(&w, &d, s.data));
out:
    release(t, &w);
    release(t, &mirror);
    release(t, &sub);
    release(t, &v);
}

/* y += a x, the sum of x and the inclusive scan of z on the instance; all checked. */
static void dispatch_round(stress_thread *t, tk_rng *r, px_instance *in)
{
    const int64_t n = tk_int(r, 0, 4096);
    px_view *x = new_view(t, "x", PX_F64, PX_LAYOUT_RIGHT, 1, &n),
            *y = new_view(t, "y", PX_F64, PX_LAYOUT_RIGHT, 1, &n);
    px_view *z = new_view(t, "z", PX_I64, PX_LAYOUT_RIGHT, 1, &n),
            *zs = new_view(t, "zs", PX_I64, PX_LAYOUT_RIGHT, 1, &n);
    if (t->err.failed) goto out;
    double *xd = data_of(t, x), want_sum = 0;
    int64_t *zd = data_of(t, z);
    for (int64_t i = 0; i < n; ++i) {
        xd[i] = (double)tk_int(r, -1000, 1000); /* exact sums */
        want_sum += xd[i];
        zd[i] = tk_int(r, -1000, 1000);
    }
    axpy_args a;
    a.a = 2.0;
    W(t, px_view_span_f64(x, &a.x));
    W(t, px_view_span_f64(y, &a.y));
    W(t, px_parallel_for(in, "stress axpy", px_range(0, n), PX_KERNEL(axpy), &a));
    red_args_double ra;
    ra.x = a.x;
    double sum = -1;
    W(t, px_parallel_reduce(in, NULL, px_range(0, n), PX_KERNEL(red_sum_double), &ra, &sum));
    scan_i64_args sa;
    W(t, px_view_span_i64(z, &sa.in));
    W(t, px_view_span_i64(zs, &sa.out));
    int64_t total = -1;
    W(t, px_parallel_scan(in, NULL, px_range(0, n), PX_KERNEL(scan_incl_i64), &sa, &total));
    W(t, px_instance_fence(in));
    if (t->err.failed) goto out;
    const double *yd = data_of(t, y);
    const int64_t *zsd = data_of(t, zs);
    int64_t run = 0;
    for (int64_t i = 0; i < n && !t->err.failed; ++i) {
        run += zd[i];
        TK_W_CHECK(&t->err, yd[i] == 2.0 * xd[i] && zsd[i] == run, "element %lld", (long long)i);
    }
    TK_W_CHECK(&t->err, sum == want_sum && total == run, "sum %g (want %g), total %lld", sum,
               want_sum, (long long)total);
out:
    release(t, &x);
    release(t, &y);
    release(t, &z);
    release(t, &zs);
}

/* A fill, a copy to a view of the other layout on the instance, and back blocking. */
static void copy_round(stress_thread *t, tk_rng *r, px_instance *in)
{
    const int64_t e[2] = {tk_int(r, 1, 40), tk_int(r, 1, 40)};
    px_view *a = new_view(t, "a", PX_U32, PX_LAYOUT_RIGHT, 2, e),
            *b = new_view(t, "b", PX_U32, PX_LAYOUT_LEFT, 2, e);
    px_view *c = new_view(t, "c", PX_U32, PX_LAYOUT_RIGHT, 2, e);
    if (t->err.failed) goto out;
    uint32_t *ad = data_of(t, a);
    for (int64_t i = 0; i < e[0] * e[1]; ++i) ad[i] = (uint32_t)tk_next(r);
    const uint32_t v = (uint32_t)t->id * 77u + 1u;
    W(t, px_fill_async(in, b, &v, NULL));
    W(t, px_deep_copy_async(in, b, a, NULL));
    W(t, px_instance_fence(in));
    W(t, px_deep_copy(c, b, NULL));
    if (!t->err.failed)
        TK_W_CHECK(&t->err, memcmp(data_of(t, c), ad, (size_t)(e[0] * e[1]) * 4) == 0,
                   "copy of %lld x %lld", (long long)e[0], (long long)e[1]);
out:
    release(t, &a);
    release(t, &b);
    release(t, &c);
}

/* An instance of its own, partitioned, work on every partition, all destroyed. */
static void instance_round(stress_thread *t, tk_rng *r)
{
    px_instance_desc d;
    memset(&d, 0, sizeof d);
    d.exec = tk_exec();
    d.label = "stress instance";
    px_instance *in = NULL, *parts[3] = {NULL, NULL, NULL};
    const int n = (int)tk_int(r, 1, 3);
    W(t, px_instance_create(&in, &d));
    W(t, px_partition(in, n, NULL, parts));
    for (int i = 0; i < n && !t->err.failed; ++i) dispatch_round(t, r, parts[i]);
    for (int i = 0; i < n; ++i)
        if (parts[i]) W(t, px_instance_destroy(&parts[i]));
    if (in) W(t, px_instance_destroy(&in));
}

static void event_round(stress_thread *t, px_instance *in)
{
    px_event *a = NULL, *b = NULL;
    bool done = false;
    float ms = -1;
    W(t, px_event_create(&a, in, PX_EVENT_TIMING));
    W(t, px_event_create(&b, in, PX_EVENT_TIMING));
    W(t, px_event_record(a, in));
    W(t, px_instance_wait_event(in, a));
    W(t, px_event_record(b, in));
    W(t, px_event_query(b, &done));
    W(t, px_event_synchronize(b));
    W(t, px_event_elapsed_ms(a, b, &ms));
    TK_W_CHECK(&t->err, done && ms >= 0.0f, "event: done %d, %g ms", (int)done, (double)ms);
    if (a) W(t, px_event_destroy(&a));
    if (b) W(t, px_event_destroy(&b));
}

/* The shared view: one more reference, read, dropped. */
static void shared_round(stress_thread *t)
{
    px_view *mine = t->shared;
    px_view_info in;
    W(t, px_view_retain(mine));
    W(t, px_view_info_get(mine, &in));
    TK_W_CHECK(&t->err, in.use_count >= 2 && in.extent[0] == 64, "shared view: use_count %d",
               in.use_count);
    W(t, px_view_release(&mine));
}

/* A px_init/px_finalize pair (the fixture's reference keeps portex up), and a last error
 * that is this thread's own. */
static void lifetime_round(stress_thread *t)
{
    px_init_options o;
    memset(&o, 0, sizeof o);
    o.skip_topology = true;
    W(t, px_init(&o));
    W(t, px_finalize());
    px_view *v = NULL;
    TK_W_CHECK(&t->err, px_view_create(&v, NULL) == PX_ERR_INVALID_ARGUMENT,
               "px_view_create(&v, NULL) succeeded");
    TK_W_CHECK(&t->err, strncmp(px_last_error(), "px_view_create: ", 16) == 0, "last error '%s'",
               px_last_error());
    px_clear_error();
    TK_W_CHECK(&t->err, px_last_error()[0] == '\0', "px_clear_error left '%s'", px_last_error());
}

static void *stress_main(void *arg)
{
    stress_thread *t = arg;
    tk_rng r = tk_rng_seed(9000 + (uint64_t)t->id);
    px_instance *own = NULL, *def = NULL;
    px_instance_desc d;
    memset(&d, 0, sizeof d);
    d.exec = tk_exec();
    d.label = "stress own";
    W(t, px_instance_create(&own, &d));
    W(t, px_instance_default(tk_exec(), 0, &def));
    for (int round = 0; round < t->rounds && !t->err.failed; ++round) {
        switch (tk_int(&r, 0, 8)) {
        case 0: views_round(t, &r); break;
        case 1: dispatch_round(t, &r, own); break;
        case 2: dispatch_round(t, &r, def); break;
        case 3: copy_round(t, &r, own); break;
        case 4: instance_round(t, &r); break;
        case 5: event_round(t, own); break;
        case 6: shared_round(t); break;
        case 7: W(t, px_fence_all()); break;
        default: lifetime_round(t); break;
        }
    }
    if (own) W(t, px_instance_destroy(&own));
    return NULL;
}

START_TEST(threads_at_once)
{
    const int rounds =
        (int)tk_env_ll("PX_STRESS_ROUNDS", 1, 1000000, tk_under_valgrind() ? 30 : ROUNDS_DEFAULT);
    stress_thread t[NTHREADS];
    px_view *shared = tk_view1("shared", px_host(), PX_F64, 64);
    tk_watchdog_start(60);
    tk_watch("%d threads, %d rounds each", NTHREADS, rounds);
    for (int i = 0; i < NTHREADS; ++i) {
        memset(&t[i], 0, sizeof t[i]);
        t[i].id = i;
        t[i].rounds = rounds;
        t[i].shared = shared;
        ck_assert_int_eq(pthread_create(&t[i].th, NULL, stress_main, &t[i]), 0);
    }
    /* The main thread fences and reads the statistics meanwhile. */
    for (int k = 0; k < rounds; ++k) {
        px_memory_stats ms;
        uint64_t c[PX_COPY_PATH_COUNT];
        TK_OK(px_fence_all());
        TK_OK(px_space_memory(px_host(), &ms));
        TK_OK(px_copy_path_counts(c));
    }
    for (int i = 0; i < NTHREADS; ++i) ck_assert_int_eq(pthread_join(t[i].th, NULL), 0);
    tk_watchdog_stop();
    for (int i = 0; i < NTHREADS; ++i)
        TK_ASSERT(!t[i].err.failed, "thread %d: %s", i, t[i].err.msg);
    ck_assert_int_eq(tk_info(shared).use_count, 1);
    TK_RELEASE(shared);
}
END_TEST

int main(void)
{
    TCase *tc = tk_case("stress", "threads");
    tcase_set_timeout(tc, 120);
    TK_ADD(tc, threads_at_once);
    return tk_run();
}
