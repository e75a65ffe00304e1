/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* portex/atomic.h compiles on its own, first in its translation unit, and its generic
   names pick the typed functions. */
#include "portex/atomic.h"

int px_header_test_atomic(void);
int px_header_test_atomic(void)
{
    int32_t i = 1;
    double d = 1.0;
    px_atomic_add(&i, 2);
    px_atomic_max(&d, 4.0);
    return px_atomic_fetch_sub(&i, 3) - 3 + (int)px_atomic_load(&d) - 4;
}
