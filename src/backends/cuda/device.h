/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: the GPUs, touched lazily, and the per-device state portex keeps.
 *
 * Nothing here runs at px_init: the first CUDA instance, allocation or device query
 * initialises CUDA (so that Check can fork before it). Each device used gets, once:
 * its properties, two internal non-blocking streams (one for allocation and zeroing, one
 * for frees ordered after queued work) and portex's own stream-ordered memory pools. */
#ifndef PX_BACKENDS_CUDA_DEVICE_H
#define PX_BACKENDS_CUDA_DEVICE_H

#include <stdbool.h>

#include <cuda_runtime_api.h>

#include "backends/backend.h"
#include "backends/services.h"

/* The unit of portex's large allocations: 64 KiB. */
#define PX__CUDA_POOL_UNIT ((size_t)64 << 10)

typedef struct px__cuda_device {
    bool ready;
    int ordinal;
    int sm_count;
    int threads_per_sm;    /* resident threads an SM holds at most */
    size_t shared_optin;   /* dynamic shared memory a block may opt in to (team scratch) */
    int priority_least;    /* numerically largest (lowest priority) */
    int priority_greatest; /* numerically smallest (highest priority) */
    /* NULL when the device lacks stream-ordered allocation. Allocations of at least
       PX__CUDA_POOL_UNIT bytes come from `pool` in whole units, the smaller ones from
       small_pool (memory/memory.c says why). */
    cudaMemPool_t pool;
    cudaMemPool_t small_pool;
    /* Internal non-blocking streams. Allocations and zeroing run on `alloc` and wait for
       nothing else, so creating a view never waits for unrelated work; frees run on
       `release` after waiting for every live queue's work (queue/track.c). */
    cudaStream_t alloc;
    cudaStream_t release;
} px__cuda_device;

/* Number of CUDA devices (0 when there is none; *why says why, cudaSuccess otherwise).
   Records nothing. */
int px__cuda_device_total(cudaError_t *why);
/* As px__cuda_device_total, but PX_ERR_NO_DEVICE (with CUDA's reason) when there is
   none. */
px_status px__cuda_count(int *count);

/* The state of device `ordinal`, initialised on first use; PX_ERR_NO_DEVICE when out of
   range. */
px_status px__cuda_device_get(int ordinal, px__cuda_device **out);

/* The state of a device that is already initialised, or NULL (never initialises). */
px__cuda_device *px__cuda_device_if_ready(int ordinal);

/* The device whose context serves what belongs to no device (pinned host memory: its
   allocation, and the stream that orders its frees): the lowest-numbered device portex
   has set up, else the calling thread's current one. Never device 0 for its own sake: a
   process that works on GPU 1 only (one MPI rank per GPU) must not open a context on
   GPU 0, where its work would time-slice with another process's kernels. */
int px__cuda_home_device(void);

/* Makes `ordinal` the calling thread's current device and saves the caller's; every
   backend entry point brackets its CUDA calls with enter/leave so that several GPUs
   work and the user's current device is left as it was. */
px_status px__cuda_enter(int ordinal, int *saved);
void px__cuda_leave(int saved);

/* Library calls that another thread's global-mode stream capture would forbid (pinned
   allocation and free): portex's own, on memory no capture uses, so this thread relaxes
   its capture mode around them instead of invalidating the other thread's capture. */
enum cudaStreamCaptureMode px__cuda_relax(void);
void px__cuda_unrelax(enum cudaStreamCaptureMode saved);

/* The backend's lock: device initialisation. */
void px__cuda_lock(void);
void px__cuda_unlock(void);

/* Releases every device's stream and pool (px_finalize); devices start over lazily. */
void px__cuda_devices_release(void);

#endif /* PX_BACKENDS_CUDA_DEVICE_H */
