/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Graphs (portex/graph.h) at their edges, on the backend under test: copies and fills
 * that move nothing, children that would hold their own parent, the instance
 * px_graph_add_captured lends its callback, what a WHILE or IF body takes (the same
 * whether a node or a child holds it), the element types px_graph_exec_set_copy keeps,
 * which nodes an update looks at, and px_finalize while a default instance is captured.
 *
 * Each case calls what a program could call by mistake or by chance (an empty view, a
 * link made in an unlucky order) and checks that it is either refused with a status and
 * a message naming the public call, or works as documented; the fixture then checks that
 * nothing leaked (no view memory left, px_finalize succeeds). */
#define _POSIX_C_SOURCE 200809L /* open_memstream */

#include <stdio.h>
#include <stdlib.h>

#include "common.h"
#include "graph_util.h"

/* ---- Helpers (and graph_util.h) --------------------------------------------------------------- */

/* v += d over its n elements, after `dep` (may be NULL). */
static px_graph_node *add_inc(px_graph *g, px_graph_node *dep, px_view *v, int64_t d)
{
    const g_inc_args a = inc_args(v, d);
    px_graph_node *n = NULL;
    TK_OK(px_graph_add_for(g, dep ? &dep : NULL, dep ? 1 : 0, "inc", px_range(0, tk_info(v).size),
                           PX_KERNEL(g_inc), &a, &n));
    return n;
}

/* ============================================================================================ */
/* ---- Copies and fills that move nothing (suite graph_noop) ------------------------------------ */

/* Fills of an empty view, copies between empty views and of a view into itself (dense and
   strided) are nodes that run as nothing: launches and the profile succeed, every time,
   and the kernel after them runs. */
START_TEST(noop_nodes_launch)
{
    px_view *empty = vi("empty", 0), *empty2 = vi("empty2", 0), *x = vi("x", 16);
    px_view *grid = tk_view("grid", tk_space(), PX_I64, 2, (const int64_t[]){6, 8});
    px_view *block = tk_sub2(grid, 1, 4, 2, 7); /* not contiguous */
    TK_OK(px_fill(x, &(int64_t){5}, NULL));
    TK_OK(px_fill(grid, &(int64_t){3}, NULL));
    px_graph *g = new_graph("noop");
    px_graph_node *f = NULL, *c = NULL, *s = NULL, *b = NULL;
    TK_OK(px_graph_add_fill(g, NULL, 0, empty, &(int64_t){7}, &f));
    TK_OK(px_graph_add_copy(g, &f, 1, empty, empty2, &c));
    TK_OK(px_graph_add_copy(g, &c, 1, x, x, &s));
    TK_OK(px_graph_add_copy(g, &s, 1, block, block, &b));
    add_inc(g, b, x, 1);
    ck_assert_int_eq(count_of(g), 5);
    px_graph_exec *e = instantiate(g);
    for (int i = 0; i < 3; ++i) launch_fenced(e, tk_inst());
    ALL_I64(x, 8);
    ALL_I64(grid, 3);
    memfile m;
    mem_open(&m);
    TK_OK(px_graph_profile(e, tk_inst(), m.f));
    char *json = mem_close(&m);
    TK_ASSERT(strstr(json, "\"index\": 4") != NULL, "the profile lacks the last node: %s", json);
    free(json);
    ALL_I64(x, 9);
    destroy_exec_and_graph(&e, &g);
    TK_RELEASE(block, grid, x, empty2, empty);
}
END_TEST

/* The setters keep a no-op node one: a new fill value, other views that move nothing
   either; views that would move data are refused (another copy path). */
START_TEST(noop_nodes_set)
{
    px_view *empty = vi("empty", 0), *x = vi("x", 8), *y = vi("y", 8);
    TK_OK(px_fill(x, &(int64_t){1}, NULL));
    TK_OK(px_fill(y, &(int64_t){2}, NULL));
    px_graph *g = new_graph("noop set");
    px_graph_node *f = NULL, *s = NULL;
    TK_OK(px_graph_add_fill(g, NULL, 0, empty, &(int64_t){7}, &f));
    TK_OK(px_graph_add_copy(g, &f, 1, x, x, &s));
    px_graph_exec *e = instantiate(g);
    TK_OK(px_graph_exec_set_fill(e, f, &(int64_t){9}));
    TK_OK(px_graph_exec_set_copy(e, s, y, y));
    TK_FAIL(px_graph_exec_set_copy(e, s, y, x), PX_ERR_INVALID_ARGUMENT, "px_graph_exec_set_copy");
    TK_ERROR_HAS("copy paths");
    launch_fenced(e, tk_inst());
    ALL_I64(x, 1);
    ALL_I64(y, 2);
    destroy_exec_and_graph(&e, &g);
    TK_RELEASE(y, x, empty);
}
END_TEST

/* A fill that moves nothing is an empty node: an update from a graph whose fill at that
   place moves data is refused with the node and the reason, and exec runs as before. */
START_TEST(noop_nodes_update)
{
    px_view *empty = vi("empty", 0), *x = vi("x", 8);
    TK_OK(px_fill(x, &(int64_t){0}, NULL));
    px_graph *g = new_graph("was"), *h = new_graph("now");
    add_inc(g, NULL, x, 1);
    TK_OK(px_graph_add_fill(g, NULL, 0, empty, &(int64_t){7}, NULL));
    add_inc(h, NULL, x, 1);
    TK_OK(px_graph_add_fill(h, NULL, 0, x, &(int64_t){7}, NULL));
    px_graph_exec *e = instantiate(g);
    px_graph_update_report r;
    TK_FAIL(px_graph_exec_update(e, h, &r), PX_ERR_INVALID_ARGUMENT, "px_graph_exec_update");
    ck_assert_int_eq(r.node, 1);
    TK_ASSERT(strstr(r.reason, "moves") != NULL, "reason '%s'", r.reason);
    launch_fenced(e, tk_inst());
    ALL_I64(x, 1);
    destroy_exec_and_graph(&e, &g);
    TK_OK(px_graph_destroy(&h));
    TK_RELEASE(x, empty);
}
END_TEST

/* A capture records no node for a fill or copy that moves nothing. */
START_TEST(noop_not_captured)
{
    px_view *empty = vi("empty", 0), *x = vi("x", 8);
    px_instance *in = tk_instance("noop capture");
    TK_OK(px_graph_capture_begin(in, PX_CAPTURE_THREAD_LOCAL));
    TK_OK(px_fill_async(in, empty, &(int64_t){1}, NULL));
    TK_OK(px_deep_copy_async(in, x, x, NULL));
    px_graph *g = NULL;
    TK_OK(px_graph_capture_end(in, &g));
    ck_assert_int_eq(count_of(g), 0);
    TK_OK(px_graph_destroy(&g));
    tk_destroy_all(&in, 1);
    TK_RELEASE(x, empty);
}
END_TEST

/* ============================================================================================ */
/* ---- Children never hold their own parent (suite graph_ownership) ---------------------------- */

/* A holds C while C is empty, C then holds B, B gets a fill of a large view, and B would
   hold A: refused, though A's copy of C has no node. Destroying every handle frees the
   view (the fixture checks that no view memory is left). */
START_TEST(circle_closed_later_refused)
{
    px_view *big = vi("big", 1 << 16);
    px_graph *a = new_graph("A"), *b = new_graph("B"), *c = new_graph("C");
    TK_OK(px_graph_add_child(a, NULL, 0, c, NULL));
    TK_OK(px_graph_add_child(c, NULL, 0, b, NULL));
    TK_OK(px_graph_add_fill(b, NULL, 0, big, &(int64_t){1}, NULL));
    TK_FAIL(px_graph_add_child(b, NULL, 0, a, NULL), PX_ERR_INVALID_ARGUMENT, "px_graph_add_child");
    TK_ERROR_HAS("cannot hold itself");
    ck_assert_int_eq(count_of(b), 1);
    TK_OK(px_graph_destroy(&a));
    TK_OK(px_graph_destroy(&b));
    TK_OK(px_graph_destroy(&c));
    TK_RELEASE(big);
}
END_TEST

/* Through a body: D holds a copy of A, so A takes no WHILE node (a graph holding
   conditional nodes and a live copy of it: CUDA would not instantiate A), and no circle
   A -> body -> D -> A can form. Once D is gone A takes one; its body holding A, and A
   holding A, are refused. Graphs sharing a child, or holding one twice, are no circle. */
START_TEST(circle_through_body_refused)
{
    px_graph *a = new_graph("A"), *d = new_graph("D"), *e = new_graph("E"), *f = new_graph("F");
    TK_OK(px_graph_add_child(d, NULL, 0, a, NULL));
    px_graph_cond_t *cond = NULL;
    px_graph *body = NULL;
    TK_FAIL(px_graph_add_while(a, NULL, 0, "while", 0, &cond, &body, NULL), PX_ERR_UNSUPPORTED,
            "px_graph_add_while");
    TK_ERROR_HAS("copied by 1 child node");
    ck_assert_ptr_null(body);
    ck_assert_int_eq(count_of(a), 0);
    TK_OK(px_graph_destroy(&d));
    TK_OK(px_graph_add_while(a, NULL, 0, "while", 0, &cond, &body, NULL));
    TK_FAIL(px_graph_add_child(body, NULL, 0, a, NULL), PX_ERR_INVALID_ARGUMENT,
            "px_graph_add_child");
    TK_ERROR_HAS("cannot hold itself");
    TK_FAIL(px_graph_add_child(a, NULL, 0, a, NULL), PX_ERR_INVALID_ARGUMENT, "px_graph_add_child");
    ck_assert_int_eq(count_of(body), 0);
    ck_assert_int_eq(count_of(a), 1);
    /* Shared children: E twice in F, E and F in the body. */
    TK_OK(px_graph_add_empty(e, NULL, 0, NULL));
    px_graph_node *first = NULL;
    TK_OK(px_graph_add_child(f, NULL, 0, e, &first));
    TK_OK(px_graph_add_child(f, &first, 1, e, NULL));
    TK_OK(px_graph_add_child(body, NULL, 0, f, NULL));
    TK_OK(px_graph_add_child(body, NULL, 0, e, NULL));
    TK_OK(px_graph_destroy(&a));
    TK_OK(px_graph_destroy(&e));
    TK_OK(px_graph_destroy(&f));
}
END_TEST

/* ============================================================================================ */
/* ---- The instance px_graph_add_captured lends (suite graph_lent) ------------------------------ */

typedef struct lent_job {
    px_view *v;
    px_status end, destroy;
    char end_msg[256], destroy_msg[256];
    px_graph **destroy_graph; /* destroyed by the callback when not NULL */
} lent_job;

static px_status lent_fn(px_instance *inst, void *data)
{
    lent_job *j = data;
    px_graph *g = NULL;
    px_clear_error();
    j->end = px_graph_capture_end(inst, &g);
    snprintf(j->end_msg, sizeof j->end_msg, "%s", px_last_error());
    if (g != NULL) px_graph_destroy(&g);
    px_instance *copy = inst;
    px_clear_error();
    j->destroy = px_instance_destroy(&copy);
    snprintf(j->destroy_msg, sizeof j->destroy_msg, "%s", px_last_error());
    if (j->destroy_graph) TK_OK(px_graph_destroy(j->destroy_graph));
    return px_fill_async(inst, j->v, &(int64_t){4}, NULL);
}

/* The callback cannot end the capture nor destroy the instance: both refused with
   PX_ERR_CAPTURING and a message naming px_graph_add_captured; the capture goes on and
   records the fill, which each launch runs. */
START_TEST(lent_instance_protected)
{
    px_view *v = vi("v", 32);
    TK_OK(px_fill(v, &(int64_t){0}, NULL));
    px_graph *g = new_graph("g");
    lent_job j = {.v = v};
    px_graph_node *n = NULL;
    TK_OK(px_graph_add_captured(g, NULL, 0, "lent", lent_fn, &j, &n));
    TK_ASSERT(j.end == PX_ERR_CAPTURING, "px_graph_capture_end returned %s", px_status_name(j.end));
    TK_ASSERT(strncmp(j.end_msg, "px_graph_capture_end: ", 22) == 0 &&
                  strstr(j.end_msg, "px_graph_add_captured"),
              "message '%s'", j.end_msg);
    TK_ASSERT(j.destroy == PX_ERR_CAPTURING, "px_instance_destroy returned %s",
              px_status_name(j.destroy));
    TK_ASSERT(strncmp(j.destroy_msg, "px_instance_destroy: ", 21) == 0 &&
                  strstr(j.destroy_msg, "px_graph_add_captured"),
              "message '%s'", j.destroy_msg);
    ck_assert_ptr_nonnull(n);
    add_inc(g, n, v, 1);
    px_graph_exec *e = instantiate(g);
    launch_fenced(e, tk_inst());
    ALL_I64(v, 5);
    destroy_exec_and_graph(&e, &g);
    TK_RELEASE(v);
}
END_TEST

/* A callback that destroys the graph: no node, a clear refusal, nothing leaked. */
START_TEST(lent_graph_destroyed_by_callback)
{
    px_view *v = vi("v", 32);
    px_graph *g = new_graph("g");
    TK_OK(px_graph_add_fill(g, NULL, 0, v, &(int64_t){1}, NULL));
    px_graph *handle = g;
    lent_job j = {.v = v, .destroy_graph = &handle};
    px_graph_node *n = NULL;
    TK_FAIL(px_graph_add_captured(g, NULL, 0, "lent", lent_fn, &j, &n), PX_ERR_INVALID_ARGUMENT,
            "px_graph_add_captured");
    TK_ERROR_HAS("destroyed graph");
    ck_assert_ptr_null(n);
    ck_assert_ptr_null(handle);
    TK_RELEASE(v);
}
END_TEST

/* ============================================================================================ */
/* ---- What a body takes, as a node or in a child (suite graph_body) ---------------------------- */

/* A captured graph, and a graph holding a px_graph_add_captured node, are no child of a
   WHILE or IF body on any backend, though they hold nothing but a kernel on the body's
   memory; nothing is added. */
static px_status inc_fn(px_instance *inst, void *data)
{
    const g_inc_args a = inc_args(data, 1);
    return px_parallel_for(inst, "inc", px_range(0, 8), PX_KERNEL(g_inc), &a);
}

START_TEST(body_refuses_captured_children)
{
    px_view *v = vi("v", 8);
    px_instance *in = tk_instance("capturing");
    TK_OK(px_graph_capture_begin(in, PX_CAPTURE_THREAD_LOCAL));
    TK_OK(inc_fn(in, v));
    px_graph *cap = NULL;
    TK_OK(px_graph_capture_end(in, &cap));
    px_graph *holder = new_graph("holder"), *g = new_graph("g");
    TK_OK(px_graph_add_captured(holder, NULL, 0, "captured", inc_fn, v, NULL));
    px_graph_cond_t *wc = NULL, *ic = NULL;
    px_graph *wbody = NULL, *ibody = NULL;
    TK_OK(px_graph_add_while(g, NULL, 0, "while", 0, &wc, &wbody, NULL));
    TK_OK(px_graph_add_if(g, NULL, 0, "if", 1, &ic, &ibody, NULL));
    px_graph *bodies[2] = {wbody, ibody};
    for (int i = 0; i < 2; ++i) {
        TK_FAIL(px_graph_add_child(bodies[i], NULL, 0, cap, NULL), PX_ERR_INVALID_ARGUMENT,
                "px_graph_add_child");
        TK_ERROR_HAS("came from a capture");
        TK_FAIL(px_graph_add_child(bodies[i], NULL, 0, holder, NULL), PX_ERR_INVALID_ARGUMENT,
                "px_graph_add_child");
        TK_ERROR_HAS("captured work");
        ck_assert_int_eq(count_of(bodies[i]), 0);
    }
    /* The top level takes both. */
    TK_OK(px_graph_add_child(g, NULL, 0, cap, NULL));
    TK_OK(px_graph_add_child(g, NULL, 0, holder, NULL));
    TK_OK(px_graph_destroy(&cap));
    TK_OK(px_graph_destroy(&holder));
    TK_OK(px_graph_destroy(&g));
    tk_destroy_all(&in, 1);
    TK_RELEASE(v);
}
END_TEST

/* For copies into device memory from device memory and from host memory (on serial and
   OpenMP both are host memory), a body takes the node exactly when it takes a child
   holding the same node. Where it takes them, both run. */
START_TEST(body_same_rule_node_and_child)
{
    const px_space spaces[2] = {tk_space(), host_side()};
    for (int s = 0; s < 2; ++s) {
        /* device <- device, then device <- host (a graph moves device memory). */
        px_view *src = tk_view1("src", spaces[s], PX_I64, 16),
                *dst = tk_view1("dst", tk_space(), PX_I64, 16);
        TK_OK(px_fill(src, &(int64_t){6}, NULL));
        TK_OK(px_fill(dst, &(int64_t){0}, NULL));
        px_graph *g = new_graph("g"), *child = new_graph("child");
        TK_OK(px_graph_add_copy(child, NULL, 0, dst, src, NULL));
        px_graph_cond_t *c1 = NULL, *c2 = NULL;
        px_graph *as_node = NULL, *as_child = NULL;
        px_graph_node *if1 = NULL;
        TK_OK(px_graph_add_if(g, NULL, 0, "node", 1, &c1, &as_node, &if1));
        TK_OK(px_graph_add_if(g, &if1, 1, "child", 1, &c2, &as_child, NULL));
        px_clear_error();
        const px_status node_st = px_graph_add_copy(as_node, NULL, 0, dst, src, NULL);
        char node_msg[512];
        snprintf(node_msg, sizeof node_msg, "%s", px_last_error());
        px_clear_error();
        const px_status child_st = px_graph_add_child(as_child, NULL, 0, child, NULL);
        TK_ASSERT((node_st == PX_OK) == (child_st == PX_OK),
                  "%s memory: the body %s the copy node (%s) but %s the child holding it (%s)",
                  px_space_kind_string(spaces[s].kind), node_st == PX_OK ? "takes" : "refuses",
                  node_msg, child_st == PX_OK ? "takes" : "refuses", px_last_error());
        /* Device memory is what a body is for. */
        if (s == 0) ck_assert_int_eq(node_st, PX_OK);
        if (node_st == PX_OK) {
            px_graph_exec *e = instantiate(g);
            launch_fenced(e, tk_inst());
            ALL_I64(dst, 6);
            TK_OK(px_graph_exec_destroy(&e));
        } else {
            ck_assert_int_eq(node_st, PX_ERR_INVALID_ARGUMENT);
            ck_assert_int_eq(child_st, PX_ERR_INVALID_ARGUMENT);
            ck_assert_int_eq(count_of(as_node), 0);
            ck_assert_int_eq(count_of(as_child), 0);
        }
        TK_OK(px_graph_destroy(&child));
        TK_OK(px_graph_destroy(&g));
        TK_RELEASE(dst, src);
    }
}
END_TEST

/* ============================================================================================ */
/* ---- Changing an executable graph (suite graph_change) ---------------------------------------- */

/* px_graph_exec_set_copy keeps the element types: i64 views where the node copies f64
   (the same size) are refused; f64 views are taken. */
START_TEST(set_copy_checks_types)
{
    px_view *a = vf("a", 8), *b = vf("b", 8), *c = vf("c", 8), *i1 = vi("i1", 8), *i2 = vi("i2", 8);
    TK_OK(px_fill(b, &(double){2.5}, NULL));
    TK_OK(px_fill(c, &(double){4.5}, NULL));
    px_graph *g = new_graph("g");
    px_graph_node *n = NULL;
    TK_OK(px_graph_add_copy(g, NULL, 0, a, b, &n));
    px_graph_exec *e = instantiate(g);
    TK_FAIL(px_graph_exec_set_copy(e, n, i1, i2), PX_ERR_INVALID_ARGUMENT,
            "px_graph_exec_set_copy");
    TK_ERROR_HAS("element types");
    TK_FAIL(px_graph_exec_set_copy(e, n, a, i2), PX_ERR_INVALID_ARGUMENT, "px_graph_exec_set_copy");
    TK_FAIL(px_graph_exec_set_copy(e, n, i1, b), PX_ERR_INVALID_ARGUMENT, "px_graph_exec_set_copy");
    launch_fenced(e, tk_inst());
    ck_assert(getf(a, 7) == 2.5);
    TK_OK(px_graph_exec_set_copy(e, n, a, c));
    launch_fenced(e, tk_inst());
    ck_assert(getf(a, 7) == 4.5);
    destroy_exec_and_graph(&e, &g);
    TK_RELEASE(a, b, c, i1, i2);
}
END_TEST

/* An update looks at what exec runs: once its graph gains a WHILE node after
   instantiation, exec still updates from a graph of its own shape; a graph holding a
   WHILE node, or the grown graph itself (another shape), is refused. */
START_TEST(update_after_graph_grows)
{
    px_view *x = vi("x", 8), *counter = vi("counter", 1);
    TK_OK(px_fill(x, &(int64_t){0}, NULL));
    px_graph *g = new_graph("g"), *h = new_graph("h");
    add_inc(g, NULL, x, 1);
    add_inc(h, NULL, x, 10);
    px_graph_exec *e = instantiate(g);
    px_graph_cond_t *cond = NULL;
    px_graph *body = NULL;
    TK_OK(px_graph_add_while(g, NULL, 0, "while", 0, &cond, &body, NULL));
    add_inc(body, NULL, counter, 1);
    px_graph_update_report r;
    TK_OK(px_graph_exec_update(e, h, &r));
    launch_fenced(e, tk_inst());
    ALL_I64(x, 10);
    TK_FAIL(px_graph_exec_update(e, g, &r), PX_ERR_INVALID_ARGUMENT, "px_graph_exec_update");
    TK_ASSERT(r.node == -1 && strstr(r.reason, "nodes") != NULL, "report %d '%s'", r.node,
              r.reason);
    px_graph *w = new_graph("w");
    add_inc(w, NULL, x, 100);
    px_graph_cond_t *wc = NULL;
    px_graph *wbody = NULL;
    TK_OK(px_graph_add_while(w, NULL, 0, "while", 0, &wc, &wbody, NULL));
    TK_FAIL(px_graph_exec_update(e, w, &r), PX_ERR_UNSUPPORTED, "px_graph_exec_update");
    launch_fenced(e, tk_inst());
    ALL_I64(x, 20);
    destroy_exec_and_graph(&e, &g);
    TK_OK(px_graph_destroy(&h));
    TK_OK(px_graph_destroy(&w));
    TK_RELEASE(x, counter);
}
END_TEST

/* ============================================================================================ */
/* ---- px_finalize during a capture (suite graph_change) ---------------------------------------- */

/* The last px_finalize while the default instance is captured: PX_ERR_CAPTURING, portex
   still initialised and the capture going on; after px_graph_capture_end it succeeds
   (the fixture's px_finalize). */
START_TEST(finalize_while_default_captured)
{
    px_view *v = vi("v", 8);
    TK_OK(px_graph_capture_begin(tk_inst(), PX_CAPTURE_THREAD_LOCAL));
    TK_OK(px_fill_async(tk_inst(), v, &(int64_t){3}, NULL));
    TK_RELEASE(v);
    TK_FAIL(px_finalize(), PX_ERR_CAPTURING, "px_finalize");
    ck_assert(px_is_initialized());
    px_graph *g = NULL;
    TK_OK(px_graph_capture_end(tk_inst(), &g));
    ck_assert_int_eq(count_of(g), 1);
    TK_OK(px_graph_destroy(&g));
}
END_TEST

int main(void)
{
    TK_ADD(tk_case("graph_noop", "noop"), noop_nodes_launch, noop_nodes_set, noop_nodes_update,
           noop_not_captured);
    TK_ADD(tk_case("graph_ownership", "circles"), circle_closed_later_refused,
           circle_through_body_refused);
    TK_ADD(tk_case("graph_lent", "lent"), lent_instance_protected,
           lent_graph_destroyed_by_callback);
    TK_ADD(tk_case("graph_body", "body"), body_refuses_captured_children,
           body_same_rule_node_and_child);
    TK_ADD(tk_case("graph_change", "change"), set_copy_checks_types, update_after_graph_grows,
           finalize_while_default_captured);
    return tk_run();
}
