/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The OpenMP backend's kernels, copies and fills: the host backends' cutting into parts
 * (host/launch.c, host/split.c) run on the queue's OpenMP team (px__omp_run). */
#include "backends/openmp/pool.h"

#include "backends/host/launch.h"
#include "backends/host/split.h"
#include "backends/openmp/config.h"

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

px_status px__omp_zero_host(void *ptr, size_t bytes, size_t elem_size)
{
    /* The default instance's team, whose 1-D loops the shares match. */
    const px__queue team = px__omp_whole_team();
    const px__host_runner r = runner(&team);
    px__host_split_zero(&r, ptr, bytes, elem_size);
    return PX_OK;
}
