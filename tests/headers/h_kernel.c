/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* portex/kernel.h compiles on its own, first in its translation unit. */
#include "portex/kernel.h"

int px_header_test_kernel(void);
int px_header_test_kernel(void) { return 0; }
