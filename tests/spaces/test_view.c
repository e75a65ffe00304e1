/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Views: creation for every dtype and rank, layouts and strides, labels, reference counts,
 * wrapping, subviews, mirrors, spans, memory statistics, and bad input to each function.
 *
 * A file per test case (test_view.h); this one runs them. */
#include "test_view.h"

int main(void)
{
    view_create_cases();
    view_subview_cases();
    view_mirror_cases();
    return tk_run();
}
