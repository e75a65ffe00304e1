/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The OpenMP backend: kernels, copies and fills run on a team of host threads, the
 * calling thread among them, and have finished when the call returns; a queue is in
 * order because every call is. Events and graphs are the host backends'. A partition is
 * a queue with a share of its parent's threads (pool.h). */
#include "backends/openmp/backend.h"

#include <stdlib.h>

#include "backends/host/event.h"
#include "backends/host/graph.h"
#include "backends/host/shares.h"
#include "backends/openmp/config.h"
#include "backends/openmp/pool.h"
#include "backends/services.h"

static px_status omp_init(const px_init_options *opts) { return px__omp_config_init(opts); }

static void omp_finalize(void) { px__omp_config_finalize(); }

static px_status queue_new(px__queue team, px__queue **out)
{
    px__queue *q = px__calloc(1, sizeof *q);
    if (!q) return px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory for the instance");
    *q = team;
    *out = q;
    return PX_OK;
}

static px_status omp_queue_create(const px__queue_desc *desc, px__queue **out)
{
    (void)desc;
    return queue_new(px__omp_whole_team(), out);
}

static px_status omp_queue_destroy(px__queue *q, bool *released)
{
    free(q);
    *released = true;
    return PX_OK;
}

/* A partition's queue: its share of the parent's places, the calling thread bound to the
   first of them. */
static px_status part_new(px__queue *parent, int nthreads, int offset, px__queue **out)
{
    const px__queue part = {
        .nthreads = nthreads, .first = parent->first + offset, .bind_caller = true};
    return queue_new(part, out);
}

/* Shares of the parent's threads by weight (largest remainders), at least one each; the
   sets are disjoint while the parent has a thread per partition, and wrap round its
   threads when it has fewer. */
static px_status omp_partition(px__queue *parent, const px__partition_request *req,
                               const px__queue_desc *descs, px__queue **children)
{
    (void)descs;
    const px_status st =
        px__host_partition(parent, parent->nthreads, req, part_new, omp_queue_destroy, children);
    /* Each partition may be used from a thread of an OpenMP team of the user's. */
    if (st == PX_OK) px__omp_allow_nesting();
    return st;
}

static px_status omp_concurrency(px__queue *q, int *count)
{
    *count = q->nthreads;
    return PX_OK;
}

static px_status omp_print_configuration(FILE *out)
{
    px__omp_config_print(out);
    return PX_OK;
}

const px__backend px__backend_openmp = {
    .name = "openmp",
    .exec = PX_EXEC_OPENMP,
    .target = PX__TARGET_HOST,
    .runs_on_host = true,
    .init = omp_init,
    .finalize = omp_finalize,
    .device_count = px__host_device_count,
    .queue_create = omp_queue_create,
    .queue_destroy = omp_queue_destroy,
    .fence = px__host_fence,
    .fence_all = px__host_fence_all,
    .event_create = px__host_event_create,
    .event_destroy = px__host_event_destroy,
    .event_record = px__host_event_record,
    .event_wait = px__host_event_wait,
    .event_query = px__host_event_query,
    .event_synchronize = px__host_event_synchronize,
    .event_elapsed = px__host_event_elapsed,
    .launch = px__omp_launch,
    .copy = px__omp_copy,
    .fill = px__omp_fill,
    .sort = px__omp_sort,
    .prefix_sum = px__omp_prefix_sum,
    .zero_host = px__omp_zero_host,
    .partition = omp_partition,
    .concurrency = omp_concurrency,
    .print_configuration = omp_print_configuration,
    .graph = &px__host_graph_ops,
};
