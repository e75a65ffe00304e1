/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* portex/sort.h compiles on its own, first in its translation unit. */
#include "portex/sort.h"

int px_header_test_sort(void);
int px_header_test_sort(void)
{
    return px_sort(NULL, NULL, NULL, PX_SORT_DESCENDING) == PX_OK ? 1 : 0;
}
