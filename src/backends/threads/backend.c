/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The threads backend: kernels, copies and fills run on a team of host threads, the
 * calling thread among them, and have finished when the call returns; a queue is in order
 * because every call is. Work is cut into parts as on the OpenMP backend (host/launch.c,
 * host/split.c), so results are the same bits for the same thread count. Events and graphs
 * are the host backends'.
 *
 * Teams. The backend's own team has every thread (px_init's count) and serves the default
 * instance, every instance px_instance_create makes and the zero-fill of new host views,
 * so that the threads that first touch a view's pages are the ones whose loops use them.
 * A partition has a team of its own, with its share of its parent's threads and places. */
#include "backends/threads/backend.h"

#include <stdlib.h>

#include "backends/host/event.h"
#include "backends/host/graph.h"
#include "backends/host/launch.h"
#include "backends/host/shares.h"
#include "backends/host/prefix_sum.h"
#include "backends/host/sort.h"
#include "backends/host/split.h"
#include "backends/services.h"
#include "backends/threads/config.h"
#include "backends/threads/pool.h"

struct px__queue {
    px__thr_pool *team;
    bool owns_team; /* a partition's; the others share the backend's */
};

/* Every thread, from px_init to the last px_finalize. */
static px__thr_pool *whole;

static px_status thr_init(const px_init_options *opts)
{
    PX__TRY(px__thr_config_init(opts));
    const px_status st = px__thr_pool_create(px__thr_threads(), 0, false, &whole);
    if (st != PX_OK) px__thr_config_finalize();
    return st;
}

/* After every queue is gone: the workers stop before their places go. */
static void thr_finalize(void)
{
    px__thr_pool_destroy(whole);
    whole = NULL;
    px__thr_config_finalize();
}

static px_status queue_new(px__thr_pool *team, bool owns, px__queue **out)
{
    px__queue *q = px__calloc(1, sizeof *q);
    if (!q) return px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory for the instance");
    q->team = team;
    q->owns_team = owns;
    *out = q;
    return PX_OK;
}

static px_status thr_queue_create(const px__queue_desc *desc, px__queue **out)
{
    (void)desc;
    return queue_new(whole, false, out);
}

static px_status thr_queue_destroy(px__queue *q, bool *released)
{
    if (q->owns_team) px__thr_pool_destroy(q->team);
    free(q);
    *released = true;
    return PX_OK;
}

/* A partition's queue: a team of its own on the places from `offset` past the parent's. */
static px_status part_new(px__queue *parent, int nthreads, int offset, px__queue **out)
{
    px__thr_pool *t = NULL;
    px_status st =
        px__thr_pool_create(nthreads, px__thr_pool_first(parent->team) + offset, true, &t);
    if (st == PX_OK) st = queue_new(t, true, out);
    if (st != PX_OK) px__thr_pool_destroy(t);
    return st;
}

/* Shares of the parent's threads by weight (host/shares.h), each a team on the next places
   of the parent's; the sets are disjoint while the parent has a thread per partition, and
   wrap round its places when it has fewer. */
static px_status thr_partition(px__queue *parent, const px__partition_request *req,
                               const px__queue_desc *descs, px__queue **children)
{
    (void)descs;
    return px__host_partition(parent, px__thr_pool_size(parent->team), req, part_new,
                              thr_queue_destroy, children);
}

static px_status thr_concurrency(px__queue *q, int *count)
{
    *count = px__thr_pool_size(q->team);
    return PX_OK;
}

static px_status thr_print_configuration(FILE *out)
{
    px__thr_config_print(out);
    return PX_OK;
}

/* ---- Kernels, copies, fills, sorts: the host backends' parts, run by a team --------------- */

static void run_on_team(void *team, const px__host_job *job) { px__thr_pool_run(team, job); }

static px__host_runner runner(px__thr_pool *t)
{
    return (px__host_runner){.run = run_on_team, .team = t, .nthreads = px__thr_pool_size(t)};
}

static px_status thr_launch(px__queue *q, const px__dispatch *d)
{
    const px__host_runner r = runner(q->team);
    return px__host_launch(&r, d);
}

static px_status thr_copy(px__queue *q, px__copy_op *op)
{
    const px__host_runner r = runner(q->team);
    return px__host_split_copy(&r, op, "threads");
}

static px_status thr_fill(px__queue *q, px__copy_op *op)
{
    const px__host_runner r = runner(q->team);
    return px__host_split_fill(&r, op, "threads");
}

static px_status thr_sort(px__queue *q, const px__sort_op *op)
{
    const px__host_runner r = runner(q->team);
    return px__host_sort(&r, op);
}

static px_status thr_prefix_sum(px__queue *q, const px__prefix_sum_op *op)
{
    const px__host_runner r = runner(q->team);
    return px__host_prefix_sum(&r, op);
}

/* On the default instance's team: each thread touches first the pages its 1-D loops use. */
static px_status thr_zero_host(void *ptr, size_t bytes, size_t elem_size)
{
    const px__host_runner r = runner(whole);
    px__host_split_zero(&r, ptr, bytes, elem_size);
    return PX_OK;
}

const px__backend px__backend_threads = {
    .name = "threads",
    .exec = PX_EXEC_THREADS,
    .target = PX__TARGET_HOST,
    .runs_on_host = true,
    .init = thr_init,
    .finalize = thr_finalize,
    .device_count = px__host_device_count,
    .queue_create = thr_queue_create,
    .queue_destroy = thr_queue_destroy,
    .fence = px__host_fence,
    .fence_all = px__host_fence_all,
    .event_create = px__host_event_create,
    .event_destroy = px__host_event_destroy,
    .event_record = px__host_event_record,
    .event_wait = px__host_event_wait,
    .event_query = px__host_event_query,
    .event_synchronize = px__host_event_synchronize,
    .event_elapsed = px__host_event_elapsed,
    .launch = thr_launch,
    .copy = thr_copy,
    .fill = thr_fill,
    .sort = thr_sort,
    .prefix_sum = thr_prefix_sum,
    .zero_host = thr_zero_host,
    .partition = thr_partition,
    .concurrency = thr_concurrency,
    .print_configuration = thr_print_configuration,
    .graph = &px__host_graph_ops,
};
