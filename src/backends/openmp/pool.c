/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The OpenMP backend's pool: running a job on a queue's team of OpenMP threads, and the
 * kernels, copies, fills and sorts that the host backends' cutting into parts
 * (host/launch.c, host/split.c, host/sort.c) hands it as jobs. */
#include "backends/openmp/pool.h"

#include <omp.h>
#include <string.h>

#include "backends/host/graph.h"
#include "backends/host/launch.h"
#include "backends/host/prefix_sum.h"
#include "backends/host/sort.h"
#include "backends/host/split.h"
#include "backends/openmp/config.h"
#include "backends/services.h"

/* ---- Running a job ----------------------------------------------------------------------- */

static void run_pass(const px__host_job *job, int pass, int tid, int team)
{
    for (int p = tid; p < job->nparts; p += team) job->pass[pass](job->ctx, p);
}

void px__omp_run(const px__queue *q, const px__host_job *job_in)
{
    /* The team reads the job and the queue from this frame, next to the region's own
       shared variables, rather than through more pointers into the caller's (launch.c). */
    const px__host_job jb = *job_in, *job = &jb;
    const px__queue team_q = *q;
    q = &team_q;
    if (q->nthreads <= 1 || job->nparts <= 1) {
        if (q->bind_caller) px__omp_bind(q->first);
        run_pass(job, 0, 0, 1);
        if (job->pass[1]) run_pass(job, 1, 0, 1);
        return;
    }
    /* What the other threads must see as the calling thread does: the graphs it runs
       (px_cond_set) and the public call whose work they do (the name its messages carry),
       and what they bring back: the first bounds violation. */
    const void *graphs = px__host_graph_context();
    const char *caller = px__caller();
    bool hit = false;
    char msg[PX__BOUNDS_MSG];
#pragma omp parallel num_threads(q->nthreads)
    {
        PX__ENTER_AS(caller);
        const int tid = omp_get_thread_num(), team = omp_get_num_threads();
        if (tid || q->bind_caller) px__omp_bind(q->first + tid);
        const void *own = tid && graphs ? px__host_graph_adopt(graphs) : NULL;
        run_pass(job, 0, tid, team);
        if (job->pass[1]) {
#pragma omp barrier
            run_pass(job, 1, tid, team);
        }
        if (tid) {
            if (graphs) px__host_graph_adopt(own);
            char mine[PX__BOUNDS_MSG];
            if (px__bounds_take(mine)) {
#pragma omp critical(px_omp_bounds)
                if (!hit) {
                    hit = true;
                    memcpy(msg, mine, sizeof msg);
                }
            }
        }
    }
    if (hit) px__bounds_put(msg);
}

/* ---- The hooks ------------------------------------------------------------------------ */

static void run_on_team(void *team, const px__host_job *job) { px__omp_run(team, job); }

static px__host_runner runner(const px__queue *q)
{
    return (px__host_runner){.run = run_on_team, .team = (void *)q, .nthreads = q->nthreads};
}

px_status px__omp_launch(px__queue *q, const px__dispatch *d)
{
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
