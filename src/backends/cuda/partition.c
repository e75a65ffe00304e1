/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Partitions of a CUDA instance (px_partition): n new queues on the parent's device.
 *
 * Plain (the default): each child is a non-blocking stream of its own with its priority;
 * the weights only label the children. A child may use every SM its parent may: all of
 * the GPU's, or, when the parent is an SM partition, the parent's (the child's stream
 * is then one more stream of the parent's green context).
 *
 * SM partitions (px_partition_options.sm_partition): each child gets its own set of SMs,
 * a CUDA green context, and a non-blocking stream in it. The SMs the parent may use (the
 * device's, or an SM partition's) are split into groups of the smallest size the device
 * allows (cuDevSmResourceSplitByCount: 8 SMs on Hopper and later, 4 on Ampere, 2
 * before), every group is handed out by the weights (at least one group each), and the
 * SMs left over by the split, fewer than one group, go to the child with the largest
 * weight. The queue's SM count is the partition's, so kernels size their grids to it
 * (launch.c) and px_instance_sm_count reports it.
 *
 * docs/cuda.md, "Partitions", has the rules and the reasons. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cuda/check.h"
#include "backends/cuda/device.h"
#include "backends/cuda/driver/green.h"
#include "backends/cuda/hooks.h"
#include "backends/cuda/queue/queue.h"
#include "backends/services.h"

/* Ends the first `made` children (new queues: their streams are idle), keeping the
   error that made the partition fail. */
static void undo_children(px__queue **children, int made)
{
    px__saved_error saved;
    px__error_save(&saved);
    for (int i = 0; i < made; ++i) {
        if (children[i] != NULL) px__cuda_queue_close(px__cuda_queue_of(children[i]), false);
        children[i] = NULL;
    }
    px__error_restore(&saved);
}

static int clamp_priority(const px__cuda_device *d, int prio)
{
    /* Lower numbers are higher priorities; the device allows [greatest, least]. */
    if (prio < d->priority_greatest) prio = d->priority_greatest;
    if (prio > d->priority_least) prio = d->priority_least;
    return prio;
}

/* ---- Queues on green contexts --------------------------------------------------------------- */

/* child's queue: a new stream of green context g, which may use sm_count SMs; one more
   reference to g on success. Called with the device current. */
static px_status green_queue(const px__cuda_driver *drv, const px__cuda_device *d,
                             px__cuda_green *g, int sm_count, const px__queue_desc *desc,
                             px__queue **child)
{
    const int prio = clamp_priority(d, desc->priority);
    CUstream s = NULL;
    PX__TRY(px__cu_check(drv->green_ctx_stream_create(&s, g->ctx, CU_STREAM_NON_BLOCKING, prio),
                         "cuGreenCtxStreamCreate(CU_STREAM_NON_BLOCKING)"));
    px__cuda_queue *q = px__calloc(1, sizeof *q);
    px_status st =
        q != NULL ? PX_OK : px__error(PX_ERR_OUT_OF_MEMORY, "no memory for the instance's state");
    if (st == PX_OK) {
        q->device = d->ordinal;
        q->sm_count = sm_count;
        q->shared_optin = d->shared_optin;
        q->owned = true;
        q->stream = (cudaStream_t)s;
        q->green = g;
        q->label = desc->label;
        q->tools_name = desc->tools_name;
        st = px__cuda_queue_setup(q);
    }
    if (st != PX_OK) {
        (void)drv->stream_destroy(s); /* a straight driver call: the message stays */
        free(q);
        return st;
    }
    atomic_fetch_add(&g->refs, 1);
    *child = (px__queue *)(void *)q;
    return PX_OK;
}

/* ---- Plain partitions ---------------------------------------------------------------------- */

static px_status plain_partition(px__cuda_queue *pq, const px__partition_request *req,
                                 const px__queue_desc *descs, px__queue **children)
{
    px__cuda_green *g = px__cuda_green_of(pq);
    if (g == NULL) {
        for (int i = 0; i < req->n; ++i) {
            /* An ordinary queue of the parent's device. */
            const px_status st = px__cuda_queue_create(&descs[i], &children[i]);
            if (st != PX_OK) {
                undo_children(children, i);
                return st;
            }
        }
        return PX_OK;
    }
    /* The parent is an SM partition: streams of its green context, on its SMs. */
    px__cuda_device *d;
    const px__cuda_driver *drv;
    int saved;
    PX__TRY(px__cuda_device_get(pq->device, &d));
    PX__TRY(px__cuda_green_load(&drv));
    PX__TRY(px__cuda_enter(pq->device, &saved));
    px_status st = PX_OK;
    for (int i = 0; i < req->n && st == PX_OK; ++i) {
        st = green_queue(drv, d, g, pq->sm_count, &descs[i], &children[i]);
        if (st != PX_OK) undo_children(children, i);
    }
    px__cuda_leave(saved);
    return st;
}

/* ---- SM partitions ------------------------------------------------------------------------- */

/* Hands out `groups` groups to n partitions by weight (normalised): k[i] >= 1, the sum is
   `groups` (n <= groups). Each starts with the whole groups of its share; groups still
   free go one at a time to the partition furthest below its share (the earlier on ties);
   a partition raised to one group is paid for by the one furthest above its share. */
static void share_groups(int n, const double *w, int groups, int *k)
{
    int sum = 0;
    for (int i = 0; i < n; ++i) {
        const double t = w[i] * (double)groups;
        k[i] = (int)t;
        if (k[i] > groups) k[i] = groups;
        if (k[i] < 1) k[i] = 1;
        sum += k[i];
    }
    while (sum > groups) {
        int best = -1;
        double over = 0;
        for (int i = 0; i < n; ++i) {
            const double o = (double)k[i] - w[i] * (double)groups;
            if (k[i] > 1 && (best < 0 || o > over)) {
                best = i;
                over = o;
            }
        }
        k[best]--; /* exists: sum > groups >= n means some k[i] > 1 */
        sum--;
    }
    while (sum < groups) {
        int best = 0;
        double under = (double)k[0] - w[0] * (double)groups;
        for (int i = 1; i < n; ++i) {
            const double u = (double)k[i] - w[i] * (double)groups;
            if (u < under) {
                best = i;
                under = u;
            }
        }
        k[best]++;
        sum++;
    }
}

/* The smallest SM partition the device allows: what the driver reports, else the
   documented rule per architecture, aligned to the co-scheduling granularity. */
static unsigned int sm_granularity(const CUdevResource *all, int cc_major)
{
    unsigned int g = all->sm.minSmPartitionSize;
    const unsigned int a = all->sm.smCoscheduledAlignment;
    if (g == 0) g = cc_major >= 9 ? 8u : cc_major == 8 ? 4u : 2u;
    if (a > 1 && g % a != 0) g += a - g % a;
    return g;
}

/* One partition: a green context over `res` (with `extra` too when given and the driver
   takes it), its stream and its queue. Called with the device current. */
static px_status green_child(const px__cuda_driver *drv, CUdevice cudev, const px__cuda_device *d,
                             CUdevResource *res, unsigned int nres, const CUdevResource *extra,
                             const px__queue_desc *desc, px__queue **child)
{
    px__cuda_green *g = px__calloc(1, sizeof *g);
    if (g == NULL) return px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory");
    atomic_init(&g->refs, 0);
    CUdevResourceDesc rdesc = NULL;
    px_status st = PX_OK;
    bool done = false;
    if (extra != NULL) {
        /* The split's leftover SMs: the driver gives them fewer guarantees than the
           groups; if it will not put them in a context with the groups, they stay
           unused. */
        CUdevResource *set = px__calloc(nres + 1u, sizeof *set);
        if (set != NULL) {
            memcpy(set, res, nres * sizeof *set);
            set[nres] = *extra;
            done = drv->dev_resource_generate_desc(&rdesc, set, nres + 1u) == CUDA_SUCCESS &&
                   drv->green_ctx_create(&g->ctx, rdesc, cudev, CU_GREEN_CTX_DEFAULT_STREAM) ==
                       CUDA_SUCCESS;
            free(set);
        }
        if (!done) g->ctx = NULL;
    }
    if (!done) {
        st = px__cu_check(drv->dev_resource_generate_desc(&rdesc, res, nres),
                          "cuDevResourceGenerateDesc(SM groups of one partition)");
        if (st == PX_OK)
            st = px__cu_check(
                drv->green_ctx_create(&g->ctx, rdesc, cudev, CU_GREEN_CTX_DEFAULT_STREAM),
                "cuGreenCtxCreate(CU_GREEN_CTX_DEFAULT_STREAM)");
    }
    if (st != PX_OK) {
        free(g);
        return st;
    }

    /* What the context really has: the partition's SM count. */
    CUdevResource mine;
    memset(&mine, 0, sizeof mine);
    st = px__cu_check(drv->green_ctx_get_dev_resource(g->ctx, &mine, CU_DEV_RESOURCE_TYPE_SM),
                      "cuGreenCtxGetDevResource(CU_DEV_RESOURCE_TYPE_SM)");
    if (st == PX_OK && (mine.sm.smCount == 0 || mine.sm.smCount > (unsigned int)d->sm_count))
        st = px__error(PX_ERR_BACKEND, "a green context reports %u SMs on a device of %d",
                       mine.sm.smCount, d->sm_count);
    if (st == PX_OK) st = green_queue(drv, d, g, (int)mine.sm.smCount, desc, child);
    if (st != PX_OK) {
        (void)drv->green_ctx_destroy(g->ctx); /* a straight driver call: the message stays */
        free(g);
    }
    return st;
}

/* With the device current. `within`: the parent's green context, whose SMs are split,
   or NULL for the whole device's. */
static px_status green_split(const px__cuda_driver *drv, const px__cuda_device *d,
                             const px__cuda_queue *parent, const px__cuda_green *within,
                             const px__partition_request *req, const px__queue_desc *descs,
                             px__queue **children)
{
    CUdevice cudev = 0;
    int cc_major = 0;
    CUdevResource all;
    memset(&all, 0, sizeof all);
    PX__TRY(px__cu_check(drv->device_get(&cudev, d->ordinal), "cuDeviceGet"));
    PX__TRY(px__cuda_check(
        cudaDeviceGetAttribute(&cc_major, cudaDevAttrComputeCapabilityMajor, d->ordinal),
        "cudaDeviceGetAttribute(cudaDevAttrComputeCapabilityMajor)", NULL));
    if (within != NULL)
        PX__TRY(px__cu_check(
            drv->green_ctx_get_dev_resource(within->ctx, &all, CU_DEV_RESOURCE_TYPE_SM),
            "cuGreenCtxGetDevResource(parent, CU_DEV_RESOURCE_TYPE_SM)"));
    else
        PX__TRY(px__cu_check(drv->device_get_dev_resource(cudev, &all, CU_DEV_RESOURCE_TYPE_SM),
                             "cuDeviceGetDevResource(CU_DEV_RESOURCE_TYPE_SM)"));
    const unsigned int gran = sm_granularity(&all, cc_major);
    if (all.sm.smCount < gran * (unsigned int)req->n)
        return px__error(
            PX_ERR_UNSUPPORTED,
            "'%s' may use %u SMs; %d SM partitions need at least %u (one group of %u each)",
            parent->label ? parent->label : "?", all.sm.smCount, req->n,
            gran * (unsigned int)req->n, gran);

    /* How many groups the split makes (fewer than smCount / gran where the SMs' layout
       does not allow more), then the split itself. */
    unsigned int groups = 0;
    PX__TRY(px__cu_check(drv->dev_sm_resource_split_by_count(NULL, &groups, &all, NULL, 0, gran),
                         "cuDevSmResourceSplitByCount(count the groups)"));
    if (groups < (unsigned int)req->n)
        return px__error(
            PX_ERR_UNSUPPORTED,
            "the %u SMs of '%s' split into %u groups of %u; %d SM partitions need one each",
            all.sm.smCount, parent->label ? parent->label : "?", groups, gran, req->n);
    CUdevResource *res = px__calloc(groups, sizeof *res);
    int *k = px__calloc((size_t)req->n, sizeof *k);
    if (res == NULL || k == NULL) {
        free(res);
        free(k);
        return px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory");
    }
    CUdevResource rest;
    memset(&rest, 0, sizeof rest);
    unsigned int got = groups;
    px_status st =
        px__cu_check(drv->dev_sm_resource_split_by_count(res, &got, &all, &rest, 0, gran),
                     "cuDevSmResourceSplitByCount");
    if (st == PX_OK && got < (unsigned int)req->n)
        st = px__error(
            PX_ERR_UNSUPPORTED,
            "the %u SMs of '%s' split into %u groups of %u; %d SM partitions need one each",
            all.sm.smCount, parent->label ? parent->label : "?", got, gran, req->n);
    if (st == PX_OK) {
        share_groups(req->n, req->weights, (int)got, k);
        /* The leftover SMs go to the largest weight (the last of equal ones). */
        int big = 0;
        for (int i = 1; i < req->n; ++i)
            if (req->weights[i] >= req->weights[big]) big = i;
        const bool have_rest = rest.type == CU_DEV_RESOURCE_TYPE_SM && rest.sm.smCount > 0;
        unsigned int off = 0;
        for (int i = 0; i < req->n && st == PX_OK; ++i) {
            st = green_child(drv, cudev, d, res + off, (unsigned int)k[i],
                             have_rest && i == big ? &rest : NULL, &descs[i], &children[i]);
            off += (unsigned int)k[i];
            if (st != PX_OK) undo_children(children, i);
        }
    }
    free(res);
    free(k);
    return st;
}

static px_status green_partition(px__cuda_queue *pq, const px__partition_request *req,
                                 const px__queue_desc *descs, px__queue **children)
{
    px__cuda_device *d;
    const px__cuda_driver *drv;
    int saved;
    /* The device first: its primary context must exist before green contexts are made
       from it (otherwise each creation would initialise and tear one down). */
    PX__TRY(px__cuda_device_get(pq->device, &d));
    PX__TRY(px__cuda_green_load(&drv));
    PX__TRY(px__cuda_enter(pq->device, &saved));
    const px_status st = green_split(drv, d, pq, px__cuda_green_of(pq), req, descs, children);
    px__cuda_leave(saved);
    return st;
}

/* ---- Hooks ------------------------------------------------------------------------------- */

px_status px__cuda_partition(px__queue *parent, const px__partition_request *req,
                             const px__queue_desc *descs, px__queue **children)
{
    px__cuda_queue *pq = px__cuda_queue_of(parent);
    for (int i = 0; i < req->n; ++i) children[i] = NULL;
    return req->sm_partition ? green_partition(pq, req, descs, children)
                             : plain_partition(pq, req, descs, children);
}

px_status px__cuda_sm_count(px__queue *q, int *count)
{
    *count = px__cuda_queue_of(q)->sm_count;
    return PX_OK;
}

px_status px__cuda_concurrency(px__queue *q, int *count)
{
    const px__cuda_queue *cq = px__cuda_queue_of(q);
    const px__cuda_device *d = px__cuda_device_if_ready(cq->device); /* a queue's device is */
    *count = cq->sm_count * (d ? d->threads_per_sm : 1);
    return PX_OK;
}
