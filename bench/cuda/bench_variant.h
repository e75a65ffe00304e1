/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The ways of doing one case's work in the CUDA benchmarks, and their timing: each
 * variant's median time per call, the variants sampled in rotated rounds (bench_rotate).
 * A variant is timed by the host clock (run() returns with its work done) or by two events
 * around its calls on its stream. Plain C; the including file includes
 * cuda_runtime_api.h and bench_util.h first. */
#ifndef BENCH_VARIANT_H
#define BENCH_VARIANT_H

typedef enum timing {
    BY_HOST_CLOCK = 0, /* wall time; run() must return with its work done */
    BY_EVENTS          /* GPU time between two events on `stream` (bench_events_create) */
} timing;

/* One way of doing a case's work. */
typedef struct variant {
    const char *name;
    void (*run)(void *ctx); /* one call */
    cudaStream_t stream;    /* BY_EVENTS: where run() queues its work */
    timing how;
    double ms; /* out: median time per call */
} variant;

/* The two events BY_EVENTS samples record. */
static cudaEvent_t bench_ev[2];

static inline void bench_events_create(void)
{
    CU(cudaEventCreate(&bench_ev[0]));
    CU(cudaEventCreate(&bench_ev[1]));
}

static inline void bench_events_destroy(void)
{
    CU(cudaEventDestroy(bench_ev[0]));
    CU(cudaEventDestroy(bench_ev[1]));
}

/* `batch` calls of v: time per call in ms. */
static inline double variant_sample(const variant *v, void *ctx, int batch)
{
    if (v->how == BY_EVENTS) {
        CU(cudaEventRecord(bench_ev[0], v->stream));
        for (int k = 0; k < batch; ++k) v->run(ctx);
        CU(cudaEventRecord(bench_ev[1], v->stream));
        CU(cudaEventSynchronize(bench_ev[1]));
        float ms = 0.0f;
        CU(cudaEventElapsedTime(&ms, bench_ev[0], bench_ev[1]));
        return (double)ms / batch;
    }
    const double t0 = now_ms();
    for (int k = 0; k < batch; ++k) v->run(ctx);
    return (now_ms() - t0) / batch;
}

/* What bench_rotate samples: `batch` calls of one of the variants. */
typedef struct rotation {
    const variant *v;
    void *ctx;
    int batch;
} rotation;

static inline double sample_variant(int i, void *p)
{
    const rotation *r = (const rotation *)p;
    return variant_sample(&r->v[i], r->ctx, r->batch);
}

/* Each variant's median time per call (bench_rotate: `warm` untimed rounds, then `reps`
 * rotated ones); at most 8 variants. */
static inline void measure(variant *v, int nv, void *ctx, int batch, int warm, int reps)
{
    rotation r = {v, ctx, batch};
    double med[8];
    if (nv > 8 || bench_rotate(nv, warm, reps, sample_variant, &r, med) != 0) exit(2);
    for (int k = 0; k < nv; ++k) v[k].ms = med[k];
}

#endif /* BENCH_VARIANT_H */
