/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* portex/impl/cuda/family.h (the CUDA family, not API) compiles on its own as C, with or
 * without CUDA: its launch record and entry types are C for the backend. */
#include "portex/impl/cuda/family.h"

int px_header_test_impl_cuda(void);
int px_header_test_impl_cuda(void)
{
    px__cuda_launch_desc l = {0};
    px__cuda_range_fn range = 0;
    return l.scratch == 0 && range == 0 ? 0 : 1;
}
