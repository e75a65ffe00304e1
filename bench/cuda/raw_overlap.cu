/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Raw-CUDA baselines for bench_overlap: what an expert writes by hand. */
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

#include "raw_overlap.h"

#define RAW_TRY(call)                          \
    do {                                       \
        cudaError_t e_ = (call);               \
        if (e_ != cudaSuccess) return (int)e_; \
    } while (0)

static __global__ void raw_scale(float *x, int64_t n, float a, float b)
{
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = a * x[i] + b;
}

static double now_ms()
{
    return std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

static float input_value(int64_t i) { return (float)((i * 2654435761u) % 1000003u) * 1e-3f + 0.5f; }

static int run(int64_t n, int chunks, int k, float *in, float *out, float *dev,
               std::vector<cudaStream_t> &s, int reps, double *ms)
{
    const int64_t chunk_max = (n + chunks - 1) / chunks;
    for (int r = 0; r < reps; ++r) {
        std::memset(out, 0xff, (size_t)n * sizeof(float));
        RAW_TRY(cudaDeviceSynchronize());
        double t0 = now_ms();
        for (int c = 0; c < chunks; ++c) {
            int64_t b = n * c / chunks, e = n * (c + 1) / chunks, len = e - b;
            cudaStream_t st = s[c % k];
            float *slot = dev + (size_t)(c % k) * chunk_max;
            RAW_TRY(cudaMemcpyAsync(slot, in + b, len * sizeof(float), cudaMemcpyHostToDevice, st));
            raw_scale<<<(unsigned)((len + 255) / 256), 256, 0, st>>>(slot, len, 2.0f, 1.0f);
            RAW_TRY(cudaGetLastError());
            RAW_TRY(
                cudaMemcpyAsync(out + b, slot, len * sizeof(float), cudaMemcpyDeviceToHost, st));
        }
        RAW_TRY(cudaDeviceSynchronize());
        *ms = now_ms() - t0;
    }
    for (int64_t i = 0; i < n; ++i)
        if (out[i] != 2.0f * input_value(i) + 1.0f) return -1;
    return 0;
}

extern "C" int raw_overlap(int64_t n, int chunks, int k, bool pinned, int reps, double *ms)
{
    const size_t bytes = (size_t)n * sizeof(float);
    const int64_t chunk_max = (n + chunks - 1) / chunks;
    float *in = nullptr, *out = nullptr, *dev = nullptr;
    std::vector<cudaStream_t> s((size_t)k, nullptr);
    int rc = 0;
    if (pinned) {
        if ((rc = (int)cudaMallocHost(&in, bytes)) || (rc = (int)cudaMallocHost(&out, bytes)))
            goto done;
    } else {
        in = (float *)std::malloc(bytes);
        out = (float *)std::malloc(bytes);
        if (!in || !out) {
            rc = -2;
            goto done;
        }
    }
    if ((rc = (int)cudaMalloc(&dev, (size_t)k * chunk_max * sizeof(float)))) goto done;
    for (int i = 0; i < k; ++i)
        if ((rc = (int)cudaStreamCreateWithFlags(&s[(size_t)i], cudaStreamNonBlocking))) goto done;
    for (int64_t i = 0; i < n; ++i) in[i] = input_value(i);
    rc = run(n, chunks, k, in, out, dev, s, reps, ms);
done:
    for (cudaStream_t st : s)
        if (st) cudaStreamDestroy(st);
    cudaFree(dev);
    if (pinned) {
        cudaFreeHost(in);
        cudaFreeHost(out);
    } else {
        std::free(in);
        std::free(out);
    }
    return rc;
}

extern "C" int raw_bidirectional_limit(int64_t n, int reps, double *ms)
{
    const size_t bytes = (size_t)n * sizeof(float);
    void *h_in = nullptr, *h_out = nullptr, *d_in = nullptr, *d_out = nullptr;
    cudaStream_t up = nullptr, down = nullptr;
    std::vector<double> t;
    int rc = 0;
    if ((rc = (int)cudaMallocHost(&h_in, bytes)) || (rc = (int)cudaMallocHost(&h_out, bytes)) ||
        (rc = (int)cudaMalloc(&d_in, bytes)) || (rc = (int)cudaMalloc(&d_out, bytes)) ||
        (rc = (int)cudaStreamCreateWithFlags(&up, cudaStreamNonBlocking)) ||
        (rc = (int)cudaStreamCreateWithFlags(&down, cudaStreamNonBlocking)))
        goto done;
    std::memset(h_in, 1, bytes);
    for (int r = 0; r < reps + 1; ++r) { /* the first is a warm-up */
        if ((rc = (int)cudaDeviceSynchronize())) goto done;
        double t0 = now_ms();
        if ((rc = (int)cudaMemcpyAsync(d_in, h_in, bytes, cudaMemcpyHostToDevice, up)) ||
            (rc = (int)cudaMemcpyAsync(h_out, d_out, bytes, cudaMemcpyDeviceToHost, down)) ||
            (rc = (int)cudaDeviceSynchronize()))
            goto done;
        if (r) t.push_back(now_ms() - t0);
    }
    std::sort(t.begin(), t.end());
    *ms = t[t.size() / 2];
done:
    if (up) cudaStreamDestroy(up);
    if (down) cudaStreamDestroy(down);
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFreeHost(h_in);
    cudaFreeHost(h_out);
    return rc;
}
