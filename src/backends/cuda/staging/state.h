/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: the staging engine behind CUDA_STAGED, shared by its files:
 *
 *   buffers.c  the pinned buffers and their flags; which buffers a copy uses
 *   jobs.c     the copies in flight: claiming, finishing and retiring them
 *   workers.c  the host threads that do the host part
 *   staging.c  the copy call, settling a queue's copies, configuration
 *
 * How a copy moves. The calling thread queues every GPU-side step on the instance's own
 * stream and returns; the worker threads only memcpy between the pageable memory and
 * pinned buffers and store flags there. They never call CUDA: a program thread inside
 * cudaFree or cudaFreeHost holds the driver's lock while it waits for the device, which
 * may be waiting for a worker.
 *
 * Buffers. Each pinned buffer (chunk_bytes) has three 32-bit flags in mapped pinned
 * memory, each on its own 64-byte line: full (its data is in), free (its data has been
 * taken out), go (the stream has reached the copy). Every use of a buffer gets the next
 * use number u; use u may start once free >= u - 1 (cyclic comparison, as
 * cuStreamWaitValue32's GEQ). A buffer is idle when free has reached its last use.
 *
 * No copy waits for another instance's. A copy takes only buffers that are idle, or
 * whose outstanding uses are its own instance's (its lane's): uses of a buffer by one
 * lane follow that lane's stream order, so no instance's copy, however long its stream
 * is held up (a long kernel, a faulted GPU), holds a buffer another instance waits for.
 * At most PX__STG_PER_COPY buffers per copy; the pool grows to `buffers` buffers.
 *
 * Host to device, chunk k in buffer b with use u:
 *   stream: at the start, go[b] = last use of b in this copy (one batch for all b); then
 *           wait full[b] >= u, DMA buffer -> device, write free[b] = u
 *   host:   once go[b] >= u (earlier work on the stream has run) and free[b] >= u - 1,
 *           memcpy pageable -> buffer, then full[b] = u
 * Device to host:
 *   stream: wait free[b] >= u - 1, DMA device -> buffer, write full[b] = u; at the end,
 *           wait free[b] >= last use of b for every b of the copy (later work sees the data)
 *   host:   once full[b] >= u, memcpy buffer -> pageable, then free[b] = u
 * The stream's waits and writes between two DMAs go in one cuStreamBatchMemOp.
 *
 * Host parts are split into slices of PX__STG_SLICE bytes, so that all threads work on
 * one copy; a chunk's flag is stored by the thread that finishes its last slice.
 *
 * A dead stream. If the stream fails (a kernel faulted: the context is lost), the GPU
 * never writes these flags again. Whoever learns it (a fence or destroy whose
 * synchronisation fails, or a copy call whose queueing fails) marks that lane's copies
 * dead: no slice of them is claimed again, the slices being copied end (a memcpy), the
 * copies retire and the lane's buffers are made idle by writing their flags from the
 * host (nothing on that stream will touch them again). Nothing waits for the GPU while
 * holding a lock.
 *
 * Locks. `lock` guards the jobs, the buffers' use numbers and lanes, and the workers'
 * state; nothing under it calls CUDA or waits for the GPU. `setup` serialises what makes
 * or unmakes the engine (threads, buffer allocation, configuration) and may call CUDA;
 * workers never take it, so a CUDA call under it that waits for the device cannot wait
 * for them. Order: setup before lock. */
#ifndef PX_BACKENDS_CUDA_STAGING_STATE_H
#define PX_BACKENDS_CUDA_STAGING_STATE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cuda.h>

#include "backends/backend.h"

/* 32 MiB chunks: a 1 GiB copy is 32 chunks, two driver calls each, so the call returns in
   well under 1% of the copy; 3 of them per copy keep the copy engine and every thread busy
   (one in DMA, two being filled or drained). */
#define PX__STG_DEFAULT_CHUNK ((size_t)32 << 20)
#define PX__STG_DEFAULT_BUFFERS 12
/* Threads: the machine's cores up to 16 (memcpy between pageable and pinned memory scales
   with threads up to the memory system's limit), 8 when the topology is not known. */
#define PX__STG_DEFAULT_THREADS 8
#define PX__STG_AUTO_THREADS_MAX 16
#define PX__STG_MIN_CHUNK ((size_t)64 << 10)
#define PX__STG_MAX_THREADS 64
/* The most buffers one copy uses at a time: enough to keep every thread and the copy
   engine busy (a DMA in flight, the next buffers being filled or drained). */
#define PX__STG_PER_COPY 3
#define PX__STG_SLICE ((size_t)1 << 20)

typedef struct px__stg_buffer {
    char *data;               /* chunk bytes, page-aligned; the flags follow */
    volatile uint32_t *flags; /* full at [0], free at [16], go at [32] */
    CUdeviceptr flags_dev;    /* the same, as the GPU addresses them */
    size_t bytes;
    uint32_t use;  /* (lock) the last use handed out */
    uint64_t lane; /* (lock) the lane of that use */
} px__stg_buffer;

enum { PX__STG_FULL = 0, PX__STG_FREE = 16, PX__STG_GO = 32 };

/* a >= b in the cyclic order cuStreamWaitValue32 uses. */
static inline bool px__stg_geq(uint32_t a, uint32_t b) { return (int32_t)(a - b) >= 0; }

static inline uint32_t px__stg_flag(const px__stg_buffer *b, int which) { return b->flags[which]; }

/* A host store of a flag, after everything this thread wrote before it. */
static inline void px__stg_flag_store(px__stg_buffer *b, int which, uint32_t value)
{
    atomic_thread_fence(memory_order_release);
    b->flags[which] = value;
}

static inline CUdeviceptr px__stg_flag_dev(const px__stg_buffer *b, int which)
{
    return b->flags_dev + (CUdeviceptr)which * sizeof(uint32_t);
}

/* Idle: every use handed out has ended. (lock) */
static inline bool px__stg_idle(const px__stg_buffer *b)
{
    return px__stg_geq(px__stg_flag(b, PX__STG_FREE), b->use);
}

/* One chunk of a copy: a buffer, a use of it, and its slices. */
typedef struct px__stg_chunk {
    int buf;
    uint32_t use;
    uint32_t nslices;
    uint32_t claimed; /* (lock) slices handed to threads */
    uint32_t done;    /* (lock) slices finished */
} px__stg_chunk;

typedef struct px__stg_job {
    struct px__stg_job *prev, *next; /* (lock) the jobs in flight, oldest first */
    uint64_t lane;
    bool to_device;
    char *dev;  /* device side */
    char *host; /* pageable side */
    size_t bytes;
    size_t chunk;
    size_t nchunks;
    px__stg_chunk *chunks;
    size_t open;     /* (lock) first chunk with a slice not claimed */
    size_t finished; /* (lock) chunks whose flag is stored */
    int active;      /* (lock) slices being copied now */
    bool dead;       /* (lock) its stream runs nothing more: claim nothing */
    bool published;  /* it joined the jobs in flight */
    bool held;       /* (lock) its caller still queues its steps: it may finish
                                     on the host first (a copy to the device), not retire */
    bool retiring;   /* (lock) taken for retiring (px__stg_job_retire) */
    struct px__stg_job *retire_next;
    px__hold hold;      /* the pageable memory, until the job retires */
    const char *caller; /* the public call that queued the copy: a staging thread that
                           retires the job (and lets the memory go) works in its name */
} px__stg_job;

typedef CUresult (*px__stg_batch_fn)(CUstream, unsigned int, CUstreamBatchMemOpParams *,
                                     unsigned int);

typedef struct px__stg_state {
    pthread_mutex_t lock;
    pthread_cond_t work; /* a job arrived, a chunk finished, or stop */
    pthread_cond_t done; /* a job retired, or a dead job's last slice ended */
    pthread_mutex_t setup;

    /* (setup, read under lock too) configuration: defaults, environment, px_staging_set */
    bool cfg_read;
    px_staging_config cfg;
    /* (setup) cuStreamBatchMemOp, resolved once; NULL when the driver lacks it */
    bool driver_resolved;
    px__stg_batch_fn batch;
    /* (setup) devices that refused stream memory operations */
    bool no_memops[64];

    /* (lock) the buffers; `cap` slots, `nbuf` made */
    px__stg_buffer *bufs;
    int nbuf, cap;

    /* (setup) the threads; (lock) their state */
    pthread_t *threads;
    int nthreads;
    bool stop;
    bool polling; /* one thread polls the GPU's flags for the others */

    /* (lock) */
    px__stg_job *head, *tail;
    int njobs;
    uint64_t next_lane;
} px__stg_state;

extern px__stg_state px__stg;

/* ---- staging/buffers.c (setup held unless said) -------------------------------------- */

/* Grows the pool (up to its bound) until `want` buffers are idle or the lane's own, or
   no more can be had; allocation failures leave the pool as it was. */
void px__stg_buffers_grow(uint64_t lane, int want);
/* Whether the lane may use buffer b now: idle, or its outstanding uses are the lane's. (lock) */
bool px__stg_buffer_usable(const px__stg_buffer *b, uint64_t lane);
/* The lane's buffers with uses outstanding become idle: their flags are written from the
   host (the lane's stream is idle or dead, and no thread copies for it). (lock) */
void px__stg_buffers_reset_lane(uint64_t lane);
/* Whether every buffer is idle. (lock) */
bool px__stg_buffers_idle(void);
/* The pool forgets its buffers (none in use; takes the lock itself). They are given back
   to CUDA at px_finalize (`final`): cudaFreeHost waits for the whole device, which
   px_staging_set must not do. */
void px__stg_buffers_release(bool final);

/* ---- staging/jobs.c (lock held unless said) -------------------------------------------- */

/* Takes up to `want` usable buffers for the job, hands out a use for each chunk (round
   robin) and publishes it to the threads; returns how many buffers it took (0: none
   could be had, nothing published). Takes the lock itself. */
int px__stg_job_start(px__stg_job *job, int want);
/* The next slice of a ready chunk, oldest job first; false when none is ready. */
typedef struct px__stg_slice {
    px__stg_job *job;
    size_t chunk;
    uint32_t index;
} px__stg_slice;
bool px__stg_job_claim(px__stg_slice *out);
/* Whether any live job still has slices to claim (ready or not). */
bool px__stg_jobs_waiting(void);
/* A slice's copy is done: its chunk's flag is stored when it was the last; returns the
   job when it is done with, taken for the caller to px__stg_job_retire (lock released). */
px__stg_job *px__stg_slice_done(const px__stg_slice *s);
/* Marks the lane's jobs dead, waits until no thread copies for them, makes the lane's
   buffers idle, retires the jobs; takes the lock itself. */
void px__stg_jobs_abandon(uint64_t lane);
/* Waits until the lane has no job in flight (its stream has completed, so only the
   threads' last bookkeeping can be left); takes the lock itself. */
void px__stg_jobs_wait_lane(uint64_t lane);
/* The caller has queued the job's steps (or given up): the job may retire, now if it is
   done already; the caller must not touch it afterwards. Takes the lock itself. */
void px__stg_job_queued(px__stg_job *job);
/* Drops a job's hold, takes it out of the jobs in flight and frees it (lock not held). */
void px__stg_job_retire(px__stg_job *job);
/* The job's last use of each buffer it took: n pairs, at most PX__STG_PER_COPY. */
int px__stg_job_last_uses(const px__stg_job *job, int *buf, uint32_t *use);

/* ---- staging/workers.c (setup held) --------------------------------------------------- */

/* Starts the configured number of threads if none runs, placed near `device`; fewer
   than asked when the system refuses more, none is an error. */
px_status px__stg_workers_start(int device);
/* Stops and joins them (no job in flight). */
void px__stg_workers_stop(void);

#endif /* PX_BACKENDS_CUDA_STAGING_STATE_H */
