/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* portex/core.h compiles on its own, first in its translation unit. */
#include "portex/core.h"

int px_header_test_core(void);
int px_header_test_core(void) { return 0; }
