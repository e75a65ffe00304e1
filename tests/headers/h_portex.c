/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The umbrella header compiles on its own, first in its translation unit. */
#include "portex.h"

int px_header_test_portex(void);
int px_header_test_portex(void) { return PX_OK + (int)sizeof(px_view_desc) * 0; }
