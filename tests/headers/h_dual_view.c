/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* portex/dual_view.h compiles on its own, first in its translation unit. */
#include "portex/dual_view.h"

int px_header_test_dual_view(void);
int px_header_test_dual_view(void)
{
    px_dual_sync done = {false, {PX_SPACE_HOST, 0}, {PX_SPACE_HOST, 0}, PX_COPY_NONE};
    return px_dual_view_destroy(NULL) == PX_OK || done.copied ? 1 : 0;
}
