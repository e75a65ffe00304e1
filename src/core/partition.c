/* Partitions: n instances carved out of a parent's device. The core validates and
 * normalises the request; the backend decides what a partition is (a stream, or a stream
 * of a CUDA green context with its own SMs). */
#include <stdio.h>
#include <stdlib.h>

#include "core/internal.h"

/* Upper bound on n: more queues than this only adds scheduling overhead. */
#define PX__MAX_PARTITIONS 1024

px_status px_partition(px_instance *parent, int n, const double *weights, px_instance **out)
{
    return px_partition_ex(parent, n, weights, NULL, out);
}

px_status px_partition_ex(px_instance *parent, int n, const double *weights,
                          const px_partition_options *options, px_instance **out)
{
    PX__TRY(px__instance_check(parent, __func__));
    PX__ARG(out, "out must not be NULL");
    PX__ARG(n >= 1 && n <= PX__MAX_PARTITIONS, "n is %d; expected 1 to %d", n, PX__MAX_PARTITIONS);
    for (int i = 0; i < n; ++i) out[i] = NULL;
    const px__backend *be = parent->be;
    if (!be->partition)
        return PX__FAIL(PX_ERR_UNSUPPORTED, "backend %s cannot partition instances", be->name);

    double *w = malloc((size_t)n * sizeof *w);
    px_instance **kids = calloc((size_t)n, sizeof *kids);
    px_status st = PX_OK;
    if (!w || !kids) {
        st = PX__FAIL(PX_ERR_OUT_OF_MEMORY, "out of host memory");
        goto done;
    }
    double sum = 0;
    for (int i = 0; i < n; ++i) {
        double x = weights ? weights[i] : 1.0;
        if (!(x > 0) || x != x || x > 1e300) {
            st = PX__FAIL(PX_ERR_INVALID_ARGUMENT, "weights[%d] is %g; expected a positive number", i, x);
            goto done;
        }
        w[i] = x;
        sum += x;
    }
    for (int i = 0; i < n; ++i) w[i] /= sum;

    for (int i = 0; i < n; ++i) {
        char label[96];
        snprintf(label, sizeof label, "%s/part%d", parent->label, i);
        px_instance *k = calloc(1, sizeof *k);
        char *lab = px__strdup(label);
        if (!k || !lab) {
            free(k);
            free(lab);
            st = PX__FAIL(PX_ERR_OUT_OF_MEMORY, "out of host memory");
            goto undo;
        }
        k->magic = PX__INSTANCE_MAGIC;
        k->be = be;
        k->exec = parent->exec;
        k->device = parent->device;
        k->priority = options && options->priorities ? options->priorities[i] : parent->priority;
        k->label = lab;
        kids[i] = k;
    }
    px__partition_request req = {
        .n = n,
        .weights = w,
        .sm_partition = options && options->sm_partition,
        .priorities = options ? options->priorities : NULL,
    };
    st = be->partition(parent, &req, kids);
    if (st != PX_OK) goto undo;
    for (int i = 0; i < n; ++i) {
        px__live_add(&kids[i]->live, PX__OBJ_INSTANCE, kids[i]->label);
        out[i] = kids[i];
    }
    goto done;
undo:
    for (int i = 0; i < n; ++i)
        if (kids[i]) {
            free(kids[i]->label);
            free(kids[i]);
        }
done:
    free(w);
    free(kids);
    return st;
}

px_status px_instance_sm_count(const px_instance *inst, int *out)
{
    PX__TRY(px__instance_check(inst, __func__));
    PX__ARG(out, "out must not be NULL");
    if (!inst->be->sm_count) {
        *out = 1;
        return PX_OK;
    }
    return inst->be->sm_count((px_instance *)inst, out);
}
