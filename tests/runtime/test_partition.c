/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Partitions (px_partition, px_partition_ex, px_instance_sm_count) on the backend under
 * test: serial partitions, CUDA stream partitions, bad input, several host threads each
 * driving its own partition, and SM partitions (CUDA green contexts) checked from inside
 * the kernels: every thread records the SM it ran on (%smid), and the sets of SMs of
 * different partitions must be disjoint and no larger than px_instance_sm_count. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "common.h"
#include "k_partition.h"
#include "kernels.h"

#define MAXPART 8
#define MAX_SM_ID 1024 /* %smid is below this on every GPU made so far */

static px_partition_options sm_options(const int *priorities)
{
    return (px_partition_options){.sm_partition = true, .priorities = priorities};
}

/* Two SM partitions of the default instance, weighted w0 : w1. */
static void sm_partition_pair(double w0, double w1, px_instance *parts[2])
{
    const double w[2] = {w0, w1};
    const px_partition_options o = sm_options(NULL);
    TK_OK(px_partition_ex(tk_inst(), 2, w, &o, parts));
}

/* SMs of the backend's device: the whole GPU's on CUDA, 1 on serial. */
static int device_sms(void)
{
    int sm = 0;
    TK_OK(px_instance_sm_count(tk_inst(), &sm));
    TK_ASSERT(sm >= 1, "px_instance_sm_count of the default instance is %d", sm);
    return sm;
}

/* y += a * x on inst over n elements with x(i) = i, y(i) = 0 at first, `rounds` times,
   copied back and checked; returns the number of wrong elements. */
static int64_t axpy_rounds(px_instance *inst, int64_t n, int rounds, double a)
{
    px_view *hx = tk_view1("x", px_host(), PX_F64, n);
    double *x = (double *)tk_data(hx);
    for (int64_t i = 0; i < n; ++i) x[i] = (double)i;
    px_view *dx = tk_view1("dx", tk_space(), PX_F64, n),
            *dy = tk_view1("dy", tk_space(), PX_F64, n);
    TK_OK(px_deep_copy_async(inst, dx, hx, NULL));
    axpy_args args;
    args.a = a;
    TK_OK(px_view_span_f64(dx, &args.x));
    TK_OK(px_view_span_f64(dy, &args.y));
    for (int r = 0; r < rounds; ++r)
        TK_OK(px_parallel_for(inst, "axpy", px_range(0, n), PX_KERNEL(axpy), &args));
    px_view *hy = tk_view1("y", px_host(), PX_F64, n);
    TK_OK(px_deep_copy_async(inst, hy, dy, NULL));
    TK_OK(px_instance_fence(inst));
    const double *y = (const double *)tk_data(hy);
    int64_t bad = 0;
    for (int64_t i = 0; i < n; ++i)
        if (y[i] != a * rounds * (double)i) ++bad;
    px_view_release(&hx);
    px_view_release(&hy);
    px_view_release(&dx);
    px_view_release(&dy);
    return bad;
}

/* Whether a failed SM partition request failed for a reason of this machine (a driver
   without green contexts), not of portex. */
static bool green_unavailable_here(px_status st)
{
    return st == PX_ERR_UNSUPPORTED && (tk_contains_ci(px_last_error(), "driver supports CUDA") ||
                                        tk_contains_ci(px_last_error(), "the driver has no"));
}

/* Requirement of the SM partition suite: the CUDA backend, with a driver that makes green
   contexts. Probed by asking for two SM partitions of the default instance. */
static const char *need_sm_partitions(void)
{
    static char why[600];
    const char *no_cuda = tk_need_cuda();
    if (no_cuda) return no_cuda;
    px_instance *parts[2] = {NULL, NULL}, *parent = NULL;
    px_partition_options o = sm_options(NULL);
    px_status st = px_init(NULL);
    if (st == PX_OK) st = px_instance_default(PX_EXEC_CUDA, 0, &parent);
    if (st == PX_OK) st = px_partition_ex(parent, 2, NULL, &o, parts);
    const bool unavailable = green_unavailable_here(st);
    snprintf(why, sizeof why, "SM partitions are not available here: %s", px_last_error());
    for (int i = 0; i < 2; ++i)
        if (parts[i]) px_instance_destroy(&parts[i]);
    if (px_is_initialized()) px_finalize();
    return unavailable ? why : NULL;
}

/* ---- serial ------------------------------------------------------------------------------- */

/* Partitioning a serial instance gives serial instances that work, whatever the backend
 * under test. */
START_TEST(serial_partitions)
{
    px_instance *parent = NULL;
    TK_OK(px_instance_default(PX_EXEC_SERIAL, 0, &parent));
    const double w[3] = {1.0, 2.0, 0.5};
    for (int variant = 0; variant < 3; ++variant) {
        px_instance *parts[3] = {NULL, NULL, NULL};
        px_partition_options o = sm_options(NULL);
        if (variant == 0) TK_OK(px_partition(parent, 3, NULL, parts));
        if (variant == 1) TK_OK(px_partition(parent, 3, w, parts));
        if (variant == 2) TK_OK(px_partition_ex(parent, 3, w, &o, parts)); /* no SMs to split */
        for (int i = 0; i < 3; ++i) {
            ck_assert_ptr_nonnull(parts[i]);
            px_exec_space e;
            TK_OK(px_instance_exec_space(parts[i], &e));
            ck_assert_int_eq(e, PX_EXEC_SERIAL);
            int sm = 0;
            TK_OK(px_instance_sm_count(parts[i], &sm));
            ck_assert_int_eq(sm, 1);
            const char *label = NULL;
            TK_OK(px_instance_label(parts[i], &label));
            char want[16];
            snprintf(want, sizeof want, "/part%d", i);
            TK_ASSERT(strstr(label, want) != NULL, "label '%s' lacks '%s'", label, want);
            px_view *hx = tk_view1("x", px_host(), PX_F64, 100),
                    *hy = tk_view1("y", px_host(), PX_F64, 100);
            double *x = (double *)tk_data(hx);
            for (int k = 0; k < 100; ++k) x[k] = k;
            axpy_args a;
            a.a = 2.0;
            TK_OK(px_view_span_f64(hx, &a.x));
            TK_OK(px_view_span_f64(hy, &a.y));
            TK_OK(px_parallel_for(parts[i], NULL, px_range(0, 100), PX_KERNEL(axpy), &a));
            TK_OK(px_instance_fence(parts[i]));
            const double *y = (const double *)tk_data(hy);
            for (int k = 0; k < 100; ++k) TK_ASSERT(y[k] == 2.0 * k, "y[%d] = %g", k, y[k]);
            TK_RELEASE(hx, hy);
        }
        tk_destroy_all(parts, 3);
    }
}
END_TEST

/* ---- partitions of the backend under test ------------------------------------------------- */

/* n = 1, 2, 4, 8 with equal and uneven weights and priorities: n working instances of
 * the parent's execution space and device, each with the whole device's SMs. */
START_TEST(partition_counts)
{
    px_instance *parent = tk_inst();
    const int all_sm = device_sms();
    const double uneven[MAXPART] = {1, 3, 0.25, 7, 2, 1e-3, 5, 1};
    const int prio[MAXPART] = {-1000, 1000, 0, -1, 1, -2, 2, 0}; /* clamped */
    const int ns[4] = {1, 2, 4, 8};
    for (int c = 0; c < 4; ++c)
        for (int variant = 0; variant < 3; ++variant) {
            const int n = ns[c];
            px_instance *parts[MAXPART];
            px_partition_options o;
            memset(&o, 0, sizeof o);
            o.priorities = prio;
            if (variant == 0) TK_OK(px_partition(parent, n, NULL, parts));
            if (variant == 1) TK_OK(px_partition(parent, n, uneven, parts));
            if (variant == 2) TK_OK(px_partition_ex(parent, n, uneven, &o, parts));
            for (int i = 0; i < n; ++i) {
                ck_assert_ptr_nonnull(parts[i]);
                for (int j = 0; j < i; ++j) ck_assert_ptr_ne(parts[i], parts[j]);
                px_exec_space e;
                int dev = -1, sm = 0;
                TK_OK(px_instance_exec_space(parts[i], &e));
                ck_assert_int_eq(e, tk_exec());
                TK_OK(px_instance_device(parts[i], &dev));
                ck_assert_int_eq(dev, 0);
                TK_OK(px_instance_sm_count(parts[i], &sm));
                TK_ASSERT(sm == all_sm, "partition %d of %d: %d SMs, the device has %d", i, n, sm,
                          all_sm);
            }
            /* Work queued on all of them at once, then checked on each. */
            for (int i = 0; i < n; ++i) {
                const int64_t bad = axpy_rounds(parts[i], 4099 + 1000 * i, 2, 1.5);
                TK_ASSERT(bad == 0, "n %d, partition %d: %lld wrong elements", n, i,
                          (long long)bad);
            }
            tk_destroy_all(parts, n);
        }
}
END_TEST

START_TEST(partition_bad_input)
{
    px_instance *parent = tk_inst();
    px_instance *parts[4] = {NULL, NULL, NULL, NULL};
    const double neg[2] = {1.0, -1.0}, zero[2] = {0.0, 1.0}, nan2[2] = {1.0, NAN},
                 inf2[2] = {INFINITY, 1.0};
    TK_FAIL(px_partition(parent, 0, NULL, parts), PX_ERR_INVALID_ARGUMENT, "px_partition");
    TK_FAIL(px_partition(parent, -3, NULL, parts), PX_ERR_INVALID_ARGUMENT, "px_partition");
    TK_FAIL(px_partition(parent, 1 << 20, NULL, parts), PX_ERR_INVALID_ARGUMENT, "px_partition");
    TK_FAIL(px_partition(parent, 2, neg, parts), PX_ERR_INVALID_ARGUMENT, "px_partition");
    TK_FAIL(px_partition(parent, 2, zero, parts), PX_ERR_INVALID_ARGUMENT, "px_partition");
    TK_FAIL(px_partition(parent, 2, nan2, parts), PX_ERR_INVALID_ARGUMENT, "px_partition");
    TK_FAIL(px_partition(parent, 2, inf2, parts), PX_ERR_INVALID_ARGUMENT, "px_partition");
    TK_FAIL(px_partition(parent, 2, NULL, NULL), PX_ERR_INVALID_ARGUMENT, "px_partition");
    TK_FAIL(px_partition(NULL, 2, NULL, parts), PX_ERR_INVALID_ARGUMENT, "px_partition");
    TK_FAIL(px_partition_ex(NULL, 2, NULL, NULL, parts), PX_ERR_INVALID_ARGUMENT,
            "px_partition_ex");
    px_partition_options o = sm_options(NULL);
    TK_FAIL(px_partition_ex(parent, 2, neg, &o, parts), PX_ERR_INVALID_ARGUMENT, "px_partition");
    for (int i = 0; i < 4; ++i) ck_assert_ptr_null(parts[i]);
    int sm = 0;
    TK_FAIL(px_instance_sm_count(NULL, &sm), PX_ERR_INVALID_ARGUMENT, "px_instance_sm_count");
    TK_FAIL(px_instance_sm_count(parent, NULL), PX_ERR_INVALID_ARGUMENT, "px_instance_sm_count");
    int threads = 0;
    TK_FAIL(px_instance_concurrency(NULL, &threads), PX_ERR_INVALID_ARGUMENT,
            "px_instance_concurrency");
    TK_FAIL(px_instance_concurrency(parent, NULL), PX_ERR_INVALID_ARGUMENT,
            "px_instance_concurrency");
    TK_OK(px_instance_concurrency(parent, &threads));
    TK_ASSERT(threads >= 1, "px_instance_concurrency gives %d", threads);

    if (tk_is_cuda()) {
        /* More SM partitions than the GPU has SM groups: refused, nothing left behind
           (the fixture's px_finalize fails if an instance is alive). */
        enum { MANY = 1000 };
        px_instance **many = calloc(MANY, sizeof *many);
        ck_assert_ptr_nonnull(many);
        TK_FAIL(px_partition_ex(parent, MANY, NULL, &o, many), PX_ERR_UNSUPPORTED, "px_partition");
        for (int i = 0; i < MANY; ++i) ck_assert_ptr_null(many[i]);
        /* Plain streams: 1000 are allowed. */
        TK_OK(px_partition(parent, MANY, NULL, many));
        tk_destroy_all(many, MANY);
        free(many);
    }
}
END_TEST

/* An error of px_partition names px_partition, the function called, not px_partition_ex
 * behind it ("function: message", like every other call). */
START_TEST(partition_errors_name_the_call)
{
    px_instance *parts[2] = {NULL, NULL};
    const double neg[2] = {1.0, -1.0};
    px_partition_options o;
    memset(&o, 0, sizeof o);
    for (int k = 0; k < 4; ++k) {
        px_clear_error();
        px_status st = k == 0   ? px_partition(NULL, 2, NULL, parts)
                       : k == 1 ? px_partition(tk_inst(), 0, NULL, parts)
                       : k == 2 ? px_partition(tk_inst(), 2, neg, parts)
                                : px_partition(tk_inst(), 2, NULL, NULL);
        TK_ASSERT(st == PX_ERR_INVALID_ARGUMENT, "case %d: %s", k, px_status_name(st));
        TK_ASSERT(tk_error_from("px_partition"),
                  "case %d: '%s' does not start with 'px_partition: '", k, px_last_error());
        px_clear_error();
        st = k == 0 ? px_partition_ex(NULL, 2, NULL, &o, parts)
                    : px_partition_ex(tk_inst(), 0, NULL, &o, parts);
        TK_ASSERT(tk_error_from("px_partition_ex"),
                  "case %d: '%s' does not start with 'px_partition_ex: '", k, px_last_error());
    }
}
END_TEST

/* Partitions of an instance with a long label: each label still says which partition it
 * is ("<parent>/part<i>"), so that errors and traces tell them apart. */
START_TEST(partition_long_labels)
{
    char label[201];
    memset(label, 'p', sizeof label - 1);
    label[sizeof label - 1] = '\0';
    px_instance *parent = tk_instance(label), *parts[3];
    TK_OK(px_partition(parent, 3, NULL, parts));
    const char *names[3];
    for (int i = 0; i < 3; ++i) {
        char want[16];
        snprintf(want, sizeof want, "/part%d", i);
        TK_OK(px_instance_label(parts[i], &names[i]));
        TK_ASSERT(strstr(names[i], want) != NULL,
                  "partition %d of '%.20s...' is labelled '%s' (%zu characters)", i, label,
                  names[i], strlen(names[i]));
    }
    TK_ASSERT(strcmp(names[0], names[1]) != 0 && strcmp(names[1], names[2]) != 0,
              "partitions share a label");
    tk_destroy_all(parts, 3);
    TK_OK(px_instance_destroy(&parent));
}
END_TEST

/* ---- several host threads ------------------------------------------------------------------- */

typedef struct worker {
    px_instance *inst;
    int id;
    px_space space; /* where the kernels' views live */
    px_space host;  /* HOST_PINNED on CUDA: copies that overlap */
    tk_werr err;
    int64_t bad;
} worker;

static px_view *w_view(worker *w, const char *label, px_space space, int64_t n)
{
    px_view_desc d = tk_desc(label, space, PX_F64, 1, &n);
    px_view *v = NULL;
    TK_W_OK(&w->err, px_view_create(&v, &d));
    return v;
}

/* Each thread: its own views, copies in, kernels, copies out, on its own partition only;
   no Check assertions here (they are not thread-safe), the main thread checks. */
static void *worker_main(void *p)
{
    worker *w = (worker *)p;
    const int64_t n = (1 << 18) + 17 * w->id;
    const int rounds = 20;
    w->bad = 0;
    px_view *hx = w_view(w, "hx", w->host, n), *hy = w_view(w, "hy", w->host, n);
    px_view *dx = w_view(w, "dx", w->space, n), *dy = w_view(w, "dy", w->space, n);
    for (int rep = 0; rep < 3 && !w->err.failed; ++rep) {
        px_view_info hi;
        TK_W_OK(&w->err, px_view_info_get(hx, &hi));
        if (w->err.failed) break;
        double *x = (double *)hi.data;
        for (int64_t i = 0; i < n; ++i) x[i] = (double)(i % 1000 + w->id);
        const double zero = 0.0;
        TK_W_OK(&w->err, px_fill_async(w->inst, dy, &zero, NULL));
        TK_W_OK(&w->err, px_deep_copy_async(w->inst, dx, hx, NULL));
        axpy_args a;
        a.a = (double)(rep + 1);
        TK_W_OK(&w->err, px_view_span_f64(dx, &a.x));
        TK_W_OK(&w->err, px_view_span_f64(dy, &a.y));
        for (int r = 0; r < rounds && !w->err.failed; ++r)
            TK_W_OK(&w->err, px_parallel_for(w->inst, "axpy", px_range(0, n), PX_KERNEL(axpy), &a));
        TK_W_OK(&w->err, px_deep_copy_async(w->inst, hy, dy, NULL));
        TK_W_OK(&w->err, px_instance_fence(w->inst));
        if (w->err.failed) break;
        TK_W_OK(&w->err, px_view_info_get(hy, &hi));
        const double *y = (const double *)hi.data;
        for (int64_t i = 0; i < n && !w->err.failed; ++i)
            if (y[i] != (double)rounds * a.a * (double)(i % 1000 + w->id)) ++w->bad;
    }
    px_view_release(&hx);
    px_view_release(&hy);
    px_view_release(&dx);
    px_view_release(&dy);
    return NULL;
}

static void run_workers(px_instance **parts, int n, const char *what)
{
    pthread_t th[MAXPART];
    worker w[MAXPART];
    for (int i = 0; i < n; ++i) {
        memset(&w[i], 0, sizeof w[i]);
        w[i].inst = parts[i];
        w[i].id = i;
        w[i].space = tk_space();
        w[i].host = tk_is_cuda() ? px_host_pinned() : px_host();
        ck_assert_int_eq(pthread_create(&th[i], NULL, worker_main, &w[i]), 0);
    }
    for (int i = 0; i < n; ++i) ck_assert_int_eq(pthread_join(th[i], NULL), 0);
    for (int i = 0; i < n; ++i) {
        TK_ASSERT(!w[i].err.failed, "%s, thread %d: %s", what, i, w[i].err.msg);
        TK_ASSERT(w[i].bad == 0, "%s, thread %d: %lld wrong elements", what, i,
                  (long long)w[i].bad);
    }
}

START_TEST(partition_threads)
{
    px_instance *parts[4];
    TK_OK(px_partition(tk_inst(), 4, NULL, parts));
    run_workers(parts, 4, "streams");
    tk_destroy_all(parts, 4);
}
END_TEST

/* ---- SM partitions (CUDA, with green contexts) ------------------------------------------------ */

START_TEST(sm_partition_threads)
{
    px_instance *parts[2];
    sm_partition_pair(1.0, 1.0, parts);
    run_workers(parts, 2, "SM partitions");
    tk_destroy_all(parts, 2);
}
END_TEST

/* Runs mark_smid on every instance at once (each kernel several waves of the whole GPU,
 * spinning, so that they overlap) and returns, per instance, the SM ids it ran on, their
 * number, and px_instance_sm_count. `destroy_first`: the instances are destroyed before
 * the results are read, which must wait for their work. */
static void sm_sets(px_instance **insts, int n, bool destroy_first, int32_t (*ids)[MAX_SM_ID],
                    int *count, int *sm)
{
    const int all_sm = device_sms();
    const int64_t threads = (int64_t)all_sm * 2048 * 2;
    px_view *seen[MAXPART], *ovf[MAXPART];
    for (int i = 0; i < n; ++i) {
        TK_OK(px_instance_sm_count(insts[i], &sm[i]));
        TK_ASSERT(sm[i] >= 1 && sm[i] <= all_sm, "instance %d: %d SMs of %d", i, sm[i], all_sm);
        seen[i] = tk_view1("seen", tk_space(), PX_I32, MAX_SM_ID);
        ovf[i] = tk_view1("overflow", tk_space(), PX_I32, 1);
    }
    for (int i = 0; i < n; ++i) {
        smid_args a;
        TK_OK(px_view_span_i32(seen[i], &a.seen));
        TK_OK(px_view_span_i32(ovf[i], &a.overflow));
        a.spin_ns = 20000;
        TK_OK(
            px_parallel_for(insts[i], "mark_smid", px_range(0, threads), PX_KERNEL(mark_smid), &a));
    }
    if (destroy_first)
        tk_destroy_all(insts, n);
    else
        TK_OK(px_fence_all());
    for (int i = 0; i < n; ++i) {
        px_view *h = tk_to_host(seen[i]), *ho = tk_to_host(ovf[i]);
        memcpy(ids[i], tk_data(h), sizeof ids[i]);
        TK_ASSERT(((const int32_t *)tk_data(ho))[0] == 0, "instance %d ran on an SM id >= %d", i,
                  MAX_SM_ID);
        px_view_release(&h);
        px_view_release(&ho);
        px_view_release(&seen[i]);
        px_view_release(&ovf[i]);
        count[i] = 0;
        for (int k = 0; k < MAX_SM_ID; ++k) count[i] += ids[i][k] != 0;
        TK_ASSERT(count[i] >= 1, "instance %d of %d: its kernel ran on no SM", i, n);
        TK_ASSERT(count[i] <= sm[i],
                  "instance %d of %d ran on %d SMs; px_instance_sm_count says %d", i, n, count[i],
                  sm[i]);
    }
}

static void expect_disjoint(int32_t (*ids)[MAX_SM_ID], int a, int b)
{
    for (int k = 0; k < MAX_SM_ID; ++k)
        TK_ASSERT(!(ids[a][k] && ids[b][k]), "SM %d ran kernels of instances %d and %d", k, a, b);
}

static int32_t g_ids[MAXPART][MAX_SM_ID];

/* SM partitions: disjoint sets of SMs, each no larger than its count, the counts within
 * the device's. */
static void check_sm_sets(px_instance **parts, int n, bool destroy_first)
{
    int count[MAXPART], sm[MAXPART], sum_sm = 0;
    const int all_sm = device_sms();
    sm_sets(parts, n, destroy_first, g_ids, count, sm);
    for (int i = 0; i < n; ++i) sum_sm += sm[i];
    TK_ASSERT(sum_sm <= all_sm, "%d partitions have %d SMs in all; the device has %d", n, sum_sm,
              all_sm);
    for (int i = 0; i < n; ++i)
        for (int j = i + 1; j < n; ++j) expect_disjoint(g_ids, i, j);
}

START_TEST(sm_partitions)
{
    px_instance *parts[MAXPART];
    const int all_sm = device_sms();
    const double uneven[MAXPART] = {1, 3, 2, 1, 1, 1, 1, 1};
    const int prio[MAXPART] = {-1000, 1000, 0, -1, 1, 0, 0, 0};
    const int ns[4] = {1, 2, 4, 8};
    for (int c = 0; c < 4; ++c)
        for (int variant = 0; variant < 3; ++variant) {
            const int n = ns[c];
            px_partition_options o = sm_options(variant == 2 ? prio : NULL);
            px_clear_error();
            const px_status st =
                px_partition_ex(tk_inst(), n, variant == 0 ? NULL : uneven, &o, parts);
            if (st == PX_ERR_UNSUPPORTED && n > 1 &&
                tk_contains_ci(px_last_error(), "SM partitions need"))
                continue; /* a GPU too small for n groups: refused with the reason */
            TK_ASSERT(st == PX_OK, "n %d, variant %d: %s: %s", n, variant, px_status_name(st),
                      px_last_error());
            if (n == 1) {
                int sm = 0;
                TK_OK(px_instance_sm_count(parts[0], &sm));
                /* One partition: every group, and the SMs left over where the driver takes them. */
                TK_ASSERT(sm >= all_sm / 2, "one SM partition has %d of %d SMs", sm, all_sm);
            }
            if (variant == 1 && n >= 2) {
                /* Weight 3 against 1: at least as many SMs. */
                int s0 = 0, s1 = 0;
                TK_OK(px_instance_sm_count(parts[0], &s0));
                TK_OK(px_instance_sm_count(parts[1], &s1));
                TK_ASSERT(s1 >= s0, "weights 1 and 3 gave %d and %d SMs", s0, s1);
            }
            check_sm_sets(parts, n, variant == 2);
            if (variant != 2) {
                /* Still usable after the check, with copies. */
                for (int i = 0; i < n; ++i) {
                    const int64_t bad = axpy_rounds(parts[i], 100003, 3, 0.5);
                    TK_ASSERT(bad == 0, "n %d, partition %d: %lld wrong elements", n, i,
                              (long long)bad);
                }
                tk_destroy_all(parts, n);
            }
        }
}
END_TEST

/* Reductions size their grid to the partition's SMs and use its own scratch; events
 * order work between an SM partition and a plain instance. */
START_TEST(sm_partition_reduce_and_events)
{
    px_instance *parts[2];
    sm_partition_pair(1.0, 3.0, parts);

    const int64_t n = (int64_t)1 << 22;
    tk_rng r = tk_rng_seed(77);
    px_view *hx = tk_view1("x", px_host(), PX_F64, n);
    double *x = (double *)tk_data(hx);
    double want = 0;
    for (int64_t i = 0; i < n; ++i) {
        x[i] = (double)tk_int(&r, -1000, 1000); /* exact sums */
        want += x[i];
    }
    px_view *dx = tk_on_space(hx, "x");
    red_args_double ra;
    TK_OK(px_view_span_f64(dx, &ra.x));
    for (int i = 0; i < 2; ++i) {
        double got = 0;
        TK_OK(px_parallel_reduce(parts[i], "sum", px_range(0, n), PX_KERNEL(red_sum_double), &ra,
                                 &got));
        TK_ASSERT(got == want, "partition %d: sum %g, want %g", i, got, want);
    }

    /* parts[0] writes y = 2x; an event makes a plain instance's z += y wait for it. */
    px_view *dy = tk_view1("y", tk_space(), PX_F64, n), *dz = tk_view1("z", tk_space(), PX_F64, n);
    px_instance *plain = tk_instance_on(PX_EXEC_CUDA, 0, "plain");
    px_event *ev = NULL;
    TK_OK(px_event_create(&ev, parts[0], 0));
    axpy_args a;
    a.a = 2.0;
    TK_OK(px_view_span_f64(dx, &a.x));
    TK_OK(px_view_span_f64(dy, &a.y));
    for (int k = 0; k < 4; ++k) { /* slow enough that a missing wait shows */
        a.a = k == 0 ? 2.0 : 0.0;
        TK_OK(px_parallel_for(parts[0], "y=2x", px_range(0, n), PX_KERNEL(axpy), &a));
    }
    TK_OK(px_event_record(ev, parts[0]));
    TK_OK(px_instance_wait_event(plain, ev));
    axpy_args b;
    b.a = 1.0;
    TK_OK(px_view_span_f64(dy, &b.x));
    TK_OK(px_view_span_f64(dz, &b.y));
    TK_OK(px_parallel_for(plain, "z+=y", px_range(0, n), PX_KERNEL(axpy), &b));
    /* And back: parts[1] waits for the plain instance. */
    TK_OK(px_event_record(ev, plain));
    TK_OK(px_instance_wait_event(parts[1], ev));
    TK_OK(px_parallel_for(parts[1], "z+=y", px_range(0, n), PX_KERNEL(axpy), &b));
    TK_OK(px_instance_fence(parts[1]));
    px_view *hz = tk_to_host(dz);
    const double *z = (const double *)tk_data(hz);
    for (int64_t i = 0; i < n; ++i)
        TK_ASSERT(z[i] == 4.0 * x[i], "z[%lld] = %g, want %g", (long long)i, z[i], 4.0 * x[i]);

    TK_OK(px_event_destroy(&ev));
    TK_OK(px_instance_destroy(&plain));
    px_view_release(&hz);
    px_view_release(&dx);
    px_view_release(&dy);
    px_view_release(&dz);
    px_view_release(&hx);
    tk_destroy_all(parts, 2);
}
END_TEST

/* Partitions of an SM partition: plain ones are streams on its SMs, SM ones split its
 * SMs; both stay off the other top-level partition's SMs, and outlive their parent. */
START_TEST(sm_partition_nested)
{
    px_instance *top[2];
    px_partition_options o = sm_options(NULL);
    px_clear_error();
    px_status st = px_partition_ex(tk_inst(), 2, NULL, &o, top);
    if (st == PX_ERR_UNSUPPORTED && tk_contains_ci(px_last_error(), "SM partitions need"))
        TK_SKIP("the GPU has too few SMs for two SM partitions: %s", px_last_error());
    TK_ASSERT(st == PX_OK, "%s: %s", px_status_name(st), px_last_error());
    int top_sm = 0;
    TK_OK(px_instance_sm_count(top[1], &top_sm));

    px_instance *all[MAXPART];
    int n = 0;
    all[n++] = top[0];
    all[n++] = top[1];
    px_instance *sub[3];
    TK_OK(px_partition(top[1], 3, NULL, sub));
    for (int i = 0; i < 3; ++i) {
        int sm = 0;
        TK_OK(px_instance_sm_count(sub[i], &sm));
        TK_ASSERT(sm == top_sm, "a stream of an SM partition of %d SMs has %d", top_sm, sm);
        all[n++] = sub[i];
    }
    px_instance *gsub[2] = {NULL, NULL};
    px_clear_error();
    st = px_partition_ex(top[1], 2, NULL, &o, gsub);
    if (st != PX_ERR_UNSUPPORTED || !tk_contains_ci(px_last_error(), "SM partitions need")) {
        /* (else: too few SMs to split in two, refused with the reason) */
        TK_ASSERT(st == PX_OK, "SM partitions of an SM partition: %s: %s", px_status_name(st),
                  px_last_error());
        int s0 = 0, s1 = 0;
        TK_OK(px_instance_sm_count(gsub[0], &s0));
        TK_OK(px_instance_sm_count(gsub[1], &s1));
        TK_ASSERT(s0 + s1 <= top_sm, "SM partitions of %d SMs have %d and %d", top_sm, s0, s1);
        all[n++] = gsub[0];
        all[n++] = gsub[1];
    }

    /* The parent goes first: its children keep its green context alive. */
    TK_OK(px_instance_destroy(&top[1]));
    all[1] = all[--n];
    int count[MAXPART], sm[MAXPART];
    sm_sets(all, n, false, g_ids, count, sm);
    for (int i = 1; i < n; ++i) expect_disjoint(g_ids, 0, i); /* top[0] against the rest */
    if (gsub[0] != NULL) {
        int a = -1, b = -1;
        for (int i = 0; i < n; ++i) {
            if (all[i] == gsub[0]) a = i;
            if (all[i] == gsub[1]) b = i;
        }
        expect_disjoint(g_ids, a, b);
    }
    for (int i = 0; i < 3; ++i) {
        const int64_t bad = axpy_rounds(sub[i], 50001, 2, 2.0);
        TK_ASSERT(bad == 0, "stream %d of a destroyed SM partition: %lld wrong elements", i,
                  (long long)bad);
    }
    tk_destroy_all(all, n);
}
END_TEST

int main(void)
{
    TK_ADD(tk_case("partition", "partition"), serial_partitions, partition_counts,
           partition_bad_input, partition_errors_name_the_call, partition_long_labels,
           partition_threads);
    TCase *tc = tk_case("sm_partition", "sm_partition");
    tcase_set_timeout(tc, 60);
    TK_ADD(tc, sm_partitions, sm_partition_reduce_and_events, sm_partition_nested,
           sm_partition_threads);
    tk_require("sm_partition", need_sm_partitions);
    return tk_run();
}
