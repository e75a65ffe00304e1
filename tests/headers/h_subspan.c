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
    const int sliced = row.extent[0] == 3 && row.data[0] == 3.0;
    PX_SUBSPAN(row, row, 0, 1, 3);     /* in place: elements 4 and 5 */
    PX_SUBSPAN_STEP(m, m, 0, 1, 2, 2); /* in place: row 1 alone */
    const int narrowed = row.rank == 1 && row.extent[0] == 2 && row.data[0] == 4.0 && m.rank == 2 &&
                         m.extent[1] == 2 && m.stride[1] == 2 && m.data[2] == 2.0;
    return sliced && narrowed ? 0 : 1;
}
