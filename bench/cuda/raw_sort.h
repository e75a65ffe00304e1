/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* CUB's radix sorts called directly (raw_sort.cu), bench_sort_cuda's baseline. */
#ifndef BENCH_RAW_SORT_H
#define BENCH_RAW_SORT_H

#include <stdint.h>

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What is sorted: keys (and values) of these types, ascending unless _DESC; SEG: stable
   segmented sort (DeviceSegmentedSort) over 64-bit offsets. */
typedef enum raw_sort_kind {
    RAW_U32,
    RAW_U64,
    RAW_F64_DESC,
    RAW_U32_U32,
    RAW_U64_U64,
    RAW_SEG_U32,
    RAW_SORT_KINDS
} raw_sort_kind;

/* CUB on double buffers: keys {k0, k1} (k0 holding them), values {v0, v1}; *sel: which
   of each holds the result. temp NULL: *bytes gets CUB's temporary storage size. */
cudaError_t raw_sort(raw_sort_kind kind, void *k0, void *k1, void *v0, void *v1, int64_t n,
                     int64_t segments, const int64_t *offsets, void *temp, size_t *bytes,
                     cudaStream_t s, int *sel);

#ifdef __cplusplus
}
#endif

#endif
