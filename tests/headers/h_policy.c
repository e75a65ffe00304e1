/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* portex/policy.h compiles on its own, first in its translation unit. */
#include "portex/policy.h"

int px_header_test_policy(void);
int px_header_test_policy(void) { return 0; }
