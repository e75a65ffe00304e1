/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Dispatching a kernel's CUDA entry on an instance: the launch record the templates of
 * portex/impl/cuda/kernel_cuda.h read, scratch on demand, and results that go to host memory. */
#include <string.h>

#include "backends/cuda/check.h"
#include "backends/cuda/device.h"
#include "backends/cuda/hooks.h"
#include "backends/cuda/memory/memory.h"
#include "backends/cuda/memory/pinned.h"
#include "backends/cuda/queue/track.h"
#include "backends/services.h"

/* A block of the graph being captured, for the launch in progress: one the graph keeps
   (a portex graph), or an allocation node freed after the launch's nodes. */
static px_status capture_block(px__cuda_queue *q, size_t bytes, void **out)
{
    if (q->gmem != NULL) return px__cuda_gmem_alloc(q->gmem, bytes, out);
    if (q->capture_count == (int)(sizeof q->capture_blocks / sizeof q->capture_blocks[0]))
        return px__error(PX_ERR_UNSUPPORTED,
                         "a captured launch asked for more than one scratch block");
    PX__TRY(px__cuda_buffer_alloc(q, bytes, out));
    q->capture_blocks[q->capture_count++] = *out;
    return PX_OK;
}

/* Free nodes for the capture's blocks, after the launch's nodes. */
static void capture_release(px__cuda_queue *q)
{
    for (int i = 0; i < q->capture_count; ++i) px__cuda_buffer_free(q, q->capture_blocks[i], 0);
    q->capture_count = 0;
    q->capturing = false;
}

/* px__cuda_launch_desc.scratch: the queue's scratch (px__cuda_scratch); a block of the
   graph's own during a capture. On failure the reason is kept in scratch_status and NULL
   returned. */
static void *scratch_for_launch(const px__cuda_launch_desc *l, size_t bytes)
{
    px__cuda_queue *q = (px__cuda_queue *)l->backend;
    void *p = NULL;
    q->scratch_status = q->capturing ? capture_block(q, bytes, &p) : px__cuda_scratch(q, bytes, &p);
    return q->scratch_status == PX_OK ? p : NULL;
}

/* A result slot of at least `bytes` in q's device buffer. A larger value type than the
   default slot holds gets a larger buffer (zeroed counter), the old one freed after the
   work already queued. */
static px_status ensure_slot(px__cuda_queue *q, size_t bytes)
{
    if (PX__CUDA_AUX_RESULT + bytes <= q->aux_bytes) return PX_OK;
    const px_space dev = px_device(q->device);
    const size_t size = (PX__CUDA_AUX_RESULT + bytes + 255) / 256 * 256;
    void *aux = NULL;
    px_status st = px__space_ops_cuda_device.alloc(dev, size, &aux);
    if (st == PX_OK) st = px__space_ops_cuda_device.zero(dev, aux, size);
    if (st != PX_OK) {
        if (aux) px__space_ops_cuda_device.free(dev, aux, size);
        return st;
    }
    px__memory_account_library(dev, q->aux_bytes, false);
    px__space_ops_cuda_device.free(dev, q->aux, q->aux_bytes);
    px__memory_account_library(dev, size, true);
    q->aux = aux;
    q->aux_bytes = size;
    return PX_OK;
}

static px_status ensure_host(px__cuda_queue *q, size_t bytes)
{
    if (q->host != NULL && bytes <= q->host_bytes) return PX_OK;
    const size_t size = bytes < 4096 ? 4096 : bytes;
    void *p = NULL;
    PX__TRY(px__cuda_pinned_alloc(size, &p));
    if (q->host) {
        px__memory_account_library(px_host_pinned(), q->host_bytes, false);
        px__cuda_pinned_free(q->host, q->host_bytes);
    }
    q->host = p;
    q->host_bytes = size;
    px__memory_account_library(px_host_pinned(), size, true);
    return PX_OK;
}

/* ---- Team kernels ------------------------------------------------------------------------- */

/* Level 0: the device's opt-in shared memory per block less the reduction slots; level 1:
   the same on every backend (a slice of instance scratch per resident team). */
px_status px__cuda_team_scratch_max(int device, int level, size_t *bytes)
{
    if (level != 0) {
        *bytes = PX_TEAM_SCRATCH1_MAX;
        return PX_OK;
    }
    px__cuda_device *dev = NULL;
    PX__TRY(px__cuda_device_get(device, &dev));
    *bytes =
        dev->shared_optin > PX__TEAM_REDUCE_BYTES ? dev->shared_optin - PX__TEAM_REDUCE_BYTES : 0;
    return PX_OK;
}

/* What the team entry runs: the checked policy, the shared memory a block may opt in to. */
static void team_run(const px__cuda_queue *q, const px__dispatch *d, px__team_run *r)
{
    memset(r, 0, sizeof *r);
    r->league_begin = 0;
    r->league_end = d->team.league_size;
    r->league_size = d->team.league_size;
    r->team_size = d->team.team_size;
    r->vector_length = d->team.vector_length;
    for (int l = 0; l < 2; ++l) {
        r->scratch_team[l] = d->team.scratch_team[l];
        r->scratch_thread[l] = d->team.scratch_thread[l];
    }
    r->shared_limit = q->shared_optin;
    r->rows = d->team_rows;
}

static px_status team_refused(const px__dispatch *d, const px__team_run *r)
{
    const px_kernel *k = d->kernel;
    const int t = d->team.team_size, v = d->team.vector_length ? d->team.vector_length : 1;
    switch (r->refused) {
    case PX__TEAM_REFUSED_THREADS:
        return px__error(
            PX_ERR_INVALID_ARGUMENT,
            "kernel '%s': a team of %d threads of %d lanes exceeds the %lld threads per block this "
            "kernel can have on the device (its registers)",
            k->name, t, v, (long long)r->refused_limit);
    case PX__TEAM_REFUSED_SHARED:
        return px__error(
            PX_ERR_INVALID_ARGUMENT,
            "kernel '%s': level-0 scratch of %zu bytes per team and %zu per thread for a team of "
            "%d, "
            "with %zu bytes of reduction slots, exceeds the %lld bytes of shared memory a block of "
            "this kernel may have",
            k->name, d->team.scratch_team[0], d->team.scratch_thread[0], t ? t : 1,
            (size_t)PX__TEAM_REDUCE_BYTES, (long long)r->refused_limit);
    default:
        return px__error(
            PX_ERR_INVALID_ARGUMENT,
            "kernel '%s': no block of %d threads of %d lanes with its shared memory fits on an SM",
            k->name, t, v);
    }
}

/* With q's device current. */
static px_status run(px__cuda_queue *q, const px__dispatch *d)
{
    const px_kernel *k = d->kernel;
    const char *label = d->label;
    const px__cuda_ctx kctx = px__cuda_ctx_kernel(label);
    void *result = NULL;
    bool to_host = false;
    unsigned int *counter = (unsigned int *)(void *)q->aux;

    px__team_run team; /* read for team kernels only */
    if (k->team) team_run(q, d, &team);

    /* Only reductions, scans and team kernels with level-1 scratch use scratch and the
       counter (asking whether the stream is captured costs a call into CUDA). */
    const bool level1 = k->team && (d->team.scratch_team[1] != 0 || d->team.scratch_thread[1] != 0);
    q->capturing = (k->kind != PX_KERNEL_FOR || level1) && px__cuda_capturing(q->stream);
    q->capture_count = 0;
    if (k->kind != PX_KERNEL_FOR) {
        switch (d->result_kind) {
        case PX__RESULT_NONE:
            if (k->kind == PX_KERNEL_REDUCE)
                return px__error(PX_ERR_INVALID_ARGUMENT, "kernel '%s': a reduction needs a result",
                                 label);
            break;
        case PX__RESULT_VIEW:
            result = d->result; /* device memory of this GPU, or mapped pinned memory */
            break;
        case PX__RESULT_HOST:
            if (q->capturing) {
                q->capturing = false;
                return px__error(
                    PX_ERR_UNSUPPORTED,
                    "kernel '%s': a result in host memory needs a wait, which a stream "
                    "capture forbids; reduce into a view instead",
                    label);
            }
            PX__TRY(ensure_slot(q, k->value_size));
            result = q->aux + PX__CUDA_AUX_RESULT;
            to_host = true;
            break;
        }
    }
    if (q->capturing) {
        /* The graph's own counter, zeroed by a memset node at every replay. */
        void *c = NULL;
        px_status st = capture_block(q, 256, &c);
        if (st == PX_OK) st = PX__CU(cudaMemsetAsync(c, 0, 256, q->stream));
        if (st != PX_OK) {
            capture_release(q);
            return st;
        }
        counter = (unsigned int *)c;
    }

    px__cuda_launch_desc l;
    memset(&l, 0, sizeof l);
    l.stream = q->stream;
    l.device = q->device;
    l.sm_count = q->sm_count;
    l.label = label;
    l.result = result;
    l.counter = counter;
    l.scratch = scratch_for_launch;
    l.backend = q;
    q->scratch_status = PX_OK;
    int err;
    if (k->team) {
        err = ((px__cuda_league_fn)d->entry)(&l, d->args, &team);
    } else {
        err = ((px__cuda_range_fn)d->entry)(&l, d->args, &d->policy);
    }
    if (q->capturing) capture_release(q);
    if (err != 0) {
        if (q->scratch_status != PX_OK) return q->scratch_status; /* recorded already */
        if (k->team && team.refused) return team_refused(d, &team);
        return px__cuda_fail((cudaError_t)err, "the kernel's CUDA entry", &kctx);
    }
    if (!to_host) return PX_OK;

    /* Only this instance is waited for. */
    PX__TRY(ensure_host(q, k->value_size));
    PX__TRY(px__cuda_check(
        cudaMemcpyAsync(q->host, result, k->value_size, cudaMemcpyDeviceToHost, q->stream),
        "cudaMemcpyAsync(host result, device result)", &kctx));
    PX__TRY(
        px__cuda_check(cudaStreamSynchronize(q->stream), "cudaStreamSynchronize(instance)", &kctx));
    memcpy(d->result, q->host, k->value_size);
    return PX_OK;
}

px_status px__cuda_launch(px__queue *queue, const px__dispatch *d)
{
    px__cuda_queue *q = px__cuda_queue_of(queue);
    int saved;
    PX__TRY(px__cuda_enter(q->device, &saved));
    const px_status st = run(q, d);
    px__cuda_leave(saved);
    return st;
}
