/* Internal: the GPUs, touched lazily, and the per-device state portex keeps.
 *
 * Nothing here runs at px_init: the first CUDA instance, allocation or device query
 * initialises CUDA (so that Check can fork before it). Each device used gets, once:
 * its properties, an internal non-blocking stream (allocation, zeroing and the deferred
 * frees are ordered on it) and portex's own stream-ordered memory pool. */
#ifndef PX_CUDA_DEVICE_H
#define PX_CUDA_DEVICE_H

#include <stdbool.h>

#include <cuda_runtime_api.h>

#include "core/internal.h"

typedef struct px__cuda_device {
    bool ready;
    int ordinal;
    int sm_count;
    int priority_least;      /* numerically largest (lowest priority) */
    int priority_greatest;   /* numerically smallest (highest priority) */
    cudaMemPool_t pool;      /* NULL when the device lacks stream-ordered allocation */
    cudaStream_t stream;     /* internal, non-blocking */
} px__cuda_device;

/* Number of CUDA devices (0 when there is none; *why says why, cudaSuccess otherwise).
   Records nothing. */
int px__cuda_device_total(cudaError_t *why);
/* As px__cuda_device_total, but PX_ERR_NO_DEVICE (with CUDA's reason, in the name of
   `func`) when there is none. */
px_status px__cuda_count(int *count, const char *func);

/* The state of device `ordinal`, initialised on first use; PX_ERR_NO_DEVICE when out of
   range. `func` names the caller in the message. */
px_status px__cuda_device_get(int ordinal, px__cuda_device **out, const char *func);

/* The state of a device that is already initialised, or NULL (never initialises). */
px__cuda_device *px__cuda_device_if_ready(int ordinal);

/* Makes `ordinal` the calling thread's current device and saves the caller's; every
   backend entry point brackets its CUDA calls with enter/leave so that several GPUs
   work and the user's current device is left as it was. */
px_status px__cuda_enter(int ordinal, int *saved);
void px__cuda_leave(int saved);

/* The backend's lock: device initialisation and the list of live queues. */
void px__cuda_lock(void);
void px__cuda_unlock(void);

/* Releases every device's stream and pool (px_finalize); devices start over lazily. */
void px__cuda_devices_release(void);

#endif /* PX_CUDA_DEVICE_H */
