/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* test_graph, suite graph: building graphs of every node kind and launching them, orders that
 * give wrong numbers when violated, launching one executable graph many times, child
 * graphs, captured nodes, DOT and profile output. */
#define _POSIX_C_SOURCE 200809L /* open_memstream (graph_util.h) */

#include <stdio.h>
#include <stdlib.h>

#include "test_graph.h"

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
    destroy_exec_and_graph(&e, &g);
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
    destroy_exec_and_graph(&e, &g);
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
    destroy_exec_and_graph(&e, &g);
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
    destroy_exec_and_graph(&e, &g);
    TK_RELEASE(hs, ho, d, f);
}
END_TEST

void host_probe_fn(void *data)
{
    host_probe *p = (host_probe *)data;
    if (*p->nlog < 16) p->log[(*p->nlog)++] = p->tag;
    if (p->watch) p->seen = *p->watch;
}

/* Host nodes run in the graph's order: the second sees what the copy before it wrote. */
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
    destroy_exec_and_graph(&e, &g);
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
    destroy_exec_and_graph(&e, &g);
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
    destroy_exec_and_graph(&e, &g);
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
    destroy_exec_and_graph(&e, &g);
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
    destroy_exec_and_graph(&e, &g);
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
    destroy_exec_and_graph(&e, &g);
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
    destroy_exec_and_graph(&e, &g);
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
    destroy_exec_and_graph(&e, &p);
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
    destroy_exec_and_graph(&e, &g);
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
    destroy_exec_and_graph(&e, &g);
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
    destroy_exec_and_graph(&e, &g);
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
    destroy_exec_and_graph(&e, &g);
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
        destroy_exec_and_graph(&e, &g);
    }
    fclose(sink);
    TK_RELEASE(v);
}
END_TEST

void graph_build_cases(void)
{
    TK_ADD(tk_case("graph", "build"), create_and_introspect, empty_graph_launches,
           for_node_runs_at_launch, reduce_node_into_view, scan_node_after_its_input,
           copy_and_fill_nodes, host_node_runs_in_order, upload_then_launch, dot_output,
           profile_output, profile_runs_what_it_says);
    TK_ADD(tk_case("graph", "order"), diamond_order, fan_out_fan_in, launch_many_times);
    TK_ADD(tk_case("graph", "child"), child_twice_in_sequence, child_in_body_and_top_level,
           nested_child_copies_ordered, child_copied_when_added, captured_node_between_nodes,
           captured_node_failure_adds_nothing);
}
