/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The OpenMP backend's pool: running a job on a queue's team of OpenMP threads, and the
 * kernels, copies, fills and sorts that the host backends' cutting into parts
 * (host/launch.c, host/split.c, host/sort.c) hands it as jobs. */
#include "backends/openmp/pool.h"

#include <omp.h>
#include <stdint.h>
#include <string.h>

#include "backends/host/graph.h"
#include "backends/host/launch.h"
#include "backends/host/prefix_sum.h"
#include "backends/host/sort.h"
#include "backends/host/split.h"
#include "backends/openmp/config.h"
#include "backends/services.h"

/* ---- Running a job ----------------------------------------------------------------------- */

/* What a region's threads read of the calling thread's, they read as the region's own data,
   by value: eight words, a cache line of its own (the vector type's alignment puts it on
   one), written by the calling thread just before the region as a plain `parallel for`
   writes its shared variables. Each pointer a thread had to follow from there before it
   could start (to the job, to the context the job points to) was one more line fetched
   from the calling thread's core, one after the other, and on a small dispatch the time
   the whole team waited. Lanes 0 to 3 are the region's own; the others every region's: */
typedef uint64_t team_words __attribute__((vector_size(64)));
enum {
    W_CALLER = 4, /* the public call whose work the team does: the name its messages carry */
    W_GRAPHS,     /* the graphs the calling thread runs (px_cond_set), or NULL */
    W_BACK,       /* its team_back */
    W_PARTS       /* the job's parts, and the team's first place << 32 */
};

/* What only the calling thread reads, and what the team brings back to it. */
typedef struct team_back {
    bool bind_caller;         /* the calling thread takes the team's first place too */
    bool hit;                 /* a thread of the team met a bounds violation: */
    char msg[PX__BOUNDS_MSG]; /* the first one (written with hit only) */
} team_back;

#define W_PTR(w, lane) ((const void *)(uintptr_t)(w)[lane])

/* The words of a region of q's team whose own lanes are a to d. Made whole by one
   initialiser, so that the compiler writes the region's copy directly: filled lane by lane
   and then copied, the copy read back in wider pieces than the lanes were written (each a
   stall). The vector goes by pointer elsewhere (by value, its ABI would depend on AVX-512). */
#define TEAM_WORDS(q, nparts, back, a, b, c, d)                                           \
    {                                                                                     \
        (a), (b), (c), (d), (uintptr_t)px__caller(), (uintptr_t)px__host_graph_context(), \
            (uintptr_t)(back), (uint32_t)(nparts) | (uint64_t)(uint32_t)(q)->first << 32  \
    }

static int parts_of(const team_words *w) { return (int)(uint32_t)(*w)[W_PARTS]; }

/* A thread of the team, as it starts (after PX__ENTER_AS(W_CALLER)): binds itself to its
   place, and a thread other than the calling one adopts the calling thread's graphs;
   returns the graphs it had. */
static const void *member_begin(const team_words *w, int tid)
{
    const team_back *back = W_PTR(*w, W_BACK);
    if (tid || back->bind_caller) px__omp_bind((int)(uint32_t)((*w)[W_PARTS] >> 32) + tid);
    return tid && (*w)[W_GRAPHS] ? px__host_graph_adopt(W_PTR(*w, W_GRAPHS)) : NULL;
}

/* A thread other than the calling one, as it ends: puts its graphs back and hands the
   calling thread the first bounds violation the team met. */
static void member_end(const team_words *w, const void *own)
{
    if ((*w)[W_GRAPHS]) px__host_graph_adopt(own);
    char mine[PX__BOUNDS_MSG];
    if (px__bounds_take(mine)) {
        team_back *back = (team_back *)(uintptr_t)(*w)[W_BACK];
#pragma omp critical(px_omp_bounds)
        if (!back->hit) {
            back->hit = true;
            memcpy(back->msg, mine, sizeof back->msg);
        }
    }
}

void px__omp_run(const px__queue *q, const px__host_job *job)
{
    if (q->nthreads <= 1 || job->nparts <= 1) {
        if (q->bind_caller) px__omp_bind(q->first);
        for (int p = 0; p < job->nparts; ++p) job->pass[0](job->ctx, p);
        if (job->pass[1])
            for (int p = 0; p < job->nparts; ++p) job->pass[1](job->ctx, p);
        return;
    }
    team_back back; /* an initialiser would zero msg too */
    back.bind_caller = q->bind_caller;
    back.hit = false;
    const team_words w = TEAM_WORDS(q, job->nparts, &back, (uintptr_t)job->pass[0],
                                    (uintptr_t)job->pass[1], (uintptr_t)job->ctx, 0);
#pragma omp parallel num_threads(q->nthreads) firstprivate(w)
    {
        PX__ENTER_AS(W_PTR(w, W_CALLER));
        const int tid = omp_get_thread_num(), team = omp_get_num_threads();
        const void *own = member_begin(&w, tid);
        void (*const pass0)(void *, int) = (void (*)(void *, int))(uintptr_t)w[0];
        void (*const pass1)(void *, int) = (void (*)(void *, int))(uintptr_t)w[1];
        void *const ctx = (void *)(uintptr_t)w[2];
        const int nparts = parts_of(&w);
        for (int p = tid; p < nparts; p += team) pass0(ctx, p);
        if (pass1) {
#pragma omp barrier
            for (int p = tid; p < nparts; p += team) pass1(ctx, p);
        }
        if (tid) member_end(&w, own);
    }
    if (back.hit) px__bounds_put(back.msg);
}

/* A 1-D PX_FOR (host/launch.h) on q's team of more than one thread, the dispatch itself in
   the words: the entry, the arguments' address and the range. */
static void run_for1(const px__queue *q, const px__host_for1 *f)
{
    team_back back; /* an initialiser would zero msg too */
    back.bind_caller = q->bind_caller;
    back.hit = false;
    const team_words w = TEAM_WORDS(q, f->nparts, &back, (uintptr_t)f->entry, (uintptr_t)f->args,
                                    (uint64_t)f->begin, (uint64_t)f->end);
#pragma omp parallel num_threads(q->nthreads) firstprivate(w)
    {
        PX__ENTER_AS(W_PTR(w, W_CALLER));
        const int tid = omp_get_thread_num(), team = omp_get_num_threads();
        const void *own = member_begin(&w, tid);
        const px__host_for1 mine = {.entry = (px__host_range_fn)(uintptr_t)w[0],
                                    .args = W_PTR(w, 1),
                                    .begin = (int64_t)w[2],
                                    .end = (int64_t)w[3],
                                    .nparts = parts_of(&w)};
        for (int p = tid; p < mine.nparts; p += team) px__host_for1_part(&mine, p);
        if (tid) member_end(&w, own);
    }
    if (back.hit) px__bounds_put(back.msg);
}

/* ---- The hooks ------------------------------------------------------------------------ */

static void run_on_team(void *team, const px__host_job *job) { px__omp_run(team, job); }

static px__host_runner runner(const px__queue *q)
{
    return (px__host_runner){.run = run_on_team, .team = (void *)q, .nthreads = q->nthreads};
}

px_status px__omp_launch(px__queue *q, const px__dispatch *d)
{
    px__host_for1 f;
    if (q->nthreads > 1 && px__host_for1_of(d, q->nthreads, &f)) {
        run_for1(q, &f);
        return PX_OK;
    }
    const px__host_runner r = runner(q);
    return px__host_launch(&r, d);
}

px_status px__omp_copy(px__queue *q, px__copy_op *op)
{
    const px__host_runner r = runner(q);
    return px__host_split_copy(&r, op, "OpenMP");
}

px_status px__omp_fill(px__queue *q, px__copy_op *op)
{
    const px__host_runner r = runner(q);
    return px__host_split_fill(&r, op, "OpenMP");
}

px_status px__omp_sort(px__queue *q, const px__sort_op *op)
{
    const px__host_runner r = runner(q);
    return px__host_sort(&r, op);
}

px_status px__omp_prefix_sum(px__queue *q, const px__prefix_sum_op *op)
{
    const px__host_runner r = runner(q);
    return px__host_prefix_sum(&r, op);
}

px_status px__omp_zero_host(void *ptr, size_t bytes, size_t elem_size)
{
    /* The default instance's team, whose 1-D loops the shares match. */
    const px__queue team = px__omp_whole_team();
    const px__host_runner r = runner(&team);
    px__host_split_zero(&r, ptr, bytes, elem_size);
    return PX_OK;
}
