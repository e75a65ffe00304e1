/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* portex/graph.h compiles on its own, first in its translation unit. */
#include "portex/graph.h"

int px_header_test_graph(void);
int px_header_test_graph(void) { return 0; }
