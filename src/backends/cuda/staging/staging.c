/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Staged copies (path CUDA_STAGED): the copy call, which queues every GPU-side step on
 * the instance's stream and returns; settling a queue's copies when its stream has
 * finished or failed; configuration and teardown. staging/state.h has the whole
 * picture. */
#include "backends/cuda/staging/staging.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cuda/api.h"
#include "backends/cuda/check.h"
#include "backends/cuda/device.h"
#include "backends/cuda/driver/driver.h"
#include "backends/cuda/staging/state.h"
#include "backends/services.h"

/* ---- Configuration (setup held) ------------------------------------------------------------ */

/* A whole number from the environment within [lo, hi], or false. */
static bool env_number(const char *name, unsigned long long lo, unsigned long long hi,
                       unsigned long long *out)
{
    const char *v = getenv(name);
    if (v == NULL || *v == '\0') return false;
    char *end = NULL;
    errno = 0;
    const unsigned long long x = strtoull(v, &end, 10);
    if (errno != 0 || end == NULL || *end != '\0' || x < lo || x > hi) return false;
    *out = x;
    return true;
}

static void config_load(void)
{
    if (px__stg.cfg_read) return;
    const int cores = px__topology_cores();
    const int threads = cores <= 0                         ? PX__STG_DEFAULT_THREADS
                        : cores < PX__STG_AUTO_THREADS_MAX ? cores
                                                           : PX__STG_AUTO_THREADS_MAX;
    px_staging_config c = {PX__STG_DEFAULT_CHUNK, PX__STG_DEFAULT_BUFFERS, threads};
    unsigned long long x;
    /* Malformed or out-of-range values are ignored: the defaults stand. */
    if (env_number("PX_STAGING_CHUNK_MB", 1, (unsigned long long)(SIZE_MAX >> 21), &x))
        c.chunk_bytes = (size_t)x << 20;
    if (env_number("PX_STAGING_BUFFERS", 2, 65536, &x)) c.buffers = (int)x;
    if (env_number("PX_STAGING_THREADS", 1, PX__STG_MAX_THREADS, &x)) c.threads = (int)x;
    px__stg.cfg = c;
    px__stg.cfg_read = true;
}

/* cuStreamBatchMemOp (CUDA 12's ABI, 32-bit waits and writes, which every device
   supports). Without it staging cannot run: copies take the driver's path. */
static void driver_resolve(void)
{
    if (px__stg.driver_resolved) return;
    char why[160];
    if (!px__cuda_driver_symbol("cuStreamBatchMemOp", 12000, &px__stg.batch, sizeof px__stg.batch,
                                why, sizeof why))
        px__stg.batch = NULL;
    px__stg.driver_resolved = true;
}

/* What a copy needs before it starts: the configuration, the driver call, the buffer
   slots and the threads. False where staging cannot run on `device`. */
static bool engine_ready(int device)
{
    config_load();
    driver_resolve();
    if (px__stg.batch == NULL || px__stg.no_memops[device]) return false;
    if (px__stg.bufs == NULL) {
        px__stg_buffer *slots = px__calloc((size_t)px__stg.cfg.buffers, sizeof *slots);
        if (slots == NULL) return false;
        pthread_mutex_lock(&px__stg.lock);
        px__stg.bufs = slots;
        px__stg.cap = px__stg.cfg.buffers;
        pthread_mutex_unlock(&px__stg.lock);
    }
    if (px__stg_workers_start(device) != PX_OK) {
        px_clear_error();
        return false;
    }
    return true;
}

px_status px__cuda_staging_get(px_staging_config *out)
{
    pthread_mutex_lock(&px__stg.setup);
    config_load();
    *out = px__stg.cfg;
    pthread_mutex_unlock(&px__stg.setup);
    return PX_OK;
}

/* Stops the threads and lets the buffers go (setup held; nothing in flight). */
static void engine_teardown(bool final)
{
    px__stg_workers_stop();
    px__stg_buffers_release(final);
}

px_status px__cuda_staging_set(const px_staging_config *config)
{
    pthread_mutex_lock(&px__stg.setup);
    config_load();
    px_staging_config c = px__stg.cfg;
    if (config->chunk_bytes) c.chunk_bytes = config->chunk_bytes;
    if (config->buffers) c.buffers = config->buffers;
    if (config->threads) c.threads = config->threads;
    size_t total;
    px_status st = PX_OK;
    if (px__mul_overflows(c.chunk_bytes, (size_t)c.buffers, &total))
        st = px__error(PX_ERR_OVERFLOW, "%d buffers of %zu bytes overflow size_t", c.buffers,
                       c.chunk_bytes);
    pthread_mutex_lock(&px__stg.lock);
    const int jobs = px__stg.njobs;
    const bool idle = jobs == 0 && px__stg_buffers_idle();
    pthread_mutex_unlock(&px__stg.lock);
    /* Never waits: the buffers may be in use by queued DMAs the caller has not fenced. */
    if (st == PX_OK && !idle)
        st = px__error(
            PX_ERR_BUSY,
            "staged copies are in flight (%d not yet done on the host, or DMAs queued); fence the "
            "instances and try again",
            jobs);
    if (st == PX_OK) {
        const bool changed = c.chunk_bytes != px__stg.cfg.chunk_bytes ||
                             c.buffers != px__stg.cfg.buffers || c.threads != px__stg.cfg.threads;
        /* The next staged copy builds the engine again with the new shape. */
        if (changed) engine_teardown(false);
        px__stg.cfg = c;
    }
    pthread_mutex_unlock(&px__stg.setup);
    return st;
}

uint64_t px__cuda_staging_lane(void)
{
    pthread_mutex_lock(&px__stg.lock);
    const uint64_t lane = ++px__stg.next_lane;
    pthread_mutex_unlock(&px__stg.lock);
    return lane;
}

/* ---- The copy ---------------------------------------------------------------------------- */

/* The driver's own copy, where staging cannot run: it may return before it has read a
   pageable source, and fills a pageable destination only by the end, so the stream is
   waited for before the caller may touch the buffer again. */
static px_status driver_copy(cudaStream_t s, px__copy_op *op)
{
    op->path = PX_COPY_CUDA_PAGEABLE;
    PX__CU_TRY(cudaMemcpyAsync(op->dst.data, op->src.data, op->bytes, cudaMemcpyDefault, s));
    return PX__CU(cudaStreamSynchronize(s));
}

/* Chunks small enough that the copy's buffers each get about two (a small copy is still
   pipelined), in 64 KiB steps, at most a buffer. */
static size_t job_chunk(size_t bytes, int want, size_t buffer)
{
    const size_t parts = 2 * (size_t)want;
    size_t c = (bytes + parts - 1) / parts;
    c = (c + PX__STG_MIN_CHUNK - 1) / PX__STG_MIN_CHUNK * PX__STG_MIN_CHUNK;
    return c < buffer ? c : buffer;
}

static px__stg_job *job_new(px__cuda_queue *q, px__copy_op *op, int want)
{
    const bool to_device = op->dst.space.kind == PX_SPACE_DEVICE;
    const size_t chunk = job_chunk(op->bytes, want, px__stg.cfg.chunk_bytes);
    const size_t n = (op->bytes + chunk - 1) / chunk;
    px__stg_job *job = px__calloc(1, sizeof *job + n * sizeof(px__stg_chunk));
    if (job == NULL) return NULL;
    job->chunks = (px__stg_chunk *)(void *)(job + 1);
    job->lane = q->lane;
    job->to_device = to_device;
    job->dev = to_device ? op->dst.data : op->src.data;
    job->host = to_device ? op->src.data : op->dst.data;
    job->bytes = op->bytes;
    job->chunk = chunk;
    job->nchunks = n;
    job->caller = px__caller();
    return job;
}

static void op_wait(CUstreamBatchMemOpParams *p, CUdeviceptr addr, uint32_t value)
{
    memset(p, 0, sizeof *p);
    p->waitValue.operation = CU_STREAM_MEM_OP_WAIT_VALUE_32;
    p->waitValue.address = addr;
    p->waitValue.value = value;
    p->waitValue.flags = CU_STREAM_WAIT_VALUE_GEQ;
}

static void op_write(CUstreamBatchMemOpParams *p, CUdeviceptr addr, uint32_t value)
{
    memset(p, 0, sizeof *p);
    p->writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_32;
    p->writeValue.address = addr;
    p->writeValue.value = value;
    p->writeValue.flags = CU_STREAM_WRITE_VALUE_DEFAULT;
}

typedef struct batch {
    CUstreamBatchMemOpParams ops[PX__STG_PER_COPY + 2];
    unsigned int n;
} batch;

static px_status batch_flush(cudaStream_t s, batch *b)
{
    if (b->n == 0) return PX_OK;
    const CUresult r = px__stg.batch((CUstream)s, b->n, b->ops, 0);
    b->n = 0;
    return px__cu_check(r, "cuStreamBatchMemOp(staging flags)");
}

static px__stg_buffer *buf_of(const px__stg_job *job, size_t k)
{
    return &px__stg.bufs[job->chunks[k].buf];
}

/* Every GPU-side step of the copy on s (staging/state.h); *queued tells whether any
   was queued before a failure. */
static px_status enqueue(cudaStream_t s, const px__stg_job *job, bool *queued)
{
    int bufs[PX__STG_PER_COPY];
    uint32_t last[PX__STG_PER_COPY];
    const int nb = px__stg_job_last_uses(job, bufs, last);
    batch b = {.n = 0};
    *queued = false;
    if (job->to_device)
        for (int i = 0; i < nb; ++i)
            op_write(&b.ops[b.n++], px__stg_flag_dev(&px__stg.bufs[bufs[i]], PX__STG_GO), last[i]);
    for (size_t k = 0; k < job->nchunks; ++k) {
        const px__stg_chunk *c = &job->chunks[k];
        const px__stg_buffer *buf = buf_of(job, k);
        const size_t off = k * job->chunk;
        const size_t len = job->bytes - off < job->chunk ? job->bytes - off : job->chunk;
        if (job->to_device)
            op_wait(&b.ops[b.n++], px__stg_flag_dev(buf, PX__STG_FULL), c->use);
        else
            op_wait(&b.ops[b.n++], px__stg_flag_dev(buf, PX__STG_FREE), c->use - 1);
        PX__TRY(batch_flush(s, &b));
        *queued = true;
        if (job->to_device)
            PX__CU_TRY(cudaMemcpyAsync(job->dev + off, buf->data, len, cudaMemcpyHostToDevice, s));
        else
            PX__CU_TRY(cudaMemcpyAsync(buf->data, job->dev + off, len, cudaMemcpyDeviceToHost, s));
        op_write(&b.ops[b.n++], px__stg_flag_dev(buf, job->to_device ? PX__STG_FREE : PX__STG_FULL),
                 c->use);
    }
    /* To the host: later work waits until the threads have taken every chunk out. */
    if (!job->to_device)
        for (int i = 0; i < nb; ++i)
            op_wait(&b.ops[b.n++], px__stg_flag_dev(&px__stg.bufs[bufs[i]], PX__STG_FREE), last[i]);
    return batch_flush(s, &b);
}

/* Queueing failed half-way: wait for what was queued (or learn that the stream is dead),
   then abandon the lane's copies so that nothing waits for a use that will not come. */
static void enqueue_failed(px__cuda_queue *q)
{
    px__saved_error saved;
    px__error_save(&saved);
    const enum cudaStreamCaptureMode mode = px__cuda_relax();
    if (cudaStreamSynchronize(q->stream) != cudaSuccess) (void)cudaGetLastError();
    px__cuda_unrelax(mode);
    px__stg_jobs_abandon(q->lane);
    px__error_restore(&saved);
}

px_status px__cuda_staged_copy(px__cuda_queue *q, px__copy_op *op)
{
    px__copy_side *host = op->dst.space.kind == PX_SPACE_DEVICE ? &op->src : &op->dst;
    px__stg_job *job = NULL;
    int want = 0;
    pthread_mutex_lock(&px__stg.setup);
    if (engine_ready(q->device)) {
        want = px__stg.cap < PX__STG_PER_COPY ? px__stg.cap : PX__STG_PER_COPY;
        job = job_new(q, op, want);
        if (job != NULL && (size_t)want > job->nchunks) want = (int)job->nchunks;
        if (job != NULL) px__stg_buffers_grow(q->lane, want);
    }
    pthread_mutex_unlock(&px__stg.setup);
    if (job == NULL) return driver_copy(q->stream, op);
    /* The pageable memory stays alive until the threads are done with it. */
    job->hold = host->hold;
    host->hold = (px__hold){NULL, NULL};
    pthread_mutex_lock(&q->staging);
    if (px__stg_job_start(job, want) == 0) {
        /* Every buffer is held by other instances' copies and the pool is at its bound:
           the driver's copy rather than a wait for another instance. */
        pthread_mutex_unlock(&q->staging);
        px__stg_job_retire(job);
        return driver_copy(q->stream, op);
    }
    /* Published before anything is queued: a thread of the program may hold the driver's
       lock while the device waits for a chunk already queued. */
    bool queued = false;
    const px_status st = enqueue(q->stream, job, &queued);
    px__stg_job_queued(job); /* from here on the threads may retire it */
    /* On failure the queue's lock is kept while the stream drains: that wait ends with the
       work already queued on this stream (or at once, with the error, on a dead one), and
       only other staged copies on this same queue, which would follow it anyway, wait. */
    if (st != PX_OK) enqueue_failed(q);
    pthread_mutex_unlock(&q->staging);
    if (st != PX_OK) {
        if (st == PX_ERR_UNSUPPORTED && !queued) {
            /* The device refuses stream memory operations: the driver's copy, from now on. */
            pthread_mutex_lock(&px__stg.setup);
            px__stg.no_memops[q->device] = true;
            pthread_mutex_unlock(&px__stg.setup);
            px_clear_error();
            return driver_copy(q->stream, op);
        }
        return st;
    }
    op->path = PX_COPY_CUDA_STAGED;
    return PX_OK;
}

/* ---- Settling and teardown ----------------------------------------------------------------- */

void px__cuda_staging_settle(const px__cuda_queue *q, bool stream_dead)
{
    if (stream_dead)
        px__stg_jobs_abandon(q->lane);
    else
        px__stg_jobs_wait_lane(q->lane);
}

void px__cuda_staging_shutdown(void)
{
    pthread_mutex_lock(&px__stg.setup);
    engine_teardown(true);
    pthread_mutex_unlock(&px__stg.setup);
}
