/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* short_heat.c: Jacobi steps of the 2-D heat equation on the default instance. The mode
 * sin(pi x) sin(pi y) keeps its shape and shrinks by cos(pi h) a step: checked against that. */
#include <stdio.h>
#include <stdlib.h>
#include <portex.h>

static void check(px_status status)
{
    if (status == PX_OK) return;
    fprintf(stderr, "%s\n", px_last_error());
    exit(1);
}

typedef struct heat_args {
    double t;               /* pi h, h the grid spacing */
    int64_t step;           /* even steps read u[0] and write u[1], odd steps the reverse */
    px_span_f64_right u[2]; /* the edges stay 0 */
} heat_args;

PX_FUNCTION double mode(double t, int64_t i, int64_t j) { return sin(t * i) * sin(t * j); }
PX_FOR_2D(init, heat_args, a, i, j) { PX_AT2(a->u[0], i, j) = mode(a->t, i, j); }
PX_FOR_2D(jacobi, heat_args, a, i, j)
{
    const px_span_f64_right in = a->u[a->step % 2];
    PX_AT2(a->u[1 - a->step % 2], i, j) = 0.25 * (PX_AT2(in, i - 1, j) + PX_AT2(in, i + 1, j) +
                                                  PX_AT2(in, i, j - 1) + PX_AT2(in, i, j + 1));
}

int main(void)
{
    const int64_t n = 64, steps = 100;
    const px_policy interior = px_mdrange2(1, n - 1, 1, n - 1);
    px_instance *inst;
    px_space where;
    px_view *u[2], *host;
    px_span_f64_right h;
    heat_args a;
    a.t = acos(-1.0) / (double)(n - 1);
    check(px_init(NULL));
    check(px_default_instance(&inst));
    check(px_default_space(&where));
    check(px_view_create_2d(&u[0], "u0", where, PX_F64, n, n)); /* zero-filled */
    check(px_view_create_2d(&u[1], "u1", where, PX_F64, n, n));
    check(px_view_get_span(u[0], &a.u[0]));
    check(px_view_get_span(u[1], &a.u[1]));
    check(px_parallel_for(inst, "init", interior, PX_KERNEL(init), &a));
    for (a.step = 0; a.step < steps; ++a.step) /* the arguments are copied at each dispatch */
        check(px_parallel_for(inst, "jacobi", interior, PX_KERNEL(jacobi), &a));
    check(px_view_create_mirror_view_and_copy(&host, px_host(), u[steps % 2]));
    check(px_view_get_span(host, &h));
    double err = 0.0;
    for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < n; ++j)
            err = fmax(err, fabs(PX_AT2(h, i, j) - pow(cos(a.t), steps) * mode(a.t, i, j)));
    printf("short_heat: %lld steps on %lld x %lld, largest error %.3g\n", (long long)steps,
           (long long)n, (long long)n, err);
    check(px_view_release(&host));
    check(px_view_release(&u[0]));
    check(px_view_release(&u[1]));
    return px_finalize() == PX_OK && err < 1e-12 ? 0 : 1;
}
