/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* test_graph, suite graph_errors: misuse refused with a status and a message naming the
 * public call, nothing added: nodes of other graphs, what a WHILE or IF body takes, NULL
 * and destroyed handles, kernels of the wrong kind, host memory a CUDA graph cannot
 * replay. */
#define _POSIX_C_SOURCE 200809L /* open_memstream (graph_util.h) */

#include <stdio.h>
#include <stdlib.h>

#include "test_graph.h"

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
    destroy_exec_and_graph(&e, &g);
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
    destroy_exec_and_graph(&e, &g);
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
    /* The graph's execution space and device, a body's its graph's; NULLs refused. */
    px_exec_space exec = PX_EXEC_SERIAL;
    int device = -1;
    px_graph_cond_t *c = NULL;
    px_graph *body = NULL;
    TK_OK(px_graph_add_while(g, &k, 1, "loop", 0, &c, &body, NULL));
    for (px_graph *h = g; h; h = h == g ? body : NULL) {
        exec = PX_EXEC_SERIAL == tk_exec() ? PX_EXEC_OPENMP : PX_EXEC_SERIAL;
        device = -1;
        TK_OK(px_graph_exec_space(h, &exec, &device));
        ck_assert_int_eq(exec, tk_exec());
        ck_assert_int_eq(device, 0);
    }
    TK_FAIL(px_graph_exec_space(NULL, &exec, &device), PX_ERR_INVALID_ARGUMENT,
            "px_graph_exec_space");
    TK_FAIL(px_graph_exec_space(g, NULL, &device), PX_ERR_INVALID_ARGUMENT, "px_graph_exec_space");
    TK_FAIL(px_graph_exec_space(g, &exec, NULL), PX_ERR_INVALID_ARGUMENT, "px_graph_exec_space");
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
    destroy_exec_and_graph(&e, &g);
    TK_OK(px_instance_destroy(&in));
    TK_RELEASE(pageable, dev, r, hr);
}
END_TEST

void graph_errors_cases(void)
{
    TK_ADD(tk_case("graph_errors", "errors"), deps_from_other_graph_refused, body_refuses_host_node,
           body_refuses_captured_node, body_refuses_host_memory, destroy_body_refused,
           wrong_kernel_kind_refused, cuda_memory_rules);
    TK_ADD(tk_case("graph_errors", "null"), null_args_create_destroy, null_args_add_nodes,
           null_args_conditionals, null_args_introspection, null_args_exec_and_capture);
}
