/* Internal: staged copies of pageable host memory (path CUDA_STAGED).
 *
 * A copy between DEVICE and pageable HOST memory goes through a bounded pool of pinned
 * buffers that portex owns, chunk by chunk: host worker threads copy between the pageable
 * memory and a buffer while the copy engines move other buffers, so the host copies of
 * several threads and the DMA overlap. Two forms:
 *
 * The gate (default; cuda_staging.c, v2_copy). Workers make no CUDA call: the caller
 * queues every GPU-side operation of the copy on the instance's own stream at call time
 * and returns, and workers only memcpy and store flags in mapped pinned memory.
 * - each buffer b has two flags, full[b] and free[b], and a use counter (lock); a copy's
 *   chunks get their buffers and use numbers u in one critical section, so every buffer's
 *   uses are ordered by call order. free[b] >= u-1: use u may start; full[b] >= u: its
 *   data is in the buffer. Comparisons are cyclic (GEQ).
 * - host to device, chunk (b, u): worker waits for the lane's start >= ticket (written on
 *   the stream first: earlier work has run) and free[b] >= u-1, memcpy, full[b] = u;
 *   stream: wait full[b] >= u (cuStreamWaitValue32), DMA, write free[b] = u
 *   (cuStreamWriteValue32). Later work on the stream follows the last DMA.
 * - device to host: stream: wait free[b] >= u-1, DMA, write full[b] = u; worker: waits
 *   full[b] >= u, memcpy, free[b] = u; the worker that finishes the last chunk stores the
 *   lane's flag = ticket, which a final wait on the stream holds later work for.
 * - workers scan the pending chunks in call order and take the first whose condition
 *   holds (never blocking on one), sleeping briefly when none does.
 * - a failed queueing turns the chunks not queued into "skip" chunks (a worker writes
 *   both flags once free[b] >= u-1), so no stream and no later use waits forever; the
 *   call returns the failure.
 * Why no CUDA call in the workers: a program thread in cudaHostAlloc or cudaFree holds the
 * driver's lock while it waits for the device, which may be waiting for a chunk.
 *
 * The synchronous form (PX_STAGING_GATE=0, CUDA_DEVICE_MAX_CONNECTIONS=1, no stream memory
 * operations): a host function on the instance's stream marks the job ready once earlier
 * work has run; workers then memcpy and DMA on the device's two staging streams, with an
 * event per buffer, and the caller waits for the job and returns its first failure.
 *
 * Each instance has a lane: its flags and ticket counter and the jobs in flight (destroying
 * the instance waits for them).
 *
 * Locks: `lock` guards the job lists, the buffers, the lanes' counters and the jobs'
 * errors; nothing that can wait for the GPU is ever called while it is held (the host
 * function needs it). `setup` guards building and tearing down the pool, the per-device
 * resources and the lanes' flag memory; CUDA may be called under it, and workers never
 * take it. Order: setup before lock. docs/cuda.md ("Staging") describes the behaviour
 * users see. */
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

typedef struct px__stg_lane {
    struct px__stg_lane *next;
    const void *key;              /* the instance's px__cuda_queue */
    int slot;                     /* index of the flag in the flag blocks */
    volatile uint32_t *flag;      /* host address of the gate's flag */
    CUdeviceptr flag_dev;         /* the same, as the GPU addresses it */
    volatile uint32_t *start;     /* v2: written on the stream before a copy to the device */
    CUdeviceptr start_dev;
    uint32_t ticket;              /* (lock) the last ticket handed out */
    int in_flight;                /* (lock) jobs queued and not finished */
} px__stg_lane;

/* Per chunk of a v2 job (one allocation: nchunks of each). */
#define PX__STG_V2_PENDING 0u
#define PX__STG_V2_SKIP 1u         /* not queued on the stream: the worker writes both flags */
#define PX__STG_V2_TAKEN 2u        /* from here on: a worker has it */
#define PX__STG_V2_FIX 3u          /* taken, but its stream side was not queued (failure) */
typedef struct px__stg_v2 {
    int *buf;
    uint32_t *use;
    unsigned char *state;
} px__stg_v2;

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
    bool sync;                    /* the caller waits and frees the job */
    bool finished;                /* (lock) */
    uint32_t ticket;
    /* Gate v2 only (v2 != NULL): per chunk, its buffer, use number and state. */
    struct px__stg_v2 *v2;
    struct px__stg_job *v2_next;  /* (lock) list of v2 jobs with chunks not taken */
    size_t v2_first;              /* (lock) first chunk not taken */
    px_status err;                /* (lock) first failure */
    char msg[PX__STG_MSG];
} px__stg_job;

/* What the pool keeps per GPU: two streams (one per direction, so that both copy engines
   work at once) and one event per buffer, recorded after the DMA that uses it. */
typedef struct px__stg_device {
    bool ready;
    bool no_gate;                 /* the driver refused a stream wait: synchronous copies */
    bool v2_used;                 /* (setup) a v2 copy queued on one of its streams */
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
    /* (setup) gate v2: the buffers' flags (full[b], free[b], one 64-byte line each), when
       the gate is on and the driver has stream memory operations. */
    bool v2;
    uint32_t *bflags;
    CUdeviceptr bflags_dev;
    size_t bflags_bytes;
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
    uint32_t *use;                /* v2: per buffer, the last use handed out */
    int rr;                       /* v2: the next buffer to hand out */
    px__stg_job *v2_head, *v2_tail;
} px__stg_state;

extern px__stg_state px__stg;

/* The buffer b of the pool. */
static inline char *px__stg_buffer(int b) { return px__stg.slab + (size_t)b * px__stg.stride; }

/* v2: the words of buffer b's flags (host view and GPU view). */
#define PX__STG_FLAG_WORDS 16u
static inline volatile uint32_t *px__stg_full(int b) { return px__stg.bflags + (size_t)(2 * b) * PX__STG_FLAG_WORDS; }
static inline volatile uint32_t *px__stg_free(int b) { return px__stg.bflags + (size_t)(2 * b + 1) * PX__STG_FLAG_WORDS; }
static inline CUdeviceptr px__stg_full_dev(int b) { return px__stg.bflags_dev + (CUdeviceptr)(2 * b) * PX__STG_FLAG_WORDS * 4u; }
static inline CUdeviceptr px__stg_free_dev(int b) { return px__stg.bflags_dev + (CUdeviceptr)(2 * b + 1) * PX__STG_FLAG_WORDS * 4u; }
/* a >= b in the cyclic order cuStreamWaitValue32 uses. */
static inline bool px__stg_geq(uint32_t a, uint32_t b) { return (int32_t)(a - b) >= 0; }

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
/* Frees every lane and the flag memory (setup held, no job in flight). */
void px__stg_lanes_release(void);

/* ---- cuda_staging_worker.c -------------------------------------------------------------- */

/* A worker thread's body. */
void *px__stg_worker_main(void *arg);
/* Synchronous form: the instance's earlier work has run; the job joins the ready list. */
void px__stg_job_publish(px__stg_job *job);
/* v2: hands a job whose stream side is queued to the workers. */
void px__stg_v2_publish(px__stg_job *job);
/* v2: a flag store from the host, after everything this thread wrote. */
void px__stg_v2_store(volatile uint32_t *flag, uint32_t value);

/* ---- core/topology.c -------------------------------------------------------------------- */

/* The topology px_init loaded (NULL without one), for placing the workers. */
struct hwloc_topology *px__topology_handle(void);

#endif /* PX_CUDA_STAGING_H */
