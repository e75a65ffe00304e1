/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Staged copies in flight: buffers and uses for a new one, the slices the threads claim
 * and finish, and retiring them (staging/state.h). */
#include <stdlib.h>
#include <string.h>

#include "backends/cuda/staging/state.h"

/* ---- Starting a job ------------------------------------------------------------------------ */

static size_t chunk_len(const px__stg_job *job, size_t k)
{
    const size_t off = k * job->chunk;
    return job->bytes - off < job->chunk ? job->bytes - off : job->chunk;
}

int px__stg_job_start(px__stg_job *job, int want)
{
    int picked[PX__STG_PER_COPY];
    int nb = 0;
    pthread_mutex_lock(&px__stg.lock);
    /* The lane's own buffers first (their uses follow the lane's stream anyway), then idle
       ones. */
    for (int pass = 0; pass < 2 && nb < want; ++pass)
        for (int i = 0; i < px__stg.nbuf && nb < want; ++i) {
            const px__stg_buffer *b = &px__stg.bufs[i];
            const bool own = b->lane == job->lane && !px__stg_idle(b);
            if (pass == 0 ? own : (!own && px__stg_buffer_usable(b, job->lane))) picked[nb++] = i;
        }
    if (nb > 0) {
        for (size_t k = 0; k < job->nchunks; ++k) {
            px__stg_chunk *c = &job->chunks[k];
            px__stg_buffer *b = &px__stg.bufs[picked[k % (size_t)nb]];
            c->buf = picked[k % (size_t)nb];
            c->use = ++b->use;
            b->lane = job->lane;
            c->nslices = (uint32_t)((chunk_len(job, k) + PX__STG_SLICE - 1) / PX__STG_SLICE);
        }
        job->published = true;
        job->held = true; /* by the caller, until its steps are queued */
        job->prev = px__stg.tail;
        job->next = NULL;
        if (px__stg.tail)
            px__stg.tail->next = job;
        else
            px__stg.head = job;
        px__stg.tail = job;
        px__stg.njobs++;
        pthread_cond_broadcast(&px__stg.work);
    }
    pthread_mutex_unlock(&px__stg.lock);
    return nb;
}

int px__stg_job_last_uses(const px__stg_job *job, int *buf, uint32_t *use)
{
    int n = 0;
    /* Chunks take buffers round robin: the last of each buffer is among the last chunks. */
    for (size_t k = job->nchunks; k-- > 0 && n < PX__STG_PER_COPY;) {
        bool seen = false;
        for (int i = 0; i < n; ++i) seen = seen || buf[i] == job->chunks[k].buf;
        if (seen) break;
        buf[n] = job->chunks[k].buf;
        use[n] = job->chunks[k].use;
        ++n;
    }
    return n;
}

/* ---- Claiming and finishing slices (lock held) ------------------------------------------------ */

/* Host to device: earlier work on the stream has run and the buffer's previous use has
   ended. Device to host: the DMA has filled the buffer. */
static bool chunk_ready(const px__stg_job *job, const px__stg_chunk *c)
{
    const px__stg_buffer *b = &px__stg.bufs[c->buf];
    if (job->to_device)
        return px__stg_geq(px__stg_flag(b, PX__STG_GO), c->use) &&
               px__stg_geq(px__stg_flag(b, PX__STG_FREE), c->use - 1);
    return px__stg_geq(px__stg_flag(b, PX__STG_FULL), c->use);
}

bool px__stg_job_claim(px__stg_slice *out)
{
    for (px__stg_job *j = px__stg.head; j != NULL; j = j->next) {
        if (j->dead) continue;
        /* Only the next PER_COPY chunks can be ready: the one after reuses a buffer. */
        const size_t end =
            j->open + PX__STG_PER_COPY < j->nchunks ? j->open + PX__STG_PER_COPY : j->nchunks;
        for (size_t k = j->open; k < end; ++k) {
            px__stg_chunk *c = &j->chunks[k];
            if (c->claimed == c->nslices || !chunk_ready(j, c)) continue;
            out->job = j;
            out->chunk = k;
            out->index = c->claimed++;
            j->active++;
            while (j->open < j->nchunks && j->chunks[j->open].claimed == j->chunks[j->open].nslices)
                j->open++;
            /* More of this chunk for the threads that sleep while one polls. */
            if (c->claimed < c->nslices) pthread_cond_broadcast(&px__stg.work);
            /* What the GPU wrote before the flag is seen after it. */
            atomic_thread_fence(memory_order_acquire);
            return true;
        }
    }
    return false;
}

bool px__stg_jobs_waiting(void)
{
    for (const px__stg_job *j = px__stg.head; j != NULL; j = j->next)
        if (!j->dead && j->open < j->nchunks) return true;
    return false;
}

static void job_unlink(px__stg_job *job)
{
    if (job->prev)
        job->prev->next = job->next;
    else
        px__stg.head = job->next;
    if (job->next)
        job->next->prev = job->prev;
    else
        px__stg.tail = job->prev;
    job->prev = job->next = NULL;
    px__stg.njobs--;
    pthread_cond_broadcast(&px__stg.done);
}

/* Takes the job for retiring when its last chunk is done, or when it is dead and no slice
   of it is being copied; one taker only. */
static bool take_for_retiring(px__stg_job *job)
{
    if (job->held || job->retiring ||
        (job->finished < job->nchunks && !(job->dead && job->active == 0)))
        return false;
    job->retiring = true;
    return true;
}

px__stg_job *px__stg_slice_done(const px__stg_slice *s)
{
    px__stg_job *job = s->job;
    px__stg_chunk *c = &job->chunks[s->chunk];
    job->active--;
    if (++c->done == c->nslices) {
        /* The whole chunk has moved: hand the buffer on (to the DMA, or to its next use). */
        px__stg_flag_store(&px__stg.bufs[c->buf], job->to_device ? PX__STG_FULL : PX__STG_FREE,
                           c->use);
        job->finished++;
        pthread_cond_broadcast(&px__stg.work);
    }
    if (job->dead && job->active == 0) pthread_cond_broadcast(&px__stg.done);
    return take_for_retiring(job) ? job : NULL;
}

void px__stg_job_queued(px__stg_job *job)
{
    pthread_mutex_lock(&px__stg.lock);
    job->held = false;
    const bool done = take_for_retiring(job);
    pthread_mutex_unlock(&px__stg.lock);
    if (done) px__stg_job_retire(job);
}

void px__stg_job_retire(px__stg_job *job)
{
    /* The hold goes before the job leaves the list: whoever waits for the list to empty
       (a fence, a destroy) then knows the memory is let go. */
    px__hold_drop(&job->hold);
    if (job->published) {
        pthread_mutex_lock(&px__stg.lock);
        job_unlink(job);
        pthread_mutex_unlock(&px__stg.lock);
    }
    free(job);
}

/* ---- Settling a lane (takes the lock) ----------------------------------------------------- */

static bool lane_busy(uint64_t lane, bool active_only)
{
    for (const px__stg_job *j = px__stg.head; j != NULL; j = j->next)
        if (j->lane == lane && (!active_only || j->active > 0)) return true;
    return false;
}

void px__stg_jobs_abandon(uint64_t lane)
{
    px__stg_job *mine = NULL;
    pthread_mutex_lock(&px__stg.lock);
    for (px__stg_job *j = px__stg.head; j != NULL; j = j->next)
        if (j->lane == lane) j->dead = true;
    /* Slices being copied end after one memcpy each. */
    while (lane_busy(lane, true)) pthread_cond_wait(&px__stg.done, &px__stg.lock);
    px__stg_buffers_reset_lane(lane);
    pthread_cond_broadcast(&px__stg.work);
    for (px__stg_job *j = px__stg.head; j != NULL; j = j->next)
        if (j->lane == lane && take_for_retiring(j)) {
            j->retire_next = mine;
            mine = j;
        }
    pthread_mutex_unlock(&px__stg.lock);
    while (mine != NULL) {
        px__stg_job *j = mine;
        mine = j->retire_next;
        px__stg_job_retire(j);
    }
    /* Jobs a thread was retiring meanwhile. */
    px__stg_jobs_wait_lane(lane);
}

void px__stg_jobs_wait_lane(uint64_t lane)
{
    pthread_mutex_lock(&px__stg.lock);
    while (lane_busy(lane, false)) pthread_cond_wait(&px__stg.done, &px__stg.lock);
    pthread_mutex_unlock(&px__stg.lock);
}
