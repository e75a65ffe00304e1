/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* test_fuzz_graph, the model: graphs, nodes and executable graphs as the test made them,
 * the programs an executable graph runs and what running one leaves in the views, and the
 * random choices of graphs, bodies, dependencies and values. */
#define _POSIX_C_SOURCE 200809L

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_graph.h"

/* ---- The model ------------------------------------------------------------------------------ */

struct fuzz fz;
atomic_llong host_calls;

void host_fn(void *data)
{
    (void)data;
    atomic_fetch_add(&host_calls, 1);
}

px_instance *instance(int i) { return i == DEFAULT_INST ? tk_inst() : fz.inst[i]; }

mgraph *mgraph_new(int kind, px_graph *g, mgraph *owner)
{
    mgraph *m = calloc(1, sizeof *m);
    ck_assert_ptr_nonnull(m);
    m->g = g;
    m->id = fz.next_graph++;
    m->kind = kind;
    m->owner = owner;
    m->depth = owner ? owner->depth + 1 : 0;
    m->native = kind == G_CAPTURED && fz.cuda;
    if (fz.ngraphs == fz.capgraphs) {
        fz.capgraphs = fz.capgraphs ? 2 * fz.capgraphs : 64;
        fz.graphs = realloc(fz.graphs, (size_t)fz.capgraphs * sizeof *fz.graphs);
        ck_assert_ptr_nonnull(fz.graphs);
    }
    fz.graphs[fz.ngraphs++] = m;
    return m;
}

mnode *mnode_add(mgraph *g, const pnode *p, px_graph_node *h, const int *deps, int ndeps)
{
    mnode *n = calloc(1, sizeof *n);
    ck_assert_ptr_nonnull(n);
    n->p = *p;
    n->h = h;
    n->ndeps = ndeps;
    if (ndeps > 0) memcpy(n->deps, deps, (size_t)ndeps * sizeof *deps);
    if (g->n == g->cap) {
        g->cap = g->cap ? 2 * g->cap : 8;
        g->nodes = realloc(g->nodes, (size_t)g->cap * sizeof *g->nodes);
        ck_assert_ptr_nonnull(g->nodes);
    }
    g->nodes[g->n++] = n;
    return n;
}

mgraph *root_of(mgraph *g)
{
    while (g->owner) g = g->owner;
    return g;
}

/* Whether visit holds for a node among g's first count nodes, at any depth: children as
   their nodes copied them, bodies whole (graph.c's px__graph_any). */
bool any_node(const mgraph *g, int count, bool (*visit)(const mnode *n))
{
    for (int i = 0; i < count; ++i) {
        const mnode *n = g->nodes[i];
        if (visit(n)) return true;
        if (n->child && any_node(n->child, n->child_n, visit)) return true;
        if (n->body && any_node(n->body, n->body->n, visit)) return true;
    }
    return false;
}

static bool is_conditional(const mnode *n) { return n->body != NULL; }
bool is_host(const mnode *n) { return n->p.kind == M_HOST; }
bool holds_capture(const mnode *n) { return n->child && n->child->kind == G_CAPTURED; }
bool has_conditionals(const mgraph *g, int count) { return any_node(g, count, is_conditional); }

/* Whether g holds target through children or bodies, counting every node each graph has
   now: the references that keep graphs alive. */
bool reaches(mgraph *g, const mgraph *target)
{
    if (g->seen == fz.stamp) return false;
    g->seen = fz.stamp;
    for (int i = 0; i < g->n; ++i) {
        mgraph *next[2] = {g->nodes[i]->child, g->nodes[i]->body};
        for (int k = 0; k < 2; ++k)
            if (next[k] && (next[k] == target || reaches(next[k], target))) return true;
    }
    return false;
}

/* Which model graphs portex still has (alive[i] for fz.graphs[i]): those the test holds,
   those executable graphs keep (made or last updated from them), and what those hold
   through child nodes and bodies. A graph's references in graph.h. */
static bool *alive_graphs(void)
{
    bool *alive = calloc((size_t)fz.ngraphs + 1, sizeof *alive);
    ck_assert_ptr_nonnull(alive);
    for (int i = 0; i < fz.ngraphs; ++i) {
        const mgraph *m = fz.graphs[i];
        alive[i] = m->held;
        for (int e = 0; e < NEXECS; ++e)
            if (fz.exec[e].e && (fz.exec[e].graph == m || fz.exec[e].updated == m)) alive[i] = true;
    }
    for (bool more = true; more;) {
        more = false;
        for (int i = 0; i < fz.ngraphs; ++i) {
            if (!alive[i]) continue;
            const mgraph *m = fz.graphs[i];
            for (int k = 0; k < m->n; ++k) {
                const mgraph *next[2] = {m->nodes[k]->child, m->nodes[k]->body};
                for (int j = 0; j < 2; ++j)
                    for (int x = 0; next[j] && x < fz.ngraphs; ++x)
                        if (fz.graphs[x] == next[j] && !alive[x]) alive[x] = more = true;
            }
        }
    }
    return alive;
}

/* How many child nodes of graphs portex still has copy g (px_graph_add_while and _if
   refuse g while there are any). */
int live_copies(const mgraph *g)
{
    bool *alive = alive_graphs();
    int n = 0;
    for (int i = 0; i < fz.ngraphs; ++i)
        for (int k = 0; alive[i] && k < fz.graphs[i]->n; ++k)
            n += fz.graphs[i]->nodes[k]->child == g;
    free(alive);
    return n;
}

/* g's first count nodes in a line, for the trace: K a kernel (k: an empty range), F a
   fill (F0: of zero bits; f: of nothing), C a copy (c: moving nothing), E empty, H host,
   X<id>(...) a child as copied (Xc: captured work), W<id>{...} and I<id>{...} WHILE and
   IF with their bodies, Z a loop counter's fill, N S M a loop's count, step and
   comparison. */
static void describe(const mgraph *g, int count, char *buf, size_t cap)
{
    for (int i = 0; i < count; ++i) {
        const mnode *n = g->nodes[i];
        const size_t at = strlen(buf);
        const pnode *x = &n->p;
        const char *k = "?";
        switch (x->kind) {
        case M_INC: k = x->b == x->e ? "k" : "K"; break;
        case M_FILL: k = x->noop ? "f" : x->value == 0 ? "F0" : "F"; break;
        case M_COPY: k = x->noop ? "c" : "C"; break;
        case M_EMPTY: k = "E"; break;
        case M_HOST: k = "H"; break;
        case M_CHILD: k = n->child->kind == G_CAPTURED ? "Xc" : "X"; break;
        case M_WHILE: k = "W"; break;
        case M_IF: k = "I"; break;
        case M_CFILL: k = "Z"; break;
        case M_COUNT: k = "N"; break;
        case M_STEP: k = "S"; break;
        case M_CMP: k = "M"; break;
        }
        const mgraph *sub = n->child ? n->child : n->body;
        if (sub)
            snprintf(buf + at, cap - at, "%s%s%d%s", i ? " " : "", k, sub->id,
                     n->child ? "(" : "{");
        else
            snprintf(buf + at, cap - at, "%s%s", i ? " " : "", k);
        if (sub) {
            describe(sub, n->child ? n->child_n : sub->n, buf, cap);
            const size_t end = strlen(buf);
            snprintf(buf + end, cap - end, "%s", n->child ? ")" : "}");
        }
    }
}

void trace_graph(const mgraph *g, int count)
{
    if (!fuzz_tracing()) return;
    char line[768] = "";
    describe(g, count, line, sizeof line);
    trace("g%d, %d nodes: %s", g->id, count, line);
}

/* What a launch of g's first count nodes runs, at most cap (loops count three passes). */
int work(const mgraph *g, int count, int cap)
{
    int w = 0;
    for (int i = 0; i < count && w < cap; ++i) {
        const mnode *n = g->nodes[i];
        w += 1;
        if (n->child) w += work(n->child, n->child_n, cap - w);
        if (n->body) w += 3 * work(n->body, n->body->n, cap);
    }
    return w < cap ? w : cap;
}

/* ---- Executable graphs in the model ---------------------------------------------------------- */

/* g's first count nodes as an executable graph holds them. */
prog *snapshot(const mgraph *g, int count)
{
    prog *p = calloc(1, sizeof *p);
    ck_assert_ptr_nonnull(p);
    p->nodes = calloc(count > 0 ? (size_t)count : 1, sizeof *p->nodes);
    ck_assert_ptr_nonnull(p->nodes);
    p->n = count;
    for (int i = 0; i < count; ++i) {
        const mnode *n = g->nodes[i];
        p->nodes[i] = n->p;
        if (n->child) p->nodes[i].sub = snapshot(n->child, n->child_n);
        if (n->body) p->nodes[i].sub = snapshot(n->body, n->body->n);
    }
    return p;
}

void prog_free(prog *p)
{
    if (p == NULL) return;
    for (int i = 0; i < p->n; ++i) prog_free(p->nodes[i].sub);
    free(p->nodes);
    free(p);
}

/* The kernel a node runs (0: none); the graph's kinds of nodes (core and backend). */
static int kernel_of(const pnode *x)
{
    switch (x->kind) {
    case M_INC: return fz.pool[x->view].dtype == PX_I64 ? 1 : 2;
    case M_STEP: return 2;
    case M_COUNT: return 3;
    case M_CMP: return 4;
    default: return 0;
    }
}

int core_kind(mkind k)
{
    switch (k) {
    case M_INC:
    case M_COUNT:
    case M_STEP:
    case M_CMP: return M_INC;
    case M_CFILL: return M_FILL;
    default: return (int)k;
    }
}

static bool moves_nothing(const pnode *x)
{
    return (x->kind == M_FILL || x->kind == M_COPY) && x->noop;
}

/* src/graphs/exec.c's same_shape: kinds, kernels, no-op copies, dependencies, children as
   copied and bodies whole, recursively. */
bool core_same(const mgraph *was, int wn, const mgraph *now, int nn)
{
    if (was->native != now->native || wn != nn) return false;
    for (int i = 0; i < wn; ++i) {
        const mnode *x = was->nodes[i], *y = now->nodes[i];
        if (core_kind(x->p.kind) != core_kind(y->p.kind) || kernel_of(&x->p) != kernel_of(&y->p))
            return false;
        if (moves_nothing(&x->p) != moves_nothing(&y->p) || x->ndeps != y->ndeps) return false;
        if (memcmp(x->deps, y->deps, (size_t)x->ndeps * sizeof *x->deps) != 0) return false;
        if (x->child && !core_same(x->child, x->child_n, y->child, y->child_n)) return false;
        if (x->body && !core_same(x->body, x->body->n, y->body, y->body->n)) return false;
    }
    return true;
}

/* The host backend's check: the executable graph's nodes (a no-op copy is an empty node)
   against the new graph's. */
bool host_same(const prog *a, const prog *b)
{
    if (a->n != b->n) return false;
    for (int i = 0; i < a->n; ++i) {
        const pnode *x = &a->nodes[i], *y = &b->nodes[i];
        const int kx = moves_nothing(x) ? M_EMPTY : core_kind(x->kind),
                  ky = moves_nothing(y) ? M_EMPTY : core_kind(y->kind);
        if (kx != ky || kernel_of(x) != kernel_of(y) || (x->sub == NULL) != (y->sub == NULL))
            return false;
        if (x->sub && !host_same(x->sub, y->sub)) return false;
    }
    return true;
}

/* ---- Running a program on the model's memory ------------------------------------------------ */

typedef struct frame {
    int id;
    unsigned value;
} frame;

static frame frames[16];
static int nframes;

static void set_cond(int id, unsigned v)
{
    for (int i = nframes - 1; i >= 0; --i)
        if (frames[i].id == id) {
            frames[i].value = v;
            return;
        }
}

void run_prog(const prog *p)
{
    for (int i = 0; i < p->n; ++i) {
        const pnode *x = &p->nodes[i];
        mview *v = x->kind <= M_COPY ? &fz.pool[x->view] : NULL;
        mcounter *c = x->kind >= M_CFILL ? &fz.counters[x->view] : NULL;
        switch (x->kind) {
        case M_INC:
            for (int64_t k = x->b; k < x->e; ++k) {
                if (v->dtype == PX_I64) {
                    v->shadow[k] += (uint64_t)x->value;
                } else {
                    double d;
                    memcpy(&d, &v->shadow[k], sizeof d);
                    d = 1.0 * d + (double)x->value;
                    memcpy(&v->shadow[k], &d, sizeof d);
                }
            }
            break;
        case M_FILL:
            for (int64_t k = 0; k < v->n; ++k) v->shadow[k] = (uint64_t)x->value;
            break;
        case M_COPY:
            if (x->src != x->view)
                memcpy(v->shadow, fz.pool[x->src].shadow, (size_t)v->n * sizeof *v->shadow);
            break;
        case M_EMPTY: break;
        case M_HOST: fz.host_calls++; break;
        case M_CHILD: run_prog(x->sub); break;
        case M_WHILE:
        case M_IF: {
            ck_assert_int_lt(nframes, 16);
            const int at = nframes++;
            frames[at] = (frame){x->cond, x->initial};
            if (x->kind == M_IF) {
                if (frames[at].value) run_prog(x->sub);
            } else {
                while (frames[at].value) run_prog(x->sub);
            }
            nframes--;
            break;
        }
        case M_CFILL:
            if (c->f64)
                memcpy(&c->d, &x->value, sizeof c->d);
            else
                c->i = x->value;
            break;
        case M_COUNT:
            c->i += 1;
            set_cond(x->cond, c->i < x->limit);
            break;
        case M_STEP: c->d += 1.0; break;
        case M_CMP: set_cond(x->cond, c->d < (double)x->limit); break;
        }
    }
}

/* Every view holds what the model says, and host nodes ran as often (after a fence). */
void verify(const char *func)
{
    for (int i = 0; i < NPOOL; ++i) {
        mview *m = &fz.pool[i];
        px_view *h = tk_readable(m->v);
        px_view_info in = tk_info(h);
        for (int64_t k = 0; k < m->n; ++k) {
            uint64_t got;
            memcpy(&got, tk_elem(&in, k), sizeof got);
            if (got != m->shadow[k]) {
                found(func, "left a view other than the model says",
                      "view %d (%s, %lld elements)[%lld] = %llu, "
                      "expected %llu",
                      i, px_dtype_string(m->dtype), (long long)m->n, (long long)k,
                      (unsigned long long)got, (unsigned long long)m->shadow[k]);
                m->shadow[k] = got;
            }
        }
        TK_RELEASE(h);
    }
    const long long calls = atomic_load(&host_calls);
    if (calls != fz.host_calls) {
        found(func, "ran host nodes another number of times", "%lld, expected %lld", calls,
              (long long)fz.host_calls);
        fz.host_calls = calls;
    }
}

/* ---- Choosing ---------------------------------------------------------------------------------- */

/* Graphs nodes can go into: those the test holds and their bodies at any depth. */
static int targets(mgraph **out, int cap)
{
    int n = 0;
    for (int s = 0; s < NSLOTS; ++s)
        if (fz.slot[s] && n < cap) out[n++] = fz.slot[s];
    for (int i = 0; i < n; ++i)
        for (int k = 0; k < out[i]->n; ++k)
            if (out[i]->nodes[k]->body && n < cap) out[n++] = out[i]->nodes[k]->body;
    return n;
}

mgraph *pick_graph(bool bodies)
{
    mgraph *all[64];
    const int n = targets(all, 64);
    if (n == 0) return NULL;
    if (bodies) return all[rnd(0, n - 1)];
    int held = 0;
    while (held < n && all[held]->kind != G_BODY) held++;
    return held ? all[rnd(0, held - 1)] : NULL;
}

mgraph *pick_body(void)
{
    mgraph *all[64];
    const int n = targets(all, 64);
    int first = 0;
    while (first < n && all[first]->kind != G_BODY) first++;
    return first < n ? all[rnd(first, n - 1)] : NULL;
}

/* A node of some graph the test holds (or of a body of one) other than g, or NULL. */
mnode *foreign_node(const mgraph *g)
{
    mgraph *all[64];
    const int n = targets(all, 64);
    for (int tries = 0; tries < 4 && n > 0; ++tries) {
        mgraph *o = all[rnd(0, n - 1)];
        if (o != g && o->n > 0) return o->nodes[rnd(0, o->n - 1)];
    }
    return NULL;
}

/* Dependencies of a new node of g: random distinct earlier nodes; on CUDA every leaf too,
   so that g's nodes run in a chain. *bad: one is a node of another graph. */
int gen_deps(const mgraph *g, px_graph_node **h, int *idx, bool *bad)
{
    int n = 0;
    *bad = false;
    if (fz.cuda) {
        bool *inner = calloc((size_t)g->n + 1, sizeof *inner);
        ck_assert_ptr_nonnull(inner);
        for (int i = 0; i < g->n; ++i)
            for (int d = 0; d < g->nodes[i]->ndeps; ++d) inner[g->nodes[i]->deps[d]] = true;
        for (int i = 0; i < g->n && n < MAXDEPS - 3; ++i)
            if (!inner[i]) idx[n++] = i;
        free(inner);
    }
    const int extra = g->n ? (int)rnd(0, 2) : 0;
    for (int k = 0; k < extra; ++k) {
        const int i = (int)rnd(0, g->n - 1);
        bool dup = false;
        for (int d = 0; d < n; ++d) dup = dup || idx[d] == i;
        if (!dup) idx[n++] = i;
    }
    for (int d = 0; d < n; ++d) h[d] = g->nodes[idx[d]]->h;
    if (chance(3)) {
        mnode *f = foreign_node(g);
        if (f) {
            h[n] = f->h;
            idx[n++] = -1;
            *bad = true;
        }
    }
    return n;
}

/* A pool view of the same length as view `like` (itself possibly). */
int same_length(int like)
{
    int pick[NPOOL], n = 0;
    for (int i = 0; i < NPOOL; ++i)
        if (fz.pool[i].n == fz.pool[like].n) pick[n++] = i;
    return pick[rnd(0, n - 1)];
}

int64_t small_value(void) { return rnd(0, 9); }

/* A fill value for view i, as its element's bits. */
int64_t fill_bits(px_dtype dt, int64_t x)
{
    if (dt == PX_I64) return x;
    const double d = (double)x;
    int64_t bits;
    memcpy(&bits, &d, sizeof bits);
    return bits;
}
