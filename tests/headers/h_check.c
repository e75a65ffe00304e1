/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* portex/check.h compiles on its own, first in its translation unit. */
#include "portex/check.h"

int px_header_test_check(void);
int px_header_test_check(void)
{
    PX_CHECK(PX_OK); /* expands, compiles and passes: nothing printed */
    return 0;
}
