/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* portex/instance.h compiles on its own, first in its translation unit. */
#include "portex/instance.h"

int px_header_test_instance(void);
int px_header_test_instance(void) { return 0; }
