/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Graphs (portex/graph.h) and graph conditions (px_cond_set, portex/kernel.h) on the
 * backend under test: every node kind, orders that give wrong numbers when violated,
 * launching an executable graph many times, changing it between launches, updating it
 * from a graph of the same shape, conditionals, capture, lifetimes, and misuse.
 *
 * Kernel memory is tk_space(); the host sides of copy and fill nodes are HOST_PINNED on
 * CUDA (a graph refuses pageable memory there) and HOST on serial. Results are read after
 * a fence, through HOST copies (tk_readable). Every expected value depends on the work
 * having run, in order, the number of times it should. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "common.h"
#include "graph_util.h"

/* ---- Helpers (and graph_util.h) --------------------------------------------------------------- */

static px_cond cond_of(const px_graph_cond_t *c)
{
    px_cond v;
    memset(&v, 0, sizeof v);
    TK_OK(px_graph_cond_value(c, &v));
    return v;
}

static g_axpb_args axpb(const px_view *x, const px_view *y, double a, double b)
{
    g_axpb_args r;
    r.x = sf(x);
    r.y = sf(y);
    r.a = a;
    r.b = b;
    return r;
}

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

static size_t space_bytes(px_space sp)
{
    px_memory_stats ms;
    TK_OK(px_space_memory(sp, &ms));
    return ms.bytes_in_use;
}

/* ============================================================================================ */
/* ---- Building and launching (suite graph) --------------------------------------------------- */

/* Labels, indices, counts; a NULL label names a kernel node after its kernel. */
START_TEST(create_and_introspect)
{
    px_graph *g = new_graph("intro");
    ck_assert_int_eq(count_of(g), 0);
    px_view *y = vf("y", 4);
    g_set_args s = {sf(y), 1.0};
    px_graph_node *a = NULL, *b = NULL, *c = NULL;
    TK_OK(px_graph_add_for(g, NULL, 0, "first", px_range(0, 4), PX_KERNEL(g_set), &s, &a));
    TK_OK(px_graph_add_for(g, &a, 1, NULL, px_range(0, 4), PX_KERNEL(g_set), &s, &b));
    TK_OK(px_graph_add_empty(g, &b, 1, &c));
    ck_assert_int_eq(count_of(g), 3);
    ck_assert_int_eq(index_of(a), 0);
    ck_assert_int_eq(index_of(b), 1);
    ck_assert_int_eq(index_of(c), 2);
    const char *la = NULL, *lb = NULL;
    TK_OK(px_graph_node_label(a, &la));
    TK_OK(px_graph_node_label(b, &lb));
    ck_assert_str_eq(la, "first");
    ck_assert_str_eq(lb, "g_set");
    /* out may be NULL */
    TK_OK(px_graph_add_empty(g, NULL, 0, NULL));
    ck_assert_int_eq(count_of(g), 4);
    TK_OK(px_graph_destroy(&g));
    ck_assert_ptr_null(g);
    TK_RELEASE(y);
}
END_TEST

/* An empty graph instantiates and launches (doing nothing). */
START_TEST(empty_graph_launches)
{
    px_graph *g = new_graph("nothing");
    px_graph_exec *e = instantiate(g);
    launch_fenced(e, tk_inst());
    launch_fenced(e, tk_inst());
    TK_OK(px_graph_exec_destroy(&e));
    ck_assert_ptr_null(e);
    TK_OK(px_graph_destroy(&g));
}
END_TEST

/* Nothing runs when nodes are added or the graph instantiated; each launch runs it. */
START_TEST(for_node_runs_at_launch)
{
    const int64_t n = 1000;
    px_view *v = vi("v", n);
    px_graph *g = new_graph("for");
    g_inc_args a = inc_args(v, 3);
    TK_OK(px_graph_add_for(g, NULL, 0, "inc", px_range(0, n), PX_KERNEL(g_inc), &a, NULL));
    a.d = 1000; /* args were copied */
    px_graph_exec *e = instantiate(g);
    TK_OK(px_instance_fence(tk_inst()));
    ALL_I64(v, 0);
    launch_fenced(e, tk_inst());
    ALL_I64(v, 3);
    launch_fenced(e, tk_inst());
    ALL_I64(v, 6);
    TK_OK(px_graph_exec_destroy(&e));
    TK_OK(px_graph_destroy(&g));
    TK_RELEASE(v);
}
END_TEST

/* A reduction into a view; each launch reads the data as it is then. */
START_TEST(reduce_node_into_view)
{
    const int64_t n = 4097;
    px_view *hx = tk_view1("hx", px_host(), PX_F64, n);
    double *x = (double *)tk_data(hx);
    for (int64_t i = 0; i < n; ++i) x[i] = (double)(i + 1);
    px_view *dx = tk_on_space(hx, "x");
    px_view *res = vf("res", 1);
    px_graph *g = new_graph("reduce");
    g_sum_args s = {sf(dx)};
    px_graph_node *r = NULL;
    TK_OK(px_graph_add_reduce(g, NULL, 0, "sum", px_range(0, n), PX_KERNEL(g_sum), &s, res, &r));
    px_graph_exec *e = instantiate(g);
    launch_fenced(e, tk_inst());
    TK_ASSERT(getf(res, 0) == (double)n * (double)(n + 1) / 2, "sum %.17g", getf(res, 0));
    for (int64_t i = 0; i < n; ++i) x[i] = 2.0;
    tk_upload(dx, hx);
    launch_fenced(e, tk_inst());
    TK_ASSERT(getf(res, 0) == 2.0 * (double)n, "second sum %.17g", getf(res, 0));
    TK_OK(px_graph_exec_destroy(&e));
    TK_OK(px_graph_destroy(&g));
    TK_RELEASE(hx, dx, res);
}
END_TEST

/* A scan after the kernel that changes its input: out[i] = in[0] + ... + in[i-1]. */
START_TEST(scan_node_after_its_input)
{
    const int64_t n = 3000;
    px_view *hin = tk_view1("hin", px_host(), PX_I64, n);
    int64_t *h = (int64_t *)tk_data(hin);
    for (int64_t i = 0; i < n; ++i) h[i] = i;
    px_view *in = tk_on_space(hin, "in"), *out = vi("out", n);
    px_graph *g = new_graph("scan");
    g_inc_args a = inc_args(in, 1);
    g_scan_args s = {si(in), si(out)};
    px_graph_node *ia = NULL;
    TK_OK(px_graph_add_for(g, NULL, 0, "inc", px_range(0, n), PX_KERNEL(g_inc), &a, &ia));
    TK_OK(px_graph_add_scan(g, &ia, 1, "scan", px_range(0, n), PX_KERNEL(g_scan_excl), &s, NULL));
    px_graph_exec *e = instantiate(g);
    for (int launch = 1; launch <= 2; ++launch) {
        launch_fenced(e, tk_inst());
        /* in[k] = k + launch: out[i] = i(i-1)/2 + launch * i */
        px_view *ho = tk_readable(out);
        const int64_t *o = (const int64_t *)tk_data(ho);
        for (int64_t i = 0; i < n; ++i)
            TK_ASSERT(o[i] == i * (i - 1) / 2 + launch * i, "launch %d: out[%lld] = %lld", launch,
                      (long long)i, (long long)o[i]);
        TK_RELEASE(ho);
    }
    TK_OK(px_graph_exec_destroy(&e));
    TK_OK(px_graph_destroy(&g));
    TK_RELEASE(hin, in, out);
}
END_TEST

/* Copy in from host memory, a kernel, copy out, and a fill: each launch replays the
 * copies from the same host memory as it is then. */
START_TEST(copy_and_fill_nodes)
{
    const int64_t n = 777;
    px_view *hs = hf("hs", n), *ho = hf("ho", n);
    px_view *d = vf("d", n), *f = vf("f", n);
    double *s = (double *)tk_data(hs);
    const double *o = (const double *)tk_data(ho);
    for (int64_t i = 0; i < n; ++i) s[i] = (double)i;
    px_graph *g = new_graph("copies");
    px_graph_node *cin = NULL, *k = NULL;
    const double seven = 7.0;
    g_axpb_args a = axpb(d, d, 2.0, 1.0);
    TK_OK(px_graph_add_copy(g, NULL, 0, d, hs, &cin));
    TK_OK(px_graph_add_for(g, &cin, 1, "2d+1", px_range(0, n), PX_KERNEL(g_axpb), &a, &k));
    TK_OK(px_graph_add_copy(g, &k, 1, ho, d, NULL));
    TK_OK(px_graph_add_fill(g, NULL, 0, f, &seven, NULL));
    px_graph_exec *e = instantiate(g);
    launch_fenced(e, tk_inst());
    for (int64_t i = 0; i < n; ++i)
        TK_ASSERT(o[i] == 2.0 * (double)i + 1.0, "ho[%lld] = %g", (long long)i, o[i]);
    ALL_F64(f, 7.0);
    for (int64_t i = 0; i < n; ++i) s[i] = -(double)i;
    launch_fenced(e, tk_inst());
    for (int64_t i = 0; i < n; ++i)
        TK_ASSERT(o[i] == -2.0 * (double)i + 1.0, "second launch: ho[%lld] = %g", (long long)i,
                  o[i]);
    TK_OK(px_graph_exec_destroy(&e));
    TK_OK(px_graph_destroy(&g));
    TK_RELEASE(hs, ho, d, f);
}
END_TEST

/* Host nodes run in the graph's order: the second sees what the copy before it wrote. */
typedef struct host_probe {
    int *log, *nlog;
    int tag;
    const double *watch; /* NULL, or a value to note */
    double seen;
} host_probe;

static void host_probe_fn(void *data)
{
    host_probe *p = (host_probe *)data;
    if (*p->nlog < 16) p->log[(*p->nlog)++] = p->tag;
    if (p->watch) p->seen = *p->watch;
}

START_TEST(host_node_runs_in_order)
{
    px_view *x = vf("x", 1), *hx = hf("hx", 1);
    int log[16], nlog = 0;
    host_probe first = {log, &nlog, 1, NULL, 0.0};
    host_probe second = {log, &nlog, 2, (const double *)tk_data(hx), -1.0};
    px_graph *g = new_graph("host");
    px_graph_node *h1 = NULL, *k = NULL, *c = NULL;
    g_axpb_args a = axpb(x, x, 1.0, 1.0);
    TK_OK(px_graph_add_host(g, NULL, 0, "first", host_probe_fn, &first, &h1));
    TK_OK(px_graph_add_for(g, &h1, 1, "x+1", px_range(0, 1), PX_KERNEL(g_axpb), &a, &k));
    TK_OK(px_graph_add_copy(g, &k, 1, hx, x, &c));
    TK_OK(px_graph_add_host(g, &c, 1, "second", host_probe_fn, &second, NULL));
    ck_assert_int_eq(nlog, 0); /* nothing ran yet */
    px_graph_exec *e = instantiate(g);
    for (int launch = 1; launch <= 3; ++launch) {
        launch_fenced(e, tk_inst());
        ck_assert_int_eq(nlog, 2 * launch);
        ck_assert_int_eq(log[2 * launch - 2], 1);
        ck_assert_int_eq(log[2 * launch - 1], 2);
        TK_ASSERT(second.seen == (double)launch, "launch %d: the host node saw %g", launch,
                  second.seen);
    }
    TK_OK(px_graph_exec_destroy(&e));
    TK_OK(px_graph_destroy(&g));
    TK_RELEASE(x, hx);
}
END_TEST

/* A diamond: A (x += 1) before B (y = 2x) and C (z = x + 3), both before D (w = y + z).
 * After launch k: x = k, y = 2k, z = k + 3, w = 3k + 3. */
START_TEST(diamond_order)
{
    const int64_t n = 5000;
    px_view *x = vf("x", n), *y = vf("y", n), *z = vf("z", n), *w = vf("w", n);
    px_graph *g = new_graph("diamond");
    g_axpb_args aa = axpb(x, x, 1.0, 1.0), ab = axpb(x, y, 2.0, 0.0), ac = axpb(x, z, 1.0, 3.0);
    g_add_args ad = {sf(y), sf(z), sf(w)};
    px_graph_node *A = NULL, *B = NULL, *C = NULL;
    TK_OK(px_graph_add_for(g, NULL, 0, "A", px_range(0, n), PX_KERNEL(g_axpb), &aa, &A));
    TK_OK(px_graph_add_for(g, &A, 1, "B", px_range(0, n), PX_KERNEL(g_axpb), &ab, &B));
    TK_OK(px_graph_add_for(g, &A, 1, "C", px_range(0, n), PX_KERNEL(g_axpb), &ac, &C));
    px_graph_node *bc[2] = {B, C};
    TK_OK(px_graph_add_for(g, bc, 2, "D", px_range(0, n), PX_KERNEL(g_add), &ad, NULL));
    px_graph_exec *e = instantiate(g);
    for (int k = 1; k <= 3; ++k) {
        launch_fenced(e, tk_inst());
        ALL_F64(x, k);
        ALL_F64(y, 2.0 * k);
        ALL_F64(z, k + 3.0);
        ALL_F64(w, 3.0 * k + 3.0);
    }
    TK_OK(px_graph_exec_destroy(&e));
    TK_OK(px_graph_destroy(&g));
    TK_RELEASE(x, y, z, w);
}
END_TEST

/* Fan-out, fan-in: A (x += 1), four branches y_b = (b + 1) x into parts of y, an empty
 * node joining them, and a reduction of y after the join: 10 * n * launches. */
START_TEST(fan_out_fan_in)
{
    const int64_t n = 1024;
    enum { B = 4 };
    px_view *x = vf("x", n), *y = vf("y", B * n), *res = vf("res", 1);
    px_graph *g = new_graph("fan");
    g_axpb_args aa = axpb(x, x, 1.0, 1.0);
    px_graph_node *A = NULL, *br[B], *join = NULL;
    TK_OK(px_graph_add_for(g, NULL, 0, "A", px_range(0, n), PX_KERNEL(g_axpb), &aa, &A));
    for (int b = 0; b < B; ++b) {
        px_view *part = tk_sub1(y, b * n, n);
        g_axpb_args ab = axpb(x, part, (double)(b + 1), 0.0);
        TK_OK(px_graph_add_for(g, &A, 1, "branch", px_range(0, n), PX_KERNEL(g_axpb), &ab, &br[b]));
        TK_OK(px_graph_node_uses(br[b], &part, 1));
        TK_RELEASE(part);
    }
    TK_OK(px_graph_add_empty(g, br, B, &join));
    g_sum_args s = {sf(y)};
    TK_OK(px_graph_add_reduce(g, &join, 1, "sum", px_range(0, B * n), PX_KERNEL(g_sum), &s, res,
                              NULL));
    px_graph_exec *e = instantiate(g);
    for (int k = 1; k <= 3; ++k) {
        launch_fenced(e, tk_inst());
        TK_ASSERT(getf(res, 0) == 10.0 * (double)n * k, "launch %d: sum %.17g, expected %.17g", k,
                  getf(res, 0), 10.0 * (double)n * k);
    }
    TK_OK(px_graph_exec_destroy(&e));
    TK_OK(px_graph_destroy(&g));
    TK_RELEASE(x, y, res);
}
END_TEST

/* Instantiated once, launched many times without a fence in between. */
START_TEST(launch_many_times)
{
    const int64_t n = 513;
    const int launches = 50;
    px_view *x = vi("x", n), *y = vf("y", n), *xf = vf("xf", n);
    px_graph *g = new_graph("many");
    g_inc_args ai = inc_args(x, 1);
    g_axpb_args af = axpb(xf, xf, 1.0, 1.0), ay = axpb(xf, y, 2.0, 0.0);
    px_graph_node *a = NULL, *b = NULL;
    TK_OK(px_graph_add_for(g, NULL, 0, "x+1", px_range(0, n), PX_KERNEL(g_inc), &ai, &a));
    TK_OK(px_graph_add_for(g, &a, 1, "xf+1", px_range(0, n), PX_KERNEL(g_axpb), &af, &b));
    TK_OK(px_graph_add_for(g, &b, 1, "y=2xf", px_range(0, n), PX_KERNEL(g_axpb), &ay, NULL));
    px_graph_exec *e = instantiate(g);
    for (int k = 0; k < launches; ++k) TK_OK(px_graph_launch(e, tk_inst()));
    TK_OK(px_instance_fence(tk_inst()));
    ALL_I64(x, launches);
    ALL_F64(xf, launches);
    ALL_F64(y, 2.0 * launches);
    TK_OK(px_graph_exec_destroy(&e));
    TK_OK(px_graph_destroy(&g));
    TK_RELEASE(x, y, xf);
}
END_TEST

/* px_graph_upload, then launches. */
START_TEST(upload_then_launch)
{
    px_view *v = vi("v", 10);
    px_graph *g = new_graph("up");
    g_inc_args a = inc_args(v, 5);
    TK_OK(px_graph_add_for(g, NULL, 0, NULL, px_range(0, 10), PX_KERNEL(g_inc), &a, NULL));
    px_graph_exec *e = instantiate(g);
    TK_OK(px_graph_upload(e, tk_inst()));
    TK_OK(px_instance_fence(tk_inst()));
    ALL_I64(v, 0); /* uploading runs nothing */
    launch_fenced(e, tk_inst());
    ALL_I64(v, 5);
    TK_OK(px_graph_exec_destroy(&e));
    TK_OK(px_graph_destroy(&g));
    TK_RELEASE(v);
}
END_TEST

/* A graph of two nodes over x (n doubles): x = 2x + 1, then r[0] = the sum of x (a
 * reduction: the graph has scratch its copies share). */
static px_graph *axpb_sum_graph(const char *label, px_view *x, px_view *r, int64_t n)
{
    px_graph *g = new_graph(label);
    g_axpb_args a = axpb(x, x, 2.0, 1.0);
    g_sum_args s = {sf(x)};
    px_graph_node *k = NULL;
    TK_OK(px_graph_add_for(g, NULL, 0, "2x+1", px_range(0, n), PX_KERNEL(g_axpb), &a, &k));
    TK_OK(px_graph_add_reduce(g, &k, 1, "sum", px_range(0, n), PX_KERNEL(g_sum), &s, r, NULL));
    return g;
}

/* The same child twice, the second after the first: x = 2x + 1 twice per launch. */
START_TEST(child_twice_in_sequence)
{
    const int64_t n = 300;
    px_view *x = vf("x", n), *r = vf("r", 1);
    px_graph *child = axpb_sum_graph("child", x, r, n);
    px_graph *g = new_graph("parent");
    px_graph_node *c1 = NULL, *c2 = NULL;
    TK_OK(px_graph_add_child(g, NULL, 0, child, &c1));
    TK_OK(px_graph_add_child(g, &c1, 1, child, &c2));
    ck_assert_int_eq(count_of(g), 2);
    TK_OK(px_graph_destroy(&child)); /* the parent keeps its copies */
    px_graph_exec *e = instantiate(g);
    launch_fenced(e, tk_inst());
    ALL_F64(x, 3.0); /* 0 -> 1 -> 3 */
    TK_ASSERT(getf(r, 0) == 3.0 * (double)n, "sum %.17g", getf(r, 0));
    launch_fenced(e, tk_inst());
    ALL_F64(x, 15.0); /* 3 -> 7 -> 15 */
    TK_ASSERT(getf(r, 0) == 15.0 * (double)n, "sum %.17g", getf(r, 0));
    TK_OK(px_graph_exec_destroy(&e));
    TK_OK(px_graph_destroy(&g));
    TK_RELEASE(x, r);
}
END_TEST

/* A child with a reduction copied into a WHILE body and to the top level: its copies share
 * scratch, so the top-level copy must run before or after the whole loop. Unordered, it is
 * refused; after the WHILE node, both run and give their sums: the body's (3 iterations,
 * x = 2x + 1 each: 1, 3, 7) and then the top level's (15). */
START_TEST(child_in_body_and_top_level)
{
    const int64_t n = 64;
    px_view *x = vf("x", n), *r = vf("r", 1), *counter = vi("counter", 1);
    px_graph *child = axpb_sum_graph("child", x, r, n);

    px_graph *g = new_graph("parent");
    px_graph_cond_t *c = NULL;
    px_graph *body = NULL;
    px_graph_node *f = NULL, *loop = NULL, *first = NULL, *top = NULL;
    const int64_t zero = 0;
    TK_OK(px_graph_add_fill(g, NULL, 0, counter, &zero, &f));
    TK_OK(px_graph_add_while(g, &f, 1, "loop", 1, &c, &body, &loop));
    TK_OK(px_graph_add_child(body, NULL, 0, child, &first));
    g_count_args ca = {si(counter), 3, cond_of(c)};
    TK_OK(
        px_graph_add_for(body, &first, 1, "count", px_range(0, 1), PX_KERNEL(g_count), &ca, NULL));
    /* At the top level, unordered with the loop (after the fill only): refused. */
    TK_FAIL(px_graph_add_child(g, &f, 1, child, &top), PX_ERR_INVALID_ARGUMENT,
            "px_graph_add_child");
    TK_ERROR_HAS("WHILE or IF");
    ck_assert_ptr_null(top);
    ck_assert_int_eq(count_of(g), 2);
    /* After the loop: accepted. */
    TK_OK(px_graph_add_child(g, &loop, 1, child, &top));
    px_graph_exec *e = instantiate(g);
    launch_fenced(e, tk_inst());
    ck_assert_int_eq(geti(counter, 0), 3);
    ALL_F64(x, 15.0);
    TK_ASSERT(getf(r, 0) == 15.0 * (double)n, "sum %.17g", getf(r, 0));
    TK_OK(px_graph_exec_destroy(&e));
    TK_OK(px_graph_destroy(&g));
    TK_OK(px_graph_destroy(&child));
    TK_RELEASE(x, r, counter);
}
END_TEST

/* A child node copies its own children too: a graph with a reduction inside another child
 * shares its scratch with a direct copy of it, in either order of adding. Unordered copies
 * are refused; ordered ones run. */
START_TEST(nested_child_copies_ordered)
{
    const int64_t n = 32;
    px_view *x = vf("x", n), *r = vf("r", 1);
    px_graph *c = axpb_sum_graph("c", x, r, n), *c1 = new_graph("c1");
    TK_OK(px_graph_add_child(c1, NULL, 0, c, NULL));
    /* c1 first, then c unordered: refused; after it: accepted. */
    px_graph *p = new_graph("p");
    px_graph_node *n1 = NULL, *n2 = NULL;
    TK_OK(px_graph_add_child(p, NULL, 0, c1, &n1));
    TK_FAIL(px_graph_add_child(p, NULL, 0, c, &n2), PX_ERR_INVALID_ARGUMENT, "px_graph_add_child");
    TK_ERROR_HAS("scratch");
    TK_OK(px_graph_add_child(p, &n1, 1, c, &n2));
    /* The other order: c first, then c1 unordered: refused. */
    px_graph *q = new_graph("q");
    px_graph_node *m1 = NULL, *m2 = NULL;
    TK_OK(px_graph_add_child(q, NULL, 0, c, &m1));
    TK_FAIL(px_graph_add_child(q, NULL, 0, c1, &m2), PX_ERR_INVALID_ARGUMENT, "px_graph_add_child");
    ck_assert_ptr_null(m2);
    px_graph_exec *e = instantiate(p);
    launch_fenced(e, tk_inst());
    ALL_F64(x, 3.0); /* 0 -> 1 -> 3 */
    TK_ASSERT(getf(r, 0) == 3.0 * (double)n, "sum %.17g", getf(r, 0));
    TK_OK(px_graph_exec_destroy(&e));
    TK_OK(px_graph_destroy(&p));
    TK_OK(px_graph_destroy(&q));
    TK_OK(px_graph_destroy(&c1));
    TK_OK(px_graph_destroy(&c));
    TK_RELEASE(x, r);
}
END_TEST

/* A child node is the child as it was when added: nodes added to it later do not run. */
START_TEST(child_copied_when_added)
{
    px_view *x = vi("x", 8), *y = vi("y", 8);
    px_graph *child = new_graph("child");
    g_inc_args ax = inc_args(x, 1), ay = inc_args(y, 1);
    TK_OK(px_graph_add_for(child, NULL, 0, "x+1", px_range(0, 8), PX_KERNEL(g_inc), &ax, NULL));
    px_graph *g = new_graph("parent");
    TK_OK(px_graph_add_child(g, NULL, 0, child, NULL));
    TK_OK(px_graph_add_for(child, NULL, 0, "y+1", px_range(0, 8), PX_KERNEL(g_inc), &ay, NULL));
    px_graph_exec *e = instantiate(g);
    launch_fenced(e, tk_inst());
    ALL_I64(x, 1);
    ALL_I64(y, 0);
    /* The child itself has both. */
    px_graph_exec *ec = instantiate(child);
    launch_fenced(ec, tk_inst());
    ALL_I64(x, 2);
    ALL_I64(y, 1);
    TK_OK(px_graph_exec_destroy(&ec));
    TK_OK(px_graph_exec_destroy(&e));
    TK_OK(px_graph_destroy(&g));
    TK_OK(px_graph_destroy(&child));
    TK_RELEASE(x, y);
}
END_TEST

/* A captured node: what fn issued on its instance (a kernel and a copy), between two
 * explicit nodes. fn runs once, when the node is added. */
typedef struct cap_work {
    int64_t n;
    g_axpb_args twice; /* y = 2x */
    px_view *y, *z;    /* then z = y (a copy) */
    int calls;
    bool fail;
} cap_work;

static px_status cap_fn(px_instance *inst, void *data)
{
    cap_work *w = (cap_work *)data;
    w->calls++;
    if (w->fail) return px_parallel_for(inst, "bad", px_range(0, w->n), NULL, &w->twice);
    px_status st = px_parallel_for(inst, "twice", px_range(0, w->n), PX_KERNEL(g_axpb), &w->twice);
    if (st != PX_OK) return st;
    return px_deep_copy_async(inst, w->z, w->y, NULL);
}

START_TEST(captured_node_between_nodes)
{
    const int64_t n = 2000;
    px_view *x = vf("x", n), *y = vf("y", n), *z = vf("z", n), *w = vf("w", n);
    cap_work cw;
    memset(&cw, 0, sizeof cw);
    cw.n = n;
    cw.twice = axpb(x, y, 2.0, 0.0);
    cw.y = y;
    cw.z = z;
    px_graph *g = new_graph("with capture");
    g_axpb_args aa = axpb(x, x, 1.0, 1.0), ab = axpb(z, w, 1.0, 1.0);
    px_graph_node *A = NULL, *C = NULL;
    TK_OK(px_graph_add_for(g, NULL, 0, "A", px_range(0, n), PX_KERNEL(g_axpb), &aa, &A));
    TK_OK(px_graph_add_captured(g, &A, 1, "captured", cap_fn, &cw, &C));
    ck_assert_int_eq(cw.calls, 1);
    ck_assert_int_eq(index_of(C), 1);
    const char *label = NULL;
    TK_OK(px_graph_node_label(C, &label));
    ck_assert_str_eq(label, "captured");
    TK_OK(px_graph_add_for(g, &C, 1, "B", px_range(0, n), PX_KERNEL(g_axpb), &ab, NULL));
    TK_OK(px_instance_fence(tk_inst()));
    ALL_F64(y, 0.0); /* recorded, not run */
    ALL_F64(z, 0.0);
    px_graph_exec *e = instantiate(g);
    for (int k = 1; k <= 2; ++k) {
        launch_fenced(e, tk_inst());
        ALL_F64(x, k);
        ALL_F64(y, 2.0 * k);
        ALL_F64(z, 2.0 * k);
        ALL_F64(w, 2.0 * k + 1.0);
    }
    ck_assert_int_eq(cw.calls, 1);
    TK_OK(px_graph_exec_destroy(&e));
    TK_OK(px_graph_destroy(&g));
    TK_RELEASE(x, y, z, w);
}
END_TEST

/* fn's failure is returned and adds no node. */
START_TEST(captured_node_failure_adds_nothing)
{
    px_view *x = vf("x", 4), *y = vf("y", 4), *z = vf("z", 4);
    TK_OK(px_fill(x, &(double){1.5}, NULL));
    cap_work cw;
    memset(&cw, 0, sizeof cw);
    cw.n = 4;
    cw.twice = axpb(x, y, 2.0, 0.0);
    cw.y = y;
    cw.z = z;
    cw.fail = true;
    px_graph *g = new_graph("failing capture");
    TK_OK(px_graph_add_empty(g, NULL, 0, NULL));
    px_graph_node *n = NULL;
    px_clear_error();
    const px_status st = px_graph_add_captured(g, NULL, 0, "bad", cap_fn, &cw, &n);
    TK_ASSERT(st == PX_ERR_INVALID_ARGUMENT, "returned %s: %s", px_status_name(st),
              px_last_error());
    TK_ASSERT(strcmp(px_last_error(), "") != 0, "no error text");
    ck_assert_int_eq(cw.calls, 1);
    ck_assert_int_eq(count_of(g), 1);
    /* The graph still works, and another captured node can be added. */
    cw.fail = false;
    TK_OK(px_graph_add_captured(g, NULL, 0, "good", cap_fn, &cw, NULL));
    ck_assert_int_eq(count_of(g), 2);
    ck_assert_int_eq(cw.calls, 2);
    px_graph_exec *e = instantiate(g);
    launch_fenced(e, tk_inst());
    ALL_F64(y, 3.0);
    ALL_F64(z, 3.0);
    TK_OK(px_graph_exec_destroy(&e));
    TK_OK(px_graph_destroy(&g));
    TK_RELEASE(x, y, z);
}
END_TEST

/* DOT names the graph's nodes and has edges. */
START_TEST(dot_output)
{
    px_view *x = vi("x", 4), *r = vf("r", 1), *xf = vf("xf", 4);
    px_graph *g = new_graph("dotted");
    g_inc_args a = inc_args(x, 1);
    g_sum_args s = {sf(xf)};
    px_graph_node *k = NULL, *wn = NULL;
    TK_OK(px_graph_add_for(g, NULL, 0, "stage_alpha", px_range(0, 4), PX_KERNEL(g_inc), &a, &k));
    TK_OK(
        px_graph_add_reduce(g, &k, 1, "stage_beta", px_range(0, 4), PX_KERNEL(g_sum), &s, r, NULL));
    px_graph_cond_t *c = NULL;
    px_graph *body = NULL;
    TK_OK(px_graph_add_while(g, &k, 1, "loop_gamma", 0, &c, &body, &wn));
    TK_OK(
        px_graph_add_for(body, NULL, 0, "body_delta", px_range(0, 4), PX_KERNEL(g_inc), &a, NULL));
    memfile m;
    mem_open(&m);
    TK_OK(px_graph_dot(g, m.f));
    char *text = mem_close(&m);
    TK_ASSERT(strstr(text, "digraph") != NULL, "no 'digraph' in:\n%s", text);
    TK_ASSERT(strstr(text, "stage_alpha") != NULL, "no 'stage_alpha' in:\n%s", text);
    TK_ASSERT(strstr(text, "stage_beta") != NULL, "no 'stage_beta' in:\n%s", text);
    TK_ASSERT(strstr(text, "loop_gamma") != NULL, "no 'loop_gamma' in:\n%s", text);
    TK_ASSERT(strstr(text, "body_delta") != NULL, "no 'body_delta' in:\n%s", text);
    TK_ASSERT(strstr(text, "->") != NULL, "no edge in:\n%s", text);
    free(text);
    TK_OK(px_graph_destroy(&g));
    TK_RELEASE(x, r, xf);
}
END_TEST

/* The profile runs the graph once and writes JSON with every top-level node. */
START_TEST(profile_output)
{
    px_view *x = vi("x", 64), *y = vi("y", 64);
    px_graph *g = new_graph("profiled");
    g_inc_args a = inc_args(x, 1), b = inc_args(y, 2);
    px_graph_node *k = NULL;
    TK_OK(px_graph_add_for(g, NULL, 0, "prof_first", px_range(0, 64), PX_KERNEL(g_inc), &a, &k));
    TK_OK(px_graph_add_for(g, &k, 1, "prof_second", px_range(0, 64), PX_KERNEL(g_inc), &b, NULL));
    px_graph_exec *e = instantiate(g);
    memfile m;
    mem_open(&m);
    TK_OK(px_graph_profile(e, tk_inst(), m.f));
    char *json = mem_close(&m);
    TK_ASSERT(strstr(json, "\"nodes\"") != NULL, "no \"nodes\" in:\n%s", json);
    TK_ASSERT(strstr(json, "\"total_us\"") != NULL, "no \"total_us\" in:\n%s", json);
    TK_ASSERT(strstr(json, "prof_first") != NULL && strstr(json, "prof_second") != NULL,
              "labels missing:\n%s", json);
    TK_ASSERT(strstr(json, "profiled") != NULL, "graph label missing:\n%s", json);
    free(json);
    TK_OK(px_instance_fence(tk_inst()));
    ALL_I64(x, 1); /* it ran once */
    ALL_I64(y, 2);
    launch_fenced(e, tk_inst());
    ALL_I64(x, 2);
    TK_OK(px_graph_exec_destroy(&e));
    TK_OK(px_graph_destroy(&g));
    TK_RELEASE(x, y);
}
END_TEST

/* What a profile runs (graph.h): the executable graph with its px_graph_exec_set_args
   change on the host backends, and on CUDA when the graph is timed as a whole (here: it
   holds an IF node); on CUDA timed node by node, a copy of the graph as instantiated. */
START_TEST(profile_runs_what_it_says)
{
    px_view *v = vi("v", 16);
    FILE *sink = fopen("/dev/null", "w");
    ck_assert_ptr_nonnull(sink);
    for (int with_if = 0; with_if <= 1; ++with_if) {
        TK_OK(px_fill(v, &(int64_t){0}, NULL));
        px_graph *g = new_graph("profiled");
        px_graph_node *k = NULL;
        g_inc_args a = inc_args(v, 1);
        TK_OK(px_graph_add_for(g, NULL, 0, "v+d", px_range(0, 16), PX_KERNEL(g_inc), &a, &k));
        if (with_if) {
            px_graph_cond_t *c = NULL;
            px_graph *body = NULL;
            TK_OK(px_graph_add_if(g, &k, 1, "never", 0, &c, &body, NULL));
        }
        px_graph_exec *e = instantiate(g);
        a = inc_args(v, 5);
        TK_OK(px_graph_exec_set_args(e, k, &a));
        TK_OK(px_graph_profile(e, tk_inst(), sink));
        TK_OK(px_instance_fence(tk_inst()));
        ALL_I64(v, tk_is_cuda() && !with_if ? 1 : 5);
        launch_fenced(e, tk_inst()); /* a launch runs the change everywhere */
        ALL_I64(v, tk_is_cuda() && !with_if ? 6 : 10);
        TK_OK(px_graph_exec_destroy(&e));
        TK_OK(px_graph_destroy(&g));
    }
    fclose(sink);
    TK_RELEASE(v);
}
END_TEST

/* ============================================================================================ */
/* ---- Conditionals (suite graph_cond) -------------------------------------------------------- */

/* fill(counter, 0) -> WHILE(initial) { counter += 1; cond = counter < limit }, then a node
 * after the loop that copies the counter to `after`. Returns the exec. */
static px_graph_exec *counting_loop(px_view *counter, px_view *after, unsigned initial,
                                    int64_t limit, px_graph **gout)
{
    px_graph *g = new_graph("counting");
    const int64_t zero = 0;
    px_graph_node *f = NULL, *wn = NULL;
    TK_OK(px_graph_add_fill(g, NULL, 0, counter, &zero, &f));
    px_graph_cond_t *c = NULL;
    px_graph *body = NULL;
    TK_OK(px_graph_add_while(g, &f, 1, "loop", initial, &c, &body, &wn));
    ck_assert_ptr_nonnull(c);
    ck_assert_ptr_nonnull(body);
    g_count_args ca;
    ca.counter = si(counter);
    ca.limit = limit;
    ca.cond = cond_of(c);
    /* 64 indices; index 0 alone counts and sets the condition */
    TK_OK(px_graph_add_for(body, NULL, 0, "count", px_range(0, 64), PX_KERNEL(g_count), &ca, NULL));
    TK_OK(px_graph_add_copy(g, &wn, 1, after, counter, NULL));
    *gout = g;
    return instantiate(g);
}

static void check_loop(unsigned initial, int64_t limit, int64_t want)
{
    px_view *counter = vi("counter", 1), *after = vi("after", 1);
    px_graph *g = NULL;
    px_graph_exec *e = counting_loop(counter, after, initial, limit, &g);
    for (int k = 0; k < 2; ++k) { /* every launch starts again at `initial` */
        launch_fenced(e, tk_inst());
        TK_ASSERT(geti(counter, 0) == want, "launch %d: %lld passes, expected %lld", k,
                  (long long)geti(counter, 0), (long long)want);
        TK_ASSERT(geti(after, 0) == want, "launch %d: the node after the loop saw %lld", k,
                  (long long)geti(after, 0));
    }
    TK_OK(px_graph_exec_destroy(&e));
    TK_OK(px_graph_destroy(&g));
    TK_RELEASE(counter, after);
}

START_TEST(while_zero_iterations) { check_loop(0, 100, 0); }
END_TEST

START_TEST(while_one_iteration) { check_loop(1, 1, 1); }
END_TEST

START_TEST(while_many_iterations) { check_loop(1, 100, 100); }
END_TEST

/* A set outside a launch changes nothing: the loop still starts at its initial value. */
START_TEST(cond_set_outside_launch_ignored)
{
    px_view *counter = vi("counter", 1);
    px_graph *g = new_graph("outside");
    px_graph_cond_t *c = NULL;
    px_graph *body = NULL;
    const int64_t zero = 0;
    px_graph_node *f = NULL;
    TK_OK(px_graph_add_fill(g, NULL, 0, counter, &zero, &f));
    TK_OK(px_graph_add_while(g, &f, 1, "loop", 1, &c, &body, NULL));
    g_count_args ca = {si(counter), 3, cond_of(c)};
    TK_OK(px_graph_add_for(body, NULL, 0, "count", px_range(0, 1), PX_KERNEL(g_count), &ca, NULL));
    px_graph_exec *e = instantiate(g);
    px_cond_set(cond_of(c), 0); /* host code, no launch */
    launch_fenced(e, tk_inst());
    ck_assert_int_eq(geti(counter, 0), 3);
    px_cond_set(cond_of(c), 0);
    launch_fenced(e, tk_inst());
    ck_assert_int_eq(geti(counter, 0), 3);
    TK_OK(px_graph_exec_destroy(&e));
    TK_OK(px_graph_destroy(&g));
    TK_RELEASE(counter);
}
END_TEST

/* px_graph_cond_from_view: s = 0; WHILE { s += 1 } as long as s < 10. */
START_TEST(while_cond_from_view)
{
    px_view *s = vf("s", 1);
    px_graph *g = new_graph("from view");
    const double zero = 0.0;
    px_graph_node *f = NULL, *cn = NULL;
    TK_OK(px_graph_add_fill(g, NULL, 0, s, &zero, &f));
    px_graph_cond_t *c = NULL;
    px_graph *body = NULL;
    TK_OK(px_graph_add_while(g, &f, 1, "until 10", 1, &c, &body, NULL));
    g_axpb_args a = axpb(s, s, 1.0, 1.0);
    px_graph_node *k = NULL;
    TK_OK(px_graph_add_for(body, NULL, 0, "s+1", px_range(0, 1), PX_KERNEL(g_axpb), &a, &k));
    TK_OK(px_graph_cond_from_view(body, c, s, PX_CMP_LT, 10.0, &cn));
    ck_assert_ptr_nonnull(cn);
    ck_assert_int_eq(index_of(cn), 1); /* appended after the kernel */
    ck_assert_int_eq(count_of(body), 2);
    px_graph_exec *e = instantiate(g);
    launch_fenced(e, tk_inst());
    TK_ASSERT(getf(s, 0) == 10.0, "s = %g after the loop", getf(s, 0));
    launch_fenced(e, tk_inst());
    TK_ASSERT(getf(s, 0) == 10.0, "s = %g after the second launch", getf(s, 0));
    TK_OK(px_graph_exec_destroy(&e));
    TK_OK(px_graph_destroy(&g));
    TK_RELEASE(s);
}
END_TEST

/* A residual loop: x = 1 (64 elements); WHILE { x *= 0.5; passes += 1; r = sum(x) }
 * as long as r > 1: 64 -> 32 -> ... -> 1, six passes. */
START_TEST(while_reduction_residual)
{
    const int64_t n = 64;
    px_view *x = vf("x", n), *r = vf("r", 1), *passes = vi("passes", 1);
    px_graph *g = new_graph("residual");
    const double one = 1.0;
    const int64_t zero = 0;
    px_graph_node *f[2] = {NULL, NULL};
    TK_OK(px_graph_add_fill(g, NULL, 0, x, &one, &f[0]));
    TK_OK(px_graph_add_fill(g, NULL, 0, passes, &zero, &f[1]));
    px_graph_cond_t *c = NULL;
    px_graph *body = NULL;
    TK_OK(px_graph_add_while(g, f, 2, "converge", 1, &c, &body, NULL));
    g_axpb_args half = axpb(x, x, 0.5, 0.0);
    g_inc_args ip = inc_args(passes, 1);
    g_sum_args s = {sf(x)};
    px_graph_node *h = NULL, *p = NULL;
    TK_OK(px_graph_add_for(body, NULL, 0, "halve", px_range(0, n), PX_KERNEL(g_axpb), &half, &h));
    TK_OK(px_graph_add_for(body, &h, 1, "pass", px_range(0, 1), PX_KERNEL(g_inc), &ip, &p));
    TK_OK(px_graph_add_reduce(body, &p, 1, "norm", px_range(0, n), PX_KERNEL(g_sum), &s, r, NULL));
    TK_OK(px_graph_cond_from_view(body, c, r, PX_CMP_GT, 1.0, NULL));
    px_graph_exec *e = instantiate(g);
    for (int k = 0; k < 2; ++k) {
        launch_fenced(e, tk_inst());
        TK_ASSERT(geti(passes, 0) == 6, "launch %d: %lld passes", k, (long long)geti(passes, 0));
        TK_ASSERT(getf(r, 0) == 1.0, "launch %d: r = %g", k, getf(r, 0));
        ALL_F64(x, 1.0 / 64.0);
    }
    TK_OK(px_graph_exec_destroy(&e));
    TK_OK(px_graph_destroy(&g));
    TK_RELEASE(x, r, passes);
}
END_TEST

/* The same reduction as a top-level node and inside an IF body that runs: the same
   kernels, the same result. */
START_TEST(reduce_in_if_body)
{
    const int64_t n = 64;
    px_view *x = vf("x", n), *top = vf("top", 1), *inside = vf("inside", 1);
    const double one = 1.0;
    px_graph *g = new_graph("reduce in if");
    px_graph_node *f = NULL, *a = NULL;
    TK_OK(px_graph_add_fill(g, NULL, 0, x, &one, &f));
    g_sum_args s = {sf(x)};
    TK_OK(px_graph_add_reduce(g, &f, 1, "top", px_range(0, n), PX_KERNEL(g_sum), &s, top, &a));
    px_graph_cond_t *c = NULL;
    px_graph *body = NULL;
    TK_OK(px_graph_add_if(g, &a, 1, "if", 1, &c, &body, NULL));
    TK_OK(px_graph_add_reduce(body, NULL, 0, "inside", px_range(0, n), PX_KERNEL(g_sum), &s, inside,
                              NULL));
    px_graph_exec *e = instantiate(g);
    launch_fenced(e, tk_inst());
    TK_ASSERT(getf(top, 0) == 64.0, "top-level sum %g", getf(top, 0));
    TK_ASSERT(getf(inside, 0) == 64.0, "sum in the IF body %g", getf(inside, 0));
    TK_OK(px_graph_exec_destroy(&e));
    TK_OK(px_graph_destroy(&g));
    TK_RELEASE(x, top, inside);
}
END_TEST

/* Every comparison of px_graph_cond_from_view: s = start; WHILE { s += step; passes += 1 }
 * as long as (s <cmp> threshold). After pass k, s = start + k step. */
START_TEST(cond_from_view_comparisons)
{
    static const struct {
        px_compare cmp;
        double start, step, threshold;
        int64_t passes;
    } cases[] = {
        {PX_CMP_LT, 0, 1, 5, 5},   {PX_CMP_LE, 0, 1, 5, 6}, {PX_CMP_GT, 10, -1, 5, 5},
        {PX_CMP_GE, 10, -1, 5, 6}, {PX_CMP_EQ, 0, 1, 1, 2}, {PX_CMP_EQ, 0, 1, 7, 1},
        {PX_CMP_NE, 0, 1, 3, 3},
    };
    px_view *s = vf("s", 1), *passes = vi("passes", 1);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        px_graph *g = new_graph("compare");
        px_graph_node *f[2] = {NULL, NULL};
        TK_OK(px_graph_add_fill(g, NULL, 0, s, &cases[i].start, &f[0]));
        TK_OK(px_graph_add_fill(g, NULL, 0, passes, &(int64_t){0}, &f[1]));
        px_graph_cond_t *c = NULL;
        px_graph *body = NULL;
        TK_OK(px_graph_add_while(g, f, 2, "loop", 1, &c, &body, NULL));
        g_axpb_args a = axpb(s, s, 1.0, cases[i].step);
        g_inc_args ip = inc_args(passes, 1);
        px_graph_node *k = NULL;
        TK_OK(px_graph_add_for(body, NULL, 0, "step", px_range(0, 1), PX_KERNEL(g_axpb), &a, &k));
        TK_OK(px_graph_add_for(body, &k, 1, "pass", px_range(0, 1), PX_KERNEL(g_inc), &ip, NULL));
        TK_OK(px_graph_cond_from_view(body, c, s, cases[i].cmp, cases[i].threshold, NULL));
        px_graph_exec *e = instantiate(g);
        launch_fenced(e, tk_inst());
        TK_ASSERT(geti(passes, 0) == cases[i].passes,
                  "case %zu (cmp %d, threshold %g): %lld passes, expected %lld", i,
                  (int)cases[i].cmp, cases[i].threshold, (long long)geti(passes, 0),
                  (long long)cases[i].passes);
        TK_OK(px_graph_exec_destroy(&e));
        TK_OK(px_graph_destroy(&g));
    }
    TK_RELEASE(s, passes);
}
END_TEST

/* IF with a constant initial condition: 0 skips the body, 1 runs it. */
START_TEST(if_initial_value)
{
    px_view *v = vi("v", 16);
    for (unsigned initial = 0; initial <= 1; ++initial) {
        px_graph *g = new_graph("if");
        const int64_t zero = 0;
        px_graph_node *f = NULL;
        TK_OK(px_graph_add_fill(g, NULL, 0, v, &zero, &f));
        px_graph_cond_t *c = NULL;
        px_graph *body = NULL;
        px_graph_node *in = NULL;
        TK_OK(px_graph_add_if(g, &f, 1, "maybe", initial, &c, &body, &in));
        g_inc_args a = inc_args(v, 7);
        TK_OK(px_graph_add_for(body, NULL, 0, "v+7", px_range(0, 16), PX_KERNEL(g_inc), &a, NULL));
        px_graph_exec *e = instantiate(g);
        for (int k = 0; k < 2; ++k) {
            launch_fenced(e, tk_inst());
            ALL_I64(v, initial ? 7 : 0);
        }
        TK_OK(px_graph_exec_destroy(&e));
        TK_OK(px_graph_destroy(&g));
    }
    TK_RELEASE(v);
}
END_TEST

/* IF decided by a kernel before it (px_cond_set from the data): runs when flag != 0. */
START_TEST(if_set_by_kernel)
{
    px_view *flag = vi("flag", 1), *v = vi("v", 16);
    px_graph *g = new_graph("if by kernel");
    px_graph_cond_t *c = NULL;
    px_graph *body = NULL;
    /* The deciding kernel comes before the IF, whose condition does not exist yet: its
       arguments get the condition with px_graph_exec_set_args. */
    px_graph_node *decide = NULL;
    g_cond_args ca;
    ca.v = si(flag);
    memset(&ca.cond, 0, sizeof ca.cond);
    TK_OK(px_graph_add_for(g, NULL, 0, "decide", px_range(0, 1), PX_KERNEL(g_cond_nonzero), &ca,
                           &decide));
    TK_OK(px_graph_add_if(g, &decide, 1, "if flag", 1, &c, &body, NULL));
    g_inc_args a = inc_args(v, 1);
    TK_OK(px_graph_add_for(body, NULL, 0, "v+1", px_range(0, 16), PX_KERNEL(g_inc), &a, NULL));
    px_graph_exec *e = instantiate(g);
    ca.cond = cond_of(c);
    TK_OK(px_graph_exec_set_args(e, decide, &ca));

    launch_fenced(e, tk_inst()); /* flag 0: the kernel clears the initial 1 */
    ALL_I64(v, 0);
    const int64_t one = 1;
    TK_OK(px_fill(flag, &one, NULL));
    launch_fenced(e, tk_inst());
    ALL_I64(v, 1);
    launch_fenced(e, tk_inst());
    ALL_I64(v, 2);
    const int64_t zero = 0;
    TK_OK(px_fill(flag, &zero, NULL));
    launch_fenced(e, tk_inst());
    ALL_I64(v, 2);
    TK_OK(px_graph_exec_destroy(&e));
    TK_OK(px_graph_destroy(&g));
    TK_RELEASE(flag, v);
}
END_TEST

/* ============================================================================================ */
/* ---- Changing an executable graph (suite graph_exec) ----------------------------------------- */

/* y += b: launch with b = 1, change b to 10, launch again: 11 (20 if the first launch had
 * taken the new value, 2 if the second had not). */
START_TEST(set_args_next_launch)
{
    const int64_t n = 4096;
    px_view *y = vf("y", n);
    px_graph *g = new_graph("args");
    g_axpb_args a = axpb(y, y, 1.0, 1.0);
    px_graph_node *k = NULL;
    TK_OK(px_graph_add_for(g, NULL, 0, "y+b", px_range(0, n), PX_KERNEL(g_axpb), &a, &k));
    px_graph_exec *e = instantiate(g);
    TK_OK(px_graph_launch(e, tk_inst()));
    a.b = 10.0;
    TK_OK(px_graph_exec_set_args(e, k, &a));
    a.b = 1000.0; /* copied */
    TK_OK(px_graph_launch(e, tk_inst()));
    TK_OK(px_instance_fence(tk_inst()));
    ALL_F64(y, 11.0);
    /* The graph itself keeps its own arguments: a new exec uses b = 1. */
    px_graph_exec *e2 = instantiate(g);
    launch_fenced(e2, tk_inst());
    ALL_F64(y, 12.0);
    TK_OK(px_graph_exec_destroy(&e2));
    TK_OK(px_graph_exec_destroy(&e));
    TK_OK(px_graph_destroy(&g));
    TK_RELEASE(y);
}
END_TEST

/* v[i] += 1 over [0, n/2), then the policy moves to [n/2, n): every element once. */
START_TEST(set_policy_next_launch)
{
    const int64_t n = 2048;
    px_view *v = vi("v", n);
    px_graph *g = new_graph("policy");
    g_inc_args a = inc_args(v, 1);
    px_graph_node *k = NULL;
    TK_OK(px_graph_add_for(g, NULL, 0, "half", px_range(0, n / 2), PX_KERNEL(g_inc), &a, &k));
    px_graph_exec *e = instantiate(g);
    TK_OK(px_graph_launch(e, tk_inst()));
    TK_OK(px_graph_exec_set_policy(e, k, px_range(n / 2, n)));
    TK_OK(px_graph_launch(e, tk_inst()));
    TK_OK(px_instance_fence(tk_inst()));
    ALL_I64(v, 1);
    TK_OK(px_graph_exec_destroy(&e));
    TK_OK(px_graph_destroy(&g));
    TK_RELEASE(v);
}
END_TEST

/* copy d <- s1, acc += d; the copy's source becomes s2: acc = s1 + s2. */
START_TEST(set_copy_next_launch)
{
    const int64_t n = 1000;
    px_view *s1 = vf("s1", n), *s2 = vf("s2", n), *d = vf("d", n), *acc = vf("acc", n);
    TK_OK(px_fill(s1, &(double){1.0}, NULL));
    TK_OK(px_fill(s2, &(double){5.0}, NULL));
    px_graph *g = new_graph("copy");
    px_graph_node *c = NULL;
    g_add_args a = {sf(acc), sf(d), sf(acc)};
    TK_OK(px_graph_add_copy(g, NULL, 0, d, s1, &c));
    TK_OK(px_graph_add_for(g, &c, 1, "acc+d", px_range(0, n), PX_KERNEL(g_add), &a, NULL));
    px_graph_exec *e = instantiate(g);
    TK_OK(px_graph_launch(e, tk_inst()));
    TK_OK(px_graph_exec_set_copy(e, c, d, s2));
    TK_OK(px_graph_launch(e, tk_inst()));
    TK_OK(px_instance_fence(tk_inst()));
    ALL_F64(acc, 6.0);
    ALL_F64(d, 5.0);
    /* exec keeps s2 alive. */
    TK_OK(px_view_release(&s2));
    launch_fenced(e, tk_inst());
    ALL_F64(acc, 11.0);
    TK_OK(px_graph_exec_destroy(&e));
    TK_OK(px_graph_destroy(&g));
    TK_RELEASE(s1, d, acc);
}
END_TEST

/* fill d with 1, acc += d; the value becomes 5: acc = 6. */
START_TEST(set_fill_next_launch)
{
    const int64_t n = 1000;
    px_view *d = vf("d", n), *acc = vf("acc", n);
    px_graph *g = new_graph("fill");
    px_graph_node *f = NULL;
    double value = 1.0;
    g_add_args a = {sf(acc), sf(d), sf(acc)};
    TK_OK(px_graph_add_fill(g, NULL, 0, d, &value, &f));
    value = 100.0; /* copied */
    TK_OK(px_graph_add_for(g, &f, 1, "acc+d", px_range(0, n), PX_KERNEL(g_add), &a, NULL));
    px_graph_exec *e = instantiate(g);
    TK_OK(px_graph_launch(e, tk_inst()));
    value = 5.0;
    TK_OK(px_graph_exec_set_fill(e, f, &value));
    value = 100.0;
    TK_OK(px_graph_launch(e, tk_inst()));
    TK_OK(px_instance_fence(tk_inst()));
    ALL_F64(acc, 6.0);
    TK_OK(px_graph_exec_destroy(&e));
    TK_OK(px_graph_destroy(&g));
    TK_RELEASE(d, acc);
}
END_TEST

/* A fill's value changes from zero (equal bytes) to another and back, in place and by an
   update from a graph of the same shape, for 8-byte integers and doubles: on CUDA a fill
   portex records is the same kind of node whatever its value, so CUDA takes the change. */
START_TEST(set_fill_zero_and_back)
{
    const int64_t n = 1000;
    px_view *iv = vi("i", n), *fv = vf("f", n);
    for (int from_zero = 0; from_zero <= 1; ++from_zero) {
        const int64_t i0 = from_zero ? 0 : 7, i1 = from_zero ? 7 : 0;
        const double f0 = from_zero ? 0.0 : 2.5, f1 = from_zero ? 2.5 : 0.0;
        px_graph *g = new_graph("fill"), *h = new_graph("fill again");
        px_graph_node *fi = NULL, *ff = NULL;
        TK_OK(px_graph_add_fill(g, NULL, 0, iv, &i0, &fi));
        TK_OK(px_graph_add_fill(g, NULL, 0, fv, &f0, &ff));
        TK_OK(px_graph_add_fill(h, NULL, 0, iv, &i1, NULL));
        TK_OK(px_graph_add_fill(h, NULL, 0, fv, &f1, NULL));
        px_graph_exec *e = instantiate(g);
        launch_fenced(e, tk_inst());
        ALL_I64(iv, i0);
        ALL_F64(fv, f0);
        TK_OK(px_graph_exec_set_fill(e, fi, &i1));
        TK_OK(px_graph_exec_set_fill(e, ff, &f1));
        launch_fenced(e, tk_inst());
        ALL_I64(iv, i1);
        ALL_F64(fv, f1);
        TK_OK(px_graph_exec_set_fill(e, fi, &i0));
        TK_OK(px_graph_exec_set_fill(e, ff, &f0));
        launch_fenced(e, tk_inst());
        ALL_I64(iv, i0);
        ALL_F64(fv, f0);
        TK_OK(px_graph_exec_update(e, h, NULL));
        launch_fenced(e, tk_inst());
        ALL_I64(iv, i1);
        ALL_F64(fv, f1);
        TK_OK(px_graph_exec_destroy(&e));
        TK_OK(px_graph_destroy(&g));
        TK_OK(px_graph_destroy(&h));
    }
    TK_RELEASE(iv, fv);
}
END_TEST

/* What the setters refuse, each leaving exec as it was. */
START_TEST(set_refused)
{
    px_view *v = vf("v", 8), *w = vf("w", 8), *small = vf("small", 4);
    px_graph *g = new_graph("g"), *other = new_graph("other");
    g_axpb_args a = axpb(v, v, 1.0, 1.0);
    px_graph_node *k = NULL, *c = NULL, *f = NULL, *ko = NULL, *wn = NULL, *bk = NULL;
    TK_OK(px_graph_add_for(g, NULL, 0, "k", px_range(0, 8), PX_KERNEL(g_axpb), &a, &k));
    TK_OK(px_graph_add_copy(g, &k, 1, w, v, &c));
    TK_OK(px_graph_add_fill(g, &c, 1, small, &(double){3.0}, &f));
    px_graph_cond_t *cond = NULL;
    px_graph *body = NULL;
    TK_OK(px_graph_add_while(g, &f, 1, "w", 0, &cond, &body, &wn));
    TK_OK(px_graph_add_for(body, NULL, 0, "bk", px_range(0, 8), PX_KERNEL(g_axpb), &a, &bk));
    TK_OK(px_graph_add_for(other, NULL, 0, "ko", px_range(0, 8), PX_KERNEL(g_axpb), &a, &ko));
    px_graph_exec *e = instantiate(g);

    TK_FAIL(px_graph_exec_set_args(e, ko, &a), PX_ERR_INVALID_ARGUMENT, "px_graph_exec_set_args");
    TK_FAIL(px_graph_exec_set_args(e, bk, &a), PX_ERR_INVALID_ARGUMENT, "px_graph_exec_set_args");
    TK_FAIL(px_graph_exec_set_args(e, c, &a), PX_ERR_INVALID_ARGUMENT, "px_graph_exec_set_args");
    TK_FAIL(px_graph_exec_set_args(e, k, NULL), PX_ERR_INVALID_ARGUMENT, "px_graph_exec_set_args");
    TK_FAIL(px_graph_exec_set_args(NULL, k, &a), PX_ERR_INVALID_ARGUMENT, "px_graph_exec_set_args");
    TK_FAIL(px_graph_exec_set_args(e, NULL, &a), PX_ERR_INVALID_ARGUMENT, "px_graph_exec_set_args");
    TK_FAIL(px_graph_exec_set_policy(e, f, px_range(0, 8)), PX_ERR_INVALID_ARGUMENT,
            "px_graph_exec_set_policy");
    TK_FAIL(px_graph_exec_set_policy(e, k, px_mdrange2(0, 2, 0, 4)), PX_ERR_INVALID_ARGUMENT,
            "px_graph_exec_set_policy");
    TK_FAIL(px_graph_exec_set_copy(e, k, w, v), PX_ERR_INVALID_ARGUMENT, "px_graph_exec_set_copy");
    TK_FAIL2(px_graph_exec_set_copy(e, c, small, v), PX_ERR_INVALID_ARGUMENT,
             PX_ERR_EXTENTS_MISMATCH, "px_graph_exec_set_copy");
    TK_FAIL(px_graph_exec_set_copy(e, c, NULL, v), PX_ERR_INVALID_ARGUMENT,
            "px_graph_exec_set_copy");
    TK_FAIL(px_graph_exec_set_fill(e, k, &(double){1.0}), PX_ERR_INVALID_ARGUMENT,
            "px_graph_exec_set_fill");
    TK_FAIL(px_graph_exec_set_fill(e, f, NULL), PX_ERR_INVALID_ARGUMENT, "px_graph_exec_set_fill");
    TK_FAIL(px_graph_exec_set_args(e, wn, &a), PX_ERR_INVALID_ARGUMENT, "px_graph_exec_set_args");

    /* Unchanged: v += 1, w = v, small = 3. */
    launch_fenced(e, tk_inst());
    ALL_F64(v, 1.0);
    ALL_F64(w, 1.0);
    ALL_F64(small, 3.0);
    TK_OK(px_graph_exec_destroy(&e));
    TK_OK(px_graph_destroy(&g));
    TK_OK(px_graph_destroy(&other));
    TK_RELEASE(v, w, small);
}
END_TEST

/* fill(x, value) -> y = a x + b, built with the given numbers. */
static px_graph *fill_axpb_graph(px_view *x, px_view *y, double value, double a, double b)
{
    px_graph *g = new_graph("fill axpb");
    px_graph_node *f = NULL;
    g_axpb_args ar = axpb(x, y, a, b);
    TK_OK(px_graph_add_fill(g, NULL, 0, x, &value, &f));
    TK_OK(px_graph_add_for(g, &f, 1, "axpb", px_range(0, tk_info(x).size), PX_KERNEL(g_axpb), &ar,
                           NULL));
    return g;
}

/* An update from a graph of the same shape changes every node's parameters. */
START_TEST(update_same_shape)
{
    px_view *x = vf("x", 100), *y = vf("y", 100), *y2 = vf("y2", 100);
    px_graph *g1 = fill_axpb_graph(x, y, 2.0, 3.0, 1.0);   /* y = 7 */
    px_graph *g2 = fill_axpb_graph(x, y2, 5.0, 2.0, -1.0); /* y2 = 9 */
    px_graph_exec *e = instantiate(g1);
    launch_fenced(e, tk_inst());
    ALL_F64(y, 7.0);
    ALL_F64(y2, 0.0);
    px_graph_update_report rep;
    memset(&rep, 0x5a, sizeof rep);
    TK_OK(px_graph_exec_update(e, g2, &rep));
    TK_OK(px_graph_destroy(&g2)); /* exec keeps it */
    TK_OK(px_graph_destroy(&g1));
    TK_OK(px_fill(y, &(double){0.0}, NULL));
    launch_fenced(e, tk_inst());
    ALL_F64(x, 5.0);
    ALL_F64(y2, 9.0);
    ALL_F64(y, 0.0);
    /* report may be NULL */
    px_graph *g3 = fill_axpb_graph(x, y, 1.0, 1.0, 1.0); /* y = 2 */
    TK_OK(px_graph_exec_update(e, g3, NULL));
    TK_OK(px_graph_destroy(&g3));
    launch_fenced(e, tk_inst());
    ALL_F64(y, 2.0);
    TK_OK(px_graph_exec_destroy(&e));
    TK_RELEASE(x, y, y2);
}
END_TEST

/* A refused update: PX_ERR_INVALID_ARGUMENT naming px_graph_exec_update, a report with
 * a reason naming node want_node (-2: any node, or -1). */
static void expect_refused_update(px_graph_exec *e, px_graph *from, int want_node, const char *what)
{
    px_graph_update_report rep;
    memset(&rep, 0, sizeof rep);
    rep.node = -99;
    px_clear_error();
    const px_status st = px_graph_exec_update(e, from, &rep);
    TK_ASSERT(st == PX_ERR_INVALID_ARGUMENT, "%s: update returned %s: %s", what, px_status_name(st),
              px_last_error());
    TK_ASSERT(strstr(px_last_error(), "px_graph_exec_update") != NULL, "%s: last error '%s'", what,
              px_last_error());
    TK_ASSERT(rep.reason[0] != '\0', "%s: empty reason (node %d)", what, rep.node);
    if (want_node == -2)
        TK_ASSERT(rep.node >= -1, "%s: report names node %d (%s)", what, rep.node, rep.reason);
    else
        TK_ASSERT(rep.node == want_node, "%s: report names node %d, expected %d (%s)", what,
                  rep.node, want_node, rep.reason);
    /* The report is optional. */
    TK_FAIL(px_graph_exec_update(e, from, NULL), PX_ERR_INVALID_ARGUMENT, "px_graph_exec_update");
}

static void check_unchanged(px_graph_exec *e, px_view *y)
{
    TK_OK(px_fill(y, &(double){0.0}, NULL));
    launch_fenced(e, tk_inst());
    ALL_F64(y, 7.0);
}

START_TEST(update_refuses_node_count)
{
    px_view *x = vf("x", 100), *y = vf("y", 100);
    px_graph *g1 = fill_axpb_graph(x, y, 2.0, 3.0, 1.0);
    px_graph_exec *e = instantiate(g1);
    px_graph *more = fill_axpb_graph(x, y, 1.0, 1.0, 1.0);
    TK_OK(px_graph_add_empty(more, NULL, 0, NULL));
    expect_refused_update(e, more, -2, "one node more");
    px_graph *fewer = new_graph("fewer");
    TK_OK(px_graph_add_fill(fewer, NULL, 0, x, &(double){1.0}, NULL));
    expect_refused_update(e, fewer, -2, "one node fewer");
    check_unchanged(e, y);
    TK_OK(px_graph_destroy(&more));
    TK_OK(px_graph_destroy(&fewer));
    TK_OK(px_graph_exec_destroy(&e));
    TK_OK(px_graph_destroy(&g1));
    TK_RELEASE(x, y);
}
END_TEST

START_TEST(update_refuses_other_kind)
{
    px_view *x = vf("x", 100), *y = vf("y", 100);
    px_graph *g1 = fill_axpb_graph(x, y, 2.0, 3.0, 1.0);
    px_graph_exec *e = instantiate(g1);
    /* node 1 a copy instead of a kernel */
    px_graph *k2 = new_graph("kinds");
    px_graph_node *f = NULL;
    TK_OK(px_graph_add_fill(k2, NULL, 0, x, &(double){1.0}, &f));
    TK_OK(px_graph_add_copy(k2, &f, 1, y, x, NULL));
    expect_refused_update(e, k2, 1, "a copy for a kernel");
    check_unchanged(e, y);
    TK_OK(px_graph_destroy(&k2));
    TK_OK(px_graph_exec_destroy(&e));
    TK_OK(px_graph_destroy(&g1));
    TK_RELEASE(x, y);
}
END_TEST

START_TEST(update_refuses_other_kernel)
{
    px_view *x = vf("x", 100), *y = vf("y", 100);
    px_graph *g1 = fill_axpb_graph(x, y, 2.0, 3.0, 1.0);
    px_graph_exec *e = instantiate(g1);
    px_graph *k2 = new_graph("kernels");
    px_graph_node *f = NULL;
    g_set_args s = {sf(y), 4.0};
    TK_OK(px_graph_add_fill(k2, NULL, 0, x, &(double){1.0}, &f));
    TK_OK(px_graph_add_for(k2, &f, 1, "set", px_range(0, 100), PX_KERNEL(g_set), &s, NULL));
    expect_refused_update(e, k2, 1, "another kernel");
    check_unchanged(e, y);
    TK_OK(px_graph_destroy(&k2));
    TK_OK(px_graph_exec_destroy(&e));
    TK_OK(px_graph_destroy(&g1));
    TK_RELEASE(x, y);
}
END_TEST

/* The same kinds in the same order but other dependencies: not the same shape. */
START_TEST(update_refuses_other_dependencies)
{
    px_view *x = vf("x", 100), *y = vf("y", 100);
    px_graph *g1 = fill_axpb_graph(x, y, 2.0, 3.0, 1.0);
    px_graph_exec *e = instantiate(g1);
    px_graph *k2 = new_graph("deps");
    g_axpb_args ar = axpb(x, y, 3.0, 1.0);
    TK_OK(px_graph_add_fill(k2, NULL, 0, x, &(double){2.0}, NULL));
    TK_OK(px_graph_add_for(k2, NULL, 0, "axpb", px_range(0, 100), PX_KERNEL(g_axpb), &ar, NULL));
    expect_refused_update(e, k2, 1, "node 1 without its dependency");
    check_unchanged(e, y);
    TK_OK(px_graph_destroy(&k2));
    TK_OK(px_graph_exec_destroy(&e));
    TK_OK(px_graph_destroy(&g1));
    TK_RELEASE(x, y);
}
END_TEST

/* Capture each step, update: the usual pattern for captured graphs. */
static px_graph *capture_axpb(px_instance *in, px_view *x, px_view *y, double a, double b)
{
    g_axpb_args ar = axpb(x, y, a, b);
    TK_OK(px_graph_capture_begin(in, PX_CAPTURE_THREAD_LOCAL));
    TK_OK(px_fill_async(in, x, &(double){1.0}, NULL));
    TK_OK(px_parallel_for(in, "axpb", px_range(0, tk_info(x).size), PX_KERNEL(g_axpb), &ar));
    px_graph *g = NULL;
    TK_OK(px_graph_capture_end(in, &g));
    ck_assert_ptr_nonnull(g);
    return g;
}

START_TEST(update_from_capture)
{
    px_view *x = vf("x", 256), *y = vf("y", 256);
    px_instance *in = tk_instance("capturing");
    px_graph *g1 = capture_axpb(in, x, y, 2.0, 0.0);
    px_graph_exec *e = instantiate(g1);
    TK_OK(px_graph_destroy(&g1));
    launch_fenced(e, in);
    ALL_F64(y, 2.0);
    px_graph *g2 = capture_axpb(in, x, y, 3.0, 1.0);
    px_graph_update_report rep;
    memset(&rep, 0, sizeof rep);
    const px_status st = px_graph_exec_update(e, g2, &rep);
    TK_ASSERT(st == PX_OK, "update: %s: %s (node %d: %s)", px_status_name(st), px_last_error(),
              rep.node, rep.reason);
    TK_OK(px_graph_destroy(&g2));
    launch_fenced(e, in);
    ALL_F64(y, 4.0);
    TK_OK(px_graph_exec_destroy(&e));
    TK_OK(px_instance_destroy(&in));
    TK_RELEASE(x, y);
}
END_TEST

/* Everything the graph names released, the graph destroyed: the exec still runs right,
 * the memory goes when the exec does. */
START_TEST(lifetime_views_and_graph_released)
{
    const int64_t n = 500;
    px_view *out = hf("out", 1);
    const size_t base = space_bytes(tk_space());
    px_view *hs = hf("hs", n), *d = vf("d", n), *t = vf("t", n), *r = vf("r", 1);
    double *s = (double *)tk_data(hs);
    for (int64_t i = 0; i < n; ++i) s[i] = (double)(i + 1);
    const size_t full = space_bytes(tk_space());
    ck_assert_uint_gt(full, base);
    px_graph *g = new_graph("lifetime");
    px_graph_node *c = NULL, *k = NULL, *rd = NULL;
    g_axpb_args a = axpb(d, t, 2.0, 0.0);
    g_sum_args sa = {sf(t)};
    TK_OK(px_graph_add_copy(g, NULL, 0, d, hs, &c));
    TK_OK(px_graph_add_for(g, &c, 1, "t=2d", px_range(0, n), PX_KERNEL(g_axpb), &a, &k));
    px_view *uses[2] = {d, t};
    TK_OK(px_graph_node_uses(k, uses, 2));
    TK_OK(px_graph_add_reduce(g, &k, 1, "sum", px_range(0, n), PX_KERNEL(g_sum), &sa, r, &rd));
    TK_OK(px_graph_add_copy(g, &rd, 1, out, r, NULL));
    px_graph_exec *e = instantiate(g);
    TK_RELEASE(hs, d, t, r);
    TK_OK(px_graph_destroy(&g));
    ck_assert_uint_eq(space_bytes(tk_space()), full); /* all still held */
    const double want = (double)n * (double)(n + 1);
    for (int k2 = 0; k2 < 2; ++k2) {
        launch_fenced(e, tk_inst());
        const double got = ((const double *)tk_data(out))[0];
        TK_ASSERT(got == want, "launch %d: %.17g, expected %.17g", k2, got, want);
    }
    TK_OK(px_graph_exec_destroy(&e));
    ck_assert_ptr_null(e);
    ck_assert_uint_eq(space_bytes(tk_space()), base);
    TK_RELEASE(out);
}
END_TEST

/* Destroying the exec right after a launch waits for it. */
START_TEST(exec_destroy_waits)
{
    const int64_t n = 1 << 20;
    px_view *v = vi("v", n);
    px_graph *g = new_graph("wait");
    g_inc_args a = inc_args(v, 1);
    px_graph_node *prev = NULL;
    for (int i = 0; i < 8; ++i) {
        px_graph_node *k = NULL;
        TK_OK(px_graph_add_for(g, prev ? &prev : NULL, prev ? 1 : 0, "inc", px_range(0, n),
                               PX_KERNEL(g_inc), &a, &k));
        prev = k;
    }
    px_graph_exec *e = instantiate(g);
    TK_OK(px_graph_destroy(&g));
    px_instance *in = tk_instance("destroyer");
    TK_OK(px_graph_launch(e, in));
    TK_OK(px_graph_exec_destroy(&e));
    /* Read through another instance, ordered after nothing. */
    px_view *h = NULL;
    TK_OK(px_view_create_mirror(&h, px_host(), v));
    px_instance *other = tk_instance("reader");
    TK_OK(px_deep_copy_async(other, h, v, NULL));
    TK_OK(px_instance_fence(other));
    const int64_t *x = (const int64_t *)tk_data(h);
    for (int64_t i = 0; i < n; ++i)
        TK_ASSERT(x[i] == 8, "v[%lld] = %lld", (long long)i, (long long)x[i]);
    TK_OK(px_instance_destroy(&other));
    TK_OK(px_instance_destroy(&in));
    TK_RELEASE(h, v);
}
END_TEST

/* One exec launched on two instances one after the other. */
START_TEST(exec_on_two_instances)
{
    const int64_t n = 4096;
    px_view *x = vf("x", n), *r = vf("r", 1);
    px_graph *g = new_graph("two");
    g_axpb_args a = axpb(x, x, 1.0, 1.0);
    g_sum_args s = {sf(x)};
    px_graph_node *k = NULL;
    TK_OK(px_graph_add_for(g, NULL, 0, "x+1", px_range(0, n), PX_KERNEL(g_axpb), &a, &k));
    TK_OK(px_graph_add_reduce(g, &k, 1, "sum", px_range(0, n), PX_KERNEL(g_sum), &s, r, NULL));
    px_graph_exec *e = instantiate(g);
    px_instance *ia = tk_instance("a"), *ib = tk_instance("b");
    launch_fenced(e, ia);
    TK_ASSERT(getf(r, 0) == (double)n, "after a: %g", getf(r, 0));
    launch_fenced(e, ib);
    TK_ASSERT(getf(r, 0) == 2.0 * (double)n, "after b: %g", getf(r, 0));
    launch_fenced(e, tk_inst());
    TK_ASSERT(getf(r, 0) == 3.0 * (double)n, "after the default instance: %g", getf(r, 0));
    ALL_F64(x, 3.0);
    TK_OK(px_graph_exec_destroy(&e));
    TK_OK(px_graph_destroy(&g));
    TK_OK(px_instance_destroy(&ia));
    TK_OK(px_instance_destroy(&ib));
    TK_RELEASE(x, r);
}
END_TEST

/* Two executable graphs of one graph with a reduction (they share its scratch): launches
 * on two instances without a fence in between run one after the other. */
START_TEST(two_execs_of_one_graph)
{
    const int64_t n = 1 << 16;
    px_view *x = vf("x", n), *r = vf("r", 1);
    px_graph *g = new_graph("shared scratch");
    g_axpb_args a = axpb(x, x, 1.0, 1.0);
    g_sum_args s = {sf(x)};
    px_graph_node *k = NULL;
    TK_OK(px_graph_add_for(g, NULL, 0, "x+1", px_range(0, n), PX_KERNEL(g_axpb), &a, &k));
    TK_OK(px_graph_add_reduce(g, &k, 1, "sum", px_range(0, n), PX_KERNEL(g_sum), &s, r, NULL));
    px_graph_exec *e1 = instantiate(g), *e2 = instantiate(g);
    px_instance *ia = tk_instance("a"), *ib = tk_instance("b");
    TK_OK(px_graph_launch(e1, ia));
    TK_OK(px_graph_launch(e2, ib));
    TK_OK(px_instance_fence(ia));
    TK_OK(px_instance_fence(ib));
    ALL_F64(x, 2.0);
    TK_ASSERT(getf(r, 0) == 2.0 * (double)n, "sum %.17g, expected %.17g", getf(r, 0),
              2.0 * (double)n);
    TK_OK(px_graph_exec_destroy(&e1));
    launch_fenced(e2, ia);
    TK_ASSERT(getf(r, 0) == 3.0 * (double)n, "sum %.17g after e1 went", getf(r, 0));
    TK_OK(px_graph_exec_destroy(&e2));
    TK_OK(px_graph_destroy(&g));
    TK_OK(px_instance_destroy(&ia));
    TK_OK(px_instance_destroy(&ib));
    TK_RELEASE(x, r);
}
END_TEST

/* The same with a WHILE node (they share its condition). */
/* CUDA instantiates a graph with conditional nodes once at a time, and so does every
   backend: the second is refused until the first is gone. Launched on two instances one
   after the other, the one executable graph gives each launch its own pass count. */
START_TEST(conditional_graph_one_exec_at_a_time)
{
    px_view *counter = vi("counter", 1), *after = vi("after", 1);
    px_graph *g = NULL;
    px_graph_exec *e1 = counting_loop(counter, after, 1, 40, &g);
    px_graph_exec *e2 = NULL;
    TK_FAIL(px_graph_instantiate(g, &e2), PX_ERR_UNSUPPORTED, "px_graph_instantiate");
    ck_assert_ptr_null(e2);
    px_instance *ia = tk_instance("a"), *ib = tk_instance("b");
    launch_fenced(e1, ia);
    launch_fenced(e1, ib);
    ck_assert_int_eq(geti(counter, 0), 40);
    ck_assert_int_eq(geti(after, 0), 40);
    TK_OK(px_graph_exec_destroy(&e1));
    e2 = instantiate(g);
    launch_fenced(e2, ia);
    ck_assert_int_eq(geti(after, 0), 40);
    TK_OK(px_graph_exec_destroy(&e2));
    TK_OK(px_graph_destroy(&g));
    TK_OK(px_instance_destroy(&ia));
    TK_OK(px_instance_destroy(&ib));
    TK_RELEASE(counter, after);
}
END_TEST

/* A child cannot hold the graph it goes into, at any depth: no circle of children. */
START_TEST(child_cycle_refused)
{
    px_graph *a = new_graph("a"), *b = new_graph("b");
    TK_OK(px_graph_add_empty(a, NULL, 0, NULL));
    TK_OK(px_graph_add_child(b, NULL, 0, a, NULL));
    TK_FAIL(px_graph_add_child(a, NULL, 0, b, NULL), PX_ERR_INVALID_ARGUMENT, "px_graph_add_child");
    ck_assert_int_eq(count_of(a), 1);
    px_graph_exec *e = instantiate(a);
    launch_fenced(e, tk_inst());
    TK_OK(px_graph_exec_destroy(&e));
    TK_OK(px_graph_destroy(&a));
    TK_OK(px_graph_destroy(&b));
}
END_TEST

/* A child node copies its graph, which CUDA cannot do with conditional nodes: refused on
   every backend, and nothing added. */
START_TEST(child_with_conditional_refused)
{
    px_view *counter = vi("counter", 1), *after = vi("after", 1);
    px_graph *inner = NULL;
    px_graph_exec *e = counting_loop(counter, after, 1, 3, &inner);
    px_graph *outer = new_graph("outer");
    TK_FAIL(px_graph_add_child(outer, NULL, 0, inner, NULL), PX_ERR_UNSUPPORTED,
            "px_graph_add_child");
    ck_assert_int_eq(count_of(outer), 0);
    TK_OK(px_graph_exec_destroy(&e));
    TK_OK(px_graph_destroy(&outer));
    TK_OK(px_graph_destroy(&inner));
    TK_RELEASE(counter, after);
}
END_TEST

/* A graph that child nodes copy takes no WHILE or IF node while a copy exists (CUDA does
   not instantiate a graph holding conditional nodes while a copy of it exists): refused
   on every backend, nothing added. A copy lasts as long as the graph holding it, which an
   executable graph keeps. With the copies gone the graph takes one, and runs. */
START_TEST(conditional_refused_while_copied)
{
    px_view *v = vi("v", 16);
    TK_OK(px_fill(v, &(int64_t){0}, NULL));
    px_graph *g = new_graph("copied"), *h1 = new_graph("holder 1"), *h2 = new_graph("holder 2");
    g_inc_args one = inc_args(v, 1), ten = inc_args(v, 10);
    px_graph_node *k = NULL;
    TK_OK(px_graph_add_for(g, NULL, 0, "v+1", px_range(0, 16), PX_KERNEL(g_inc), &one, &k));
    TK_OK(px_graph_add_child(h1, NULL, 0, g, NULL));
    TK_OK(px_graph_add_child(h2, NULL, 0, g, NULL));
    px_graph_exec *e2 = instantiate(h2);
    px_graph_cond_t *c = NULL;
    px_graph *body = NULL;
    px_graph_node *in = NULL;
    TK_FAIL(px_graph_add_if(g, &k, 1, "if", 1, &c, &body, &in), PX_ERR_UNSUPPORTED,
            "px_graph_add_if");
    TK_ERROR_HAS("copied by 2 child nodes");
    ck_assert_ptr_null(c);
    ck_assert_ptr_null(body);
    ck_assert_ptr_null(in);
    ck_assert_int_eq(count_of(g), 1);
    TK_OK(px_graph_destroy(&h1));
    TK_OK(px_graph_destroy(&h2)); /* e2 keeps it, and its copy */
    TK_FAIL(px_graph_add_while(g, &k, 1, "while", 0, &c, &body, NULL), PX_ERR_UNSUPPORTED,
            "px_graph_add_while");
    TK_ERROR_HAS("copied by 1 child node");
    ck_assert_int_eq(count_of(g), 1);
    launch_fenced(e2, tk_inst());
    ALL_I64(v, 1);
    TK_OK(px_graph_exec_destroy(&e2));
    TK_OK(px_graph_add_if(g, &k, 1, "if", 1, &c, &body, &in));
    TK_OK(px_graph_add_for(body, NULL, 0, "v+10", px_range(0, 16), PX_KERNEL(g_inc), &ten, NULL));
    px_graph_exec *e = instantiate(g);
    launch_fenced(e, tk_inst());
    ALL_I64(v, 12);
    TK_OK(px_graph_exec_destroy(&e));
    TK_OK(px_graph_destroy(&g));
    TK_RELEASE(v);
}
END_TEST

/* ============================================================================================ */
/* ---- Capture (suite graph_capture) ----------------------------------------------------------- */

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
    TK_OK(px_graph_exec_destroy(&e));
    TK_OK(px_graph_destroy(&g));
    TK_OK(px_instance_destroy(&in));
    TK_RELEASE(v, w);
}
END_TEST

/* ============================================================================================ */
/* ---- Misuse (suite graph_errors) ------------------------------------------------------------ */

START_TEST(deps_from_other_graph_refused)
{
    px_view *v = vi("v", 4);
    px_graph *g = new_graph("g"), *h = new_graph("h");
    g_inc_args a = inc_args(v, 1);
    px_graph_node *hn = NULL, *gn = NULL;
    TK_OK(px_graph_add_for(h, NULL, 0, "in h", px_range(0, 4), PX_KERNEL(g_inc), &a, &hn));
    TK_OK(px_graph_add_for(g, NULL, 0, "in g", px_range(0, 4), PX_KERNEL(g_inc), &a, &gn));
    px_graph_node *both[2] = {gn, hn};
    TK_FAIL(px_graph_add_for(g, &hn, 1, "x", px_range(0, 4), PX_KERNEL(g_inc), &a, NULL),
            PX_ERR_INVALID_ARGUMENT, "px_graph_add_for");
    TK_FAIL(px_graph_add_empty(g, both, 2, NULL), PX_ERR_INVALID_ARGUMENT, "px_graph_add_empty");
    TK_FAIL(px_graph_add_fill(g, &hn, 1, v, &(int64_t){0}, NULL), PX_ERR_INVALID_ARGUMENT,
            "px_graph_add_fill");
    TK_FAIL(px_graph_add_host(g, &hn, 1, NULL, host_probe_fn, NULL, NULL), PX_ERR_INVALID_ARGUMENT,
            "px_graph_add_host");
    /* A body's node is of another graph than the body's owner. */
    px_graph_cond_t *c = NULL;
    px_graph *body = NULL;
    TK_OK(px_graph_add_while(g, &gn, 1, "loop", 0, &c, &body, NULL));
    TK_FAIL(px_graph_add_for(body, &gn, 1, "x", px_range(0, 4), PX_KERNEL(g_inc), &a, NULL),
            PX_ERR_INVALID_ARGUMENT, "px_graph_add_for");
    /* The same node twice, a negative count, NULL with a count. */
    px_graph_node *twice[2] = {gn, gn};
    TK_FAIL(px_graph_add_empty(g, twice, 2, NULL), PX_ERR_INVALID_ARGUMENT, "px_graph_add_empty");
    TK_FAIL(px_graph_add_empty(g, &gn, -1, NULL), PX_ERR_INVALID_ARGUMENT, "px_graph_add_empty");
    TK_FAIL(px_graph_add_empty(g, NULL, 1, NULL), PX_ERR_INVALID_ARGUMENT, "px_graph_add_empty");
    ck_assert_int_eq(count_of(g), 2);
    ck_assert_int_eq(count_of(body), 0);
    ck_assert_int_eq(count_of(h), 1);
    TK_OK(px_graph_destroy(&g));
    TK_OK(px_graph_destroy(&h));
    TK_RELEASE(v);
}
END_TEST

/* A WHILE or IF body takes no host function. */
START_TEST(body_refuses_host_node)
{
    px_graph *g = new_graph("g");
    px_graph_cond_t *c = NULL, *ci = NULL;
    px_graph *body = NULL, *ibody = NULL;
    TK_OK(px_graph_add_while(g, NULL, 0, "loop", 0, &c, &body, NULL));
    TK_OK(px_graph_add_if(g, NULL, 0, "if", 0, &ci, &ibody, NULL));
    int log[16], nlog = 0;
    host_probe p = {log, &nlog, 1, NULL, 0.0};
    TK_FAIL(px_graph_add_host(body, NULL, 0, "host", host_probe_fn, &p, NULL),
            PX_ERR_INVALID_ARGUMENT, "px_graph_add_host");
    TK_FAIL(px_graph_add_host(ibody, NULL, 0, "host", host_probe_fn, &p, NULL),
            PX_ERR_INVALID_ARGUMENT, "px_graph_add_host");
    ck_assert_int_eq(count_of(body), 0);
    ck_assert_int_eq(count_of(ibody), 0);
    /* The top level takes it. */
    TK_OK(px_graph_add_host(g, NULL, 0, "host", host_probe_fn, &p, NULL));
    px_graph_exec *e = instantiate(g);
    launch_fenced(e, tk_inst());
    ck_assert_int_eq(nlog, 1);
    TK_OK(px_graph_exec_destroy(&e));
    TK_OK(px_graph_destroy(&g));
}
END_TEST

static px_status cap_nothing(px_instance *inst, void *data)
{
    (void)inst;
    (void)data;
    return PX_OK;
}

/* A WHILE or IF body takes no captured node (graph.h: "no host functions and no captured
 * nodes ... refused when added"). */
START_TEST(body_refuses_captured_node)
{
    px_graph *g = new_graph("g");
    px_graph_cond_t *c = NULL, *ci = NULL;
    px_graph *body = NULL, *ibody = NULL;
    TK_OK(px_graph_add_while(g, NULL, 0, "loop", 0, &c, &body, NULL));
    TK_OK(px_graph_add_if(g, NULL, 0, "if", 0, &ci, &ibody, NULL));
    px_clear_error();
    px_status st = px_graph_add_captured(body, NULL, 0, "captured", cap_nothing, NULL, NULL);
    TK_ASSERT(st != PX_OK, "a captured node was added to a WHILE body (%d nodes in it now)",
              count_of(body));
    TK_ASSERT(strstr(px_last_error(), "px_graph_add_captured") != NULL, "error '%s'",
              px_last_error());
    px_clear_error();
    st = px_graph_add_captured(ibody, NULL, 0, "captured", cap_nothing, NULL, NULL);
    TK_ASSERT(st != PX_OK, "a captured node was added to an IF body (%d nodes in it now)",
              count_of(ibody));
    ck_assert_int_eq(count_of(body), 0);
    ck_assert_int_eq(count_of(ibody), 0);
    TK_OK(px_graph_destroy(&g));
}
END_TEST

/* CUDA: a body's copies and fills touch device memory only. */
START_TEST(body_refuses_host_memory)
{
    if (!tk_is_cuda()) TK_SKIP("CUDA only: on serial HOST is the graph's device memory");
    px_graph *g = new_graph("g");
    px_graph_cond_t *c = NULL;
    px_graph *body = NULL;
    TK_OK(px_graph_add_while(g, NULL, 0, "loop", 0, &c, &body, NULL));
    px_view *pinned = hf("pinned", 4), *dev = vf("dev", 4);
    px_clear_error();
    px_status st = px_graph_add_fill(body, NULL, 0, pinned, &(double){1.0}, NULL);
    TK_ASSERT(st != PX_OK, "a fill of HOST_PINNED memory was added to a WHILE body");
    TK_ASSERT(strstr(px_last_error(), "px_graph_add_fill") != NULL, "error '%s'", px_last_error());
    px_clear_error();
    st = px_graph_add_copy(body, NULL, 0, dev, pinned, NULL);
    TK_ASSERT(st != PX_OK, "a copy from HOST_PINNED memory was added to a WHILE body");
    TK_ASSERT(strstr(px_last_error(), "px_graph_add_copy") != NULL, "error '%s'", px_last_error());
    ck_assert_int_eq(count_of(body), 0);
    TK_OK(px_graph_add_fill(body, NULL, 0, dev, &(double){1.0}, NULL));
    ck_assert_int_eq(count_of(body), 1);
    TK_OK(px_graph_destroy(&g));
    TK_RELEASE(pinned, dev);
}
END_TEST

/* A body belongs to its node: destroying it is refused, and it goes on working. */
START_TEST(destroy_body_refused)
{
    px_view *counter = vi("counter", 1);
    px_graph *g = new_graph("g");
    px_graph_cond_t *c = NULL;
    px_graph *body = NULL;
    TK_OK(px_graph_add_while(g, NULL, 0, "loop", 1, &c, &body, NULL));
    px_graph *b = body;
    TK_FAIL(px_graph_destroy(&b), PX_ERR_INVALID_ARGUMENT, "px_graph_destroy");
    ck_assert_ptr_eq(b, body);
    g_count_args ca = {si(counter), 4, cond_of(c)};
    TK_OK(px_graph_add_for(body, NULL, 0, "count", px_range(0, 1), PX_KERNEL(g_count), &ca, NULL));
    /* Nor can a body be a child, or its own graph be a child of it. */
    TK_FAIL(px_graph_add_child(g, NULL, 0, body, NULL), PX_ERR_INVALID_ARGUMENT,
            "px_graph_add_child");
    TK_FAIL(px_graph_add_child(body, NULL, 0, g, NULL), PX_ERR_INVALID_ARGUMENT,
            "px_graph_add_child");
    TK_FAIL(px_graph_add_child(g, NULL, 0, g, NULL), PX_ERR_INVALID_ARGUMENT, "px_graph_add_child");
    px_graph_exec *e = instantiate(g);
    launch_fenced(e, tk_inst());
    ck_assert_int_eq(geti(counter, 0), 4);
    TK_OK(px_graph_exec_destroy(&e));
    TK_OK(px_graph_destroy(&g));
    TK_RELEASE(counter);
}
END_TEST

/* NULL and destroyed handles, each refused naming the function. */
START_TEST(null_args_create_destroy)
{
    px_graph *none = NULL;
    TK_FAIL(px_graph_create(NULL, tk_exec(), 0, "x"), PX_ERR_INVALID_ARGUMENT, "px_graph_create");
    TK_FAIL(px_graph_create(&none, PX_EXEC_COUNT, 0, "x"), PX_ERR_INVALID_ARGUMENT,
            "px_graph_create");
    TK_FAIL2(px_graph_create(&none, tk_exec(), 1000, "x"), PX_ERR_NO_DEVICE,
             PX_ERR_INVALID_ARGUMENT, "px_graph_create");
    ck_assert_ptr_null(none);
    TK_FAIL(px_graph_destroy(NULL), PX_ERR_INVALID_ARGUMENT, "px_graph_destroy");
    TK_FAIL(px_graph_destroy(&none), PX_ERR_INVALID_ARGUMENT, "px_graph_destroy");
    px_graph *g = new_graph("g");
    TK_OK(px_graph_destroy(&g));
    TK_FAIL(px_graph_destroy(&g), PX_ERR_INVALID_ARGUMENT, "px_graph_destroy");
}
END_TEST

START_TEST(null_args_add_nodes)
{
    px_view *v = vi("v", 4), *r = vf("r", 1), *x = vf("x", 4);
    g_inc_args a = inc_args(v, 1);
    g_sum_args s = {sf(x)};
    g_scan_args sc = {si(v), si(v)};
    px_graph *g = new_graph("g");
    px_graph_node *k = NULL;
    TK_OK(px_graph_add_for(g, NULL, 0, "k", px_range(0, 4), PX_KERNEL(g_inc), &a, &k));
    const px_policy p = px_range(0, 4);
    TK_FAIL(px_graph_add_for(NULL, NULL, 0, "k", p, PX_KERNEL(g_inc), &a, NULL),
            PX_ERR_INVALID_ARGUMENT, "px_graph_add_for");
    TK_FAIL(px_graph_add_for(g, NULL, 0, "k", p, NULL, &a, NULL), PX_ERR_INVALID_ARGUMENT,
            "px_graph_add_for");
    TK_FAIL(px_graph_add_for(g, NULL, 0, "k", p, PX_KERNEL(g_inc), NULL, NULL),
            PX_ERR_INVALID_ARGUMENT, "px_graph_add_for");
    TK_FAIL(px_graph_add_reduce(NULL, NULL, 0, "r", p, PX_KERNEL(g_sum), &s, r, NULL),
            PX_ERR_INVALID_ARGUMENT, "px_graph_add_reduce");
    TK_FAIL(px_graph_add_reduce(g, NULL, 0, "r", p, PX_KERNEL(g_sum), &s, NULL, NULL),
            PX_ERR_INVALID_ARGUMENT, "px_graph_add_reduce");
    TK_FAIL(px_graph_add_reduce(g, NULL, 0, "r", p, NULL, &s, r, NULL), PX_ERR_INVALID_ARGUMENT,
            "px_graph_add_reduce");
    TK_FAIL(px_graph_add_scan(NULL, NULL, 0, "s", p, PX_KERNEL(g_scan_excl), &sc, NULL),
            PX_ERR_INVALID_ARGUMENT, "px_graph_add_scan");
    TK_FAIL(px_graph_add_scan(g, NULL, 0, "s", p, PX_KERNEL(g_scan_excl), NULL, NULL),
            PX_ERR_INVALID_ARGUMENT, "px_graph_add_scan");
    TK_FAIL(px_graph_add_copy(NULL, NULL, 0, v, v, NULL), PX_ERR_INVALID_ARGUMENT,
            "px_graph_add_copy");
    TK_FAIL(px_graph_add_copy(g, NULL, 0, NULL, v, NULL), PX_ERR_INVALID_ARGUMENT,
            "px_graph_add_copy");
    TK_FAIL(px_graph_add_copy(g, NULL, 0, v, NULL, NULL), PX_ERR_INVALID_ARGUMENT,
            "px_graph_add_copy");
    TK_FAIL(px_graph_add_fill(NULL, NULL, 0, v, &(int64_t){0}, NULL), PX_ERR_INVALID_ARGUMENT,
            "px_graph_add_fill");
    TK_FAIL(px_graph_add_fill(g, NULL, 0, NULL, &(int64_t){0}, NULL), PX_ERR_INVALID_ARGUMENT,
            "px_graph_add_fill");
    TK_FAIL(px_graph_add_fill(g, NULL, 0, v, NULL, NULL), PX_ERR_INVALID_ARGUMENT,
            "px_graph_add_fill");
    TK_FAIL(px_graph_add_host(NULL, NULL, 0, "h", host_probe_fn, NULL, NULL),
            PX_ERR_INVALID_ARGUMENT, "px_graph_add_host");
    TK_FAIL(px_graph_add_host(g, NULL, 0, "h", NULL, NULL, NULL), PX_ERR_INVALID_ARGUMENT,
            "px_graph_add_host");
    TK_FAIL(px_graph_add_empty(NULL, NULL, 0, NULL), PX_ERR_INVALID_ARGUMENT, "px_graph_add_empty");
    TK_FAIL(px_graph_add_child(NULL, NULL, 0, g, NULL), PX_ERR_INVALID_ARGUMENT,
            "px_graph_add_child");
    TK_FAIL(px_graph_add_child(g, NULL, 0, NULL, NULL), PX_ERR_INVALID_ARGUMENT,
            "px_graph_add_child");
    TK_FAIL(px_graph_add_captured(NULL, NULL, 0, "c", cap_nothing, NULL, NULL),
            PX_ERR_INVALID_ARGUMENT, "px_graph_add_captured");
    TK_FAIL(px_graph_add_captured(g, NULL, 0, "c", NULL, NULL, NULL), PX_ERR_INVALID_ARGUMENT,
            "px_graph_add_captured");
    TK_FAIL(px_graph_node_uses(NULL, &v, 1), PX_ERR_INVALID_ARGUMENT, "px_graph_node_uses");
    TK_FAIL(px_graph_node_uses(k, NULL, 1), PX_ERR_INVALID_ARGUMENT, "px_graph_node_uses");
    ck_assert_int_eq(count_of(g), 1);
    TK_OK(px_graph_destroy(&g));
    TK_RELEASE(v, r, x);
}
END_TEST

START_TEST(null_args_conditionals)
{
    px_view *v = vi("v", 4), *r = vf("r", 1);
    px_graph *g = new_graph("g");
    px_graph_cond_t *c = NULL;
    px_graph *body = NULL;
    px_cond cv;
    TK_FAIL(px_graph_cond_value(NULL, &cv), PX_ERR_INVALID_ARGUMENT, "px_graph_cond_value");
    TK_OK(px_graph_add_while(g, NULL, 0, "w", 0, &c, &body, NULL));
    TK_FAIL(px_graph_cond_value(c, NULL), PX_ERR_INVALID_ARGUMENT, "px_graph_cond_value");
    TK_FAIL(px_graph_cond_from_view(NULL, c, r, PX_CMP_LT, 1.0, NULL), PX_ERR_INVALID_ARGUMENT,
            "px_graph_cond_from_view");
    TK_FAIL(px_graph_cond_from_view(body, NULL, r, PX_CMP_LT, 1.0, NULL), PX_ERR_INVALID_ARGUMENT,
            "px_graph_cond_from_view");
    TK_FAIL(px_graph_cond_from_view(body, c, NULL, PX_CMP_LT, 1.0, NULL), PX_ERR_INVALID_ARGUMENT,
            "px_graph_cond_from_view");
    /* Not a F64 view. */
    TK_FAIL2(px_graph_cond_from_view(body, c, v, PX_CMP_LT, 1.0, NULL), PX_ERR_INVALID_ARGUMENT,
             PX_ERR_TYPE_MISMATCH, "px_graph_cond_from_view");
    TK_FAIL(px_graph_cond_from_view(body, c, r, (px_compare)99, 1.0, NULL), PX_ERR_INVALID_ARGUMENT,
            "px_graph_cond_from_view");
    ck_assert_int_eq(count_of(body), 0);
    ck_assert_int_eq(count_of(g), 1);
    px_graph_cond_t *c2 = NULL;
    px_graph *body2 = NULL;
    TK_FAIL(px_graph_add_while(NULL, NULL, 0, "w", 1, &c2, &body2, NULL), PX_ERR_INVALID_ARGUMENT,
            "px_graph_add_while");
    TK_FAIL(px_graph_add_if(NULL, NULL, 0, "i", 1, &c2, &body2, NULL), PX_ERR_INVALID_ARGUMENT,
            "px_graph_add_if");
    TK_FAIL(px_graph_add_while(g, NULL, 0, "w", 1, NULL, &body2, NULL), PX_ERR_INVALID_ARGUMENT,
            "px_graph_add_while");
    TK_FAIL(px_graph_add_while(g, NULL, 0, "w", 1, &c2, NULL, NULL), PX_ERR_INVALID_ARGUMENT,
            "px_graph_add_while");
    TK_FAIL(px_graph_add_if(g, NULL, 0, "i", 1, NULL, &body2, NULL), PX_ERR_INVALID_ARGUMENT,
            "px_graph_add_if");
    TK_FAIL(px_graph_add_if(g, NULL, 0, "i", 1, &c2, NULL, NULL), PX_ERR_INVALID_ARGUMENT,
            "px_graph_add_if");
    ck_assert_int_eq(count_of(g), 1);
    TK_OK(px_graph_destroy(&g));
    TK_RELEASE(v, r);
}
END_TEST

START_TEST(null_args_introspection)
{
    px_view *v = vi("v", 4);
    g_inc_args a = inc_args(v, 1);
    px_graph *g = new_graph("g");
    px_graph_node *k = NULL;
    TK_OK(px_graph_add_for(g, NULL, 0, "k", px_range(0, 4), PX_KERNEL(g_inc), &a, &k));
    int i = 0;
    const char *label = NULL;
    TK_FAIL(px_graph_node_index(NULL, &i), PX_ERR_INVALID_ARGUMENT, "px_graph_node_index");
    TK_FAIL(px_graph_node_index(k, NULL), PX_ERR_INVALID_ARGUMENT, "px_graph_node_index");
    TK_FAIL(px_graph_node_label(NULL, &label), PX_ERR_INVALID_ARGUMENT, "px_graph_node_label");
    TK_FAIL(px_graph_node_label(k, NULL), PX_ERR_INVALID_ARGUMENT, "px_graph_node_label");
    TK_FAIL(px_graph_node_count(NULL, &i), PX_ERR_INVALID_ARGUMENT, "px_graph_node_count");
    TK_FAIL(px_graph_node_count(g, NULL), PX_ERR_INVALID_ARGUMENT, "px_graph_node_count");
    TK_FAIL(px_graph_dot(NULL, stderr), PX_ERR_INVALID_ARGUMENT, "px_graph_dot");
    TK_FAIL(px_graph_dot(g, NULL), PX_ERR_INVALID_ARGUMENT, "px_graph_dot");
    TK_OK(px_graph_destroy(&g));
    TK_RELEASE(v);
}
END_TEST

START_TEST(null_args_exec_and_capture)
{
    px_view *v = vi("v", 4);
    g_inc_args a = inc_args(v, 1);
    px_graph *g = new_graph("g"), *none = NULL;
    TK_OK(px_graph_add_for(g, NULL, 0, "k", px_range(0, 4), PX_KERNEL(g_inc), &a, NULL));
    px_graph_exec *e = NULL;
    TK_FAIL(px_graph_instantiate(NULL, &e), PX_ERR_INVALID_ARGUMENT, "px_graph_instantiate");
    TK_FAIL(px_graph_instantiate(g, NULL), PX_ERR_INVALID_ARGUMENT, "px_graph_instantiate");
    ck_assert_ptr_null(e);
    e = instantiate(g);
    TK_FAIL(px_graph_launch(NULL, tk_inst()), PX_ERR_INVALID_ARGUMENT, "px_graph_launch");
    TK_FAIL(px_graph_launch(e, NULL), PX_ERR_INVALID_ARGUMENT, "px_graph_launch");
    TK_FAIL(px_graph_upload(NULL, tk_inst()), PX_ERR_INVALID_ARGUMENT, "px_graph_upload");
    TK_FAIL(px_graph_upload(e, NULL), PX_ERR_INVALID_ARGUMENT, "px_graph_upload");
    TK_FAIL(px_graph_exec_update(NULL, g, NULL), PX_ERR_INVALID_ARGUMENT, "px_graph_exec_update");
    TK_FAIL(px_graph_exec_update(e, NULL, NULL), PX_ERR_INVALID_ARGUMENT, "px_graph_exec_update");
    TK_FAIL(px_graph_profile(NULL, tk_inst(), stderr), PX_ERR_INVALID_ARGUMENT, "px_graph_profile");
    TK_FAIL(px_graph_profile(e, NULL, stderr), PX_ERR_INVALID_ARGUMENT, "px_graph_profile");
    TK_FAIL(px_graph_profile(e, tk_inst(), NULL), PX_ERR_INVALID_ARGUMENT, "px_graph_profile");
    TK_FAIL(px_graph_capture_begin(NULL, PX_CAPTURE_THREAD_LOCAL), PX_ERR_INVALID_ARGUMENT,
            "px_graph_capture_begin");
    TK_FAIL(px_graph_capture_begin(tk_inst(), (px_capture_mode)42), PX_ERR_INVALID_ARGUMENT,
            "px_graph_capture_begin");
    TK_FAIL(px_graph_capture_end(NULL, &none), PX_ERR_INVALID_ARGUMENT, "px_graph_capture_end");
    TK_FAIL(px_graph_capture_end(tk_inst(), NULL), PX_ERR_INVALID_ARGUMENT, "px_graph_capture_end");
    TK_FAIL(px_graph_exec_destroy(NULL), PX_ERR_INVALID_ARGUMENT, "px_graph_exec_destroy");
    TK_OK(px_graph_exec_destroy(&e));
    TK_FAIL(px_graph_exec_destroy(&e), PX_ERR_INVALID_ARGUMENT, "px_graph_exec_destroy");
    /* Nothing ran, and the default instance is not left capturing. */
    TK_OK(px_instance_fence(tk_inst()));
    ALL_I64(v, 0);
    TK_OK(px_graph_destroy(&g));
    TK_RELEASE(v);
}
END_TEST

/* A kernel of the wrong kind or rank for the node. */
START_TEST(wrong_kernel_kind_refused)
{
    px_view *x = vf("x", 8), *r = vf("r", 1), *iv = vi("iv", 8);
    px_graph *g = new_graph("kinds");
    g_sum_args s = {sf(x)};
    g_axpb_args a = axpb(x, x, 1.0, 1.0);
    g_scan_args sc = {si(iv), si(iv)};
    const px_policy p = px_range(0, 8);
    TK_FAIL(px_graph_add_for(g, NULL, 0, NULL, p, PX_KERNEL(g_sum), &s, NULL),
            PX_ERR_INVALID_ARGUMENT, "px_graph_add_for");
    TK_FAIL(px_graph_add_for(g, NULL, 0, NULL, p, PX_KERNEL(g_scan_excl), &sc, NULL),
            PX_ERR_INVALID_ARGUMENT, "px_graph_add_for");
    TK_FAIL(px_graph_add_reduce(g, NULL, 0, NULL, p, PX_KERNEL(g_axpb), &a, r, NULL),
            PX_ERR_INVALID_ARGUMENT, "px_graph_add_reduce");
    TK_FAIL(px_graph_add_scan(g, NULL, 0, NULL, p, PX_KERNEL(g_sum), &s, NULL),
            PX_ERR_INVALID_ARGUMENT, "px_graph_add_scan");
    TK_FAIL(
        px_graph_add_for(g, NULL, 0, NULL, px_mdrange2(0, 2, 0, 4), PX_KERNEL(g_axpb), &a, NULL),
        PX_ERR_INVALID_ARGUMENT, "px_graph_add_for");
    /* A reduction result too small for the value (an I64 view of 0 elements). */
    px_view *empty = vi("empty", 0);
    TK_FAIL(px_graph_add_reduce(g, NULL, 0, NULL, p, PX_KERNEL(g_sum), &s, empty, NULL),
            PX_ERR_INVALID_ARGUMENT, "px_graph_add_reduce");
    ck_assert_int_eq(count_of(g), 0);
    TK_OK(px_graph_destroy(&g));
    TK_RELEASE(x, r, iv, empty);
}
END_TEST

/* CUDA: host memory a graph cannot replay. */
START_TEST(cuda_memory_rules)
{
    if (!tk_is_cuda()) TK_SKIP("CUDA graphs only: on serial every view is the graph's memory");
    px_view *pageable = tk_view1("pageable", px_host(), PX_F64, 8), *dev = vf("dev", 8),
            *r = vf("r", 1);
    px_view *hr = tk_view1("hr", px_host(), PX_F64, 1);
    px_graph *g = new_graph("cuda");
    TK_FAIL(px_graph_add_copy(g, NULL, 0, dev, pageable, NULL), PX_ERR_CAPTURE_PAGEABLE,
            "px_graph_add_copy");
    TK_FAIL(px_graph_add_copy(g, NULL, 0, pageable, dev, NULL), PX_ERR_CAPTURE_PAGEABLE,
            "px_graph_add_copy");
    TK_FAIL(px_graph_add_fill(g, NULL, 0, pageable, &(double){1.0}, NULL), PX_ERR_CAPTURE_PAGEABLE,
            "px_graph_add_fill");
    g_sum_args s = {sf(dev)};
    TK_FAIL(px_graph_add_reduce(g, NULL, 0, NULL, px_range(0, 8), PX_KERNEL(g_sum), &s, hr, NULL),
            PX_ERR_INVALID_ARGUMENT, "px_graph_add_reduce");
    ck_assert_int_eq(count_of(g), 0);
    /* A serial instance cannot launch a CUDA graph. */
    TK_OK(px_graph_add_reduce(g, NULL, 0, NULL, px_range(0, 8), PX_KERNEL(g_sum), &s, r, NULL));
    px_graph_exec *e = instantiate(g);
    px_instance *ser = NULL;
    TK_OK(px_instance_default(PX_EXEC_SERIAL, 0, &ser));
    TK_FAIL(px_graph_launch(e, ser), PX_ERR_INVALID_ARGUMENT, "px_graph_launch");
    /* Capture refuses pageable memory too, and goes on. */
    px_instance *in = tk_instance("cap");
    TK_OK(px_graph_capture_begin(in, PX_CAPTURE_THREAD_LOCAL));
    TK_FAIL(px_deep_copy_async(in, dev, pageable, NULL), PX_ERR_CAPTURE_PAGEABLE,
            "px_deep_copy_async");
    px_graph *cg = NULL;
    TK_OK(px_graph_capture_end(in, &cg));
    TK_OK(px_graph_destroy(&cg));
    TK_OK(px_graph_exec_destroy(&e));
    TK_OK(px_graph_destroy(&g));
    TK_OK(px_instance_destroy(&in));
    TK_RELEASE(pageable, dev, r, hr);
}
END_TEST

int main(void)
{
    TK_ADD(tk_case("graph", "build"), create_and_introspect, empty_graph_launches,
           for_node_runs_at_launch, reduce_node_into_view, scan_node_after_its_input,
           copy_and_fill_nodes, host_node_runs_in_order, upload_then_launch, dot_output,
           profile_output, profile_runs_what_it_says);
    TK_ADD(tk_case("graph", "order"), diamond_order, fan_out_fan_in, launch_many_times);
    TK_ADD(tk_case("graph", "child"), child_twice_in_sequence, child_in_body_and_top_level,
           nested_child_copies_ordered, child_copied_when_added, captured_node_between_nodes,
           captured_node_failure_adds_nothing);
    TK_ADD(tk_case("graph_cond", "while"), while_zero_iterations, while_one_iteration,
           while_many_iterations);
    TK_ADD(tk_case("graph_cond", "while_host_set"), cond_set_outside_launch_ignored);
    TK_ADD(tk_case("graph_cond", "while_from_view"), while_cond_from_view,
           while_reduction_residual);
    TK_ADD(tk_case("graph_cond", "reduce_in_body"), reduce_in_if_body);
    TK_ADD(tk_case("graph_cond", "if"), if_initial_value, if_set_by_kernel,
           cond_from_view_comparisons);
    TK_ADD(tk_case("graph_exec", "set"), set_args_next_launch, set_policy_next_launch,
           set_copy_next_launch, set_fill_next_launch, set_fill_zero_and_back, set_refused);
    TK_ADD(tk_case("graph_exec", "update"), update_same_shape, update_refuses_node_count,
           update_refuses_other_kind, update_refuses_other_kernel,
           update_refuses_other_dependencies, update_from_capture);
    TK_ADD(tk_case("graph_exec", "lifetime"), lifetime_views_and_graph_released, exec_destroy_waits,
           exec_on_two_instances, two_execs_of_one_graph, conditional_graph_one_exec_at_a_time,
           child_with_conditional_refused, conditional_refused_while_copied, child_cycle_refused);
    TK_ADD(tk_case("graph_capture", "capture"), capture_new_instance, capture_default_instance,
           capture_reduce_and_scan, captured_graph_takes_no_nodes);
    TK_ADD(tk_case("graph_capture", "misuse"), capture_nested_refused, capture_end_without_begin,
           capture_end_other_thread_refused, capture_relaxed_end_other_thread,
           capture_refuses_fence_and_destroy);
    TK_ADD(tk_case("graph_errors", "errors"), deps_from_other_graph_refused, body_refuses_host_node,
           body_refuses_captured_node, body_refuses_host_memory, destroy_body_refused,
           wrong_kernel_kind_refused, cuda_memory_rules);
    TK_ADD(tk_case("graph_errors", "null"), null_args_create_destroy, null_args_add_nodes,
           null_args_conditionals, null_args_introspection, null_args_exec_and_capture);
    return tk_run();
}
