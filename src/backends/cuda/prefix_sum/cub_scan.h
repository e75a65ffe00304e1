/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: CUB's device-wide prefix sums, callable from C (prefix_sum.c). */
#ifndef PX_BACKENDS_CUDA_PREFIX_SUM_CUB_SCAN_H
#define PX_BACKENDS_CUDA_PREFIX_SUM_CUB_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* cub::DeviceScan::InclusiveSum or ExclusiveSum of n elements of px_dtype dtype (i32, i64,
   u32, u64, f32, f64) from in to out (which may be in), on st. temp NULL: *temp_bytes is
   set to what the call needs and nothing runs. */
cudaError_t px__cub_prefix_sum(int dtype, const void *in, void *out, int64_t n, bool exclusive,
                               void *temp, size_t *temp_bytes, cudaStream_t st);

#ifdef __cplusplus
}
#endif

#endif /* PX_BACKENDS_CUDA_PREFIX_SUM_CUB_SCAN_H */
