/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* test_graph, suite graph_capture: work issued on an instance recorded as a graph and
 * replayed, and what a capture refuses (nesting, ends without a begin or from another
 * thread, fences and destroys while it lasts, nodes added to a captured graph). */
#define _POSIX_C_SOURCE 200809L /* open_memstream (graph_util.h) */

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "test_graph.h"

/* Instantiates *g, launches it once on `in`, checks every element of v is `want`, and
   destroys both. */
#define replay_once(g, in, v, want) replay_once_at((g), (in), (v), (want), __LINE__)
static void replay_once_at(px_graph **g, px_instance *in, px_view *v, int64_t want, int line)
{
    px_graph_exec *e = instantiate(*g);
    launch_fenced(e, in);
    all_i64(v, want, line);
    TK_OK(px_graph_exec_destroy(&e));
    TK_OK(px_graph_destroy(g));
}

/* Copy in (host side), kernel, copy out, fill: recorded, not run; replayed at each launch. */
static void capture_and_replay(px_instance *in)
{
    const int64_t n = 1000;
    px_view *hs = hf("hs", n), *ho = hf("ho", n), *d = vf("d", n), *f = vf("f", n);
    double *s = (double *)tk_data(hs);
    const double *o = (const double *)tk_data(ho);
    for (int64_t i = 0; i < n; ++i) s[i] = (double)i;
    g_axpb_args a = axpb(d, d, 3.0, 1.0);
    TK_OK(px_graph_capture_begin(in, PX_CAPTURE_THREAD_LOCAL));
    TK_OK(px_deep_copy_async(in, d, hs, NULL));
    TK_OK(px_parallel_for(in, "3d+1", px_range(0, n), PX_KERNEL(g_axpb), &a));
    TK_OK(px_deep_copy_async(in, ho, d, NULL));
    TK_OK(px_fill_async(in, f, &(double){-2.0}, NULL));
    px_graph *g = NULL;
    TK_OK(px_graph_capture_end(in, &g));
    ck_assert_ptr_nonnull(g);
    ck_assert_int_eq(count_of(g), 4);
    TK_OK(px_instance_fence(in));
    for (int64_t i = 0; i < n; ++i)
        TK_ASSERT(o[i] == 0.0, "ran during the capture: ho[%lld] = %g", (long long)i, o[i]);
    ALL_F64(f, 0.0);
    ALL_F64(d, 0.0);
    px_graph_exec *e = instantiate(g);
    TK_OK(px_graph_destroy(&g));
    launch_fenced(e, in);
    for (int64_t i = 0; i < n; ++i)
        TK_ASSERT(o[i] == 3.0 * (double)i + 1.0, "ho[%lld] = %g", (long long)i, o[i]);
    ALL_F64(f, -2.0);
    for (int64_t i = 0; i < n; ++i) s[i] = 1.0;
    launch_fenced(e, in);
    ALL_F64(ho, 4.0);
    TK_OK(px_graph_exec_destroy(&e));
    TK_RELEASE(hs, ho, d, f);
}

START_TEST(capture_new_instance)
{
    px_instance *in = NULL;
    px_instance_desc d;
    memset(&d, 0, sizeof d);
    d.exec = tk_exec();
    d.label = "fresh";
    TK_OK(px_instance_create(&in, &d));
    capture_and_replay(in);
    TK_OK(px_instance_destroy(&in));
}
END_TEST

START_TEST(capture_default_instance) { capture_and_replay(tk_inst()); }
END_TEST

/* A reduction into a view and a scan, captured. */
START_TEST(capture_reduce_and_scan)
{
    const int64_t n = 2000;
    px_view *hin = tk_view1("hin", px_host(), PX_I64, n);
    int64_t *h = (int64_t *)tk_data(hin);
    for (int64_t i = 0; i < n; ++i) h[i] = 1;
    px_view *in = tk_on_space(hin, "in"), *out = vi("out", n);
    px_view *x = vf("x", n), *r = vf("r", 1);
    TK_OK(px_fill(x, &(double){0.5}, NULL));
    px_instance *inst = tk_instance("capture");
    g_scan_args sa = {si(in), si(out)};
    g_sum_args su = {sf(x)};
    TK_OK(px_graph_capture_begin(inst, PX_CAPTURE_THREAD_LOCAL));
    TK_OK(px_parallel_scan(inst, "scan", px_range(0, n), PX_KERNEL(g_scan_excl), &sa, NULL));
    TK_OK(px_parallel_reduce_view(inst, "sum", px_range(0, n), PX_KERNEL(g_sum), &su, r));
    px_graph *g = NULL;
    TK_OK(px_graph_capture_end(inst, &g));
    px_graph_exec *e = instantiate(g);
    TK_OK(px_graph_destroy(&g));
    launch_fenced(e, inst);
    px_view *ho = tk_readable(out);
    const int64_t *o = (const int64_t *)tk_data(ho);
    for (int64_t i = 0; i < n; ++i)
        TK_ASSERT(o[i] == i, "out[%lld] = %lld", (long long)i, (long long)o[i]);
    TK_RELEASE(ho);
    TK_ASSERT(getf(r, 0) == 0.5 * (double)n, "sum %g", getf(r, 0));
    TK_OK(px_graph_exec_destroy(&e));
    TK_OK(px_instance_destroy(&inst));
    TK_RELEASE(hin, in, out, x, r);
}
END_TEST

START_TEST(capture_nested_refused)
{
    px_instance *in = tk_instance("nest");
    px_view *v = vi("v", 4);
    g_inc_args a = inc_args(v, 1);
    TK_OK(px_graph_capture_begin(in, PX_CAPTURE_THREAD_LOCAL));
    TK_FAIL(px_graph_capture_begin(in, PX_CAPTURE_THREAD_LOCAL), PX_ERR_CAPTURING,
            "px_graph_capture_begin");
    TK_FAIL(px_graph_capture_begin(in, PX_CAPTURE_RELAXED), PX_ERR_CAPTURING,
            "px_graph_capture_begin");
    /* The first capture goes on. */
    TK_OK(px_parallel_for(in, "inc", px_range(0, 4), PX_KERNEL(g_inc), &a));
    px_graph *g = NULL;
    TK_OK(px_graph_capture_end(in, &g));
    ck_assert_int_eq(count_of(g), 1);
    replay_once(&g, in, v, 1);
    TK_OK(px_instance_destroy(&in));
    TK_RELEASE(v);
}
END_TEST

START_TEST(capture_end_without_begin)
{
    px_instance *in = tk_instance("no capture");
    px_graph *g = (px_graph *)&g; /* cleared */
    TK_FAIL(px_graph_capture_end(in, &g), PX_ERR_INVALID_ARGUMENT, "px_graph_capture_end");
    ck_assert_ptr_null(g);
    /* after a complete capture, a second end */
    TK_OK(px_graph_capture_begin(in, PX_CAPTURE_THREAD_LOCAL));
    TK_OK(px_graph_capture_end(in, &g));
    ck_assert_ptr_nonnull(g);
    ck_assert_int_eq(count_of(g), 0);
    px_graph *g2 = NULL;
    TK_FAIL(px_graph_capture_end(in, &g2), PX_ERR_INVALID_ARGUMENT, "px_graph_capture_end");
    ck_assert_ptr_null(g2);
    TK_OK(px_graph_destroy(&g));
    TK_OK(px_instance_destroy(&in));
}
END_TEST

typedef struct end_job {
    px_instance *inst;
    px_graph *graph;
    px_status st;
    char error[512];
} end_job;

static void *end_in_thread(void *p)
{
    end_job *j = (end_job *)p;
    j->st = px_graph_capture_end(j->inst, &j->graph);
    snprintf(j->error, sizeof j->error, "%s", px_last_error());
    return NULL;
}

static void end_from_thread(end_job *j)
{
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, end_in_thread, j), 0);
    ck_assert_int_eq(pthread_join(t, NULL), 0);
}

/* Thread-local: another thread cannot end it (PX_ERR_CAPTURING, the capture goes on). */
START_TEST(capture_end_other_thread_refused)
{
    px_instance *in = tk_instance("threads");
    px_view *v = vi("v", 4);
    g_inc_args a = inc_args(v, 2);
    TK_OK(px_graph_capture_begin(in, PX_CAPTURE_THREAD_LOCAL));
    TK_OK(px_parallel_for(in, "inc", px_range(0, 4), PX_KERNEL(g_inc), &a));
    end_job j = {in, NULL, PX_OK, ""};
    end_from_thread(&j);
    TK_ASSERT(j.st == PX_ERR_CAPTURING, "end from another thread: %s: %s", px_status_name(j.st),
              j.error);
    TK_ASSERT(strstr(j.error, "px_graph_capture_end") != NULL, "error '%s'", j.error);
    ck_assert_ptr_null(j.graph);
    px_graph *g = NULL;
    TK_OK(px_graph_capture_end(in, &g));
    ck_assert_int_eq(count_of(g), 1);
    replay_once(&g, in, v, 2);
    TK_OK(px_instance_destroy(&in));
    TK_RELEASE(v);
}
END_TEST

/* Relaxed: another thread may end it. */
START_TEST(capture_relaxed_end_other_thread)
{
    px_instance *in = tk_instance("relaxed");
    px_view *v = vi("v", 4);
    g_inc_args a = inc_args(v, 3);
    TK_OK(px_graph_capture_begin(in, PX_CAPTURE_RELAXED));
    TK_OK(px_parallel_for(in, "inc", px_range(0, 4), PX_KERNEL(g_inc), &a));
    end_job j = {in, NULL, PX_OK, ""};
    end_from_thread(&j);
    TK_ASSERT(j.st == PX_OK, "end from another thread: %s: %s", px_status_name(j.st), j.error);
    ck_assert_ptr_nonnull(j.graph);
    px_graph_exec *e = instantiate(j.graph);
    launch_fenced(e, in);
    ALL_I64(v, 3);
    TK_OK(px_graph_exec_destroy(&e));
    TK_OK(px_graph_destroy(&j.graph));
    TK_OK(px_instance_destroy(&in));
    TK_RELEASE(v);
}
END_TEST

/* During a capture: fence and destroy refused (the capture goes on); the instance works
 * as before after the end. */
START_TEST(capture_refuses_fence_and_destroy)
{
    px_instance *in = tk_instance("busy");
    px_view *v = vi("v", 16);
    g_inc_args a = inc_args(v, 1);
    TK_OK(px_graph_capture_begin(in, PX_CAPTURE_THREAD_LOCAL));
    TK_OK(px_parallel_for(in, "inc", px_range(0, 16), PX_KERNEL(g_inc), &a));
    TK_FAIL(px_instance_fence(in), PX_ERR_CAPTURING, "px_instance_fence");
    px_instance *same = in;
    TK_FAIL(px_instance_destroy(&same), PX_ERR_CAPTURING, "px_instance_destroy");
    ck_assert_ptr_eq(same, in);
    TK_OK(px_parallel_for(in, "inc", px_range(0, 16), PX_KERNEL(g_inc), &a));
    px_graph *g = NULL;
    TK_OK(px_graph_capture_end(in, &g));
    ck_assert_int_eq(count_of(g), 2);
    /* Usable again, directly. */
    TK_OK(px_instance_fence(in));
    ALL_I64(v, 0);
    TK_OK(px_parallel_for(in, "direct", px_range(0, 16), PX_KERNEL(g_inc), &a));
    TK_OK(px_instance_fence(in));
    ALL_I64(v, 1);
    replay_once(&g, in, v, 3);
    TK_OK(px_instance_destroy(&in));
    ck_assert_ptr_null(in);
    TK_RELEASE(v);
}
END_TEST

/* A captured graph takes no nodes, but can be a child of an explicit graph. */
START_TEST(captured_graph_takes_no_nodes)
{
    px_instance *in = tk_instance("cap");
    px_view *v = vi("v", 8), *w = vi("w", 8);
    g_inc_args a = inc_args(v, 1), b = inc_args(w, 10);
    TK_OK(px_graph_capture_begin(in, PX_CAPTURE_THREAD_LOCAL));
    TK_OK(px_parallel_for(in, "inc", px_range(0, 8), PX_KERNEL(g_inc), &a));
    px_graph *cap = NULL;
    TK_OK(px_graph_capture_end(in, &cap));
    TK_FAIL(px_graph_add_for(cap, NULL, 0, "more", px_range(0, 8), PX_KERNEL(g_inc), &b, NULL),
            PX_ERR_INVALID_ARGUMENT, "px_graph_add_for");
    TK_FAIL(px_graph_add_empty(cap, NULL, 0, NULL), PX_ERR_INVALID_ARGUMENT, "px_graph_add_empty");
    TK_FAIL(px_graph_add_fill(cap, NULL, 0, w, &(int64_t){1}, NULL), PX_ERR_INVALID_ARGUMENT,
            "px_graph_add_fill");
    px_graph_cond_t *c = NULL;
    px_graph *body = NULL;
    TK_FAIL(px_graph_add_while(cap, NULL, 0, NULL, 1, &c, &body, NULL), PX_ERR_INVALID_ARGUMENT,
            "px_graph_add_while");
    ck_assert_int_eq(count_of(cap), 1);
    px_graph *g = new_graph("outer");
    px_graph_node *ch = NULL;
    TK_OK(px_graph_add_child(g, NULL, 0, cap, &ch));
    TK_OK(px_graph_add_for(g, &ch, 1, "after", px_range(0, 8), PX_KERNEL(g_inc), &b, NULL));
    TK_OK(px_graph_destroy(&cap));
    px_graph_exec *e = instantiate(g);
    launch_fenced(e, in);
    launch_fenced(e, in);
    ALL_I64(v, 2);
    ALL_I64(w, 20);
    destroy_exec_and_graph(&e, &g);
    TK_OK(px_instance_destroy(&in));
    TK_RELEASE(v, w);
}
END_TEST

void graph_capture_cases(void)
{
    TK_ADD(tk_case("graph_capture", "capture"), capture_new_instance, capture_default_instance,
           capture_reduce_and_scan, captured_graph_takes_no_nodes);
    TK_ADD(tk_case("graph_capture", "misuse"), capture_nested_refused, capture_end_without_begin,
           capture_end_other_thread_refused, capture_relaxed_end_other_thread,
           capture_refuses_fence_and_destroy);
}
