/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* bench_random_cuda's baseline: cuRAND's device API (raw_random.cu). Plain C interface. */
#ifndef RAW_RANDOM_H
#define RAW_RANDOM_H

#include <stdint.h>

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* x[0, 2 pairs) with uniform doubles from cuRAND's Philox4_32_10 as its device API is
   used: a state per thread (curand_init(seed, 0, 4 * first index)), two doubles per index
   (curand_uniform2_double), one index per thread of a grid that covers the range. */
cudaError_t raw_curand_fill(double *x, int64_t pairs, uint64_t seed, cudaStream_t s);

#ifdef __cplusplus
}
#endif

#endif
