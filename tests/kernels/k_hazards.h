/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Raw CUDA kernels of the hazard suites (test_faults, test_isolation, test_hazards),
 * launched on the stream of a portex instance (portex/cuda.h) or on the test's own
 * stream: a GPU that stays busy for a set time, a kernel that traps (a sticky error: the
 * context is lost for the whole process), and a kernel that reads a buffer only after a
 * delay. Plain C interface (k_hazards.cu); every launcher makes `device` current for the
 * launch, restores the caller's device, and returns the launch's error. */
#ifndef PX_TESTS_K_HAZARDS_H
#define PX_TESTS_K_HAZARDS_H

#include <stdint.h>

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One thread that waits `ns` nanoseconds of the GPU's global timer. */
cudaError_t hz_spin(int device, cudaStream_t s, uint64_t ns);

/* Waits `ns` nanoseconds (0: none), then executes a trap instruction: the kernel fails
   and the device's context is lost for the rest of the process. */
cudaError_t hz_spin_trap(int device, cudaStream_t s, uint64_t ns);

/* Every block waits `ns` nanoseconds from its own start, so that every read of v happens
   at least `ns` after the kernel began; then the grid (one block per SM) adds
   HZ_MIX(i, v[i]) over i in [0, n) into *sum (wrapping, with atomics: any order gives the
   same sum). *sum must be zeroed before, in stream order. */
cudaError_t hz_spin_checksum(int device, cudaStream_t s, uint64_t ns, const uint64_t *v, int64_t n,
                             unsigned long long *sum);

/* The per-element term of hz_spin_checksum, for the host's expected value. */
#define HZ_MIX(i, x) \
    ((((uint64_t)(x) ^ ((uint64_t)(i)*0x9e3779b97f4a7c15ull)) * 0xbf58476d1ce4e5b9ull) >> 7)

#ifdef __cplusplus
}
#endif

#endif /* PX_TESTS_K_HAZARDS_H */
