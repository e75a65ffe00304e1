/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The staging threads: each claims a slice of a ready chunk, copies it, and finishes it;
 * they make no CUDA call (staging/state.h says why).
 *
 * Idle threads sleep on a condition variable. While copies are in flight but none of
 * their chunks is ready (the GPU has not written the flags yet), one thread polls the
 * flags for all: it spins briefly, then waits with a timeout that doubles up to
 * POLL_MAX_US, so a copy held behind a long kernel costs a wake-up every 100 us, and a
 * new copy or a finished chunk wakes it at once. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, pthread_condattr_setclock */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <hwloc.h>
#include <hwloc/cudart.h>

#include "backends/cuda/staging/state.h"
#include "backends/services.h"

#define SPIN_POLLS 64
#define POLL_MIN_US 2
#define POLL_MAX_US 100

static size_t slice_offset(const px__stg_slice *s)
{
    return s->chunk * s->job->chunk + (size_t)s->index * PX__STG_SLICE;
}

static void copy_slice(const px__stg_slice *s)
{
    const px__stg_job *job = s->job;
    const px__stg_chunk *c = &job->chunks[s->chunk];
    const size_t off = slice_offset(s);
    const size_t chunk_end = s->chunk * job->chunk + job->chunk < job->bytes
                                 ? s->chunk * job->chunk + job->chunk
                                 : job->bytes;
    const size_t len = chunk_end - off < PX__STG_SLICE ? chunk_end - off : PX__STG_SLICE;
    char *buf = px__stg.bufs[c->buf].data + (off - s->chunk * job->chunk);
    if (job->to_device)
        memcpy(buf, job->host + off, len);
    else
        memcpy(job->host + off, buf, len);
}

static void pause_briefly(void)
{
#if defined(__x86_64__) || defined(__i386__)
    for (int i = 0; i < 64; ++i) __builtin_ia32_pause();
#else
    for (volatile int i = 0; i < 64; ++i) {}
#endif
}

/* Polling for the others: a short spin, then a timed wait that grows with `idle`. */
static void poll_wait(int idle)
{
    if (idle < SPIN_POLLS) {
        pthread_mutex_unlock(&px__stg.lock);
        pause_briefly();
        pthread_mutex_lock(&px__stg.lock);
        return;
    }
    int shift = idle - SPIN_POLLS;
    long us = shift > 6 ? POLL_MAX_US : (long)POLL_MIN_US << shift;
    if (us > POLL_MAX_US) us = POLL_MAX_US;
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    t.tv_nsec += us * 1000;
    if (t.tv_nsec >= 1000000000L) {
        t.tv_sec += 1;
        t.tv_nsec -= 1000000000L;
    }
    (void)pthread_cond_timedwait(&px__stg.work, &px__stg.lock, &t);
}

static void *worker_main(void *arg)
{
    (void)arg;
    int idle = 0;
    pthread_mutex_lock(&px__stg.lock);
    while (!px__stg.stop) {
        px__stg_slice s;
        if (px__stg_job_claim(&s)) {
            idle = 0;
            pthread_mutex_unlock(&px__stg.lock);
            copy_slice(&s);
            pthread_mutex_lock(&px__stg.lock);
            px__stg_job *done = px__stg_slice_done(&s);
            if (done != NULL) {
                pthread_mutex_unlock(&px__stg.lock);
                {
                    PX__ENTER_AS(done->caller);
                    px__stg_job_retire(done);
                }
                pthread_mutex_lock(&px__stg.lock);
            }
            continue;
        }
        if (!px__stg_jobs_waiting() || px__stg.polling) {
            idle = 0;
            pthread_cond_wait(&px__stg.work, &px__stg.lock);
            continue;
        }
        px__stg.polling = true;
        poll_wait(idle++);
        px__stg.polling = false;
    }
    pthread_mutex_unlock(&px__stg.lock);
    return NULL;
}

/* The work condition waits against the monotonic clock (timed polls); set up once. */
static pthread_once_t g_cond_once = PTHREAD_ONCE_INIT;

static void cond_init(void)
{
    pthread_condattr_t a;
    if (pthread_condattr_init(&a) != 0) return;
    if (pthread_condattr_setclock(&a, CLOCK_MONOTONIC) == 0) {
        pthread_cond_destroy(&px__stg.work);
        pthread_cond_init(&px__stg.work, &a);
    }
    pthread_condattr_destroy(&a);
}

/* The cores nearest `device` (its PCI slot's local CPUs), or NULL when unknown. */
static hwloc_bitmap_t near_cpus(int device)
{
    hwloc_topology_t topo = px__topology_handle();
    if (topo == NULL) return NULL;
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    if (set == NULL) return NULL;
    if (hwloc_cudart_get_device_cpuset(topo, device, set) != 0 || hwloc_bitmap_iszero(set)) {
        (void)cudaGetLastError();
        hwloc_bitmap_free(set);
        return NULL;
    }
    return set;
}

px_status px__stg_workers_start(int device)
{
    if (px__stg.nthreads > 0) return PX_OK;
    pthread_once(&g_cond_once, cond_init);
    const int n = px__stg.cfg.threads;
    px__stg.threads = px__calloc((size_t)n, sizeof *px__stg.threads);
    if (px__stg.threads == NULL)
        return px__error(PX_ERR_OUT_OF_MEMORY, "no memory for the staging threads");
    /* Every signal blocked: the application's handlers keep running on its own threads. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int started = 0, err = 0;
    for (; started < n; ++started) {
        err = px__fault_hit() ? EAGAIN
                              : pthread_create(&px__stg.threads[started], NULL, worker_main, NULL);
        if (err != 0) break;
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    px__stg.nthreads = started;
    if (started == 0) {
        free(px__stg.threads);
        px__stg.threads = NULL;
        return px__error(PX_ERR_SYSTEM, "pthread_create failed for the staging threads: %s",
                         strerror(err));
    }
    /* Near the GPU: pageable memory there is closest to its PCIe root, and the threads stay
       off other sockets. An optimisation: a refusal (restricted cpuset, container) is fine. */
    hwloc_bitmap_t set = near_cpus(device);
    if (set != NULL) {
        hwloc_topology_t topo = px__topology_handle();
        for (int t = 0; t < started; ++t)
            (void)hwloc_set_thread_cpubind(topo, px__stg.threads[t], set, 0);
        hwloc_bitmap_free(set);
    }
    return PX_OK;
}

void px__stg_workers_stop(void)
{
    pthread_mutex_lock(&px__stg.lock);
    px__stg.stop = true;
    pthread_cond_broadcast(&px__stg.work);
    pthread_mutex_unlock(&px__stg.lock);
    for (int t = 0; t < px__stg.nthreads; ++t) pthread_join(px__stg.threads[t], NULL);
    free(px__stg.threads);
    px__stg.threads = NULL;
    px__stg.nthreads = 0;
    pthread_mutex_lock(&px__stg.lock);
    px__stg.stop = false;
    pthread_mutex_unlock(&px__stg.lock);
}
