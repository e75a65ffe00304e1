/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Partitions: n instances carved out of a parent's device. The core validates and
 * normalises the request; the backend decides what a partition is (a stream, or a stream
 * of a CUDA green context with its own SMs). */
#include <stdio.h>
#include <stdlib.h>

#include "base/error.h"
#include "base/util.h"
#include "runtime/instance.h"

/* Upper bound on n: more queues than this only adds scheduling overhead. */
#define PX__MAX_PARTITIONS 1024

/* weights (or equal shares) checked and normalised to sum 1 into w. */
static px_status normalise(int n, const double *weights, double *w)
{
    double sum = 0;
    for (int i = 0; i < n; ++i) {
        const double x = weights ? weights[i] : 1.0;
        if (!(x > 0) || x > 1e300)
            return px__error(PX_ERR_INVALID_ARGUMENT,
                             "weights[%d] is %g; expected a positive number", i, x);
        w[i] = x;
        sum += x;
    }
    for (int i = 0; i < n; ++i) w[i] /= sum;
    return PX_OK;
}

static px_status partition(px_instance *parent, int n, const double *weights,
                           const px_partition_options *options, px_instance **out)
{
    PX__TRY(px__instance_check(parent));
    if (!out) return px__error(PX_ERR_INVALID_ARGUMENT, "out must not be NULL");
    if (n < 1 || n > PX__MAX_PARTITIONS)
        return px__error(PX_ERR_INVALID_ARGUMENT, "n is %d; expected 1 to %d", n,
                         PX__MAX_PARTITIONS);
    for (int i = 0; i < n; ++i) out[i] = NULL;
    const px__backend *be = parent->be;
    if (!be->partition)
        return px__error(PX_ERR_UNSUPPORTED, "backend %s cannot partition instances", be->name);

    double *w = px__malloc((size_t)n * sizeof *w);
    px_instance **kids = px__calloc((size_t)n, sizeof *kids);
    px__queue **queues = px__calloc((size_t)n, sizeof *queues);
    px__queue_desc *descs = px__calloc((size_t)n, sizeof *descs);
    px_status st = PX_OK;
    if (!w || !kids || !queues || !descs)
        st = px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory");
    if (st == PX_OK) st = normalise(n, weights, w);
    for (int i = 0; st == PX_OK && i < n; ++i) {
        char suffix[24];
        snprintf(suffix, sizeof suffix, "/part%d", i);
        char *label = px__concat(parent->label, suffix);
        const int prio = options && options->priorities ? options->priorities[i] : parent->priority;
        st = label ? px__instance_alloc(&kids[i], be, parent->device, prio, label, false)
                   : px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory");
        free(label);
        if (st == PX_OK) descs[i] = px__instance_queue_desc(kids[i]);
    }
    if (st == PX_OK) {
        const px__partition_request req = {
            .n = n,
            .weights = w,
            .sm_partition = options && options->sm_partition,
            .priorities = options ? options->priorities : NULL,
        };
        st = be->partition(parent->queue, &req, descs, queues);
    }
    for (int i = 0; i < n && kids; ++i) {
        if (!kids[i]) continue;
        if (st != PX_OK) {
            px__instance_free(kids[i]);
            continue;
        }
        kids[i]->queue = queues[i];
        px__instance_register(kids[i]);
        out[i] = kids[i];
    }
    free(w);
    free(kids);
    free(queues);
    free(descs);
    return st;
}

px_status px_partition(px_instance *parent, int n, const double *weights, px_instance **out)
{
    PX__ENTER;
    return partition(parent, n, weights, NULL, out);
}

px_status px_partition_ex(px_instance *parent, int n, const double *weights,
                          const px_partition_options *options, px_instance **out)
{
    PX__ENTER;
    return partition(parent, n, weights, options, out);
}

/* An instance's SMs, or (threads) the threads its kernels run on: the backend's answer,
   1 when it has no hook. */
static px_status instance_count(const px_instance *inst, int *out, bool threads)
{
    PX__TRY(px__instance_check(inst));
    if (!out) return px__error(PX_ERR_INVALID_ARGUMENT, "out must not be NULL");
    px_status (*hook)(px__queue * q, int *count) =
        threads ? inst->be->concurrency : inst->be->sm_count;
    *out = 1;
    return hook ? hook(inst->queue, out) : PX_OK;
}

px_status px_instance_sm_count(const px_instance *inst, int *out)
{
    PX__ENTER;
    return instance_count(inst, out, false);
}

px_status px_instance_concurrency(const px_instance *inst, int *out)
{
    PX__ENTER;
    return instance_count(inst, out, true);
}
