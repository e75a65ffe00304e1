/* Staged copies (path CUDA_STAGED): what the caller's thread does. It queues the job on the
 * instance's stream (a host function that marks it ready, then the gate) and returns; the
 * workers (cuda_staging_worker.c) do the copy. cuda_staging.h has the whole picture. */
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
    px__stg_job_publish(job, PX__STG_READY_STREAM);
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
    pthread_mutex_lock(&px__stg.lock);
    job->gate = px__stg.wait32 != NULL && px__stg.write32 != NULL && !px__stg.gate_disabled &&
                !px__stg.dev[q->device].no_gate;
    job->ticket = ++lane->ticket;
    lane->in_flight++;
    px__stg.in_flight++;
    pthread_mutex_unlock(&px__stg.lock);
    pthread_mutex_unlock(&px__stg.setup);
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

/* With the instance's device current (px__cuda_copy). */
px_status px__cuda_staged_copy(struct px_instance *inst, px__copy_op *op)
{
    px__cuda_queue *q = px__cuda_queue_of(inst);
    /* A failure of an earlier staged copy on this instance is reported now, before this copy
       is queued behind a result the caller has not seen. */
    PX__TRY(px__stg_lane_report(q, inst->label, FUNC));

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
        /* No pool (pinned memory or threads refused): the driver's copy still works. */
        free(job);
        return driver_copy(q->stream, op);
    }

    /* Ready once the instance's earlier work has run: the host part must not read or write
       the pageable memory before then either, which an event waited for by the DMAs alone
       would not ensure. */
    px_status st = PX__CU(cudaLaunchHostFunc(q->stream, on_ready, job));
    if (st != PX_OK) {
        job_unregister(job);
        return st;
    }
    if (job->gate) {
        /* Later work on the instance waits until the flag reaches this job's ticket. */
        const CUresult r = px__stg.wait32(q->stream, job->lane->flag_dev, job->ticket, CU_STREAM_WAIT_VALUE_GEQ);
        if (r != CUDA_SUCCESS) {
            /* Stream memory operations refused (CUDA_ERROR_NOT_SUPPORTED): this and later
               copies on the device run synchronously, still staged. */
            job->gate = false;
            pthread_mutex_lock(&px__stg.lock);
            px__stg.dev[q->device].no_gate = true;
            pthread_mutex_unlock(&px__stg.lock);
        }
    }
    job->sync = !job->gate;
    const bool sync = job->sync;
    /* From here on the job belongs to the workers unless the caller waits for it. */
    px__stg_job_publish(job, PX__STG_READY_SUBMIT);
    op->path = PX_COPY_CUDA_STAGED;
    return sync ? job_wait(job) : PX_OK;
}
