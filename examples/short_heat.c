/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* short_heat.c: 2-D heat by Jacobi steps; sin(pi x) sin(pi y) shrinks by cos(pi h) a step. */
#include <stdio.h>
#include <portex.h>
#include <portex/check.h>

enum { N = 64, STEPS = 100 };
#define PI_H (3.14159265358979323846 / (N - 1)) /* pi h, h the grid spacing */

typedef struct heat_args {
    int64_t step;           /* even steps read u[0] and write u[1], odd steps the reverse */
    px_span_f64_right u[2]; /* the edges stay 0 */
} heat_args;

PX_FUNCTION double mode(int64_t i, int64_t j) { return sin(PI_H * i) * sin(PI_H * j); }
PX_FOR_2D(init, heat_args, a, i, j) { PX_AT2(a->u[0], i, j) = mode(i, j); }
PX_FOR_2D(jacobi, heat_args, a, i, j)
{
    const px_span_f64_right in = a->u[a->step % 2];
    PX_AT2(a->u[1 - a->step % 2], i, j) = 0.25 * (PX_AT2(in, i - 1, j) + PX_AT2(in, i + 1, j) +
                                                  PX_AT2(in, i, j - 1) + PX_AT2(in, i, j + 1));
}

int main(void)
{
    const px_policy interior = px_mdrange2(1, N - 1, 1, N - 1);
    heat_args a;
    static double h[N][N]; /* the result, copied to the host */
    px_instance *inst;
    px_space where;
    px_view *u[2];
    PX_CHECK(px_init(NULL));
    PX_CHECK(px_default_instance(&inst));
    PX_CHECK(px_default_space(&where));
    PX_CHECK(px_view_create_2d(&u[0], "u0", where, PX_F64, N, N)); /* zero-filled */
    PX_CHECK(px_view_create_2d(&u[1], "u1", where, PX_F64, N, N));
    PX_CHECK(px_view_get_span(u[0], &a.u[0]));
    PX_CHECK(px_view_get_span(u[1], &a.u[1]));
    PX_CHECK(px_parallel_for(inst, "init", interior, PX_KERNEL(init), &a));
    for (a.step = 0; a.step < STEPS; ++a.step) /* the arguments are copied at each dispatch */
        PX_CHECK(px_parallel_for(inst, "jacobi", interior, PX_KERNEL(jacobi), &a));
    PX_CHECK(px_deep_copy_to_host(h, sizeof h, u[STEPS % 2])); /* row-major, as u */
    double err = 0.0;
    for (int k = 0; k < N * N; ++k) /* point (k / N, k % N) */
        err = fmax(err, fabs(h[k / N][k % N] - pow(cos(PI_H), STEPS) * mode(k / N, k % N)));
    printf("short_heat: %d steps on %d x %d, largest error %.3g\n", STEPS, N, N, err);
    for (int k = 0; k < 2; ++k) PX_CHECK(px_view_release(&u[k]));
    return px_finalize() == PX_OK && err < 1e-12 ? 0 : 1;
}
