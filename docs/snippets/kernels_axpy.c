/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* docs/kernels.md, "The three files": the header and the kernel file are the blocks as
 * shown, files of their own here (axpy_kernels.h, axpy_kernels.c); the program's lines
 * run in main below, with x and y made and checked around them. */
#include "axpy_kernels.h"
#include "snippet.h"

int main(void)
{
    const int64_t n = 1000;
    const double one = 1.0, two = 2.0;
    px_instance *inst;
    px_space where;
    px_view *x, *y;
    CHECK(px_init(NULL));
    CHECK(px_default_instance(&inst));
    CHECK(px_default_space(&where));
    CHECK(px_view_create_1d(&x, "x", where, PX_F64, n));
    CHECK(px_view_create_1d(&y, "y", where, PX_F64, n));
    CHECK(px_fill(x, &one, NULL));
    CHECK(px_fill(y, &two, NULL));

    SNIPPET_BEGIN();
    {
        /* snippet: program */
    }
    SNIPPET_END();

    px_view *h = snippet_host_copy(y);
    px_span_f64_1d hs;
    CHECK(px_view_get_span(h, &hs));
    for (int64_t i = 0; i < n; ++i) EXPECT(PX_AT1(hs, i) == 2.5 * 1.0 + 2.0);
    CHECK(px_view_release(&h));
    CHECK(px_view_release(&x));
    CHECK(px_view_release(&y));
    CHECK(px_finalize());
    return 0;
}
