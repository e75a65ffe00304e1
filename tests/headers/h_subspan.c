/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* portex/subspan.h compiles on its own, first in its translation unit. */
#include "portex/subspan.h"

int px_header_test_subspan(void);
int px_header_test_subspan(void)
{
    double d[6] = {0, 1, 2, 3, 4, 5};
    px_span_f64_right m = {d, {2, 3}, {3, 1}, 2, {0}};
    px_span_f64_1d row;
    PX_SLICE(row, m, 0, 1);
    return row.extent[0] == 3 && row.data[0] == 3.0 ? 0 : 1;
}
