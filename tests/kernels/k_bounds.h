/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernels of test_bounds: compiled with PX_BOUNDS_CHECK, serial backend only. */
#ifndef PX_TESTS_K_BOUNDS_H
#define PX_TESTS_K_BOUNDS_H

#include "portex/kernel.h"
#include "portex/view.h"

typedef struct shift_args {
    px_span_f64 x, y;
    int64_t shift;
} shift_args;

PX_DECLARE_KERNEL(bounds_shift);
PX_DECLARE_KERNEL(bounds_shift2);

#endif /* PX_TESTS_K_BOUNDS_H */
