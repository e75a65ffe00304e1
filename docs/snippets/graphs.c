/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* docs/graphs.md's graph built node by node ("build"), its capture ("capture") and a
 * circle of children refused ("children"), on the default execution space. x and y hold n elements; scale multiplies a view by a factor
 * (sa: x by 2, sb: y by 3), dot reduces x . y into the one-element view r. Host views
 * stand for pinned memory where there is none (pinned memory is CUDA's). */
#include <portex/graph.h>

#include "snippet.h"

typedef struct scale_args {
    px_span_f64_1d v;
    double factor;
} scale_args;
typedef struct dot_args {
    px_span_f64_1d x, y;
} dot_args;

PX_FOR(scale, scale_args, args, i) { PX_AT1(args->v, i) *= args->factor; }
PX_REDUCE(dot, dot_args, args, i, double, sum, acc)
{
    *acc += PX_AT1(args->x, i) * PX_AT1(args->y, i);
}

enum { n = 1000 };

typedef struct context {
    px_exec_space exec;
    px_instance *inst;
    px_space where, pinned;
    px_view *x, *y, *r;
    scale_args sa, sb;
    dot_args da;
} context;

static void context_create(context *c)
{
    CHECK(px_default_exec_space(&c->exec));
    CHECK(px_default_instance(&c->inst));
    CHECK(px_default_space(&c->where));
    c->pinned = px_space_available(px_host_pinned()) ? px_host_pinned() : px_host();
    CHECK(px_view_create_1d(&c->x, "x", c->where, PX_F64, n));
    CHECK(px_view_create_1d(&c->y, "y", c->where, PX_F64, n));
    CHECK(px_view_create_1d(&c->r, "r", c->where, PX_F64, 1));
    CHECK(px_view_get_span(c->x, &c->sa.v));
    CHECK(px_view_get_span(c->y, &c->sb.v));
    CHECK(px_view_get_span(c->x, &c->da.x));
    CHECK(px_view_get_span(c->y, &c->da.y));
    c->sa.factor = 2.0;
    c->sb.factor = 3.0;
}

static void context_release(context *c)
{
    CHECK(px_view_release(&c->x));
    CHECK(px_view_release(&c->y));
    CHECK(px_view_release(&c->r));
}

static void build(void)
{
    context c;
    context_create(&c);
    const px_exec_space exec = c.exec;
    px_instance *const inst = c.inst;
    px_view *const x = c.x, *const y = c.y, *const r = c.r;
    const scale_args sa = c.sa, sb = c.sb;
    const dot_args da = c.da;
    const double one = 1.0;
    const int steps = 3;
    px_view *result_pinned;
    CHECK(px_view_create_1d(&result_pinned, "result", c.pinned, PX_F64, 1));

    SNIPPET_BEGIN();
    /* snippet: build */
    SNIPPET_END();

    CHECK(px_instance_fence(inst));
    /* Every launch starts again from the fills: x . y = n * 2 * 3. */
    EXPECT(snippet_f64(result_pinned, 0) == 6.0 * n);
    CHECK(px_graph_exec_destroy(&e));
    CHECK(px_graph_destroy(&g));
    CHECK(px_view_release(&result_pinned));
    context_release(&c);
}

static void capture(void)
{
    context c;
    context_create(&c);
    px_instance *const inst = c.inst;
    px_view *const x = c.x;
    const scale_args sa = c.sa;
    const double one = 1.0;
    px_view *x_pinned;
    CHECK(px_view_create_1d(&x_pinned, "x_pinned", c.pinned, PX_F64, n));
    CHECK(px_fill(x, &one, NULL));

    SNIPPET_BEGIN();
    /* snippet: capture */
    SNIPPET_END();

    EXPECT(snippet_f64(x, 7) == 1.0 && snippet_f64(x_pinned, 7) == 0.0); /* recorded, not run */
    px_graph_exec *e;
    CHECK(px_graph_instantiate(g, &e));
    CHECK(px_graph_launch(e, inst));
    CHECK(px_instance_fence(inst));
    EXPECT(snippet_f64(x, 7) == 2.0 && snippet_f64(x_pinned, 7) == 2.0);
    CHECK(px_graph_exec_destroy(&e));
    CHECK(px_graph_destroy(&g));
    CHECK(px_view_release(&x_pinned));
    context_release(&c);
}

/* The link that would close a circle is refused, and the rest is freed: px_finalize, which
 * refuses while anything lives, passes at the end of main. */
static void children(void)
{
    px_exec_space exec;
    CHECK(px_default_exec_space(&exec));

    SNIPPET_BEGIN();
    /* snippet: children */
    EXPECT(strstr(px_last_error(), "px_graph_add_child") &&
           strstr(px_last_error(), "cannot hold itself"));
    EXPECT(a == NULL && b == NULL && c == NULL);
}

int main(void)
{
    CHECK(px_init(NULL));
    build();
    capture();
    children();
    CHECK(px_finalize());
    return 0;
}
