/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* test_fuzz_graph, executable graphs: instantiation, launches (the views checked against
 * the model), profiles and uploads, px_graph_exec_set_* and px_graph_exec_update; captures;
 * DOT output and tools regions. */
#define _POSIX_C_SOURCE 200809L

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_graph.h"

/* ---- Executable graphs ----------------------------------------------------------------------- */

static int live_exec(void)
{
    int pick[NEXECS], n = 0;
    for (int i = 0; i < NEXECS; ++i)
        if (fz.exec[i].e) pick[n++] = i;
    return n ? pick[rnd(0, n - 1)] : -1;
}

void exec_gone(mexec *x)
{
    x->graph->nexec--;
    prog_free(x->p);
    prog_free(x->base);
    memset(x, 0, sizeof *x);
}

void op_exec(void)
{
    int slot = -1;
    for (int i = 0; i < NEXECS && slot < 0; ++i)
        if (!fz.exec[i].e) slot = i;
    if (slot >= 0 && chance(65)) {
        mgraph *g = chance(95) ? pick_graph(false) : pick_body();
        if (g == NULL) return;
        px_status want = PX_OK;
        if (g->kind == G_BODY)
            want = PX_ERR_INVALID_ARGUMENT;
        else if (has_conditionals(g, g->n) && g->nexec > 0)
            want = PX_ERR_UNSUPPORTED;
        px_graph_exec *e = NULL;
        op("px_graph_instantiate(g%d of %d nodes, %d executable already: exec %d)", g->id, g->n,
           g->nexec, slot);
        trace_graph(g, g->n);
        if (!judge_status("px_graph_instantiate", px_graph_instantiate(g->g, &e), want,
                          "a body, or a second executable graph of a graph with conditionals"))
            return;
        fz.exec[slot] = (mexec){e, g, g->n, snapshot(g, g->n), snapshot(g, g->n), NULL};
        g->nexec++;
        return;
    }
    const int i = live_exec();
    if (i < 0) return;
    op("px_graph_exec_destroy(exec %d of g%d)", i, fz.exec[i].graph->id);
    px_graph_exec *e = fz.exec[i].e;
    if (judge("px_graph_exec_destroy", px_graph_exec_destroy(&e), EXP_OK, "") && e)
        found("px_graph_exec_destroy", "left the handle set", "%p", (void *)e);
    exec_gone(&fz.exec[i]);
}

void op_launch(void)
{
    const int i = live_exec();
    if (i < 0) return;
    mexec *x = &fz.exec[i];
    const int in = (int)rnd(0, NINSTS);
    px_instance *inst = instance(in);
    const px_status want = fz.capturing == in ? PX_ERR_CAPTURING : PX_OK;
    const int what = (int)rnd(0, 9);
    if (what == 0) {
        op("px_graph_upload(exec %d of g%d, instance %d)", i, x->graph->id, in);
        judge_status("px_graph_upload", px_graph_upload(x->e, inst), want, "a capturing instance");
        return;
    }
    const bool profile = what == 1;
    /* What a profile runs (graph.h): on CUDA, a graph timed node by node runs a copy of the
       graph as instantiated or last updated, without px_graph_exec_set_* changes; one timed
       as a whole (captured, or holding WHILE or IF nodes now, counting those added since
       instantiation) runs the executable graph itself, with them, as the host backends do. */
    const mgraph *current = x->updated ? x->updated : x->graph;
    const bool whole = current->native || has_conditionals(current, current->n);
    const prog *runs = profile && fz.cuda && !whole ? x->base : x->p;
    op("%s(exec %d of g%d, instance %d)", profile ? "px_graph_profile" : "px_graph_launch", i,
       x->graph->id, in);
    if (profile)
        trace("the model runs exec %s", runs == x->p ? "as changed" : "as made or updated");
    const px_status st =
        profile ? px_graph_profile(x->e, inst, fz.sink) : px_graph_launch(x->e, inst);
    const char *func = profile ? "px_graph_profile" : "px_graph_launch";
    if (!judge_status(func, st, want, "a capturing instance")) return;
    run_prog(runs);
    op("px_instance_fence(instance %d)", in);
    if (!judge("px_instance_fence", px_instance_fence(inst), EXP_OK, "")) return;
    verify(func);
}

/* A node handle for the setters: mostly a top-level node exec has, else one it has not. */
static const mnode *setter_node(const mexec *x, int *index)
{
    *index = -1;
    if (chance(88) && x->n > 0) {
        *index = (int)rnd(0, x->n - 1);
        return x->graph->nodes[*index];
    }
    if (chance(50) && x->graph->n > x->n) return x->graph->nodes[rnd(x->n, x->graph->n - 1)];
    return foreign_node(x->graph);
}

/* Whether a setter of kind `kind` (core kind) may change node n of exec x (the reason in *why). */
static bool settable(const mexec *x, const mnode *n, int index, int kind, const char **why)
{
    *why = "";
    if (index < 0)
        *why = "a node exec does not have";
    else if (x->graph->kind == G_CAPTURED)
        *why = "a node of a captured graph";
    else if (core_kind(n->p.kind) != kind)
        *why = "a node of another kind";
    return (*why)[0] == '\0';
}

void op_set(void)
{
    const int i = live_exec();
    if (i < 0) return;
    mexec *x = &fz.exec[i];
    int index;
    const mnode *n = setter_node(x, &index);
    if (n == NULL) return;
    pnode *run = index >= 0 ? &x->p->nodes[index] : NULL;
    const char *why;
    switch (rnd(0, 3)) {
    case 0: { /* fill value */
        const bool ok = settable(x, n, index, M_FILL, &why);
        int64_t bits = 0;
        if (ok) {
            const bool counter = run->kind == M_CFILL;
            const px_dtype dt =
                counter ? (fz.counters[run->view].f64 ? PX_F64 : PX_I64) : fz.pool[run->view].dtype;
            bits = fill_bits(dt, counter ? rnd(0, 3) : small_value());
        }
        op("px_graph_exec_set_fill(exec %d of g%d, node %d, bits %#llx; made with %#llx, now "
           "%#llx)",
           i, x->graph->id, index, (unsigned long long)bits,
           ok ? (unsigned long long)x->base->nodes[index].value : 0ull,
           ok ? (unsigned long long)run->value : 0ull);
        if (judge_status("px_graph_exec_set_fill", px_graph_exec_set_fill(x->e, n->h, &bits),
                         ok ? PX_OK : PX_ERR_INVALID_ARGUMENT, why))
            run->value = bits;
        break;
    }
    case 1: { /* copy views */
        bool ok = settable(x, n, index, M_COPY, &why);
        int dst = (int)rnd(0, NPOOL - 1), src = (int)rnd(0, NPOOL - 1);
        if (ok && chance(60)) {
            dst = same_length(run->view);
            src = same_length(run->src);
        }
        px_status want = ok ? PX_OK : PX_ERR_INVALID_ARGUMENT;
        const mview *d = &fz.pool[dst], *s = &fz.pool[src];
        if (ok) {
            const mview *rd = &fz.pool[run->view], *rs = &fz.pool[run->src];
            const bool noop = d->n == 0 || dst == src;
            if (d->n != s->n)
                want = PX_ERR_EXTENTS_MISMATCH, why = "extents differ";
            else if (d->dtype != rd->dtype || s->dtype != rs->dtype)
                want = PX_ERR_INVALID_ARGUMENT, why = "element types differ from the node's";
            else if (d->n != rd->n || d->strided != rd->strided || s->strided != rs->strided ||
                     noop != run->noop)
                want = PX_ERR_INVALID_ARGUMENT, why = "another copy";
        }
        op("px_graph_exec_set_copy(exec %d of g%d, node %d, view %d <- view %d)", i, x->graph->id,
           index, dst, src);
        if (judge_status("px_graph_exec_set_copy", px_graph_exec_set_copy(x->e, n->h, d->v, s->v),
                         want, why)) {
            run->view = dst;
            run->src = src;
            run->noop = d->n == 0 || dst == src;
        }
        break;
    }
    case 2: { /* kernel arguments */
        const bool ok = settable(x, n, index, M_INC, &why) && run->kind == M_INC;
        if (!ok && !why[0]) return; /* a loop's kernel: its arguments name its condition */
        const int64_t d = small_value();
        inc_args a;
        inc_kernel(ok ? run->view : 0, &a, d);
        op("px_graph_exec_set_args(exec %d of g%d, node %d, d %lld)", i, x->graph->id, index,
           (long long)d);
        const px_status st = px_graph_exec_set_args(x->e, n->h, &a);
        if (judge("px_graph_exec_set_args", st,
                  !ok                           ? EXP_FAIL
                  : fz.cuda && run->b == run->e ? EXP_ANY
                                                : EXP_OK,
                  why) &&
            ok)
            run->value = d;
        break;
    }
    default: { /* kernel range */
        const bool ok = settable(x, n, index, M_INC, &why) && run->kind == M_INC;
        if (!ok && !why[0]) return;
        const int64_t len = ok ? fz.pool[run->view].n : 4;
        int64_t b = rnd(0, len), e = rnd(b, len);
        const bool reversed = chance(5) && b < e;
        if (reversed) {
            const int64_t t = b;
            b = e;
            e = t;
        }
        op("px_graph_exec_set_policy(exec %d of g%d, node %d, [%lld, %lld))", i, x->graph->id,
           index, (long long)b, (long long)e);
        const px_status st = px_graph_exec_set_policy(x->e, n->h, px_range(b, e));
        const int exp = !ok || reversed ? EXP_FAIL : fz.cuda ? EXP_ANY : EXP_OK;
        if (judge("px_graph_exec_set_policy", st, exp, reversed ? "begin after end" : why) && ok) {
            run->b = b;
            run->e = e;
        }
        break;
    }
    }
}

void op_update(void)
{
    const int i = live_exec();
    if (i < 0) return;
    mexec *x = &fz.exec[i];
    mgraph *g = chance(5)                      ? pick_body()
                : chance(25) && x->graph->held ? x->graph
                                               : pick_graph(false);
    if (g == NULL) return;
    px_status want = PX_OK;
    const char *why = "";
    prog *fresh = g->kind == G_BODY ? NULL : snapshot(g, g->n);
    if (g->kind == G_BODY) {
        want = PX_ERR_INVALID_ARGUMENT, why = "a body";
    } else if (g != x->graph && (has_conditionals(g, g->n) || has_conditionals(x->graph, x->n))) {
        want = PX_ERR_UNSUPPORTED, why = "WHILE or IF nodes, from another graph";
    } else if (!core_same(x->graph, x->n, g, g->n)) {
        want = PX_ERR_INVALID_ARGUMENT, why = "another shape";
    } else if (!fz.cuda && !host_same(x->p, fresh)) {
        want = PX_ERR_INVALID_ARGUMENT, why = "bodies that changed since";
    }
    px_graph_update_report r;
    op("px_graph_exec_update(exec %d of g%d, %d nodes, from g%d of %d nodes)", i, x->graph->id,
       x->n, g->id, g->n);
    const px_status st = px_graph_exec_update(x->e, g->g, chance(80) ? &r : NULL);
    const bool ok = fz.cuda && want == PX_OK ? judge("px_graph_exec_update", st, EXP_ANY, "")
                                             : judge_status("px_graph_exec_update", st, want, why);
    if (!ok) {
        prog_free(fresh);
        return;
    }
    x->updated = g;
    prog_free(x->p);
    prog_free(x->base);
    x->p = fresh;
    x->base = snapshot(g, g->n);
}

/* ---- Capture ----------------------------------------------------------------------------------- */

void op_capture(void)
{
    if (fz.capturing < 0) {
        /* On CUDA the default instance stays free (reading views back goes through it),
           and a capture that lasts across calls is relaxed: in the other modes CUDA
           refuses this thread's allocations and synchronous copies meanwhile. */
        const int in = fz.cuda || chance(70) ? (int)rnd(0, NINSTS - 1) : DEFAULT_INST;
        const px_capture_mode modes[] = {PX_CAPTURE_THREAD_LOCAL, PX_CAPTURE_GLOBAL,
                                         PX_CAPTURE_RELAXED};
        const px_capture_mode mode = fz.cuda ? PX_CAPTURE_RELAXED : PICK(modes);
        op("px_graph_capture_begin(instance %d, mode %d)", in, (int)mode);
        if (judge("px_graph_capture_begin", px_graph_capture_begin(instance(in), mode), EXP_OK,
                  "")) {
            fz.capturing = in;
            fz.capture = mgraph_new(G_CAPTURED, NULL, NULL);
        }
        return;
    }
    px_instance *inst = instance(fz.capturing);
    const int r = (int)rnd(0, 9);
    if (r < 5) {
        issue(inst, fz.capture);
    } else if (r == 5) {
        op("px_instance_fence(a capturing instance)");
        judge_status("px_instance_fence", px_instance_fence(inst), PX_ERR_CAPTURING, "capturing");
        op("px_graph_capture_begin(a capturing instance)");
        judge_status("px_graph_capture_begin",
                     px_graph_capture_begin(inst, PX_CAPTURE_THREAD_LOCAL), PX_ERR_CAPTURING,
                     "capturing");
    } else if (r == 6 && fz.capturing != DEFAULT_INST) {
        px_instance *copy = inst;
        op("px_instance_destroy(a capturing instance)");
        judge_status("px_instance_destroy", px_instance_destroy(&copy), PX_ERR_CAPTURING,
                     "capturing");
    } else {
        px_graph *g = NULL;
        op("px_graph_capture_end(instance %d, %d nodes recorded: g%d)", fz.capturing, fz.capture->n,
           fz.capture->id);
        if (!judge("px_graph_capture_end", px_graph_capture_end(inst, &g), EXP_OK, "")) return;
        mgraph *m = fz.capture;
        m->g = g;
        fz.capturing = -1;
        fz.capture = NULL;
        int count = -1;
        if (px_graph_node_count(g, &count) != PX_OK || count != m->n)
            found("px_graph_node_count", "counted other nodes than were captured",
                  "%d, expected %d", count, m->n);
        const int s = free_slot();
        if (s >= 0) {
            m->held = true;
            fz.slot[s] = m;
        } else {
            op("px_graph_destroy(a captured graph)");
            judge("px_graph_destroy", px_graph_destroy(&g), EXP_OK, "");
        }
    }
}

/* ---- Looking at graphs, regions --------------------------------------------------------------- */

void op_dot(void)
{
    mgraph *g = pick_graph(true);
    if (g == NULL) return;
    op("px_graph_dot(g%d of %d nodes)", g->id, g->n);
    judge("px_graph_dot", px_graph_dot(g->g, fz.sink), EXP_OK, "");
    int count = -1;
    op("px_graph_node_count");
    if (judge("px_graph_node_count", px_graph_node_count(g->g, &count), EXP_OK, "") &&
        count != g->n)
        found("px_graph_node_count", "counted other nodes than were added", "%d, expected %d",
              count, g->n);
}

void op_region(void)
{
    if (fz.regions < 8 && chance(fz.regions ? 50 : 70)) {
        op("px_region_push(depth %d)", fz.regions);
        if (judge("px_region_push", px_region_push("fuzz"), EXP_OK, "")) fz.regions++;
        return;
    }
    op("px_region_pop(depth %d)", fz.regions);
    if (judge_status("px_region_pop", px_region_pop(), fz.regions ? PX_OK : PX_ERR_INVALID_ARGUMENT,
                     "no region open in this run"))
        fz.regions--;
}
