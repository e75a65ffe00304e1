/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* portex/random.h compiles on its own, first in its translation unit. */
#include "portex/random.h"

int px_header_test_random(void);
int px_header_test_random(void)
{
    px_philox g = px_philox_init(0, 0, 0);
    return px_rand_u32(&g) == 0x6627e8d5u ? 0 : 1;
}
