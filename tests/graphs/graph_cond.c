/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* test_graph, suite graph_cond: WHILE and IF nodes, their conditions set by kernels
 * (px_cond_set), by a view's value (px_graph_cond_from_view) or left at their initial
 * value, and reductions in their bodies. */
#define _POSIX_C_SOURCE 200809L /* open_memstream (graph_util.h) */

#include <stdio.h>
#include <stdlib.h>

#include "test_graph.h"

/* The counting loop of test_graph.h. */
px_graph_exec *counting_loop(px_view *counter, px_view *after, unsigned initial, int64_t limit,
                             px_graph **gout)
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

/* The counting loop with an initial condition and a limit, and the passes it must make:
   none (the condition starts false), one, many. */
static const struct {
    const char *what;
    unsigned initial;
    int64_t limit, want;
} loops[] = {
    {"zero iterations", 0, 100, 0},
    {"one iteration", 1, 1, 1},
    {"many iterations", 1, 100, 100},
};
#define NLOOPS ((int)(sizeof loops / sizeof loops[0]))

/* _i: the row of loops. Every launch starts again at the initial condition. */
START_TEST(while_iterations)
{
    const int64_t want = loops[_i].want;
    px_view *counter = vi("counter", 1), *after = vi("after", 1);
    px_graph *g = NULL;
    px_graph_exec *e = counting_loop(counter, after, loops[_i].initial, loops[_i].limit, &g);
    for (int k = 0; k < 2; ++k) {
        launch_fenced(e, tk_inst());
        TK_ASSERT(geti(counter, 0) == want, "%s, launch %d: %lld passes, expected %lld",
                  loops[_i].what, k, (long long)geti(counter, 0), (long long)want);
        TK_ASSERT(geti(after, 0) == want, "%s, launch %d: the node after the loop saw %lld",
                  loops[_i].what, k, (long long)geti(after, 0));
    }
    destroy_exec_and_graph(&e, &g);
    TK_RELEASE(counter, after);
}
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
    destroy_exec_and_graph(&e, &g);
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
    destroy_exec_and_graph(&e, &g);
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
    destroy_exec_and_graph(&e, &g);
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
    destroy_exec_and_graph(&e, &g);
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
        destroy_exec_and_graph(&e, &g);
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
        destroy_exec_and_graph(&e, &g);
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
    destroy_exec_and_graph(&e, &g);
    TK_RELEASE(flag, v);
}
END_TEST

void graph_cond_cases(void)
{
    tcase_add_loop_test(tk_case("graph_cond", "while"), while_iterations, 0, NLOOPS);
    TK_ADD(tk_case("graph_cond", "while_host_set"), cond_set_outside_launch_ignored);
    TK_ADD(tk_case("graph_cond", "while_from_view"), while_cond_from_view,
           while_reduction_residual);
    TK_ADD(tk_case("graph_cond", "reduce_in_body"), reduce_in_if_body);
    TK_ADD(tk_case("graph_cond", "if"), if_initial_value, if_set_by_kernel,
           cond_from_view_comparisons);
}
