/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* portex/impl/abi.h (the kernel ABI, not API) compiles on its own. */
#include "portex/impl/abi.h"

int px_header_test_impl_abi(void);
int px_header_test_impl_abi(void)
{
    const px__kernel_entry e = {1, PX__ENTRY_RANGE, 0};
    void (*set)(uint64_t, unsigned) = px__kabi_cond_set;
    return e.kind == PX__ENTRY_RANGE && set != 0 && PX__KERNEL_ABI == 6 ? 0 : 1;
}
