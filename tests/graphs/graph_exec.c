/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* test_graph, suite graph_exec: changing an executable graph between launches (arguments,
 * policies, copies, fills), updating it from a graph of the same shape and what an update
 * refuses, the lifetimes of graphs, executable graphs and the views they name, and the
 * rules for graphs that child nodes copy. */
#define _POSIX_C_SOURCE 200809L /* open_memstream (graph_util.h) */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_graph.h"

static size_t space_bytes(px_space sp)
{
    px_memory_stats ms;
    TK_OK(px_space_memory(sp, &ms));
    return ms.bytes_in_use;
}

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
    destroy_exec_and_graph(&e, &g);
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
    destroy_exec_and_graph(&e, &g);
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
    destroy_exec_and_graph(&e, &g);
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
    destroy_exec_and_graph(&e, &g);
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
        destroy_exec_and_graph(&e, &g);
        TK_OK(px_graph_destroy(&h));
    }
    TK_RELEASE(iv, fv);
}
END_TEST

/* Every element of v holds the bytes of `value` (elem bytes each). */
static void all_bytes(const px_view *v, const unsigned char *value, size_t elem, int64_t count)
{
    const size_t bytes = (size_t)count * elem;
    unsigned char *h = malloc(bytes ? bytes : 1);
    ck_assert_ptr_nonnull(h);
    TK_OK(px_deep_copy_to_host(h, bytes, v));
    for (int64_t i = 0; i < count; ++i)
        ck_assert_msg(memcmp(h + (size_t)i * elem, value, elem) == 0,
                      "element %lld (%zu bytes) is not the value set", (long long)i, elem);
    free(h);
}

/* Fill nodes of elements of 1, 2, 4, 8, 16 and 24 bytes (on CUDA: a one-word kernel node
   for 2 to 16, a child graph of pattern kernels for 1 and 24) and of a strided view (the
   strided kernel), each changed to another value and back, launched after each change. */
START_TEST(set_fill_every_element_size)
{
    const int64_t n = 777;
    const size_t sizes[] = {1, 2, 4, 8, 16, 24};
    for (size_t k = 0; k <= sizeof sizes / sizeof sizes[0]; ++k) {
        const bool strided = k == sizeof sizes / sizeof sizes[0];
        const size_t elem = strided ? 8 : sizes[k];
        const int64_t e2[2] = {n, 3};
        px_view *whole = tk_view_ex("whole", tk_space(), PX_USER, elem, PX_LAYOUT_RIGHT,
                                    strided ? 2 : 1, strided ? e2 : &n, 0);
        px_view *v = whole;
        if (strided) {
            const px_slice col[2] = {px_slice_all(), px_slice_index(1)};
            TK_OK(px_view_subview(&v, whole, col, 2));
        }
        unsigned char a[24], b[24];
        for (size_t i = 0; i < sizeof a; ++i) {
            a[i] = (unsigned char)(0x11 * (i % 15 + 1));
            b[i] = (unsigned char)(0xf0 - i);
        }
        px_graph *g = new_graph("fill sizes");
        px_graph_node *f = NULL;
        TK_OK(px_graph_add_fill(g, NULL, 0, v, a, &f));
        px_graph_exec *e = instantiate(g);
        launch_fenced(e, tk_inst());
        all_bytes(v, a, elem, n);
        TK_OK(px_graph_exec_set_fill(e, f, b));
        launch_fenced(e, tk_inst());
        all_bytes(v, b, elem, n);
        TK_OK(px_graph_exec_set_fill(e, f, a));
        launch_fenced(e, tk_inst());
        all_bytes(v, a, elem, n);
        destroy_exec_and_graph(&e, &g);
        if (strided) TK_RELEASE(v);
        TK_RELEASE(whole);
    }
}
END_TEST

/* After an update from a graph whose fill and copies move other views, px_graph_exec_set_fill
   and px_graph_exec_set_copy change what runs now: the updated graph's views, moved by the
   call, never those the nodes were made with. Copies DEVICE to DEVICE and host to DEVICE
   (on CUDA, memcpy nodes changed in place; the fill, a kernel node). */
START_TEST(set_after_update_moves_running_views)
{
    const int64_t n = 1000;
    px_view *f1 = vf("f1", n), *f2 = vf("f2", n), *d1 = vf("d1", n), *d2 = vf("d2", n);
    px_view *d3 = vf("d3", n), *e1 = vf("e1", n), *e2 = vf("e2", n), *s1 = vf("s1", n);
    px_view *s2 = vf("s2", n), *s3 = vf("s3", n), *h1 = hf("h1", n), *h2 = hf("h2", n);
    px_view *const zero[] = {f1, f2, d1, d2, d3, e1, e2};
    for (size_t k = 0; k < sizeof zero / sizeof zero[0]; ++k)
        TK_OK(px_fill(zero[k], &(double){0.0}, NULL));
    px_view *const src[] = {s1, s2, s3, h1, h2};
    for (size_t k = 0; k < sizeof src / sizeof src[0]; ++k)
        TK_OK(px_fill(src[k], &(double){(double)k + 1.0}, NULL));
    px_graph *g = new_graph("first"), *h = new_graph("second");
    px_graph_node *fill = NULL, *copy = NULL, *up = NULL;
    TK_OK(px_graph_add_fill(g, NULL, 0, f1, &(double){1.0}, &fill));
    TK_OK(px_graph_add_copy(g, NULL, 0, d1, s1, &copy));
    TK_OK(px_graph_add_copy(g, NULL, 0, e1, h1, &up));
    TK_OK(px_graph_add_fill(h, NULL, 0, f2, &(double){2.0}, NULL));
    TK_OK(px_graph_add_copy(h, NULL, 0, d2, s2, NULL));
    TK_OK(px_graph_add_copy(h, NULL, 0, e2, h1, NULL));
    px_graph_exec *e = instantiate(g);
    TK_OK(px_graph_exec_update(e, h, NULL));
    TK_OK(px_graph_exec_set_fill(e, fill, &(double){7.0}));
    TK_OK(px_graph_exec_set_copy(e, copy, d3, s3));
    TK_OK(px_graph_exec_set_copy(e, up, e2, h2));
    launch_fenced(e, tk_inst());
    ALL_F64(f2, 7.0);
    ALL_F64(d3, 3.0);
    ALL_F64(e2, 5.0);
    ALL_F64(f1, 0.0);
    ALL_F64(d1, 0.0);
    ALL_F64(d2, 0.0);
    ALL_F64(e1, 0.0);
    /* And back to the first views, the fill's value kept. */
    TK_OK(px_graph_exec_set_copy(e, copy, d2, s2));
    launch_fenced(e, tk_inst());
    ALL_F64(d2, 2.0);
    ALL_F64(f2, 7.0);
    destroy_exec_and_graph(&e, &g);
    TK_OK(px_graph_destroy(&h));
    TK_RELEASE(f1, f2, d1, d2, d3, e1, e2, s1, s2, s3, h1, h2);
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
    destroy_exec_and_graph(&e, &g);
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

/* Graphs an update from fill(x, 2) -> y = 3x + 1 must refuse (node: the node the report
   names, -2 for any), each made over the same views. */
static px_graph *one_node_more(px_view *x, px_view *y)
{
    px_graph *g = fill_axpb_graph(x, y, 1.0, 1.0, 1.0);
    TK_OK(px_graph_add_empty(g, NULL, 0, NULL));
    return g;
}

static px_graph *one_node_fewer(px_view *x, px_view *y)
{
    (void)y;
    px_graph *g = new_graph("fewer");
    TK_OK(px_graph_add_fill(g, NULL, 0, x, &(double){1.0}, NULL));
    return g;
}

/* Node 1 a copy instead of a kernel. */
static px_graph *other_kind(px_view *x, px_view *y)
{
    px_graph *g = new_graph("kinds");
    px_graph_node *f = NULL;
    TK_OK(px_graph_add_fill(g, NULL, 0, x, &(double){1.0}, &f));
    TK_OK(px_graph_add_copy(g, &f, 1, y, x, NULL));
    return g;
}

static px_graph *other_kernel(px_view *x, px_view *y)
{
    px_graph *g = new_graph("kernels");
    px_graph_node *f = NULL;
    g_set_args s = {sf(y), 4.0};
    TK_OK(px_graph_add_fill(g, NULL, 0, x, &(double){1.0}, &f));
    TK_OK(px_graph_add_for(g, &f, 1, "set", px_range(0, 100), PX_KERNEL(g_set), &s, NULL));
    return g;
}

/* The same kinds in the same order but other dependencies: not the same shape. */
static px_graph *other_dependencies(px_view *x, px_view *y)
{
    px_graph *g = new_graph("deps");
    g_axpb_args ar = axpb(x, y, 3.0, 1.0);
    TK_OK(px_graph_add_fill(g, NULL, 0, x, &(double){2.0}, NULL));
    TK_OK(px_graph_add_for(g, NULL, 0, "axpb", px_range(0, 100), PX_KERNEL(g_axpb), &ar, NULL));
    return g;
}

static const struct {
    const char *what;
    px_graph *(*build)(px_view *x, px_view *y);
    int node;
} refused_updates[] = {
    {"one node more", one_node_more, -2},
    {"one node fewer", one_node_fewer, -2},
    {"a copy for a kernel", other_kind, 1},
    {"another kernel", other_kernel, 1},
    {"node 1 without its dependency", other_dependencies, 1},
};
#define NREFUSED ((int)(sizeof refused_updates / sizeof refused_updates[0]))

/* _i: the row of refused_updates. The update is refused and exec runs as before. */
START_TEST(update_refused)
{
    px_view *x = vf("x", 100), *y = vf("y", 100);
    px_graph *g1 = fill_axpb_graph(x, y, 2.0, 3.0, 1.0);
    px_graph_exec *e = instantiate(g1);
    px_graph *from = refused_updates[_i].build(x, y);
    expect_refused_update(e, from, refused_updates[_i].node, refused_updates[_i].what);
    check_unchanged(e, y);
    TK_OK(px_graph_destroy(&from));
    destroy_exec_and_graph(&e, &g1);
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
    destroy_exec_and_graph(&e, &g);
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
    destroy_exec_and_graph(&e2, &g);
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
    destroy_exec_and_graph(&e2, &g);
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
    destroy_exec_and_graph(&e, &a);
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
    destroy_exec_and_graph(&e, &outer);
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
    destroy_exec_and_graph(&e, &g);
    TK_RELEASE(v);
}
END_TEST

void graph_exec_cases(void)
{
    TK_ADD(tk_case("graph_exec", "set"), set_args_next_launch, set_policy_next_launch,
           set_copy_next_launch, set_fill_next_launch, set_fill_zero_and_back,
           set_after_update_moves_running_views, set_fill_every_element_size, set_refused);
    TCase *update = tk_case("graph_exec", "update");
    TK_ADD(update, update_same_shape, update_from_capture);
    tcase_add_loop_test(update, update_refused, 0, NREFUSED);
    TK_ADD(tk_case("graph_exec", "lifetime"), lifetime_views_and_graph_released, exec_destroy_waits,
           exec_on_two_instances, two_execs_of_one_graph, conditional_graph_one_exec_at_a_time,
           child_with_conditional_refused, conditional_refused_while_copied, child_cycle_refused);
}
