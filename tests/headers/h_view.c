/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* portex/view.h compiles on its own, first in its translation unit. */
#include "portex/view.h"

int px_header_test_view(void);
int px_header_test_view(void) { return 0; }
