/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* portex/parallel.h compiles on its own, first in its translation unit. */
#include "portex/parallel.h"

int px_header_test_parallel(void);
int px_header_test_parallel(void) { return 0; }
