/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The Jacobi solve of README.md (a whole graph) and of docs/graphs.md's "Conditionals" (its
 * WHILE node): sweeps a -> b and b -> a until max |a - b| is at most the tolerance, in one
 * launch on the default execution space. The kernels are examples/graph_jacobi's, shortened.
 * Each solve is checked: it ran (the field moved off its start) and it converged. */
#include <math.h>

#include "snippet.h"

typedef struct sweep_args {
    px_span_f64_right in, out;
} sweep_args;

/* out = the mean of in's 4 neighbours, over the interior */
PX_FOR_2D(sweep, sweep_args, args, i, j)
{
    PX_AT2(args->out, i, j) = 0.25 * (PX_AT2(args->in, i - 1, j) + PX_AT2(args->in, i + 1, j) +
                                      PX_AT2(args->in, i, j - 1) + PX_AT2(args->in, i, j + 1));
}

/* max |in - out|: the size of the last update */
PX_REDUCE_2D(update, sweep_args, args, i, j, double, max, acc)
{
    const double d = fabs(PX_AT2(args->in, i, j) - PX_AT2(args->out, i, j));
    if (d > *acc) *acc = d;
}

enum { N = 24 }; /* grid points per side, edges included */

/* Everything a solve needs: a and b, N x N in the default space, both 1 along the edge
 * i = 0 and 0 elsewhere (also kept in init), and a one-element residual. */
typedef struct solve {
    px_exec_space exec;
    px_instance *inst;
    px_view *a, *b, *init, *residual;
    sweep_args ab, ba;
    px_policy interior;
} solve;

static void solve_create(solve *s)
{
    px_space where;
    CHECK(px_default_exec_space(&s->exec));
    CHECK(px_default_instance(&s->inst));
    CHECK(px_default_space(&where));
    px_view_desc d = {.label = "a", .space = where, .dtype = PX_F64, .rank = 2, .extent = {N, N}};
    CHECK(px_view_create(&s->a, &d));
    d.label = "b";
    CHECK(px_view_create(&s->b, &d));
    d.label = "init";
    CHECK(px_view_create(&s->init, &d));
    CHECK(px_view_create_1d(&s->residual, "residual", where, PX_F64, 1));

    px_view *h;
    px_span_f64_right hs;
    CHECK(px_view_create_mirror(&h, px_host(), s->init));
    CHECK(px_view_get_span(h, &hs));
    for (int64_t j = 0; j < N; ++j) PX_AT2(hs, 0, j) = 1.0;
    CHECK(px_deep_copy(s->init, h, NULL));
    CHECK(px_deep_copy(s->a, h, NULL));
    CHECK(px_deep_copy(s->b, h, NULL));
    CHECK(px_view_release(&h));

    CHECK(px_view_get_span(s->a, &s->ab.in));
    CHECK(px_view_get_span(s->b, &s->ab.out));
    CHECK(px_view_get_span(s->b, &s->ba.in));
    CHECK(px_view_get_span(s->a, &s->ba.out));
    s->interior = px_mdrange2(1, N - 1, 1, N - 1);
}

/* The solve converged (residual in (0, tol]) and moved the field: a(1, N/2) took a share
 * of the edge's 1. Then releases everything. */
static void solve_check_and_release(solve *s, double tol)
{
    px_view *ha = snippet_host_copy(s->a), *hr = snippet_host_copy(s->residual);
    px_span_f64_right as;
    px_span_f64_1d rs;
    CHECK(px_view_get_span(ha, &as));
    CHECK(px_view_get_span(hr, &rs));
    printf("%s: residual %.3g, a(1, %d) = %.4f\n", px_exec_space_string(s->exec), PX_AT1(rs, 0),
           N / 2, PX_AT2(as, 1, N / 2));
    EXPECT(PX_AT1(rs, 0) > 0.0 && PX_AT1(rs, 0) <= tol);
    EXPECT(PX_AT2(as, 1, N / 2) > 0.1 && PX_AT2(as, 1, N / 2) < 1.0);
    CHECK(px_view_release(&ha));
    CHECK(px_view_release(&hr));
    CHECK(px_view_release(&s->a));
    CHECK(px_view_release(&s->b));
    CHECK(px_view_release(&s->init));
    CHECK(px_view_release(&s->residual));
}

/* README.md: the graph from px_graph_create to its launch. */
static void readme_solve(void)
{
    solve sv;
    solve_create(&sv);
    const px_exec_space exec = sv.exec;
    px_instance *const inst = sv.inst;
    px_view *const residual = sv.residual;
    const sweep_args ab = sv.ab, ba = sv.ba;
    const px_policy interior = sv.interior;

    SNIPPET_BEGIN();
    /* snippet: readme */
    SNIPPET_END();
    CHECK(px_instance_fence(inst));

    solve_check_and_release(&sv, 1e-4);
    CHECK(px_graph_exec_destroy(&e));
    CHECK(px_graph_destroy(&g));
}

/* docs/graphs.md: the WHILE node and its body, after three nodes that reset a and b. */
static void graphs_solve(void)
{
    solve sv;
    solve_create(&sv);
    px_view *const residual = sv.residual;
    const sweep_args ab = sv.ab, ba = sv.ba;
    const px_policy interior = sv.interior;
    const double tol = 1e-3;
    const double big = 1.0;
    px_graph *g, *body;
    px_graph_cond_t *cond;
    px_graph_node *deps[3], *s1, *s2, *r;
    CHECK(px_graph_create(&g, sv.exec, 0, "jacobi"));
    CHECK(px_graph_add_copy(g, NULL, 0, sv.a, sv.init, &deps[0]));
    CHECK(px_graph_add_copy(g, NULL, 0, sv.b, sv.init, &deps[1]));
    CHECK(px_graph_add_fill(g, NULL, 0, residual, &big, &deps[2]));

    SNIPPET_BEGIN();
    /* snippet: graphs */
    SNIPPET_END();

    px_graph_exec *e;
    CHECK(px_graph_instantiate(g, &e));
    CHECK(px_graph_launch(e, sv.inst));
    CHECK(px_instance_fence(sv.inst));
    solve_check_and_release(&sv, tol);
    CHECK(px_graph_exec_destroy(&e));
    CHECK(px_graph_destroy(&g));
}

int main(void)
{
    CHECK(px_init(NULL));
    readme_solve();
    graphs_solve();
    CHECK(px_finalize());
    return 0;
}
