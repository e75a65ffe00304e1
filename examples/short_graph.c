/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* short_graph.c: a loop body (x = a x + b, then the sum of x) captured once into a graph on
 * the default instance and replayed; checked against the iteration's closed form. */
#include <stdio.h>
#include <stdlib.h>
#include <portex.h>

static void check(px_status status)
{
    if (status == PX_OK) return;
    fprintf(stderr, "%s\n", px_last_error());
    exit(1);
}

typedef struct step_args {
    double a, b;
    px_span_f64_1d x;
} step_args;

PX_FOR(step, step_args, s, i) { PX_AT1(s->x, i) = s->a * PX_AT1(s->x, i) + s->b; }
PX_REDUCE(total, step_args, s, i, double, sum, acc) { *acc += PX_AT1(s->x, i); }

int main(void)
{
    const int64_t n = 1000, steps = 50;
    px_instance *inst;
    px_space where;
    px_view *x, *sum, *host;
    px_graph *graph;
    px_graph_exec *exec;
    px_span_f64_1d h;
    step_args s;
    s.a = 0.9;
    s.b = 1.0;
    check(px_init(NULL));
    check(px_default_instance(&inst));
    check(px_default_space(&where));
    check(px_view_create_1d(&x, "x", where, PX_F64, n)); /* x = 0 */
    check(px_view_create_1d(&sum, "sum", where, PX_F64, 1));
    check(px_view_get_span(x, &s.x));
    check(px_graph_capture_begin(inst, PX_CAPTURE_THREAD_LOCAL)); /* recorded, not run: */
    check(px_parallel_for(inst, "step", px_range(0, n), PX_KERNEL(step), &s));
    check(px_parallel_reduce_view(inst, "total", px_range(0, n), PX_KERNEL(total), &s, sum));
    check(px_graph_capture_end(inst, &graph));
    check(px_graph_instantiate(graph, &exec));
    for (int64_t k = 0; k < steps; ++k) check(px_graph_launch(exec, inst));
    check(px_view_create_mirror_view_and_copy(&host, px_host(), sum)); /* waits for them */
    check(px_view_get_span(host, &h));
    const double got = PX_AT1(h, 0), want = n * s.b * (1 - pow(s.a, steps)) / (1 - s.a);
    printf("short_graph: %lld replays, sum %.15g (closed form %.15g)\n", (long long)steps, got,
           want);
    check(px_graph_exec_destroy(&exec));
    check(px_graph_destroy(&graph));
    check(px_view_release(&host));
    check(px_view_release(&sum));
    check(px_view_release(&x));
    return px_finalize() == PX_OK && fabs(got - want) <= 1e-12 * want ? 0 : 1;
}
