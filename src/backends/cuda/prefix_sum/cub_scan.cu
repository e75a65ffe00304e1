/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Prefix sums through cub::DeviceScan, one instantiation per element type and offset type:
 * 32-bit offsets below 2^31 elements (CUB's fastest, and what a caller of CUB passes), 64-bit
 * above. */
#include <cstdint>

#include <cub/device/device_scan.cuh>

#include "backends/cuda/prefix_sum/cub_scan.h"
#include "portex/view.h"

namespace {

template <class T, class N>
cudaError_t sum(const void *in, void *out, N n, bool exclusive, void *temp, size_t *bytes,
                cudaStream_t st)
{
    const T *x = static_cast<const T *>(in);
    T *y = static_cast<T *>(out);
    return exclusive ? cub::DeviceScan::ExclusiveSum(temp, *bytes, x, y, n, st)
                     : cub::DeviceScan::InclusiveSum(temp, *bytes, x, y, n, st);
}

template <class T>
cudaError_t sum_of(const void *in, void *out, int64_t n, bool exclusive, void *temp, size_t *bytes,
                   cudaStream_t st)
{
    if (n <= INT32_MAX) return sum<T, int>(in, out, int(n), exclusive, temp, bytes, st);
    return sum<T, int64_t>(in, out, n, exclusive, temp, bytes, st);
}

} // namespace

extern "C" cudaError_t px__cub_prefix_sum(int dtype, const void *in, void *out, int64_t n,
                                          bool exclusive, void *temp, size_t *temp_bytes,
                                          cudaStream_t st)
{
    switch (dtype) {
    /* Signed integers add as unsigned ones, the same bits: overflow wraps, as on the host,
       where signed overflow would be undefined. */
    case PX_I32:
    case PX_U32: return sum_of<uint32_t>(in, out, n, exclusive, temp, temp_bytes, st);
    case PX_I64:
    case PX_U64: return sum_of<uint64_t>(in, out, n, exclusive, temp, temp_bytes, st);
    case PX_F32: return sum_of<float>(in, out, n, exclusive, temp, temp_bytes, st);
    case PX_F64: return sum_of<double>(in, out, n, exclusive, temp, temp_bytes, st);
    default: return cudaErrorInvalidValue;
    }
}
