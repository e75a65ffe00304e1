/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* portex/copy.h compiles on its own, first in its translation unit. */
#include "portex/copy.h"

int px_header_test_copy(void);
int px_header_test_copy(void) { return 0; }
