/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* portex/export.h compiles on its own, first in its translation unit. */
#include "portex/export.h"

int px_header_test_export(void);
int px_header_test_export(void) { return 0; }
