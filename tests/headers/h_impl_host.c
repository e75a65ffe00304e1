/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* portex/impl/host/family.h (the host family, not API) compiles on its own. */
#include "portex/impl/host/family.h"

int px_header_test_impl_host(void);
int px_header_test_impl_host(void)
{
    px__host_range_fn range = 0;
    px__host_league_fn league = 0;
    return range == 0 && league == 0 ? 0 : 1;
}
