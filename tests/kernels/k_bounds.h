/* Kernels of test_bounds: compiled with PX_BOUNDS_CHECK, serial backend only. */
#ifndef PX_TESTS_K_BOUNDS_H
#define PX_TESTS_K_BOUNDS_H

#include "portex/kernel.h"
#include "portex/view.h"

typedef struct shift_args { px_span_f64 x, y; int64_t shift; } shift_args;

#ifdef __cplusplus
PX_DECLARE_KERNEL(bounds_shift);
PX_DECLARE_KERNEL(bounds_shift2);
#else /* see kernels.h: PX_DECLARE_KERNEL lacks `extern` in C */
extern const px_kernel px_kernel_bounds_shift;
extern const px_kernel px_kernel_bounds_shift2;
#endif

#endif /* PX_TESTS_K_BOUNDS_H */
