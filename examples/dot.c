/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* dot: the dot product of two vectors with parallel_reduce, checked against a plain C loop. */
#include <float.h>
#include <math.h>

#include "dot_kernels.h"
#include "example.h"

int main(void)
{
    const int64_t n = 1 << 20;

    CHECK(px_init(NULL));
    example_backend be = example_default("dot");

    px_view *x, *y;
    CHECK(px_view_create_1d_ex(&x, "x", be.space, PX_F64, n, PX_VIEW_NO_INIT));
    CHECK(px_view_create_1d_ex(&y, "y", be.space, PX_F64, n, PX_VIEW_NO_INIT));

    /* Random inputs on the host, then where the backend runs. */
    px_view *hx, *hy;
    CHECK(px_view_create_mirror_view(&hx, px_host(), x));
    CHECK(px_view_create_mirror_view(&hy, px_host(), y));
    px_span_f64_1d hxs, hys;
    CHECK(px_view_get_span(hx, &hxs));
    CHECK(px_view_get_span(hy, &hys));
    uint64_t seed = 1234;
    for (int64_t i = 0; i < n; ++i) {
        hxs.data[i] = example_random(&seed);
        hys.data[i] = example_random(&seed);
    }
    CHECK(px_deep_copy(x, hx, NULL));
    CHECK(px_deep_copy(y, hy, NULL));

    dot_args args;
    CHECK(px_view_get_span(x, &args.x));
    CHECK(px_view_get_span(y, &args.y));
    double result;
    /* Into a host double: the call waits for the reduction (on this instance only). */
    CHECK(px_parallel_reduce(be.inst, "dot", px_range(0, n), PX_KERNEL(dot), &args, &result));

    double expect = 0.0;
    for (int64_t i = 0; i < n; ++i) expect += hxs.data[i] * hys.data[i];

    /* Every term is positive, so two summation orders differ by at most n * eps * sum. */
    double diff = fabs(result - expect);
    int ok = diff <= (double)n * DBL_EPSILON * expect;
    printf("dot: n = %lld, x . y = %.15g, plain C loop %.15g, difference %.3g: %s\n", (long long)n,
           result, expect, diff, ok ? "OK" : "MISMATCH");

    CHECK(px_view_release(&hx));
    CHECK(px_view_release(&hy));
    CHECK(px_view_release(&x));
    CHECK(px_view_release(&y));
    CHECK(px_finalize());
    return ok ? 0 : 1;
}
