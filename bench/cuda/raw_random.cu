/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* cuRAND's device API filling doubles (raw_random.h). */
#include <curand_kernel.h>

#include "raw_random.h"

namespace {

constexpr int block = 256;

/* Index i: the state at output 4 i of subsequence 0 (the block portex's fill draws from). */
__global__ void __launch_bounds__(block)
    curand_fill(double2 *x, long long pairs, unsigned long long seed)
{
    const long long i = (long long)blockIdx.x * block + threadIdx.x;
    if (i >= pairs) return;
    curandStatePhilox4_32_10_t st;
    curand_init(seed, 0, 4ull * (unsigned long long)i, &st);
    x[i] = curand_uniform2_double(&st);
}

} // namespace

extern "C" cudaError_t raw_curand_fill(double *x, int64_t pairs, uint64_t seed, cudaStream_t s)
{
    if (pairs <= 0) return cudaSuccess;
    const long long grid = (pairs + block - 1) / block;
    curand_fill<<<(unsigned)grid, block, 0, s>>>(reinterpret_cast<double2 *>(x), pairs, seed);
    return cudaGetLastError();
}
