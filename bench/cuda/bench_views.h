/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Device views for the CUDA benchmarks, on device 0, filled and read back with plain
 * cudaMemcpy outside any timing. Plain C; the including file includes portex.h,
 * cuda_runtime_api.h and bench_util.h first. */
#ifndef BENCH_VIEWS_H
#define BENCH_VIEWS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A view of e0 elements (rank 1) or e0 x e1 (rank 2) on device 0; flags: PX_VIEW_*
   (PX_VIEW_NO_INIT where the caller fills it). */
static inline px_view *bench_device_view(const char *label, px_dtype dtype, int rank, int64_t e0,
                                         int64_t e1, unsigned flags)
{
    px_view_desc d = bench_desc(label, px_device(0), dtype, rank, e0, e1);
    d.flags = flags;
    px_view *v;
    CHECK(px_view_create(&v, &d));
    return v;
}

static inline void bench_to_device(px_view *v, const void *src, size_t bytes)
{
    px_span s;
    CHECK(px_view_span(v, &s));
    CU(cudaMemcpy(s.data, src, bytes, cudaMemcpyHostToDevice));
}

static inline void bench_to_host(void *dst, px_view *v, size_t bytes)
{
    px_span s;
    CHECK(px_view_span(v, &s));
    CU(cudaMemcpy(dst, s.data, bytes, cudaMemcpyDeviceToHost));
}

/* The memory a device view's span starts at (for the raw baselines' calls). */
static inline void *bench_device_data(px_view *v)
{
    px_span s;
    CHECK(px_view_span(v, &s));
    return s.data;
}

/* bench_to_device and bench_to_host once inst's work is done: nothing else runs then. */
static inline void bench_upload(px_instance *inst, px_view *v, const void *src, size_t bytes)
{
    CHECK(px_instance_fence(inst));
    bench_to_device(v, src, bytes);
}

static inline void bench_download(px_instance *inst, void *dst, px_view *v, size_t bytes)
{
    CHECK(px_instance_fence(inst));
    bench_to_host(dst, v, bytes);
}

/* malloc, or the program `who` ends (exit 2) out of host memory; 0 bytes: 1. */
static inline void *bench_malloc(const char *who, size_t bytes)
{
    void *p = malloc(bytes > 0 ? bytes : 1);
    if (!p) {
        fprintf(stderr, "%s: out of host memory (%zu bytes)\n", who, bytes);
        exit(2);
    }
    return p;
}

#endif
