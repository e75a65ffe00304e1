/* Internal: staged copies of pageable host memory (path CUDA_STAGED).
 *
 * A copy between DEVICE and pageable HOST memory goes through a bounded pool of pinned
 * buffers that portex owns, chunk by chunk: host worker threads copy between the pageable
 * memory and a buffer while the copy engines move other buffers, so the host copies of
 * several threads and the DMA overlap. The caller only queues the job:
 *
 *   instance stream:  ... earlier work ... | host function "ready" | gate (wait flag >= t) | later work
 *   workers:                                 run the chunks (memcpy + DMA on the device's
 *                                            staging streams) | release the gate: flag = t
 *
 * - "ready" (cudaLaunchHostFunc) fires once everything queued before the copy on the
 *   instance has run, so both the host part and the DMAs start after it.
 * - the gate (cuStreamWaitValue32, GEQ, on a 32-bit flag in mapped pinned memory) holds
 *   everything queued later on the instance until the copy is complete. Host to device,
 *   the flag is written by the GPU after the last DMA (cuStreamWriteValue32 on the same
 *   staging stream); device to host, by the worker that finishes the last chunk.
 * - each instance has a lane: its flag and ticket counter (jobs of one instance complete in
 *   order, since each one's "ready" waits for the previous one's gate), the jobs in flight
 *   and the first error not yet reported.
 * - without stream memory operations the copy is still staged, but the caller waits for it.
 *
 * Locks: `lock` guards the job lists, the buffers, the lanes' counters and errors; nothing
 * that can wait for the GPU is ever called while it is held (the host function needs it).
 * `setup` guards building and tearing down the pool, the per-device resources and the
 * lanes' flag memory; CUDA may be called under it, and workers never take it. Order:
 * setup before lock. docs/cuda.md ("Staging") describes the behaviour users see. */
#ifndef PX_CUDA_STAGING_H
#define PX_CUDA_STAGING_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cuda.h>
#include <cuda_runtime_api.h>

#include "core/internal.h"

#define PX__STG_DEFAULT_CHUNK ((size_t)8 << 20)
#define PX__STG_DEFAULT_BUFFERS 8
#define PX__STG_DEFAULT_THREADS 8
#define PX__STG_MIN_CHUNK ((size_t)64 << 10)
#define PX__STG_MAX_THREADS 64
#define PX__STG_MSG 384

/* Bits of px__stg_job.ready: the job runs once both are set. */
#define PX__STG_READY_STREAM 1u    /* the instance's earlier work has run */
#define PX__STG_READY_SUBMIT 2u    /* the caller has finished queueing (gate or not) */

typedef struct px__stg_lane {
    struct px__stg_lane *next;
    const void *key;              /* the instance's px__cuda_queue */
    int slot;                     /* index of the flag in the flag blocks */
    volatile uint32_t *flag;      /* host address of the gate's flag */
    CUdeviceptr flag_dev;         /* the same, as the GPU addresses it */
    uint32_t ticket;              /* (lock) the last ticket handed out */
    int in_flight;                /* (lock) jobs queued and not finished */
    px_status err;                /* (lock) first failure not yet reported */
    char msg[PX__STG_MSG];
} px__stg_lane;

typedef struct px__stg_job {
    struct px__stg_job *next;     /* (lock) ready list */
    px__stg_lane *lane;
    bool to_device;
    int device;                   /* the device memory's GPU: whose staging streams */
    char *dev;                    /* device side */
    char *host;                   /* pageable side */
    size_t bytes;
    size_t chunk;
    size_t nchunks;
    size_t claimed;               /* (lock) chunks handed to workers */
    size_t done;                  /* (lock) chunks finished */
    unsigned ready;               /* (lock) PX__STG_READY_* */
    bool gate;                    /* the instance's stream waits for flag >= ticket */
    bool sync;                    /* the caller waits and frees the job */
    bool finished;                /* (lock) */
    uint32_t ticket;
    px_status err;                /* (lock) first failure */
    char msg[PX__STG_MSG];
} px__stg_job;

/* What the pool keeps per GPU: two streams (one per direction, so that both copy engines
   work at once) and one event per buffer, recorded after the DMA that uses it. */
typedef struct px__stg_device {
    bool ready;
    bool no_gate;                 /* the driver refused a stream wait: synchronous copies */
    cudaStream_t h2d, d2h;
    cudaEvent_t *ev;
} px__stg_device;

typedef CUresult (*px__stg_wait32_fn)(CUstream, CUdeviceptr, cuuint32_t, unsigned int);
typedef CUresult (*px__stg_write32_fn)(CUstream, CUdeviceptr, cuuint32_t, unsigned int);

typedef struct px__stg_state {
    pthread_mutex_t lock;
    pthread_cond_t work;          /* a job became ready, or the workers must stop */
    pthread_cond_t buf;           /* a buffer became free or pending */
    pthread_cond_t done;          /* a job finished */
    pthread_mutex_t setup;

    /* (setup) configuration: defaults, then environment, then px_staging_set. */
    bool cfg_read;
    px_staging_config cfg;
    bool gate_disabled;           /* PX_STAGING_GATE=0 */

    /* (setup) driver entry points, resolved once; NULL when unavailable. */
    bool driver_resolved;
    px__stg_wait32_fn wait32;
    px__stg_write32_fn write32;

    /* (setup) the pool, built at the first staged copy. */
    bool built;
    char *slab;                   /* nbuf buffers, `stride` bytes apart */
    size_t slab_bytes;
    size_t stride;
    size_t chunk_max;
    int nbuf;
    pthread_t *threads;
    int nthreads;
    px__stg_device dev[PX__MAX_DEVICES];

    /* (lock) */
    bool stop;
    int *free_stack;              /* buffers nobody uses */
    int nfree;
    int *pend_buf, *pend_dev;     /* ring: buffers whose host-to-device DMA may still run */
    int pend_head, pend_count;
    px__stg_job *ready_head, *ready_tail;
    int in_flight;                /* jobs queued and not finished, all lanes */
    px__stg_lane *lanes;
} px__stg_state;

extern px__stg_state px__stg;

/* The buffer b of the pool. */
static inline char *px__stg_buffer(int b) { return px__stg.slab + (size_t)b * px__stg.stride; }

/* ---- cuda_staging_pool.c ---------------------------------------------------------------- */

/* Reads the environment once (setup held). */
void px__stg_config_load(void);
/* Builds the pool if needed and the staging resources of `device` (setup held; any device
   may be current, the caller's is restored). */
px_status px__stg_pool_build(int device, const char *func);
/* Stops the workers and frees the pool (setup held, no job in flight). */
void px__stg_pool_teardown(void);

/* ---- cuda_staging_lane.c ---------------------------------------------------------------- */

/* The lane of an instance's queue, made on first use with its flag at 0 (setup held; the
   instance's device current). */
px_status px__stg_lane_get(const void *key, px__stg_lane **out, const char *func);
/* PX_OK, or the first unreported failure of a staged copy on the lane, recorded for func
   (and then forgotten). */
px_status px__stg_lane_report(const void *key, const char *label, const char *func);
/* Frees every lane and the flag memory (setup held, no job in flight). */
void px__stg_lanes_release(void);

/* ---- cuda_staging_worker.c -------------------------------------------------------------- */

/* A worker thread's body. */
void *px__stg_worker_main(void *arg);
/* Sets `bits` of job->ready; the job joins the ready list once it has both. */
void px__stg_job_publish(px__stg_job *job, unsigned bits);

/* ---- core/topology.c -------------------------------------------------------------------- */

/* The topology px_init loaded (NULL without one), for placing the workers. */
struct hwloc_topology *px__topology_handle(void);

#endif /* PX_CUDA_STAGING_H */
