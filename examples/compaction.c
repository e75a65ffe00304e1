/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* compaction: keep the elements of an array that satisfy a predicate (here: greater than a
 * threshold), in order, with parallel_scan. Checked against a plain C loop. */
#include <stdlib.h>

#include "compaction_kernels.h"
#include "example.h"

int main(void)
{
    const int64_t n = 1 << 20;
    const double threshold = 0.7;

    CHECK(px_init(NULL));
    example_backend be = example_default("compaction");

    px_view *in, *out;
    CHECK(px_view_create_1d_ex(&in, "in", be.space, PX_F64, n, PX_VIEW_NO_INIT));
    CHECK(px_view_create_1d_ex(&out, "out", be.space, PX_F64, n, PX_VIEW_NO_INIT));

    /* Random input, and the expected result from a plain loop. */
    px_view *hin;
    CHECK(px_view_create_mirror_view(&hin, px_host(), in));
    px_span_f64_1d his;
    CHECK(px_view_get_span(hin, &his));
    double *expect = malloc((size_t)n * sizeof *expect);
    if (!expect) return 1;
    int64_t expect_count = 0;
    uint64_t seed = 2024;
    for (int64_t i = 0; i < n; ++i) {
        his.data[i] = example_random(&seed);
        if (his.data[i] > threshold) expect[expect_count++] = his.data[i];
    }
    CHECK(px_deep_copy(in, hin, NULL));

    compact_args args = {.threshold = threshold};
    CHECK(px_view_get_span(in, &args.in));
    CHECK(px_view_get_span(out, &args.out));
    int64_t count;
    /* With a total asked for, the call waits for the scan (on this instance only). */
    CHECK(px_parallel_scan(be.inst, "compact", px_range(0, n), PX_KERNEL(compact), &args, &count));

    /* Bring back only the kept part: out[0, count) as a subview. */
    int ok = count == expect_count;
    if (ok && count > 0) {
        px_view *kept, *hkept;
        const px_slice first = px_slice_range(0, count);
        CHECK(px_view_subview(&kept, out, &first, 1));
        CHECK(px_view_create_mirror_view(&hkept, px_host(), kept));
        CHECK(px_deep_copy(hkept, kept, NULL));
        px_span_f64_1d hks;
        CHECK(px_view_get_span(hkept, &hks));
        for (int64_t k = 0; k < count; ++k)
            if (hks.data[k] != expect[k]) {
                printf("compaction: out[%lld] = %.17g, expected %.17g\n", (long long)k, hks.data[k],
                       expect[k]);
                ok = 0;
                break;
            }
        CHECK(px_view_release(&hkept));
        CHECK(px_view_release(&kept));
    }
    printf("compaction: kept %lld of %lld values > %g (plain C loop: %lld): %s\n", (long long)count,
           (long long)n, threshold, (long long)expect_count, ok ? "OK" : "MISMATCH");

    free(expect);
    CHECK(px_view_release(&hin));
    CHECK(px_view_release(&in));
    CHECK(px_view_release(&out));
    CHECK(px_finalize());
    return ok ? 0 : 1;
}
