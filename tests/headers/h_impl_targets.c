/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* portex/impl/targets.h (the families of device code, not API) compiles on its own. */
#include "portex/impl/targets.h"

int px_header_test_impl_targets(void);
int px_header_test_impl_targets(void)
{
    return PX__TARGET_HOST != PX__TARGET_CUDA && PX__TARGET_NONE == 0 ? 0 : 1;
}
