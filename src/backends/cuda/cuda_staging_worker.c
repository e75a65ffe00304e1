/* The staging workers: each takes chunks of the ready jobs in turn and moves them through
 * a pinned buffer.
 *
 *   host to device:  memcpy pageable -> buffer; DMA buffer -> device; the buffer is
 *                    "pending" until its event says the DMA has read it. No wait: the
 *                    next chunk's memcpy overlaps this chunk's DMA.
 *   device to host:  DMA device -> buffer; wait; memcpy buffer -> pageable. A worker keeps
 *                    the DMA of its next chunk in flight while it copies the current one,
 *                    so that it rarely waits.
 *
 * No deadlock: a worker blocks for a buffer only while it holds none, and a held buffer is
 * always released after finite work (a DMA on a staging stream, which waits for nothing,
 * then a memcpy). The second buffer of the device-to-host pipeline is taken only when one
 * is free at once. */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backends/cuda/cuda_check.h"
#include "backends/cuda/cuda_staging.h"

typedef struct chunk {
    px__stg_job *job;
    size_t k;
    int buf;          /* -1 when none is held */
    bool skip;        /* the job already failed: do nothing, only count the chunk */
} chunk;

static _Thread_local int t_device = -1;

static px_status use_device(int device)
{
    if (t_device == device) return PX_OK;
    PX__CU_TRY(cudaSetDevice(device));
    t_device = device;
    return PX_OK;
}

static size_t chunk_len(const chunk *c)
{
    const size_t off = c->k * c->job->chunk;
    const size_t left = c->job->bytes - off;
    return left < c->job->chunk ? left : c->job->chunk;
}

/* ---- The ready list (lock held) ---------------------------------------------------------- */

static void ready_append(px__stg_job *job)
{
    job->next = NULL;
    if (px__stg.ready_tail)
        px__stg.ready_tail->next = job;
    else
        px__stg.ready_head = job;
    px__stg.ready_tail = job;
}

static void ready_unlink(px__stg_job *job, px__stg_job *prev)
{
    if (prev)
        prev->next = job->next;
    else
        px__stg.ready_head = job->next;
    if (px__stg.ready_tail == job) px__stg.ready_tail = prev;
    job->next = NULL;
}

/* Hands out chunk `claimed` of job; a job with chunks left goes to the back of the list,
   so that concurrent jobs (both directions, several instances) advance together. */
static void claim_from(px__stg_job *job, px__stg_job *prev, chunk *c)
{
    c->job = job;
    c->k = job->claimed++;
    c->buf = -1;
    c->skip = job->err != PX_OK;
    ready_unlink(job, prev);
    if (job->claimed < job->nchunks) ready_append(job);
}

void px__stg_job_publish(px__stg_job *job)
{
    pthread_mutex_lock(&px__stg.lock);
    ready_append(job);
    pthread_cond_broadcast(&px__stg.work);
    pthread_mutex_unlock(&px__stg.lock);
}

/* ---- Gate v2 (lock held) ----------------------------------------------------------------- */

void px__stg_v2_store(volatile uint32_t *flag, uint32_t value)
{
    atomic_thread_fence(memory_order_release);
    *flag = value;
}

void px__stg_v2_publish(px__stg_job *job)
{
    pthread_mutex_lock(&px__stg.lock);
    job->v2_next = NULL;
    if (px__stg.v2_tail)
        px__stg.v2_tail->v2_next = job;
    else
        px__stg.v2_head = job;
    px__stg.v2_tail = job;
    pthread_cond_broadcast(&px__stg.work);
    pthread_mutex_unlock(&px__stg.lock);
}

/* Whether chunk k of a v2 job may run now: its buffer's previous use is over and, host to
   device, the instance's earlier work has run; device to host, the DMA has filled it. */
static bool v2_ready(const px__stg_job *job, size_t k)
{
    const px__stg_v2 *v = job->v2;
    const int b = v->buf[k];
    const uint32_t u = v->use[k];
    if (v->state[k] == PX__STG_V2_SKIP) return px__stg_geq(*px__stg_free(b), u - 1);
    if (job->to_device)
        return px__stg_geq(*job->lane->start, job->ticket) && px__stg_geq(*px__stg_free(b), u - 1);
    return px__stg_geq(*px__stg_full(b), u);
}

/* The first chunk, in call order, whose condition holds. Within a job only the next `nbuf`
   chunks not taken can hold: the one after uses a buffer again, after one of them. */
static bool v2_claim(chunk *c)
{
    px__stg_job *prev = NULL;
    for (px__stg_job *j = px__stg.v2_head; j != NULL; prev = j, j = j->v2_next) {
        const px__stg_v2 *v = j->v2;
        size_t end = j->v2_first + (size_t)px__stg.nbuf;
        if (end > j->nchunks) end = j->nchunks;
        for (size_t k = j->v2_first; k < end; ++k) {
            if (v->state[k] >= PX__STG_V2_TAKEN || !v2_ready(j, k)) continue;
            c->job = j;
            c->k = k;
            c->buf = v->buf[k];
            c->skip = v->state[k] == PX__STG_V2_SKIP;
            v->state[k] = PX__STG_V2_TAKEN;
            while (j->v2_first < j->nchunks && v->state[j->v2_first] >= PX__STG_V2_TAKEN) j->v2_first++;
            if (j->v2_first == j->nchunks) {
                /* Every chunk taken: the job leaves the list (it is freed when done). */
                if (prev)
                    prev->v2_next = j->v2_next;
                else
                    px__stg.v2_head = j->v2_next;
                if (px__stg.v2_tail == j) px__stg.v2_tail = prev;
                j->v2_next = NULL;
            }
            /* What the GPU wrote before the flag is seen after it. */
            atomic_thread_fence(memory_order_acquire);
            return true;
        }
    }
    return false;
}

/* ---- Claiming -------------------------------------------------------------------------------- */

/* Blocks until a chunk is ready or the pool stops (0); 1 for a chunk of a synchronous job,
   2 for a v2 chunk. While v2 chunks wait for their flags the worker polls. */
static int claim_any(chunk *c)
{
    pthread_mutex_lock(&px__stg.lock);
    for (;;) {
        if (px__stg.ready_head != NULL) {
            claim_from(px__stg.ready_head, NULL, c);
            pthread_mutex_unlock(&px__stg.lock);
            return 1;
        }
        if (px__stg.v2_head != NULL && v2_claim(c)) {
            pthread_mutex_unlock(&px__stg.lock);
            return 2;
        }
        if (px__stg.stop) break;
        if (px__stg.v2_head == NULL) {
            pthread_cond_wait(&px__stg.work, &px__stg.lock);
            continue;
        }
        pthread_mutex_unlock(&px__stg.lock);
        const struct timespec pause = {0, 30000};
        nanosleep(&pause, NULL);
        pthread_mutex_lock(&px__stg.lock);
    }
    pthread_mutex_unlock(&px__stg.lock);
    return 0;
}

/* A device-to-host chunk together with a free buffer, without waiting; false if either is
   missing. */
static bool claim_d2h_now(chunk *c)
{
    bool got = false;
    pthread_mutex_lock(&px__stg.lock);
    if (px__stg.nfree > 0) {
        px__stg_job *prev = NULL;
        for (px__stg_job *j = px__stg.ready_head; j != NULL; prev = j, j = j->next) {
            if (j->to_device) continue;
            claim_from(j, prev, c);
            c->buf = px__stg.free_stack[--px__stg.nfree];
            got = true;
            break;
        }
    }
    pthread_mutex_unlock(&px__stg.lock);
    return got;
}

/* ---- Buffers ------------------------------------------------------------------------------- */

/* A buffer for this worker: a free one, else the oldest pending one once its DMA has read
   it, else wait. On an error the buffer is still handed out (the caller releases it). */
static px_status buffer_acquire(int *out)
{
    pthread_mutex_lock(&px__stg.lock);
    for (;;) {
        if (px__stg.nfree > 0) {
            *out = px__stg.free_stack[--px__stg.nfree];
            pthread_mutex_unlock(&px__stg.lock);
            return PX_OK;
        }
        if (px__stg.pend_count > 0) {
            const int b = px__stg.pend_buf[px__stg.pend_head];
            const int d = px__stg.pend_dev[px__stg.pend_head];
            px__stg.pend_head = (px__stg.pend_head + 1) % px__stg.nbuf;
            px__stg.pend_count--;
            pthread_mutex_unlock(&px__stg.lock);
            *out = b;
            return PX__CU(cudaEventSynchronize(px__stg.dev[d].ev[b]));
        }
        pthread_cond_wait(&px__stg.buf, &px__stg.lock);
    }
}

static void buffer_release(int b)
{
    pthread_mutex_lock(&px__stg.lock);
    px__stg.free_stack[px__stg.nfree++] = b;
    pthread_cond_signal(&px__stg.buf);
    pthread_mutex_unlock(&px__stg.lock);
}

/* A buffer whose DMA, recorded by its event on `device`, may still be reading it. */
static void buffer_pending(int b, int device)
{
    pthread_mutex_lock(&px__stg.lock);
    const int tail = (px__stg.pend_head + px__stg.pend_count) % px__stg.nbuf;
    px__stg.pend_buf[tail] = b;
    px__stg.pend_dev[tail] = device;
    px__stg.pend_count++;
    pthread_cond_signal(&px__stg.buf);
    pthread_mutex_unlock(&px__stg.lock);
}

/* ---- Finishing jobs -------------------------------------------------------------------------- */

/* Marks the job finished and frees it unless its caller holds it. `host_release` opens the
   instance's gate (a gated copy to the host). The store happens under the lock, so that
   once the lane shows no job in flight nothing will touch its flag again. */
static void job_retire(px__stg_job *job, bool host_release)
{
    px__stg_lane *l = job->lane;
    pthread_mutex_lock(&px__stg.lock);
    if (host_release) {
        /* Everything the job wrote (pageable memory) is stored before the flag. */
        atomic_thread_fence(memory_order_release);
        if (px__stg_geq(job->ticket, *l->flag)) *l->flag = job->ticket;
    }
    l->in_flight--;
    px__stg.in_flight--;
    job->finished = true;
    const bool free_it = !job->sync;
    pthread_cond_broadcast(&px__stg.done);
    pthread_mutex_unlock(&px__stg.lock);
    if (free_it) {
        free(job->v2);
        free(job);
    }
}

/* Records the job's first failure with the message the failing call left on this thread. */
static void job_fail(px__stg_job *job, px_status st, size_t k)
{
    pthread_mutex_lock(&px__stg.lock);
    if (job->err == PX_OK) {
        job->err = st;
        snprintf(job->msg, sizeof job->msg, "%zu bytes %s DEVICE(%d), chunk %zu of %zu: %s", job->bytes,
                 job->to_device ? "to" : "from", job->device, k, job->nchunks, px_last_error());
    }
    pthread_mutex_unlock(&px__stg.lock);
}

/* The last chunk of a synchronous job is done: every DMA of the job has been queued. The
   caller must not see a copy to the device done before its DMAs are. */
static void job_finish(px__stg_job *job)
{
    if (job->to_device) {
        const px_status st = PX__CU(cudaStreamSynchronize(px__stg.dev[job->device].h2d));
        if (st != PX_OK) job_fail(job, st, job->nchunks - 1);
    }
    job_retire(job, false);
}

static void chunk_done(chunk *c, px_status st)
{
    px__stg_job *job = c->job;
    if (st != PX_OK) job_fail(job, st, c->k);
    pthread_mutex_lock(&px__stg.lock);
    const bool last = ++job->done == job->nchunks;
    pthread_mutex_unlock(&px__stg.lock);
    if (last) job_finish(job);
}

/* ---- Host to device ------------------------------------------------------------------------ */

static void h2d_chunk(chunk *c)
{
    px__stg_job *job = c->job;
    if (c->skip) {
        chunk_done(c, PX_OK);
        return;
    }
    const size_t off = c->k * job->chunk, len = chunk_len(c);
    int b;
    px_status st = buffer_acquire(&b);
    if (st != PX_OK) {
        buffer_release(b);
        chunk_done(c, st);
        return;
    }
    char *buf = px__stg_buffer(b);
    memcpy(buf, job->host + off, len);
    const px__stg_device *d = &px__stg.dev[job->device];
    st = use_device(job->device);
    if (st == PX_OK) st = PX__CU(cudaMemcpyAsync(job->dev + off, buf, len, cudaMemcpyHostToDevice, d->h2d));
    if (st != PX_OK) {
        buffer_release(b);
    } else if ((st = PX__CU(cudaEventRecord(d->ev[b], d->h2d))) == PX_OK) {
        buffer_pending(b, job->device);
    } else {
        /* The DMA is queued but cannot be tracked: wait for it before reusing the buffer. */
        (void)cudaStreamSynchronize(d->h2d);
        (void)cudaGetLastError();
        buffer_release(b);
    }
    chunk_done(c, st);
}

/* ---- Device to host ------------------------------------------------------------------------ */

/* Queues the chunk's DMA into its buffer; on failure the buffer is released and the chunk
   counted. */
static bool d2h_issue(chunk *c)
{
    px__stg_job *job = c->job;
    const px__stg_device *d = &px__stg.dev[job->device];
    px_status st = use_device(job->device);
    if (st == PX_OK)
        st = PX__CU(cudaMemcpyAsync(px__stg_buffer(c->buf), job->dev + c->k * job->chunk, chunk_len(c),
                                    cudaMemcpyDeviceToHost, d->d2h));
    if (st == PX_OK) st = PX__CU(cudaEventRecord(d->ev[c->buf], d->d2h));
    if (st == PX_OK) return true;
    /* The DMA may be queued without an event: let it finish before the buffer is reused. */
    (void)cudaStreamSynchronize(d->d2h);
    (void)cudaGetLastError();
    buffer_release(c->buf);
    chunk_done(c, st);
    return false;
}

static void d2h_complete(chunk *c)
{
    px__stg_job *job = c->job;
    const px_status st = PX__CU(cudaEventSynchronize(px__stg.dev[job->device].ev[c->buf]));
    if (st == PX_OK) memcpy(job->host + c->k * job->chunk, px__stg_buffer(c->buf), chunk_len(c));
    buffer_release(c->buf);
    chunk_done(c, st);
}

/* Runs `first` and, while buffers are free at once, further device-to-host chunks, each
   one's DMA queued before the previous one's memcpy. */
static void d2h_run(chunk first)
{
    chunk cur = first;
    if (cur.skip) {
        chunk_done(&cur, PX_OK);
        return;
    }
    px_status st = buffer_acquire(&cur.buf);
    if (st != PX_OK) {
        buffer_release(cur.buf);
        chunk_done(&cur, st);
        return;
    }
    if (!d2h_issue(&cur)) return;
    for (;;) {
        chunk next;
        bool more = claim_d2h_now(&next);
        if (more && next.skip) {
            buffer_release(next.buf);
            chunk_done(&next, PX_OK);
            more = false;
        } else if (more) {
            more = d2h_issue(&next);
        }
        d2h_complete(&cur);
        if (!more) return;
        cur = next;
    }
}

/* ---- Gate v2 chunks --------------------------------------------------------------------------- */

/* No CUDA call: a memcpy and flag stores. The worker finishing the last chunk of a copy to
   the host opens the instance's gate (the lane's flag). */
static void v2_run(chunk *c)
{
    px__stg_job *job = c->job;
    const int b = c->buf;
    const uint32_t u = job->v2->use[c->k];
    if (c->skip) {
        px__stg_v2_store(px__stg_full(b), u);
        px__stg_v2_store(px__stg_free(b), u);
    } else {
        const size_t off = c->k * job->chunk, len = chunk_len(c);
        if (job->to_device) {
            memcpy(px__stg_buffer(b), job->host + off, len);
            px__stg_v2_store(px__stg_full(b), u);
        } else {
            memcpy(job->host + off, px__stg_buffer(b), len);
            px__stg_v2_store(px__stg_free(b), u);
        }
    }
    pthread_mutex_lock(&px__stg.lock);
    const bool last = ++job->done == job->nchunks;
    pthread_mutex_unlock(&px__stg.lock);
    if (last) job_retire(job, !job->to_device);
}

void *px__stg_worker_main(void *arg)
{
    (void)arg;
    /* A graph captured in global mode by another thread would forbid this thread's event
       waits; the workers touch no captured stream, so they opt out. */
    enum cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
    if (cudaThreadExchangeStreamCaptureMode(&mode) != cudaSuccess) (void)cudaGetLastError();
    chunk c;
    int kind;
    while ((kind = claim_any(&c)) != 0) {
        if (kind == 2)
            v2_run(&c);
        else if (c.job->to_device)
            h2d_chunk(&c);
        else
            d2h_run(c);
    }
    return NULL;
}
