/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* portex/scatter.h compiles on its own, first in its translation unit. */
#include "portex/scatter.h"

int px_header_test_scatter(void);
int px_header_test_scatter(void)
{
    px_scatter_f64 h;
    px_scatter_info info;
    info.strategy = PX_SCATTER_AUTO;
    h.mode = PX_SCATTER_PLAIN;
    return px_scatter_get_span(NULL, &h) == PX_OK || px_scatter_info_get(NULL, &info) == PX_OK ? 1
                                                                                               : 0;
}
