/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Capture: recording what an instance is given into a graph.
 *
 * Two ways, one API. A backend whose queues record natively (CUDA stream capture) runs
 * every call as usual and its queue records it, foreign work on the same stream included;
 * the core notes what portex issued (labels for DOT, counts) and holds the memory it
 * reaches. On a host backend the core itself records: each dispatch, copy and fill
 * becomes a node of an explicit graph, after the one before (an instance is in order).
 * Either way the result is a graph that takes no new nodes. The runtime reaches the
 * recorder through the hooks of runtime/capture.h only. */
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>

#include "base/error.h"
#include "base/util.h"
#include "graphs/graph.h"
#include "runtime/capture.h"
#include "runtime/instance.h"

typedef struct recorder {
    px__capture base; /* first: what the runtime sees (runtime/capture.h) */
    px_capture_mode mode;
    pthread_t thread;
    px_graph *graph;
    px_graph_node *last; /* the node the next one follows */
} recorder;

_Static_assert(offsetof(recorder, base) == 0, "the runtime's view of a recorder is its start");

static recorder *recorder_of(px__capture *c) { return (recorder *)(void *)c; }

/* Appends desc after the last node recorded. */
static px_status record(px__capture *capture, const px__gnode_desc *desc,
                        const px__gnode_views *views)
{
    recorder *c = recorder_of(capture);
    px_graph_node *n = NULL;
    PX__TRY(
        px__graph_append(c->graph, desc, c->last ? &c->last : NULL, c->last ? 1 : 0, views, &n));
    c->last = n;
    return PX_OK;
}

static px_status record_kernel(px__capture *c, const px__dispatch *d, px_view *result)
{
    const px__gnode_desc desc = {.kind = PX__GNODE_KERNEL, .label = d->label, .dispatch = *d};
    const px__gnode_views views = {.result = result};
    return record(c, &desc, &views);
}

static px_status record_copy(px__capture *c, const px__copy_op *op, px_view *dst,
                             const px_view *src)
{
    char label[96];
    snprintf(label, sizeof label, "%s %s", src ? "copy" : "fill", px_copy_path_string(op->path));
    const px__gnode_desc desc = {
        .kind = src ? PX__GNODE_COPY : PX__GNODE_FILL, .label = label, .op = *op};
    const px__gnode_views views = {.dst = dst, .src = src};
    return record(c, &desc, &views);
}

static px_status record_note(px__capture *c, const px__gnode_desc *desc, px_view *a,
                             const px_view *b)
{
    px__gnode_views views = {0};
    if (desc->kind == PX__GNODE_KERNEL) {
        views.result = a;
    } else {
        views.dst = a;
        views.src = b;
    }
    return record(c, desc, &views);
}

static const px__capture_ops recorder_ops = {
    .kernel = record_kernel,
    .copy = record_copy,
    .note = record_note,
};

static px_status capture_begin(px_instance *inst, px_capture_mode mode)
{
    if (inst->capture != NULL)
        return px__error(PX_ERR_CAPTURING,
                         "instance '%s' is being captured already (captures do not nest)",
                         inst->label);
    const px__graph_ops *ops = inst->be->graph;
    if (ops == NULL)
        return px__error(PX_ERR_UNSUPPORTED, "the %s backend has no graphs", inst->be->name);

    recorder *c = px__calloc(1, sizeof *c);
    if (c == NULL) return px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory for the capture");
    char *label = px__concat("capture of ", inst->label);
    px__bgraph *bg = NULL;
    px_status st =
        label ? PX_OK : px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory for the capture");
    if (st == PX_OK && ops->capture_begin == NULL) st = ops->create(inst->be, inst->device, &bg);
    if (st == PX_OK) st = px__graph_new(&c->graph, inst->be, inst->device, label, bg);
    if (st != PX_OK && bg != NULL && c->graph == NULL) ops->destroy(bg);
    free(label);
    if (st == PX_OK) {
        c->graph->captured = true;
        c->graph->native = ops->capture_begin != NULL;
        if (c->graph->native) st = ops->capture_begin(inst->queue, (int)mode, &c->graph->bgraph);
    }
    if (st != PX_OK) {
        if (c->graph) px__graph_release(c->graph);
        free(c);
        return st;
    }
    c->base.ops = &recorder_ops;
    c->base.records = !c->graph->native;
    c->mode = mode;
    c->thread = pthread_self();
    inst->capture = &c->base;
    return PX_OK;
}

static px_status capture_end(px_instance *inst, px_graph **out)
{
    recorder *c = inst->capture ? recorder_of(inst->capture) : NULL;
    if (c == NULL)
        return px__error(PX_ERR_INVALID_ARGUMENT,
                         "no capture is in progress on instance '%s' (px_graph_capture_begin)",
                         inst->label);
    if (c->mode != PX_CAPTURE_RELAXED && !pthread_equal(c->thread, pthread_self()))
        return px__error(
            PX_ERR_CAPTURING,
            "the capture of instance '%s' began on another thread in %s mode and must end there "
            "(the capture goes on)",
            inst->label, c->mode == PX_CAPTURE_GLOBAL ? "global" : "thread-local");
    inst->capture = NULL;
    px_graph *g = c->graph;
    free(c);
    if (g->native) {
        const px_status st = inst->be->graph->capture_end(inst->queue, g->bgraph);
        if (st != PX_OK) {
            px__graph_release(g);
            return st;
        }
    }
    px__live_add(&g->live, PX__OBJ_GRAPH, g->label);
    *out = g;
    return PX_OK;
}

px_status px_graph_capture_begin(px_instance *inst, px_capture_mode mode)
{
    PX__ENTER;
    PX__TRY(px__instance_check(inst));
    PX__ARG(mode == PX_CAPTURE_THREAD_LOCAL || mode == PX_CAPTURE_GLOBAL ||
                mode == PX_CAPTURE_RELAXED,
            "mode is %d; expected a px_capture_mode", (int)mode);
    return capture_begin(inst, mode);
}

px_status px_graph_capture_end(px_instance *inst, px_graph **out)
{
    PX__ENTER;
    PX__ARG(out, "out must not be NULL");
    *out = NULL;
    PX__TRY(px__instance_check(inst));
    if (inst->lent)
        return PX__FAIL(PX_ERR_CAPTURING,
                        "instance '%s' is the one px_graph_add_captured lends its callback: its "
                        "capture ends when "
                        "the callback returns (the capture goes on)",
                        inst->label);
    return capture_end(inst, out);
}

/* ---- A node recorded from a callback ------------------------------------------------------ */

px_status px_graph_add_captured(px_graph *graph, px_graph_node *const *deps, int ndeps,
                                const char *label, px_status (*fn)(px_instance *inst, void *data),
                                void *data, px_graph_node **out)
{
    PX__ENTER;
    PX__TRY(px__graph_check(graph, "graph"));
    PX__ARG(!graph->captured, "graph '%s' came from a capture and takes no new nodes",
            graph->label);
    PX__ARG(graph->owner == NULL,
            "graph '%s' is the body of a WHILE or IF node, which cannot hold captured work (what a "
            "callback issues "
            "may be anything, and CUDA runs bodies on the device alone)",
            graph->label);
    PX__ARG(fn, "fn must not be NULL");
    px_instance *inst = NULL;
    PX__TRY(
        px__instance_create(&inst, graph->exec, graph->device, label ? label : "captured node"));
    /* fn may call anything: the instance refuses px_graph_capture_end and
       px_instance_destroy (lent), and the graph stays alive if fn destroys it. */
    inst->lent = true;
    px__graph_retain(graph);
    px_status st = capture_begin(inst, PX_CAPTURE_THREAD_LOCAL);
    px_graph *rec = NULL;
    if (st == PX_OK) {
        /* The calls fn makes are the user's own: each names itself. */
        const char *caller = px__caller_suspend();
        st = fn(inst, data);
        px__caller_resume(caller);
        px__saved_error why;
        if (st != PX_OK) px__error_save(&why);
        const px_status end = capture_end(inst, &rec);
        if (st != PX_OK) px__error_restore(&why);
        if (st == PX_OK) st = end;
    }
    if (st == PX_OK && graph->dropped)
        st = PX__FAIL(PX_ERR_INVALID_ARGUMENT,
                      "fn destroyed graph '%s', which the node was to go into", graph->label);
    if (st == PX_OK) {
        /* The node copies the recorded graph and keeps it; the caller never sees it. */
        px__live_remove(&rec->live);
        free(rec->label);
        rec->label = px__strdup(label ? label : "captured");
        if (rec->label == NULL)
            st = PX__FAIL(PX_ERR_OUT_OF_MEMORY, "out of host memory for the node");
    }
    px_graph_node *n = NULL;
    if (st == PX_OK) {
        const px__gnode_desc desc = {
            .kind = PX__GNODE_CHILD, .label = rec->label, .child = rec->bgraph};
        st = px__graph_append(graph, &desc, deps, ndeps, NULL, &n);
    }
    if (st == PX_OK) {
        n->child = rec; /* the node takes the recording's reference */
        atomic_fetch_add(&rec->copies, 1);
        n->child_n = rec->n;
        rec = NULL;
        if (out) *out = n;
    }
    if (rec) px__graph_release(rec);
    px__graph_release(graph);
    inst->lent = false;
    bool released = false;
    const px_status gone = px__instance_destroy(inst, &released);
    return st != PX_OK ? st : gone;
}
