/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernel file for test_bounds: reads x at i + shift, which may be out of range.
 * Compiled with PX_BOUNDS_CHECK. */
#include "k_bounds.h"

PX_FOR(bounds_shift, shift_args, args, i) { PX_AT1(args->y, i) = PX_AT1(args->x, i + args->shift); }

/* x and y are rank 2; the shift applies to the second index. */
PX_FOR_2D(bounds_shift2, shift_args, args, i, j)
{
    PX_AT2(args->y, i, j) = PX_AT2(args->x, i, j + args->shift);
}
