/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernels of test_large: index spaces past 2^31 elements. Valid C11 and CUDA C++. */
#ifndef PX_TESTS_K_LARGE_H
#define PX_TESTS_K_LARGE_H

#include "portex.h"

typedef struct large_args {
    px_span_u8 x;    /* x(i) = (7 i + 3) mod 256 */
    px_span_i64 out; /* exclusive prefix sums of x */
} large_args;

PX_DECLARE_KERNEL(large_fill);  /* x(i) = (7 i + 3) mod 256 */
PX_DECLARE_KERNEL(large_sum);   /* sum of x, uint64_t */
PX_DECLARE_KERNEL(large_scan);  /* out = exclusive scan of x, int64_t */
PX_DECLARE_KERNEL(large_check); /* how many i have out(i + 1) - out(i) != x(i), or x wrong */

#endif
