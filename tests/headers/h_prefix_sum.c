/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* portex/prefix_sum.h compiles on its own, first in its translation unit. */
#include "portex/prefix_sum.h"

int px_header_test_prefix_sum(void);
int px_header_test_prefix_sum(void)
{
    return px_prefix_sum(NULL, NULL, NULL, PX_PREFIX_SUM_EXCLUSIVE) == PX_OK ? 1 : 0;
}
