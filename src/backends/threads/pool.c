/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Pools of the threads backend: the workers of each team and the hand-off of a job.
 *
 * Hand-off. The dispatching thread publishes a pass of a job by writing it to the team and
 * incrementing `epoch`; each worker, which saw the previous epoch, notices the change, runs
 * its parts and decrements `pending`; the dispatcher runs part 0 (and every `width`-th
 * after it) meanwhile, then waits for `pending` to reach 0. Both waits poll first (the
 * spin, config.h) and then sleep on the word (wait.h). A sleeper says so first
 * (`sleepers` for workers, `waiting` for the dispatcher) and looks at the word again, and
 * the other side changes the word before it looks at that count, all sequentially
 * consistent: either the sleeper sees the change, or the waker sees the sleeper and wakes
 * it. No lock, no allocation and no system call per dispatch while the workers spin. A
 * worker runs its parts as the dispatcher would: with its graph context (px_cond_set) and
 * in the name of its public call, which a message recorded there carries (base/error.h).
 *
 * A team runs one job at a time: `busy` is taken with one atomic exchange; a dispatch
 * that finds it taken runs its parts on its own thread instead of waiting, so that
 * nothing waits for a team that a kernel running on it (or another host thread) holds.
 *
 * Workers start at the first job that needs them, with every signal blocked (signals go
 * to the user's threads), bind themselves to their places, and end when the team is
 * destroyed. A child of fork has none of its parent's workers: teams notice (a count of
 * forks) and start new ones. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, pthread_sigmask */
#include "backends/threads/pool.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backends/host/graph.h"
#include "backends/services.h"
#include "backends/threads/config.h"
#include "backends/threads/wait.h"

#define LINE 64

typedef struct worker {
    px__thr_pool *team;
    int tid;         /* 1 .. nthreads - 1; the dispatcher is 0 */
    unsigned epoch0; /* the epoch when it started: the first pass is the next one */
} worker;

struct px__thr_pool {
    /* The pass to run, written by the dispatcher before it increments epoch. */
    _Alignas(LINE) atomic_uint epoch;
    px__host_job job; /* a copy: workers find it beside epoch, not in the dispatcher's frame */
    int pass;
    int width;          /* threads running the pass: workers started + the dispatcher */
    bool stop;          /* the workers end */
    const void *graphs; /* the dispatcher's graph context (px_cond_set from workers) */
    const char *caller; /* the public call whose work the pass is: the name a worker's
                           messages carry, as the dispatcher's do */
    int64_t spin_ns;

    _Alignas(LINE) atomic_uint sleepers; /* workers asleep on epoch */

    /* Workers still running the pass, and whether the dispatcher sleeps on it. */
    _Alignas(LINE) atomic_uint pending;
    atomic_uint waiting;
    atomic_bool hit; /* a worker met a bounds violation: msg */
    char msg[PX__BOUNDS_MSG];

    /* The rest belongs to whoever holds busy. */
    _Alignas(LINE) atomic_bool busy;
    int nthreads, first;
    bool bind_caller;
    int started;       /* workers running */
    bool start_failed; /* pthread_create refused: no more tries */
    unsigned forks;    /* fork_count when the workers started */
    pthread_t *threads;
    worker *workers;
};

/* Forks of this process so far, counted in the child: its teams' workers are the parent's. */
static atomic_uint fork_count;
static pthread_once_t fork_once = PTHREAD_ONCE_INIT;

static void count_fork(void)
{
    atomic_fetch_add(&fork_count, 1);
    px__thr_wait_after_fork();
}
static void watch_forks(void) { (void)pthread_atfork(NULL, NULL, count_fork); }

/* ---- Waiting ------------------------------------------------------------------------------ */

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Polls *word until it is no longer `value` (want_other) or is `value` (!want_other), for
   at most spin_ns; returns whether it got there. */
static bool spin(atomic_uint *word, unsigned value, bool want_other, int64_t spin_ns)
{
    if ((atomic_load_explicit(word, memory_order_acquire) != value) == want_other) return true;
    if (spin_ns <= 0) return false;
    const int64_t end = now_ns() + spin_ns;
    for (unsigned k = 1;; ++k) {
        px__thr_relax();
        if ((atomic_load_explicit(word, memory_order_acquire) != value) == want_other) return true;
        /* The clock every 256 polls: a few nanoseconds of each microsecond. */
        if ((k & 255) == 0 && now_ns() >= end) return false;
    }
}

/* A worker: the next epoch after `seen`. */
static unsigned wait_epoch(px__thr_pool *t, unsigned seen)
{
    if (!spin(&t->epoch, seen, true, t->spin_ns)) {
        for (;;) {
            atomic_fetch_add_explicit(&t->sleepers, 1, memory_order_seq_cst);
            if (atomic_load_explicit(&t->epoch, memory_order_seq_cst) == seen)
                px__thr_wait(&t->epoch, seen);
            atomic_fetch_sub_explicit(&t->sleepers, 1, memory_order_relaxed);
            if (atomic_load_explicit(&t->epoch, memory_order_acquire) != seen) break;
        }
    }
    return atomic_load_explicit(&t->epoch, memory_order_acquire);
}

/* The dispatcher: the next pass (or the end) is on the team. */
static void publish(px__thr_pool *t)
{
    atomic_fetch_add_explicit(&t->epoch, 1, memory_order_seq_cst);
    if (atomic_load_explicit(&t->sleepers, memory_order_seq_cst) > 0) px__thr_wake_all(&t->epoch);
}

/* A worker: its parts of the pass are done. */
static void finish(px__thr_pool *t)
{
    if (atomic_fetch_sub_explicit(&t->pending, 1, memory_order_seq_cst) == 1 &&
        atomic_load_explicit(&t->waiting, memory_order_seq_cst))
        px__thr_wake_all(&t->pending);
}

/* The dispatcher: every worker has finished the pass. */
static void wait_pending(px__thr_pool *t)
{
    if (spin(&t->pending, 0, false, t->spin_ns)) return;
    for (;;) {
        atomic_store_explicit(&t->waiting, 1, memory_order_seq_cst);
        const unsigned left = atomic_load_explicit(&t->pending, memory_order_seq_cst);
        if (left == 0) break;
        px__thr_wait(&t->pending, left);
    }
    atomic_store_explicit(&t->waiting, 0, memory_order_relaxed);
}

/* ---- Workers ------------------------------------------------------------------------------ */

static void *worker_main(void *arg)
{
    const worker *w = arg;
    px__thr_pool *t = w->team;
    px__thr_bind(t->first + w->tid);
    unsigned seen = w->epoch0;
    for (;;) {
        seen = wait_epoch(t, seen);
        if (t->stop) return NULL;
        const px__host_job *job = &t->job;
        const int pass = t->pass, width = t->width;
        {
            PX__ENTER_AS(t->caller);
            px__host_graph_adopt(t->graphs);
            for (int p = w->tid; p < job->nparts; p += width) job->pass[pass](job->ctx, p);
            px__host_graph_adopt(NULL);
        }
        char mine[PX__BOUNDS_MSG];
        if (px__bounds_take(mine) && !atomic_exchange_explicit(&t->hit, true, memory_order_relaxed))
            memcpy(t->msg, mine, sizeof mine);
        finish(t);
    }
}

/* Starts the workers, as many as pthread_create gives; signals blocked while they start so
   that they inherit a mask with every signal blocked. */
static void start_workers(px__thr_pool *t)
{
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    const unsigned e0 = atomic_load_explicit(&t->epoch, memory_order_relaxed);
    for (int i = 0; i < t->nthreads - 1; ++i) {
        t->workers[i] = (worker){.team = t, .tid = i + 1, .epoch0 = e0};
        if (pthread_create(&t->threads[i], NULL, worker_main, &t->workers[i]) != 0) {
            t->start_failed = true;
            break;
        }
        t->started = i + 1;
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* With busy held: the workers, started now if need be; false when there are none. */
static bool workers_ready(px__thr_pool *t)
{
    const unsigned forks = atomic_load_explicit(&fork_count, memory_order_relaxed);
    if (t->forks != forks) {
        /* A child of fork: the workers were the parent's (and so were the words' states). */
        t->forks = forks;
        t->started = 0;
        t->start_failed = false;
        atomic_store(&t->sleepers, 0);
        atomic_store(&t->pending, 0);
        atomic_store(&t->waiting, 0);
    }
    if (t->started == 0 && !t->start_failed) start_workers(t);
    return t->started > 0;
}

/* ---- Teams -------------------------------------------------------------------------------- */

px_status px__thr_pool_create(int nthreads, int first, bool bind_caller, px__thr_pool **out)
{
    *out = NULL;
    (void)pthread_once(&fork_once, watch_forks);
    px__thr_pool *t = px__aligned_alloc(LINE, sizeof *t);
    if (!t) return px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory for a team");
    memset(t, 0, sizeof *t);
    t->nthreads = nthreads < 1 ? 1 : nthreads;
    t->first = first;
    t->bind_caller = bind_caller;
    t->spin_ns = px__thr_spin_ns(t->nthreads);
    t->forks = atomic_load(&fork_count);
    atomic_init(&t->epoch, 0);
    atomic_init(&t->sleepers, 0);
    atomic_init(&t->pending, 0);
    atomic_init(&t->waiting, 0);
    atomic_init(&t->hit, false);
    atomic_init(&t->busy, false);
    if (t->nthreads > 1) {
        t->threads = px__calloc((size_t)t->nthreads - 1, sizeof *t->threads);
        t->workers = px__calloc((size_t)t->nthreads - 1, sizeof *t->workers);
        if (!t->threads || !t->workers) {
            px__thr_pool_destroy(t);
            return px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory for a team of %d threads",
                             nthreads);
        }
    }
    *out = t;
    return PX_OK;
}

void px__thr_pool_destroy(px__thr_pool *t)
{
    if (!t) return;
    if (t->started > 0 && t->forks == atomic_load(&fork_count)) {
        t->stop = true;
        publish(t);
        for (int i = 0; i < t->started; ++i) pthread_join(t->threads[i], NULL);
    }
    free(t->threads);
    free(t->workers);
    free(t);
}

int px__thr_pool_size(const px__thr_pool *t) { return t->nthreads; }

int px__thr_pool_first(const px__thr_pool *t) { return t->first; }

/* ---- Running a job ------------------------------------------------------------------------ */

static void run_alone(const px__thr_pool *t, const px__host_job *job)
{
    if (t->bind_caller) px__thr_bind(t->first);
    for (int pass = 0; pass < 2 && job->pass[pass]; ++pass)
        for (int p = 0; p < job->nparts; ++p) job->pass[pass](job->ctx, p);
}

static void run_on_team(px__thr_pool *t, const px__host_job *job)
{
    if (t->bind_caller) px__thr_bind(t->first);
    t->job = *job;
    t->graphs = px__host_graph_context();
    t->caller = px__caller();
    t->width = t->started + 1;
    for (int pass = 0; pass < 2 && job->pass[pass]; ++pass) {
        t->pass = pass;
        atomic_store_explicit(&t->pending, (unsigned)t->started, memory_order_relaxed);
        publish(t);
        for (int p = 0; p < job->nparts; p += t->width) job->pass[pass](job->ctx, p);
        wait_pending(t);
    }
    /* The first violation a worker met becomes this thread's (unless it has its own). */
    if (atomic_load_explicit(&t->hit, memory_order_relaxed)) {
        px__bounds_put(t->msg);
        atomic_store_explicit(&t->hit, false, memory_order_relaxed);
    }
}

void px__thr_pool_run(px__thr_pool *t, const px__host_job *job)
{
    if (t->nthreads > 1 && job->nparts > 1 &&
        !atomic_exchange_explicit(&t->busy, true, memory_order_acquire)) {
        const bool ready = workers_ready(t);
        if (ready) run_on_team(t, job);
        atomic_store_explicit(&t->busy, false, memory_order_release);
        if (ready) return;
    }
    run_alone(t, job);
}
