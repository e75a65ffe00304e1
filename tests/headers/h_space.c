/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* portex/space.h compiles on its own, first in its translation unit. */
#include "portex/space.h"

int px_header_test_space(void);
int px_header_test_space(void) { return 0; }
