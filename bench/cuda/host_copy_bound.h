/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The machine's own copy bandwidth between pageable and pinned host memory, measured in
 * the benchmark's run: the bound of a staged copy, whose host threads memcpy between the
 * two while the DMA engines move the pinned buffers (bench_copy, bench_overlap).
 *
 * `threads` threads each copy an equal, page-aligned slice of the buffer; one round is
 * timed from their common start (a barrier) to the last one's end (another), after an
 * untimed round; the median of `reps` rounds, in GB/s. The threads are not bound to cores
 * (the staging threads are placed near the GPU when hwloc knows where that is). Plain C
 * and pthreads; the including file defines _POSIX_C_SOURCE 200112L or later first. */
#ifndef BENCH_HOST_COPY_BOUND_H
#define BENCH_HOST_COPY_BOUND_H

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct hcb_pool {
    pthread_barrier_t start, end;
    const unsigned char *src;
    unsigned char *dst;
    size_t bytes;
    int nthreads;
    int quit;
} hcb_pool;

typedef struct hcb_worker {
    hcb_pool *pool;
    int index;
} hcb_worker;

static inline double hcb_now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

static inline void *hcb_worker_main(void *arg)
{
    const hcb_worker *w = arg;
    hcb_pool *p = w->pool;
    for (;;) {
        pthread_barrier_wait(&p->start);
        if (p->quit) return NULL;
        /* Slices of whole pages; the last thread takes the rest. */
        const size_t per = p->bytes / (size_t)p->nthreads / 4096 * 4096;
        const size_t off = per * (size_t)w->index;
        const size_t len = w->index == p->nthreads - 1 ? p->bytes - off : per;
        memcpy(p->dst + off, p->src + off, len);
        pthread_barrier_wait(&p->end);
    }
}

static inline int hcb_cmp(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* GB/s of copying `bytes` from src to dst with `threads` threads; median of `reps` rounds
   (at least 1). 0 when the threads cannot be started (those that were are left waiting:
   a benchmark that cannot start threads ends soon after). */
static inline double hcb_bandwidth(const void *src, void *dst, size_t bytes, int threads, int reps)
{
    if (threads < 1 || reps < 1 || bytes == 0) return 0.0;
    hcb_pool *pool = calloc(1, sizeof *pool);
    pthread_t *th = calloc((size_t)threads, sizeof *th);
    hcb_worker *w = calloc((size_t)threads, sizeof *w);
    double *ms = calloc((size_t)reps, sizeof *ms);
    if (!pool || !th || !w || !ms) {
        free(pool);
        free(th);
        free(w);
        free(ms);
        return 0.0;
    }
    pool->src = src;
    pool->dst = dst;
    pool->bytes = bytes;
    pool->nthreads = threads;
    if (pthread_barrier_init(&pool->start, NULL, (unsigned)threads + 1) != 0) {
        free(pool);
        free(th);
        free(w);
        free(ms);
        return 0.0;
    }
    if (pthread_barrier_init(&pool->end, NULL, (unsigned)threads + 1) != 0) {
        pthread_barrier_destroy(&pool->start);
        free(pool);
        free(th);
        free(w);
        free(ms);
        return 0.0;
    }
    for (int t = 0; t < threads; ++t) {
        w[t].pool = pool;
        w[t].index = t;
        if (pthread_create(&th[t], NULL, hcb_worker_main, &w[t]) != 0) {
            free(ms);
            return 0.0; /* pool, th and w stay: the threads started use them */
        }
    }
    for (int r = -1; r < reps; ++r) {
        const double t0 = hcb_now_ms();
        pthread_barrier_wait(&pool->start);
        pthread_barrier_wait(&pool->end);
        if (r >= 0) ms[r] = hcb_now_ms() - t0;
    }
    qsort(ms, (size_t)reps, sizeof *ms, hcb_cmp);
    const double med = reps % 2 ? ms[reps / 2] : 0.5 * (ms[reps / 2 - 1] + ms[reps / 2]);
    pool->quit = 1;
    pthread_barrier_wait(&pool->start);
    for (int t = 0; t < threads; ++t) pthread_join(th[t], NULL);
    pthread_barrier_destroy(&pool->start);
    pthread_barrier_destroy(&pool->end);
    free(pool);
    free(th);
    free(w);
    free(ms);
    return (double)bytes / (med * 1e6);
}

/* The cores the process may use. */
static inline int hcb_cores(void)
{
    const long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

#endif /* BENCH_HOST_COPY_BOUND_H */
