/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* test_fuzz_graph, building graphs: work issued on an instance being captured, and graphs,
 * nodes of every kind, children and WHILE and IF nodes added in random orders, each call
 * judged against the model. */
#define _POSIX_C_SOURCE 200809L

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_graph.h"

/* ---- Work on an instance being captured ------------------------------------------------------ */

const px_kernel *inc_kernel(int view, inc_args *a, int64_t d)
{
    memset(a, 0, sizeof *a);
    if (fz.pool[view].dtype == PX_I64) {
        TK_OK(px_view_span_i64(fz.pool[view].v, &a->i64.v));
        a->i64.d = d;
        return PX_KERNEL(g_inc);
    }
    TK_OK(px_view_span_f64(fz.pool[view].v, &a->f64.x));
    a->f64.y = a->f64.x;
    a->f64.a = 1.0;
    a->f64.b = (double)d;
    return PX_KERNEL(g_axpb);
}

/* One fill, copy or kernel issued on inst, which rec's capture records: the model appends
   the node the capture holds (none for what moves nothing). */
void issue(px_instance *inst, mgraph *rec)
{
    pnode p = {0};
    px_status want = PX_OK;
    px_status st;
    switch (rnd(0, 2)) {
    case 0: {
        p.kind = M_FILL;
        p.view = (int)rnd(0, NPOOL - 1);
        const int64_t x = small_value();
        p.value = fill_bits(fz.pool[p.view].dtype, x);
        p.noop = fz.pool[p.view].n == 0;
        op("px_fill_async(capturing, view %d, %lld)", p.view, (long long)x);
        st = px_fill_async(inst, fz.pool[p.view].v, &p.value, NULL);
        if (!judge_status("px_fill_async", st, want, "")) return;
        break;
    }
    case 1: {
        p.kind = M_COPY;
        p.src = (int)rnd(0, NPOOL - 1);
        p.view = chance(90) ? same_length(p.src) : (int)rnd(0, NPOOL - 1);
        /* A strided view into itself goes through a temporary: two nodes and a view the
           model does not follow. */
        if (p.view == p.src && fz.pool[p.view].strided) return;
        if (fz.pool[p.view].n != fz.pool[p.src].n) want = PX_ERR_EXTENTS_MISMATCH;
        p.noop = fz.pool[p.view].n == 0 || p.view == p.src;
        op("px_deep_copy_async(capturing, view %d, view %d)", p.view, p.src);
        st = px_deep_copy_async(inst, fz.pool[p.view].v, fz.pool[p.src].v, NULL);
        if (!judge_status("px_deep_copy_async", st, want, "extents differ")) return;
        break;
    }
    default: {
        p.kind = M_INC;
        p.view = (int)rnd(0, NPOOL - 1);
        p.value = small_value();
        p.b = 0;
        p.e = fz.pool[p.view].n;
        inc_args a;
        const px_kernel *k = inc_kernel(p.view, &a, p.value);
        op("px_parallel_for(capturing, inc view %d by %lld)", p.view, (long long)p.value);
        st = px_parallel_for(inst, "inc", px_range(p.b, p.e), k, &a);
        if (!judge_status("px_parallel_for", st, want, "")) return;
        break;
    }
    }
    if (p.noop) return;
    int dep = rec->n - 1;
    mnode_add(rec, &p, NULL, &dep, rec->n ? 1 : 0);
}

/* ---- Graphs and nodes -------------------------------------------------------------------------- */

int free_slot(void)
{
    for (int s = 0; s < NSLOTS; ++s)
        if (!fz.slot[s]) return s;
    return -1;
}

void op_graph(void)
{
    const int s = (int)rnd(0, NSLOTS - 1);
    if (!fz.slot[s]) {
        px_graph *g = NULL;
        op("px_graph_create(slot %d: g%d)", s, fz.next_graph);
        if (judge("px_graph_create", px_graph_create(&g, tk_exec(), 0, chance(80) ? "fz" : NULL),
                  EXP_OK, ""))
            fz.slot[s] = mgraph_new(G_TOP, g, NULL), fz.slot[s]->held = true;
        return;
    }
    if (chance(15)) {
        mgraph *b = pick_body();
        if (b) {
            px_graph *h = b->g;
            op("px_graph_destroy(body g%d)", b->id);
            judge_status("px_graph_destroy", px_graph_destroy(&h), PX_ERR_INVALID_ARGUMENT,
                         "a body");
            return;
        }
    }
    op("px_graph_destroy(slot %d: g%d, %d nodes)", s, fz.slot[s]->id, fz.slot[s]->n);
    px_graph *h = fz.slot[s]->g;
    if (judge("px_graph_destroy", px_graph_destroy(&h), EXP_OK, "") && h != NULL)
        found("px_graph_destroy", "left the handle set", "%p", (void *)h);
    fz.slot[s]->held = false;
    fz.slot[s] = NULL;
}

typedef struct cap_job {
    mgraph *rec;
    int misuse; /* bit 1: end the capture, bit 2: destroy the instance */
} cap_job;

/* px_graph_add_captured's callback: work on the lent instance, and what it must refuse. */
static px_status captured_fn(px_instance *inst, void *data)
{
    cap_job *j = data;
    const int n = (int)rnd(1, 2);
    for (int k = 0; k < n; ++k) issue(inst, j->rec);
    if (j->misuse & 1) {
        px_graph *g = NULL;
        op("px_graph_capture_end(the lent instance)");
        judge_status("px_graph_capture_end", px_graph_capture_end(inst, &g), PX_ERR_CAPTURING,
                     "lent instance");
        if (g) px_graph_destroy(&g);
    }
    if (j->misuse & 2) {
        px_instance *copy = inst;
        op("px_instance_destroy(the lent instance)");
        judge_status("px_instance_destroy", px_instance_destroy(&copy), PX_ERR_CAPTURING,
                     "lent instance");
        if (copy == NULL) return PX_OK; /* gone: nothing more can be issued on it */
    }
    if (j->misuse) issue(inst, j->rec);
    return PX_OK;
}

/* Why body t cannot hold child (src/graphs/nodes.c's body_refuses), or NULL. */
static const char *body_refuses(const mgraph *child)
{
    if (child->kind == G_CAPTURED) return "a captured graph in a body";
    if (any_node(child, child->n, holds_capture)) return "captured work in a body";
    if (any_node(child, child->n, is_host)) return "a host function in a body";
    return NULL;
}

/* A node of kind `which` (0-9, the cases below; -1: any) into a graph the test holds or
   one of their bodies. */
static void add_node(int which)
{
    mgraph *t = pick_graph(true);
    if (t == NULL || t->n >= MAXNODES || work(root_of(t), root_of(t)->n, WORK_MAX) >= WORK_MAX)
        return;
    px_graph_node *dh[MAXDEPS];
    int di[MAXDEPS];
    bool bad = false;
    const int nd = gen_deps(t, dh, di, &bad);
    px_graph_node *const *deps = nd ? dh : NULL;
    const bool captured = t->kind == G_CAPTURED;
    px_status want = captured ? PX_ERR_INVALID_ARGUMENT : PX_OK;
    const char *why = captured ? "a captured graph takes no nodes" : "";
    pnode p = {0};
    px_graph_node *h = NULL;
    px_status st;
    const char *func;
    mgraph *child = NULL;
    mgraph *rec = NULL;
    switch (which >= 0 ? which : rnd(0, 9)) {
    case 0:
    case 1:
    case 2: {
        func = "px_graph_add_for";
        p.kind = M_INC;
        p.view = (int)rnd(0, NPOOL - 1);
        p.value = small_value();
        const int64_t n = fz.pool[p.view].n;
        p.b = chance(70) ? 0 : rnd(0, n);
        p.e = chance(70) ? n : rnd(p.b, n);
        inc_args a;
        const px_kernel *k = inc_kernel(p.view, &a, p.value);
        op("px_graph_add_for(g%d of %d nodes, %d deps, inc view %d [%lld, %lld) by %lld)", t->id,
           t->n, nd, p.view, (long long)p.b, (long long)p.e, (long long)p.value);
        st = px_graph_add_for(t->g, deps, nd, NULL, px_range(p.b, p.e), k, &a, &h);
        break;
    }
    case 3:
    case 4: {
        func = "px_graph_add_fill";
        p.kind = M_FILL;
        p.view = (int)rnd(0, NPOOL - 1);
        const int64_t x = small_value();
        p.value = fill_bits(fz.pool[p.view].dtype, x);
        p.noop = fz.pool[p.view].n == 0;
        op("px_graph_add_fill(g%d of %d nodes, %d deps, view %d (%lld elements), %lld)", t->id,
           t->n, nd, p.view, (long long)fz.pool[p.view].n, (long long)x);
        st = px_graph_add_fill(t->g, deps, nd, fz.pool[p.view].v, &p.value, &h);
        break;
    }
    case 5:
    case 6: {
        func = "px_graph_add_copy";
        p.kind = M_COPY;
        p.src = (int)rnd(0, NPOOL - 1);
        p.view = chance(85) ? same_length(p.src) : (int)rnd(0, NPOOL - 1);
        p.noop = fz.pool[p.view].n == 0 || p.view == p.src;
        if (want == PX_OK && fz.pool[p.view].n != fz.pool[p.src].n)
            want = PX_ERR_EXTENTS_MISMATCH, why = "extents differ";
        op("px_graph_add_copy(g%d of %d nodes, %d deps, view %d <- view %d)", t->id, t->n, nd,
           p.view, p.src);
        st = px_graph_add_copy(t->g, deps, nd, fz.pool[p.view].v, fz.pool[p.src].v, &h);
        break;
    }
    case 7:
        if (chance(50)) {
            func = "px_graph_add_empty";
            p.kind = M_EMPTY;
            op("px_graph_add_empty(g%d of %d nodes, %d deps)", t->id, t->n, nd);
            st = px_graph_add_empty(t->g, deps, nd, &h);
        } else {
            func = "px_graph_add_host";
            p.kind = M_HOST;
            if (want == PX_OK && t->kind == G_BODY)
                want = PX_ERR_INVALID_ARGUMENT, why = "a host node in a body";
            op("px_graph_add_host(g%d of %d nodes, %d deps)", t->id, t->n, nd);
            st = px_graph_add_host(t->g, deps, nd, "host", host_fn, NULL, &h);
        }
        break;
    case 8: {
        func = "px_graph_add_child";
        p.kind = M_CHILD;
        child = chance(92) ? pick_graph(false) : pick_body();
        if (child == NULL) return;
        /* src/graphs/nodes.c's order: the graph, the child, what a body takes, circles,
           conditionals. */
        const char *refused = t->kind == G_BODY ? body_refuses(child) : NULL;
        fz.stamp++;
        if (want == PX_OK && child->kind == G_BODY)
            want = PX_ERR_INVALID_ARGUMENT, why = "a body as a child";
        else if (want == PX_OK && refused)
            want = PX_ERR_INVALID_ARGUMENT, why = refused;
        else if (want == PX_OK && (child == root_of(t) || reaches(child, root_of(t))))
            want = PX_ERR_INVALID_ARGUMENT, why = "a circle of children";
        else if (want == PX_OK && has_conditionals(child, child->n))
            want = PX_ERR_UNSUPPORTED, why = "a child with WHILE or IF nodes";
        else if (want == PX_OK &&
                 work(child, child->n, WORK_MAX) + work(root_of(t), root_of(t)->n, WORK_MAX) >=
                     WORK_MAX)
            return; /* launches would take long */
        op("px_graph_add_child(g%d of %d nodes, %d deps, g%d of %d nodes (%s))", t->id, t->n, nd,
           child->id, child->n,
           child->kind == G_CAPTURED ? "captured"
           : child->kind == G_BODY   ? "a body"
                                     : "explicit");
        st = px_graph_add_child(t->g, deps, nd, child->g, &h);
        break;
    }
    default: {
        func = "px_graph_add_captured";
        p.kind = M_CHILD;
        if (want == PX_OK && t->kind == G_BODY)
            want = PX_ERR_INVALID_ARGUMENT, why = "captured work in a body";
        rec = mgraph_new(G_CAPTURED, NULL, NULL);
        cap_job j = {rec, chance(20) ? (int)rnd(1, 3) : 0};
        op("px_graph_add_captured(g%d of %d nodes, %d deps, recording g%d%s%s)", t->id, t->n, nd,
           rec->id, j.misuse & 1 ? ", ending the capture" : "",
           j.misuse & 2 ? ", destroying the instance" : "");
        st = px_graph_add_captured(t->g, deps, nd, NULL, captured_fn, &j, &h);
        op_again("px_graph_add_captured(g%d of %d nodes, %d deps) returned", t->id, t->n, nd);
        child = rec;
        break;
    }
    }
    if (want == PX_OK && bad) want = PX_ERR_INVALID_ARGUMENT, why = "a dependency of another graph";
    if (!judge_status(func, st, want, why)) return;
    if (h == NULL) found(func, "gave no node", "%s", "");
    mnode *n = mnode_add(t, &p, h, di, nd);
    if (child) {
        n->child = child;
        n->child_n = child->n;
    }
}

void op_node(void) { add_node(-1); }

/* Links between graphs, often enough that circles close, some through links made after a
   graph was copied. */
void op_child(void) { add_node(8); }

/* A WHILE node (its counter filled before it, a body that counts and sets its condition)
   or an IF node with an empty body. Refused in a graph (or a body of one) that child nodes
   still copy: CUDA does not instantiate a graph holding conditional nodes while a copy of
   it exists (src/graphs/nodes.c's add_cond, in this order: a captured graph, copies, then the
   dependencies). */
void op_loop(void)
{
    mgraph *t = pick_graph(true);
    if (t == NULL || t->n >= MAXNODES - 1 || t->depth >= MAXDEPTH) return;
    const bool is_while = chance(60) && !(fz.cuda && t->in_loop);
    px_graph_node *dh[MAXDEPS];
    int di[MAXDEPS];
    bool bad = false;
    const int nd = gen_deps(t, dh, di, &bad);
    px_status want = t->kind == G_CAPTURED || bad ? PX_ERR_INVALID_ARGUMENT : PX_OK;
    const int copies = t->kind == G_CAPTURED ? 0 : live_copies(root_of(t));
    const px_status want_cond = t->kind == G_CAPTURED ? PX_ERR_INVALID_ARGUMENT
                                : copies > 0          ? PX_ERR_UNSUPPORTED
                                                      : want;
    const char *why_cond = copies > 0 ? "child nodes copy the graph"
                                      : "a captured graph, or a dependency of another graph";
    const unsigned initial = (unsigned)rnd(0, 1);
    px_graph_cond_t *cond = NULL;
    px_graph *body = NULL;
    px_graph_node *h = NULL;
    if (!is_while) {
        op("px_graph_add_if(g%d of %d nodes, %d deps, initial %u: body g%d; %d copies of g%d)",
           t->id, t->n, nd, initial, fz.next_graph, copies, root_of(t)->id);
        if (!judge_status(
                "px_graph_add_if",
                px_graph_add_if(t->g, nd ? dh : NULL, nd, NULL, initial, &cond, &body, &h),
                want_cond, why_cond))
            return;
        const pnode p = {.kind = M_IF, .cond = ++fz.next_cond, .initial = initial};
        mnode *n = mnode_add(t, &p, h, di, nd);
        n->body = mgraph_new(G_BODY, body, t);
        n->body->in_loop = t->in_loop;
        n->cond = cond;
        return;
    }
    /* The counter, filled before the loop. */
    const bool f64 = chance(50);
    px_view *cv = tk_view1("counter", tk_space(), f64 ? PX_F64 : PX_I64, 1);
    if (fz.ncounters == fz.capcounters) {
        fz.capcounters = fz.capcounters ? 2 * fz.capcounters : 16;
        fz.counters = realloc(fz.counters, (size_t)fz.capcounters * sizeof *fz.counters);
        ck_assert_ptr_nonnull(fz.counters);
    }
    const int c = fz.ncounters++;
    fz.counters[c] = (mcounter){cv, f64, 0, 0.0};
    const pnode pf = {.kind = M_CFILL, .view = c, .value = 0};
    op("px_graph_add_fill(g%d of %d nodes, %d deps, a loop counter)", t->id, t->n, nd);
    if (!judge_status("px_graph_add_fill",
                      px_graph_add_fill(t->g, nd ? dh : NULL, nd, cv, &pf.value, &h), want,
                      "a captured graph, or a dependency of another graph"))
        return;
    mnode_add(t, &pf, h, di, nd);
    int fi = t->n - 1;
    const int64_t limit = rnd(0, 3);
    px_graph_node *fill = h;
    op("px_graph_add_while(g%d, after the counter's fill, initial %u: body g%d; %d copies of g%d)",
       t->id, initial, fz.next_graph, copies, root_of(t)->id);
    if (!judge_status("px_graph_add_while",
                      px_graph_add_while(t->g, &fill, 1, NULL, initial, &cond, &body, &h),
                      copies > 0 ? PX_ERR_UNSUPPORTED : PX_OK, "child nodes copy the graph"))
        return;
    const pnode pw = {.kind = M_WHILE, .cond = ++fz.next_cond, .initial = initial};
    mnode *w = mnode_add(t, &pw, h, &fi, 1);
    w->body = mgraph_new(G_BODY, body, t);
    w->body->in_loop = true;
    w->cond = cond;
    px_cond cv_handle;
    TK_OK(px_graph_cond_value(cond, &cv_handle));
    if (!f64) {
        g_count_args a;
        TK_OK(px_view_span_i64(cv, &a.counter));
        a.limit = limit;
        a.cond = cv_handle;
        op("px_graph_add_for(loop body g%d, count to %lld)", w->body->id, (long long)limit);
        if (!judge("px_graph_add_for",
                   px_graph_add_for(body, NULL, 0, "count", px_range(0, 1), PX_KERNEL(g_count), &a,
                                    &h),
                   EXP_OK, ""))
            return;
        const pnode pc = {.kind = M_COUNT, .view = c, .cond = pw.cond, .limit = limit};
        mnode_add(w->body, &pc, h, NULL, 0);
        return;
    }
    g_axpb_args a;
    TK_OK(px_view_span_f64(cv, &a.x));
    a.y = a.x;
    a.a = 1.0;
    a.b = 1.0;
    op("px_graph_add_for(loop body g%d, step)", w->body->id);
    if (!judge("px_graph_add_for",
               px_graph_add_for(body, NULL, 0, "step", px_range(0, 1), PX_KERNEL(g_axpb), &a, &h),
               EXP_OK, ""))
        return;
    const pnode ps = {.kind = M_STEP, .view = c};
    mnode_add(w->body, &ps, h, NULL, 0);
    op("px_graph_cond_from_view(loop body g%d, counter < %lld)", w->body->id, (long long)limit);
    if (!judge("px_graph_cond_from_view",
               px_graph_cond_from_view(body, cond, cv, PX_CMP_LT, (double)limit, &h), EXP_OK, ""))
        return;
    int dep = 0;
    const pnode pm = {.kind = M_CMP, .view = c, .cond = pw.cond, .limit = limit};
    mnode_add(w->body, &pm, h, &dep, 1);
}
