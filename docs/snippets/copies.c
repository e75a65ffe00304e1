/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* docs/copies.md: a 1-element view in the default space copied into a host scalar. */
#include "snippet.h"

int main(void)
{
    CHECK(px_init(NULL));
    px_space where;
    CHECK(px_default_space(&where));
    px_view *sum_view;
    CHECK(px_view_create_1d(&sum_view, "sum", where, PX_F64, 1));
    const double value = 2.5;
    CHECK(px_deep_copy_from_host(sum_view, &value, sizeof value));

    SNIPPET_BEGIN();
    /* snippet */
    SNIPPET_END();

    EXPECT(sum == 2.5);
    CHECK(px_view_release(&sum_view));
    CHECK(px_finalize());
    return 0;
}
