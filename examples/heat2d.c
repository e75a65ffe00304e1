/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* heat2d: the 2-D heat equation on a square plate with fixed (Dirichlet) edges, explicit
 * time steps with a 5-point stencil in a 2-D parallel_for over the interior points, two
 * buffers swapped after every step. Checked against the same steps in plain C loops. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "example.h"
#include "heat2d_kernels.h"

/* The reference: the same step as the kernel, in a plain loop nest (row-major). */
static void heat_step_plain(int64_t nx, int64_t ny, double alpha, const double *in, double *out)
{
    for (int64_t i = 1; i < nx - 1; ++i)
        for (int64_t j = 1; j < ny - 1; ++j) {
            const double c = in[i * ny + j];
            const double neighbours = in[(i - 1) * ny + j] + in[(i + 1) * ny + j] +
                                      in[i * ny + j - 1] + in[i * ny + j + 1];
            out[i * ny + j] = c + alpha * (neighbours - 4.0 * c);
        }
}

int main(void)
{
    const int64_t nx = 512, ny = 384;
    const int steps = 200;
    const double alpha = 0.2;
    const size_t bytes = (size_t)(nx * ny) * sizeof(double);

    CHECK(px_init(NULL));
    example_backend be = example_default("heat2d");

    /* Two buffers: each step reads one and writes the other. */
    px_view_desc desc = {.label = "u0",
                         .space = be.space,
                         .dtype = PX_F64,
                         .rank = 2,
                         .extent = {nx, ny},
                         .flags = PX_VIEW_NO_INIT};
    px_view *u[2];
    CHECK(px_view_create(&u[0], &desc));
    desc.label = "u1";
    CHECK(px_view_create(&u[1], &desc));

    /* A random initial temperature, edges included; both buffers start equal so that the
     * edges, which no step writes, stay fixed in both. */
    px_view *hu;
    CHECK(px_view_create_mirror_view(&hu, px_host(), u[0]));
    px_span_f64 hs;
    CHECK(px_view_get_span(hu, &hs));
    uint64_t seed = 7;
    for (int64_t k = 0; k < nx * ny; ++k) hs.data[k] = example_random(&seed);
    double *ref[2] = {malloc(bytes), malloc(bytes)};
    if (!ref[0] || !ref[1]) return 1;
    memcpy(ref[0], hs.data, bytes);
    memcpy(ref[1], hs.data, bytes);
    CHECK(px_deep_copy(u[0], hu, NULL));
    CHECK(px_deep_copy(u[1], hu, NULL));

    heat_args args = {.alpha = alpha};
    CHECK(px_view_get_span(u[0], &args.in));
    CHECK(px_view_get_span(u[1], &args.out));
    const px_policy interior = px_mdrange2(1, nx - 1, 1, ny - 1);
    for (int s = 0; s < steps; ++s) {
        /* The arguments are copied at dispatch, so swapping them right after is safe. */
        CHECK(px_parallel_for(be.inst, "heat_step", interior, PX_KERNEL(heat_step), &args));
        px_span_f64_right_restrict t = args.in;
        args.in = args.out;
        args.out = t;
        heat_step_plain(nx, ny, alpha, ref[s % 2], ref[(s + 1) % 2]);
    }
    /* After the last swap the newest temperature is in args.in: u[steps % 2]. */
    px_view *last = u[steps % 2];
    const double *expect = ref[steps % 2];

    CHECK(px_deep_copy(hu, last, NULL)); /* waits for the steps */
    double max_diff = 0.0, mean = 0.0;
    for (int64_t k = 0; k < nx * ny; ++k) {
        double d = fabs(hs.data[k] - expect[k]);
        if (d > max_diff) max_diff = d;
        mean += hs.data[k];
    }
    mean /= (double)(nx * ny);
    /* Temperatures are in (0, 1]; only rounding may differ (fma on a GPU). */
    int ok = max_diff <= 1e-12;
    printf("heat2d: %lld x %lld grid, %d steps, mean temperature %.6f, max difference from "
           "plain C loops %.3g: %s\n",
           (long long)nx, (long long)ny, steps, mean, max_diff, ok ? "OK" : "MISMATCH");

    free(ref[0]);
    free(ref[1]);
    CHECK(px_view_release(&hu));
    CHECK(px_view_release(&u[0]));
    CHECK(px_view_release(&u[1]));
    CHECK(px_finalize());
    return ok ? 0 : 1;
}
