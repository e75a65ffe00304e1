/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* axpy: y = a * x + y with a 1-D parallel_for, checked against a plain C loop. */
#include <math.h>
#include <stdlib.h>

#include "axpy_kernels.h"
#include "example.h"

int main(void)
{
    const int64_t n = 1 << 20;
    const double a = 2.5;

    CHECK(px_init(NULL));
    example_backend be = example_default("axpy");

    /* x and y where the backend runs; NO_INIT because we overwrite them at once. */
    px_view *x, *y;
    CHECK(px_view_create_1d_ex(&x, "x", be.space, PX_F64, n, PX_VIEW_NO_INIT));
    CHECK(px_view_create_1d_ex(&y, "y", be.space, PX_F64, n, PX_VIEW_NO_INIT));

    /* Host mirrors: new host views on CUDA, the views themselves on serial. */
    px_view *hx, *hy;
    CHECK(px_view_create_mirror_view(&hx, px_host(), x));
    CHECK(px_view_create_mirror_view(&hy, px_host(), y));
    px_span_f64_1d hxs, hys;
    CHECK(px_view_get_span(hx, &hxs));
    CHECK(px_view_get_span(hy, &hys));

    /* Random inputs, and the expected result from a plain loop. */
    double *expect = malloc((size_t)n * sizeof *expect);
    if (!expect) return 1;
    uint64_t seed = 42;
    for (int64_t i = 0; i < n; ++i) {
        hxs.data[i] = example_random(&seed);
        hys.data[i] = example_random(&seed);
        expect[i] = a * hxs.data[i] + hys.data[i];
    }
    CHECK(px_deep_copy(x, hx, NULL));
    CHECK(px_deep_copy(y, hy, NULL));

    axpy_args args = {.a = a};
    CHECK(px_view_get_span(x, &args.x));
    CHECK(px_view_get_span(y, &args.y));
    CHECK(px_parallel_for(be.inst, "axpy", px_range(0, n), PX_KERNEL(axpy), &args));

    /* px_deep_copy waits for the work issued before it, the kernel included. */
    CHECK(px_deep_copy(hy, y, NULL));

    double max_rel = 0.0;
    for (int64_t i = 0; i < n; ++i) {
        double rel = fabs(hys.data[i] - expect[i]) / fabs(expect[i]);
        if (rel > max_rel) max_rel = rel;
    }
    /* Only rounding may differ (a GPU contracts a * x + y into one fma). */
    int ok = max_rel <= 1e-15;
    printf("axpy: n = %lld, y = %g * x + y, max relative difference from a plain C loop "
           "%.3g: %s\n",
           (long long)n, a, max_rel, ok ? "OK" : "MISMATCH");

    free(expect);
    CHECK(px_view_release(&hx));
    CHECK(px_view_release(&hy));
    CHECK(px_view_release(&x));
    CHECK(px_view_release(&y));
    CHECK(px_finalize());
    return ok ? 0 : 1;
}
