/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* short_graph.c: a loop body (x = a x + b, then the sum of x) captured once into a graph on
 * the default instance and replayed; checked against the iteration's closed form. */
#include <stdio.h>
#include <portex.h>
#include <portex/check.h>

typedef struct step_args {
    double a, b;
    px_span_f64_1d x;
} step_args;

PX_FOR(step, step_args, s, i) { PX_AT1(s->x, i) = s->a * PX_AT1(s->x, i) + s->b; }
PX_REDUCE(total, step_args, s, i, double, sum, acc) { *acc += PX_AT1(s->x, i); }

int main(void)
{
    const int64_t n = 1000, steps = 50;
    step_args s;
    s.a = 0.9;
    s.b = 1.0;
    px_instance *inst;
    px_space where;
    px_view *x, *sum;
    px_graph *graph;
    px_graph_exec *exec;
    PX_CHECK(px_init(NULL));
    PX_CHECK(px_default_instance(&inst));
    PX_CHECK(px_default_space(&where));
    PX_CHECK(px_view_create_1d(&x, "x", where, PX_F64, n)); /* x = 0 */
    PX_CHECK(px_view_create_1d(&sum, "sum", where, PX_F64, 1));
    PX_CHECK(px_view_get_span(x, &s.x));
    PX_CHECK(px_graph_capture_begin(inst, PX_CAPTURE_THREAD_LOCAL)); /* recorded, not run: */
    PX_CHECK(px_parallel_for(inst, "step", px_range(0, n), PX_KERNEL(step), &s));
    PX_CHECK(px_parallel_reduce_view(inst, "total", px_range(0, n), PX_KERNEL(total), &s, sum));
    PX_CHECK(px_graph_capture_end(inst, &graph));
    PX_CHECK(px_graph_instantiate(graph, &exec));
    for (int64_t k = 0; k < steps; ++k) PX_CHECK(px_graph_launch(exec, inst));
    double got, want = n * s.b * (1 - pow(s.a, steps)) / (1 - s.a);
    PX_CHECK(px_deep_copy_to_host(&got, sizeof got, sum)); /* waits for the replays */
    printf("short_graph: %lld replays, sum %.15g (closed form %.15g)\n", (long long)steps, got,
           want);
    PX_CHECK(px_graph_exec_destroy(&exec));
    PX_CHECK(px_graph_destroy(&graph));
    PX_CHECK(px_view_release(&sum));
    PX_CHECK(px_view_release(&x));
    return px_finalize() == PX_OK && fabs(got - want) <= 1e-12 * want ? 0 : 1;
}
