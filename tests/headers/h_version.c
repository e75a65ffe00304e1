/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* portex/version.h (generated) compiles on its own, first in its translation unit. */
#include "portex/version.h"

int px_header_test_version(void);
int px_header_test_version(void) { return PX_VERSION_MAJOR * 0; }
