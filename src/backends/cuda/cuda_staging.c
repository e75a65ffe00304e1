/* Staged copies (path CUDA_STAGED): what the caller's thread does. Gated, it queues every
 * GPU-side step of the copy on the instance's stream and returns; synchronously, it queues a
 * host function that hands the job to the workers, and waits. The workers
 * (cuda_staging_worker.c) do the host side. cuda_staging.h has the whole picture. */
#include <stdlib.h>
#include <string.h>

#include "backends/cuda/cuda_check.h"
#include "backends/cuda/cuda_hooks.h"
#include "backends/cuda/cuda_queue.h"
#include "backends/cuda/cuda_staging.h"

/* The function named in messages: deep_copy reaches the backend without saying which form. */
#define FUNC "px_deep_copy"

/* Runs on CUDA's callback thread once everything queued before the copy has run. It takes
   only the staging lock, which nobody holds while waiting for the GPU. */
static void CUDART_CB on_ready(void *job)
{
    px__stg_job_publish(job);
}

/* Chunks small enough that every worker gets at least two (a small copy still runs on all
   of them), in 64 KiB steps, at most the pool's buffer size. */
static size_t job_chunk(size_t bytes)
{
    const size_t parts = 2 * (size_t)(px__stg.nthreads > 0 ? px__stg.nthreads : 1);
    size_t c = (bytes + parts - 1) / parts;
    c = (c + PX__STG_MIN_CHUNK - 1) / PX__STG_MIN_CHUNK * PX__STG_MIN_CHUNK;
    if (c > px__stg.chunk_max) c = px__stg.chunk_max;
    return c;
}

/* The driver's own pageable copy, where staging cannot run (its pool could not be made):
   as the CUDA_PAGEABLE path, it waits for the stream before the caller may touch the
   buffer again. */
static px_status driver_copy(cudaStream_t s, px__copy_op *op)
{
    op->path = PX_COPY_CUDA_PAGEABLE;
    PX__CU_TRY(cudaMemcpyAsync(op->dst.data, op->src.data, op->bytes, cudaMemcpyDefault, s));
    return PX__CU(cudaStreamSynchronize(s));
}

/* Under `setup`: the pool, the memory's device resources and the instance's lane, then the
   job counted in flight (so that px_staging_set cannot tear the pool down under it) and
   given the lane's next ticket. Decides whether the instance's stream gets a gate. */
static px_status job_register(px__cuda_queue *q, px__stg_job *job)
{
    pthread_mutex_lock(&px__stg.setup);
    px__stg_lane *lane = NULL;
    px_status st = px__stg_pool_build(job->device, FUNC);
    if (st == PX_OK) st = px__stg_lane_get(q, &lane, FUNC);
    if (st != PX_OK) {
        pthread_mutex_unlock(&px__stg.setup);
        return st;
    }
    job->lane = lane;
    job->chunk = job_chunk(job->bytes);
    job->nchunks = (job->bytes + job->chunk - 1) / job->chunk;
    /* The gate is v2 only (cuda_staging.h); with the gate on, a device that refused the
       stream operations gets the driver's copy: the buffers follow v2's protocol. */
    const bool v2 = px__stg.v2;
    if (v2 && px__stg.dev[q->device].no_gate) {
        pthread_mutex_unlock(&px__stg.setup);
        return PX_ERR_UNSUPPORTED;
    }
    px__stg_v2 *chunks = NULL;
    if (v2) {
        const size_t n = job->nchunks;
        chunks = malloc(sizeof *chunks + n * (sizeof(int) + sizeof(uint32_t) + 1));
        if (chunks == NULL) {
            pthread_mutex_unlock(&px__stg.setup);
            return PX_ERR_OUT_OF_MEMORY;
        }
        chunks->use = (uint32_t *)(chunks + 1);
        chunks->buf = (int *)(chunks->use + n);
        chunks->state = (unsigned char *)(chunks->buf + n);
        memset(chunks->state, PX__STG_V2_PENDING, n);
        px__stg.dev[q->device].v2_used = true;
    }
    pthread_mutex_lock(&px__stg.lock);
    job->ticket = ++lane->ticket;
    if (v2) {
        /* All of the copy's buffer uses at once: every buffer's uses follow call order. */
        for (size_t k = 0; k < job->nchunks; ++k) {
            const int b = px__stg.rr;
            px__stg.rr = (b + 1) % px__stg.nbuf;
            chunks->buf[k] = b;
            chunks->use[k] = ++px__stg.use[b];
        }
        job->v2 = chunks;
    }
    lane->in_flight++;
    px__stg.in_flight++;
    pthread_mutex_unlock(&px__stg.lock);
    /* A v2 job keeps `setup` until its stream side is queued (v2_copy). */
    if (!v2) pthread_mutex_unlock(&px__stg.setup);
    return PX_OK;
}

/* A job that never reached the stream. */
static void job_unregister(px__stg_job *job)
{
    pthread_mutex_lock(&px__stg.lock);
    job->lane->in_flight--;
    px__stg.in_flight--;
    pthread_cond_broadcast(&px__stg.done);
    pthread_mutex_unlock(&px__stg.lock);
    free(job);
}

/* The synchronous form: wait for the job, report its failure, free it. */
static px_status job_wait(px__stg_job *job)
{
    pthread_mutex_lock(&px__stg.lock);
    while (!job->finished) pthread_cond_wait(&px__stg.done, &px__stg.lock);
    pthread_mutex_unlock(&px__stg.lock);
    const px_status st = job->err;
    if (st != PX_OK) px__error(st, FUNC, "staged copy failed: %s", job->msg);
    free(job);
    return st;
}

/* ---- Gate v2 ------------------------------------------------------------------------------- */

static px_status cu_fail(CUresult r, const char *call)
{
    return px__error(r == CUDA_ERROR_NOT_SUPPORTED ? PX_ERR_UNSUPPORTED : PX_ERR_BACKEND, FUNC,
                     "%s: CUresult %d", call, (int)r);
}

/* Queues the copy's GPU side on the instance's stream and returns at once; the workers
   run the host side. The job is published first: a thread of the program may hold the
   driver's lock while the device waits for a chunk already queued, and the workers must
   then be able to run it. Called with `setup` held since the uses were handed out, so that
   the copies' operations reach the GPU in the order of their uses: a wait never sits in a
   hardware queue before an operation it depends on (streams can share one). */
static px_status v2_copy(px__cuda_queue *q, px__stg_job *job, px__copy_op *op)
{
    px__stg_v2 *v = job->v2;
    const cudaStream_t s = q->stream;
    const size_t n = job->nchunks;
    px_status st = PX_OK;
    size_t k = 0;
    int step = 0;   /* of chunk k, what failed: 0 the wait, 1 the DMA, 2 the flag write */
    bool queued = false;
    job->sync = true;   /* the caller holds the job until it is queued */
    px__stg_v2_publish(job);
    if (job->to_device) {
        /* The workers read the pageable memory once the instance's earlier work has run. */
        const CUresult r = px__stg.write32(s, job->lane->start_dev, job->ticket, CU_STREAM_WRITE_VALUE_DEFAULT);
        if (r != CUDA_SUCCESS) st = cu_fail(r, "cuStreamWriteValue32(staging start)");
    }
    for (; st == PX_OK && k < n; ++k) {
        const int b = v->buf[k];
        const uint32_t u = v->use[k];
        const size_t off = k * job->chunk, left = job->bytes - off;
        const size_t len = left < job->chunk ? left : job->chunk;
        CUresult r;
        step = 0;
        if (job->to_device) {
            r = px__stg.wait32(s, px__stg_full_dev(b), u, CU_STREAM_WAIT_VALUE_GEQ);
            if (r != CUDA_SUCCESS) st = cu_fail(r, "cuStreamWaitValue32(staging buffer full)");
            if (st == PX_OK) {
                queued = true;
                step = 1;
                st = PX__CU(cudaMemcpyAsync(job->dev + off, px__stg_buffer(b), len, cudaMemcpyHostToDevice, s));
            }
            if (st == PX_OK) {
                step = 2;
                r = px__stg.write32(s, px__stg_free_dev(b), u, CU_STREAM_WRITE_VALUE_DEFAULT);
                if (r != CUDA_SUCCESS) st = cu_fail(r, "cuStreamWriteValue32(staging buffer free)");
            }
        } else {
            r = px__stg.wait32(s, px__stg_free_dev(b), u - 1, CU_STREAM_WAIT_VALUE_GEQ);
            if (r != CUDA_SUCCESS) st = cu_fail(r, "cuStreamWaitValue32(staging buffer free)");
            if (st == PX_OK) {
                queued = true;
                step = 1;
                st = PX__CU(cudaMemcpyAsync(px__stg_buffer(b), job->dev + off, len, cudaMemcpyDeviceToHost, s));
            }
            if (st == PX_OK) {
                step = 2;
                r = px__stg.write32(s, px__stg_full_dev(b), u, CU_STREAM_WRITE_VALUE_DEFAULT);
                if (r != CUDA_SUCCESS) st = cu_fail(r, "cuStreamWriteValue32(staging buffer full)");
            }
        }
        if (st != PX_OK) break;
    }
    if (st == PX_OK && !job->to_device) {
        /* Later work waits until the worker finishing the last chunk stores the ticket. */
        const CUresult r = px__stg.wait32(s, job->lane->flag_dev, job->ticket, CU_STREAM_WAIT_VALUE_GEQ);
        if (r != CUDA_SUCCESS) st = cu_fail(r, "cuStreamWaitValue32(staging gate)");
    }
    if (st == PX_OK) {
        pthread_mutex_unlock(&px__stg.setup);
        /* The job is the workers' now, unless they have finished it already. */
        pthread_mutex_lock(&px__stg.lock);
        const bool done = job->finished;
        job->sync = false;
        pthread_mutex_unlock(&px__stg.lock);
        if (done) {
            free(job->v2);
            free(job);
        }
        op->path = PX_COPY_CUDA_STAGED;
        return PX_OK;
    }

    /* Release: nothing may wait forever on a use this copy reserved. Chunks from k on were
       not (all) queued: those not taken become skip chunks; host to device, those a worker
       took (and chunk k when only its flag write failed) get free[b] from here once the
       stream has drained and the workers are done. */
    const bool fix = k < n && step == 2;   /* chunk k's DMA is queued, its flag write not */
    pthread_mutex_lock(&px__stg.lock);
    for (size_t i = k; i < n; ++i) {
        if (v->state[i] == PX__STG_V2_TAKEN)
            v->state[i] = PX__STG_V2_FIX;
        else if (v->state[i] == PX__STG_V2_PENDING && !(i == k && fix))
            v->state[i] = PX__STG_V2_SKIP;
    }
    pthread_mutex_unlock(&px__stg.lock);
    const bool unsupported = st == PX_ERR_UNSUPPORTED && !queued;
    if (unsupported) px__stg.dev[q->device].no_gate = true;
    /* `setup` stays held until the flags are written: the pool cannot go meanwhile. The
       stream and the workers need nothing that waits for it. */
    if (queued) {
        (void)cudaStreamSynchronize(s);
        (void)cudaGetLastError();
    }
    /* Device to host, chunk k waits for its buffer's flag, which the stream did not write. */
    if (fix && !job->to_device) px__stg_v2_store(px__stg_full(v->buf[k]), v->use[k]);
    pthread_mutex_lock(&px__stg.lock);
    while (!job->finished) pthread_cond_wait(&px__stg.done, &px__stg.lock);
    pthread_mutex_unlock(&px__stg.lock);
    if (job->to_device)
        for (size_t i = k; i < n; ++i)
            if (v->state[i] == PX__STG_V2_FIX || (i == k && fix)) px__stg_v2_store(px__stg_free(v->buf[i]), v->use[i]);
    pthread_mutex_unlock(&px__stg.setup);
    free(job->v2);
    free(job);
    if (unsupported) {
        /* Stream memory operations refused: this device gets the driver's copy from now on. */
        px_clear_error();
        return driver_copy(s, op);
    }
    return st;
}

/* With the instance's device current (px__cuda_copy). */
px_status px__cuda_staged_copy(struct px_instance *inst, px__copy_op *op)
{
    px__cuda_queue *q = px__cuda_queue_of(inst);

    const bool to_device = op->dst.space.kind == PX_SPACE_DEVICE;
    const px__copy_side *dev = to_device ? &op->dst : &op->src;
    const px__copy_side *host = to_device ? &op->src : &op->dst;
    px__stg_job *job = calloc(1, sizeof *job);
    if (job == NULL) return driver_copy(q->stream, op);
    job->to_device = to_device;
    job->device = dev->space.device;
    job->dev = dev->data;
    job->host = host->data;
    job->bytes = op->bytes;
    if (job_register(q, job) != PX_OK) {
        /* No pool (pinned memory or threads refused), or a device without stream memory
           operations while the gate is on: the driver's copy still works. */
        free(job);
        return driver_copy(q->stream, op);
    }
    if (job->v2 != NULL) return v2_copy(q, job, op);

    /* Ready once the instance's earlier work has run: the host part must not read or write
       the pageable memory before then either, which an event waited for by the DMAs alone
       would not ensure. The caller waits for the job and frees it. */
    job->sync = true;
    const px_status st = PX__CU(cudaLaunchHostFunc(q->stream, on_ready, job));
    if (st != PX_OK) {
        job_unregister(job);
        return st;
    }
    op->path = PX_COPY_CUDA_STAGED;
    return job_wait(job);
}
