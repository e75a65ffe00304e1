/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Graphs on the host backends. A graph is its list of nodes; an executable graph is a
 * copy of that list with its own parameters (arguments, fill values, copies) and its own
 * conditions. A launch runs the nodes in the order they were added, which is a
 * topological order, on the launching thread, through the backend's own launch, copy and
 * fill hooks, and evaluates WHILE and IF conditions on the host.
 *
 * Conditions. A kernel names a condition by the address of its host_cond (the px_cond
 * handle), fixed when the node is added; the value lives in each executable graph, so
 * two executable graphs of one graph, or two graphs holding copies of one child, never
 * share it. px_cond_set finds the value through the thread's chain of running executable
 * graphs (a body runs inside its node's graph), which the launch keeps in a thread-local
 * frame; a backend running a kernel on several threads hands them that chain. */
#include "backends/host/graph.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backends/services.h"

typedef struct host_cond {
    unsigned initial;
} host_cond;

struct px__bnode {
    px__gnode_kind kind;
    int index; /* place in its graph */
    px__dispatch d;
    void *args; /* d.args: a copy */
    px__copy_op op;
    void *value; /* op.value of a fill: a copy */
    void (*fn)(void *data);
    void *data;
    px__bgraph *child; /* CHILD: the graph copied, and how many of its nodes */
    int child_n;
    px__bgraph *body; /* WHILE, IF: owned */
    host_cond *cond;  /* WHILE, IF: owned */
};

struct px__bgraph {
    const px__backend *be;
    int device;
    px__bnode **nodes;
    int n, cap;
};

typedef struct exec_node {
    px__gnode_kind kind;
    px__dispatch d;
    void *args;
    px__copy_op op;
    void *value;
    void (*fn)(void *data);
    void *data;
    struct px__bexec *sub; /* CHILD, and the body of WHILE and IF */
    int slot;              /* WHILE, IF: the condition's place in slots */
} exec_node;

typedef struct cond_slot {
    const host_cond *cond;
    unsigned value;
} cond_slot;

struct px__bexec {
    const px__backend *be;
    exec_node *nodes;
    int n;
    cond_slot *slots;
    int nslots;
};

/* The executable graphs running on this thread, innermost first. */
typedef struct frame {
    px__bexec *e;
    const struct frame *up;
} frame;

static _Thread_local const frame *current;

const void *px__host_graph_context(void) { return current; }

const void *px__host_graph_adopt(const void *ctx)
{
    const frame *was = current;
    current = ctx;
    return was;
}

void px__host_graph_cond_set(uint64_t handle, unsigned value)
{
    const host_cond *c = (const host_cond *)(uintptr_t)handle;
    for (const frame *f = current; f != NULL; f = f->up) {
        for (int i = 0; i < f->e->nslots; ++i) {
            if (f->e->slots[i].cond == c) {
                /* Several threads of a parallel host backend may set it; the launch
                   reads it after they have joined. */
                __atomic_store_n(&f->e->slots[i].value, value, __ATOMIC_RELAXED);
                return;
            }
        }
    }
    /* Not in a launch of the condition's graph: nothing reads it. */
}

/* ---- Graphs ------------------------------------------------------------------------------- */

static px_status host_graph_create(const px__backend *be, int device, px__bgraph **out)
{
    px__bgraph *g = px__calloc(1, sizeof *g);
    if (g == NULL) return px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory for the graph");
    g->be = be;
    g->device = device;
    *out = g;
    return PX_OK;
}

static void node_free(px__bnode *n);

static void host_graph_destroy(px__bgraph *g)
{
    if (g == NULL) return;
    for (int i = 0; i < g->n; ++i) node_free(g->nodes[i]);
    free(g->nodes);
    free(g);
}

static void node_free(px__bnode *n)
{
    free(n->args);
    free(n->value);
    host_graph_destroy(n->body);
    free(n->cond);
    free(n);
}

/* A copy of `bytes` at src into *out (NULL for none). */
static px_status copy_bytes(const void *src, size_t bytes, void **out)
{
    *out = NULL;
    if (src == NULL || bytes == 0) return PX_OK;
    *out = px__malloc(bytes);
    if (*out == NULL) return px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory for a graph node");
    memcpy(*out, src, bytes);
    return PX_OK;
}

/* The parameters of desc into n's fields (d, args, op, value, fn, data), copying what the
   node keeps; on failure n is unchanged. */
static px_status take_params(px__dispatch *d, void **args, px__copy_op *op, void **value,
                             const px__gnode_desc *desc)
{
    void *a = NULL, *v = NULL;
    if (desc->kind == PX__GNODE_KERNEL)
        PX__TRY(copy_bytes(desc->dispatch.args, desc->dispatch.kernel->args_size, &a));
    if (desc->kind == PX__GNODE_FILL) {
        const px_status st = copy_bytes(desc->op.value, desc->op.elem_size, &v);
        if (st != PX_OK) {
            free(a);
            return st;
        }
    }
    if (desc->kind == PX__GNODE_KERNEL) {
        free(*args);
        *args = a;
        *d = desc->dispatch;
        d->args = a;
    }
    if (desc->kind == PX__GNODE_COPY || desc->kind == PX__GNODE_FILL) {
        free(*value);
        *value = v;
        *op = desc->op;
        op->value = v;
    }
    return PX_OK;
}

static px_status host_graph_add(px__bgraph *g, const px__gnode_desc *desc, px__bnode *const *deps,
                                int ndeps, px__bnode **out, px__bgraph **body, uint64_t *cond)
{
    (void)deps; /* nodes run in the order they were added, which satisfies every dependency */
    (void)ndeps;
    px__bnode **nodes = px__grow(g->nodes, g->n, &g->cap, 8, sizeof *nodes);
    if (nodes == NULL)
        return px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory for a graph node");
    g->nodes = nodes;
    px__bnode *n = px__calloc(1, sizeof *n);
    if (n == NULL) return px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory for a graph node");
    n->kind = desc->kind;
    px_status st = take_params(&n->d, &n->args, &n->op, &n->value, desc);
    if (st == PX_OK && desc->kind == PX__GNODE_HOST) {
        n->fn = desc->fn;
        n->data = desc->data;
    }
    if (st == PX_OK && desc->kind == PX__GNODE_CHILD) {
        n->child = desc->child;
        n->child_n = desc->child->n;
    }
    if (st == PX_OK && (desc->kind == PX__GNODE_WHILE || desc->kind == PX__GNODE_IF)) {
        n->cond = px__calloc(1, sizeof *n->cond);
        if (n->cond == NULL)
            st = px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory for a condition");
        if (st == PX_OK) st = host_graph_create(g->be, g->device, &n->body);
        if (st == PX_OK) {
            n->cond->initial = desc->initial;
            *body = n->body;
            *cond = (uint64_t)(uintptr_t)n->cond;
        }
    }
    if (st != PX_OK) {
        node_free(n);
        return st;
    }
    n->index = g->n;
    g->nodes[g->n++] = n;
    *out = n;
    return PX_OK;
}

/* ---- Executable graphs -------------------------------------------------------------------- */

static void exec_free(px__bexec *e)
{
    if (e == NULL) return;
    for (int i = 0; i < e->n; ++i) {
        free(e->nodes[i].args);
        free(e->nodes[i].value);
        exec_free(e->nodes[i].sub);
    }
    free(e->nodes);
    free(e->slots);
    free(e);
}

/* The first n nodes of g as an executable graph. */
static px_status exec_build(const px__bgraph *g, int n, px__bexec **out)
{
    *out = NULL;
    px__bexec *e = px__calloc(1, sizeof *e);
    if (e == NULL)
        return px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory for the executable graph");
    e->be = g->be;
    int nslots = 0;
    for (int i = 0; i < n; ++i) nslots += g->nodes[i]->cond != NULL;
    e->nodes = px__calloc(n > 0 ? (size_t)n : 1, sizeof *e->nodes);
    e->slots = px__calloc(nslots > 0 ? (size_t)nslots : 1, sizeof *e->slots);
    px_status st = e->nodes && e->slots ? PX_OK
                                        : px__error(PX_ERR_OUT_OF_MEMORY,
                                                    "out of host memory for the executable graph");
    for (int i = 0; i < n && st == PX_OK; ++i) {
        const px__bnode *src = g->nodes[i];
        exec_node *x = &e->nodes[i];
        e->n = i + 1;
        x->kind = src->kind;
        x->fn = src->fn;
        x->data = src->data;
        x->slot = -1;
        px__gnode_desc desc = {.kind = src->kind, .dispatch = src->d, .op = src->op};
        st = take_params(&x->d, &x->args, &x->op, &x->value, &desc);
        if (st == PX_OK && src->kind == PX__GNODE_CHILD)
            st = exec_build(src->child, src->child_n, &x->sub);
        if (st == PX_OK && src->cond != NULL) {
            x->slot = e->nslots++;
            e->slots[x->slot].cond = src->cond;
            st = exec_build(src->body, src->body->n, &x->sub);
        }
    }
    if (st != PX_OK) {
        exec_free(e);
        return st;
    }
    *out = e;
    return PX_OK;
}

static px_status host_graph_instantiate(px__bgraph *g, px__bexec **out)
{
    return exec_build(g, g->n, out);
}

static px_status host_exec_destroy(px__bexec *e)
{
    /* Nothing to wait for: host launches are finished when they return. */
    exec_free(e);
    return PX_OK;
}

static px_status host_upload(px__bexec *e, px__queue *q)
{
    (void)e;
    (void)q;
    return PX_OK;
}

static px_status run_exec(px__bexec *e, px__queue *q, const frame *up);

static px_status run_node(exec_node *x, px__bexec *e, px__queue *q, const frame *self)
{
    switch (x->kind) {
    case PX__GNODE_KERNEL: return e->be->launch(q, &x->d);
    case PX__GNODE_COPY: {
        px__copy_op op = x->op;
        return e->be->copy(q, &op);
    }
    case PX__GNODE_FILL: {
        px__copy_op op = x->op;
        return e->be->fill(q, &op);
    }
    case PX__GNODE_HOST: x->fn(x->data); return PX_OK;
    case PX__GNODE_EMPTY: return PX_OK;
    case PX__GNODE_CHILD: return run_exec(x->sub, q, self);
    case PX__GNODE_WHILE:
        while (e->slots[x->slot].value != 0) PX__TRY(run_exec(x->sub, q, self));
        return PX_OK;
    case PX__GNODE_IF: return e->slots[x->slot].value != 0 ? run_exec(x->sub, q, self) : PX_OK;
    case PX__GNODE_KIND_COUNT: break;
    }
    return px__error(PX_ERR_INVALID_ARGUMENT, "unknown graph node kind %d", (int)x->kind);
}

/* Runs e's nodes in order; `up` is the graph e runs inside (NULL for a launch). Every
   condition of e starts at its initial value. */
static px_status run_exec(px__bexec *e, px__queue *q, const frame *up)
{
    frame self = {e, up};
    const frame *saved = current;
    current = &self;
    for (int i = 0; i < e->nslots; ++i) e->slots[i].value = e->slots[i].cond->initial;
    px_status st = PX_OK;
    for (int i = 0; i < e->n && st == PX_OK; ++i) st = run_node(&e->nodes[i], e, q, &self);
    current = saved;
    return st;
}

static px_status host_launch(px__bexec *e, px__queue *q) { return run_exec(e, q, NULL); }

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec * 1e-3;
}

static px_status host_profile(px__bexec *e, px__queue *q, double *us, int n, double *total)
{
    const double start = now_us();
    frame self = {e, NULL};
    const frame *saved = current;
    current = &self;
    for (int i = 0; i < e->nslots; ++i) e->slots[i].value = e->slots[i].cond->initial;
    px_status st = PX_OK;
    for (int i = 0; i < e->n && i < n && st == PX_OK; ++i) {
        const double t0 = now_us();
        st = run_node(&e->nodes[i], e, q, &self);
        us[i] = now_us() - t0;
    }
    current = saved;
    *total = now_us() - start;
    return st;
}

static px_status host_set(px__bexec *e, px__bnode *n, const px__gnode_desc *desc)
{
    exec_node *x = &e->nodes[n->index];
    return take_params(&x->d, &x->args, &x->op, &x->value, desc);
}

/* The node's copy of the arguments takes the new ones in place. */
static px_status host_set_args(px__bexec *e, px__bnode *n, const px__dispatch *d)
{
    exec_node *x = &e->nodes[n->index];
    if (x->args) memcpy(x->args, d->args, d->kernel->args_size);
    x->d = *d;
    x->d.args = x->args;
    return PX_OK;
}

/* Whether a and b have the same nodes, kinds and nesting; the first difference in *why. */
static bool same_shape(const px__bexec *a, const px__bexec *b, int top, px__graph_update_error *why)
{
    if (a->n != b->n) {
        why->node = top;
        snprintf(why->reason, sizeof why->reason, "%d nodes where the executable graph has %d",
                 b->n, a->n);
        return false;
    }
    for (int i = 0; i < a->n; ++i) {
        const int at = top >= 0 ? top : i;
        if (a->nodes[i].kind != b->nodes[i].kind) {
            why->node = at;
            snprintf(why->reason, sizeof why->reason, "node kinds differ");
            return false;
        }
        if (a->nodes[i].kind == PX__GNODE_KERNEL && a->nodes[i].d.kernel != b->nodes[i].d.kernel) {
            why->node = at;
            snprintf(why->reason, sizeof why->reason,
                     "kernel '%s' where the executable graph runs '%s'", b->nodes[i].d.kernel->name,
                     a->nodes[i].d.kernel->name);
            return false;
        }
        if ((a->nodes[i].sub == NULL) != (b->nodes[i].sub == NULL)) return false;
        if (a->nodes[i].sub != NULL && !same_shape(a->nodes[i].sub, b->nodes[i].sub, at, why))
            return false;
    }
    return true;
}

/* A new executable graph from `from`, swapped into e when it has e's shape. */
static px_status host_update(px__bexec *e, px__bgraph *from, px__graph_update_error *why)
{
    px__bexec *fresh = NULL;
    PX__TRY(exec_build(from, from->n, &fresh));
    if (!same_shape(e, fresh, -1, why)) {
        exec_free(fresh);
        return px__error(PX_ERR_INVALID_ARGUMENT, "the graphs differ at node %d: %s", why->node,
                         why->reason);
    }
    const px__bexec old = *e;
    *e = *fresh;
    *fresh = old;
    exec_free(fresh);
    return PX_OK;
}

const px__graph_ops px__host_graph_ops = {
    .create = host_graph_create,
    .destroy = host_graph_destroy,
    .add = host_graph_add,
    .instantiate = host_graph_instantiate,
    .exec_destroy = host_exec_destroy,
    .upload = host_upload,
    .launch = host_launch,
    .set = host_set,
    .set_args = host_set_args,
    .update = host_update,
    .profile = host_profile,
};
