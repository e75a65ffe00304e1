/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* A seeded random sequence of graph and tools-region calls on the backend under test, with
 * valid and invalid arguments: graphs built node by node in random orders (kernels,
 * copies and fills, those that move nothing included, empty and host nodes, children,
 * px_graph_add_captured nodes, WHILE and IF nodes, nested, whose bodies fill up later),
 * captures, instantiation, launches, profiles and uploads, px_graph_exec_set_* and
 * px_graph_exec_update from random graphs, handles destroyed in any order, regions pushed
 * and popped, and px_init / px_finalize cycles in between. A model of what the test made
 * predicts every call's status (the exact one where the headers say it), what every
 * launch leaves in each view and how often host nodes ran; the test checks all of it, and
 * that every cycle ends with no memory in use and px_finalize succeeding: nothing leaked.
 * The harness (fuzz.h) reports each kind of finding once, with its seed and call number.
 *
 * Views live in tk_space(), so the rules of graphs (what bodies take, what replays) are
 * the same on every backend, and so is the model. The host backends run nodes in the
 * order they were added, whatever the dependencies, so there dependencies are random; on
 * CUDA every new node depends on the nodes before it, so that a launch leaves what it
 * leaves on the host, and a WHILE node is never put inside a WHILE body (when CUDA assigns
 * a nested condition its initial value is its own business). Crashes and memory errors
 * are for the sanitizers (CI runs this under ASan and UBSan); a call that does not return
 * fails the test through the watchdog.
 *
 * CI runs FUZZ_SEEDS seeds of ITERS_DEFAULT calls on serial and OpenMP (and on CUDA where
 * there is a GPU). A longer run, for a GPU pass or before a release (fuzz.h lists the
 * environment):
 *   PX_TEST_BACKEND=cuda PX_FUZZ_SEED=1000 PX_FUZZ_ITERS=40000 build/tests/test_fuzz_graph
 *   PX_TEST_BACKEND=openmp2 PX_FUZZ_SEED=1000 PX_FUZZ_ITERS=40000 build/tests/test_fuzz_graph */
#define _POSIX_C_SOURCE 200809L

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "common.h"
#include "fuzz.h"
#include "k_graph.h"
#include "portex/graph.h"

enum {
    FUZZ_SEEDS = 4,
    NPOOL = 6,
    NSLOTS = 8,
    NEXECS = 6,
    NINSTS = 2,
    MAXDEPS = 8,
    MAXDEPTH = 2,
    MAXNODES = 32
};
#define ITERS_DEFAULT 5000
#define WORK_MAX 4000 /* nodes a launch of one graph may run (children copied, loops unrolled) */
#define DEFAULT_INST NINSTS

/* ---- The model ------------------------------------------------------------------------------ */

typedef enum mkind {
    M_INC,  /* view += d over [b, e): g_inc (I64) or g_axpb in place (F64) */
    M_FILL, /* every element of view = value's bits */
    M_COPY, /* view = src, element by element (bits) */
    M_EMPTY,
    M_HOST,  /* counts a call */
    M_CHILD, /* a child graph, or what px_graph_add_captured recorded */
    M_WHILE,
    M_IF,
    M_CFILL, /* a loop counter = value (0 when the loop is made) */
    M_COUNT, /* g_count: I64 counter += 1; the loop's condition = counter < limit */
    M_STEP,  /* g_axpb: F64 counter += 1 */
    M_CMP,   /* px_graph_cond_from_view: the loop's condition = F64 counter < limit */
} mkind;

/* A node's parameters as a graph holds them, or as an executable graph runs them (then
   `sub` holds a child's or a body's nodes). */
typedef struct prog prog;
typedef struct pnode {
    mkind kind;
    int view, src; /* INC, FILL, COPY: pool views (COPY: view is dst); loop nodes: the counter */
    int64_t value; /* INC: d; FILL, CFILL: the element's bits */
    int64_t b, e;  /* INC: the range */
    bool noop;     /* FILL, COPY: moves nothing */
    int cond;      /* WHILE, IF: the condition's id; COUNT, CMP: the one set */
    unsigned initial;
    int64_t limit;
    prog *sub;
} pnode;

struct prog {
    pnode *nodes;
    int n;
};

enum { G_TOP, G_BODY, G_CAPTURED };

typedef struct mgraph mgraph;
typedef struct mnode {
    pnode p;
    px_graph_node *h;
    int deps[MAXDEPS], ndeps;
    mgraph *child; /* CHILD, and how many of its nodes the node copied */
    int child_n;
    mgraph *body; /* WHILE, IF */
    px_graph_cond_t *cond;
} mnode;

struct mgraph {
    px_graph *g;
    int id; /* g<id> in the trace */
    int kind;
    mgraph *owner; /* a body: the graph holding its node */
    int depth;     /* bodies above it */
    bool in_loop;  /* in a WHILE body, at any depth */
    bool held;     /* the test holds the handle (kinds TOP, CAPTURED) */
    bool native;   /* recorded by the backend (a capture on CUDA) */
    int nexec;     /* executable graphs made from it, alive */
    unsigned seen; /* walks */
    mnode **nodes;
    int n, cap;
};

typedef struct mview {
    px_view *v;
    px_dtype dtype;
    int64_t n;
    bool strided;
    uint64_t *shadow; /* what each element holds (bits) */
} mview;

typedef struct mcounter {
    px_view *v;
    bool f64;
    int64_t i; /* I64 */
    double d;  /* F64 */
} mcounter;

typedef struct mexec {
    px_graph_exec *e;
    mgraph *graph;
    int n;      /* nodes of graph when instantiated */
    prog *p;    /* what it runs: as instantiated or updated, with px_graph_exec_set_* changes */
    prog *base; /* as instantiated or updated (what CUDA's profile runs node by node) */
    mgraph *updated; /* the graph of the last px_graph_exec_update, which exec keeps */
} mexec;

static struct fuzz {
    bool cuda;
    int init_refs;
    size_t base_host, base_space;
    mview pool[NPOOL];
    mcounter *counters;
    int ncounters, capcounters;
    mgraph **graphs; /* every model graph of this cycle */
    int ngraphs, capgraphs;
    mgraph *slot[NSLOTS];
    mexec exec[NEXECS];
    px_instance *inst[NINSTS];
    int capturing;   /* the instance being captured (DEFAULT_INST for the default), or -1 */
    mgraph *capture; /* what it records */
    int regions;     /* open on this thread */
    int next_cond;
    int next_graph; /* the id of the next model graph */
    int64_t host_calls;
    unsigned stamp;
    FILE *sink;
} fz;

static atomic_llong host_calls; /* what host nodes counted */

static void host_fn(void *data)
{
    (void)data;
    atomic_fetch_add(&host_calls, 1);
}

static px_instance *instance(int i) { return i == DEFAULT_INST ? tk_inst() : fz.inst[i]; }

static mgraph *mgraph_new(int kind, px_graph *g, mgraph *owner)
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

static mnode *mnode_add(mgraph *g, const pnode *p, px_graph_node *h, const int *deps, int ndeps)
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

static mgraph *root_of(mgraph *g)
{
    while (g->owner) g = g->owner;
    return g;
}

/* Whether visit holds for a node among g's first count nodes, at any depth: children as
   their nodes copied them, bodies whole (graph.c's px__graph_any). */
static bool any_node(const mgraph *g, int count, bool (*visit)(const mnode *n))
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
static bool is_host(const mnode *n) { return n->p.kind == M_HOST; }
static bool holds_capture(const mnode *n) { return n->child && n->child->kind == G_CAPTURED; }
static bool has_conditionals(const mgraph *g, int count)
{
    return any_node(g, count, is_conditional);
}

/* Whether g holds target through children or bodies, counting every node each graph has
   now: the references that keep graphs alive. */
static bool reaches(mgraph *g, const mgraph *target)
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
static int live_copies(const mgraph *g)
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

static void trace_graph(const mgraph *g, int count)
{
    if (!fuzz_tracing()) return;
    char line[768] = "";
    describe(g, count, line, sizeof line);
    trace("g%d, %d nodes: %s", g->id, count, line);
}

/* What a launch of g's first count nodes runs, at most cap (loops count three passes). */
static int work(const mgraph *g, int count, int cap)
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
static prog *snapshot(const mgraph *g, int count)
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

static void prog_free(prog *p)
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

static int core_kind(mkind k)
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

/* graph_exec.c's same_shape: kinds, kernels, no-op copies, dependencies, children as
   copied and bodies whole, recursively. */
static bool core_same(const mgraph *was, int wn, const mgraph *now, int nn)
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
static bool host_same(const prog *a, const prog *b)
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

static void run_prog(const prog *p)
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
static void verify(const char *func)
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

static mgraph *pick_graph(bool bodies)
{
    mgraph *all[64];
    const int n = targets(all, 64);
    if (n == 0) return NULL;
    if (bodies) return all[rnd(0, n - 1)];
    int held = 0;
    while (held < n && all[held]->kind != G_BODY) held++;
    return held ? all[rnd(0, held - 1)] : NULL;
}

static mgraph *pick_body(void)
{
    mgraph *all[64];
    const int n = targets(all, 64);
    int first = 0;
    while (first < n && all[first]->kind != G_BODY) first++;
    return first < n ? all[rnd(first, n - 1)] : NULL;
}

/* A node of some graph the test holds (or of a body of one) other than g, or NULL. */
static mnode *foreign_node(const mgraph *g)
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
static int gen_deps(const mgraph *g, px_graph_node **h, int *idx, bool *bad)
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
static int same_length(int like)
{
    int pick[NPOOL], n = 0;
    for (int i = 0; i < NPOOL; ++i)
        if (fz.pool[i].n == fz.pool[like].n) pick[n++] = i;
    return pick[rnd(0, n - 1)];
}

static int64_t small_value(void) { return rnd(0, 9); }

/* A fill value for view i, as its element's bits. */
static int64_t fill_bits(px_dtype dt, int64_t x)
{
    if (dt == PX_I64) return x;
    const double d = (double)x;
    int64_t bits;
    memcpy(&bits, &d, sizeof bits);
    return bits;
}

/* ---- Work on an instance being captured ------------------------------------------------------ */

/* Kernel arguments of an INC on pool view i. */
typedef union inc_args {
    g_inc_args i64;
    g_axpb_args f64;
} inc_args;

static const px_kernel *inc_kernel(int view, inc_args *a, int64_t d)
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
static void issue(px_instance *inst, mgraph *rec)
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

static int free_slot(void)
{
    for (int s = 0; s < NSLOTS; ++s)
        if (!fz.slot[s]) return s;
    return -1;
}

static void op_graph(void)
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

/* Why body t cannot hold child (graph_nodes.c's body_refuses), or NULL. */
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
        /* graph_nodes.c's order: the graph, the child, what a body takes, circles,
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

static void op_node(void) { add_node(-1); }

/* Links between graphs, often enough that circles close, some through links made after a
   graph was copied. */
static void op_child(void) { add_node(8); }

/* A WHILE node (its counter filled before it, a body that counts and sets its condition)
   or an IF node with an empty body. Refused in a graph (or a body of one) that child nodes
   still copy: CUDA does not instantiate a graph holding conditional nodes while a copy of
   it exists (graph_nodes.c's add_cond, in this order: a captured graph, copies, then the
   dependencies). */
static void op_loop(void)
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

/* ---- Executable graphs ----------------------------------------------------------------------- */

static int live_exec(void)
{
    int pick[NEXECS], n = 0;
    for (int i = 0; i < NEXECS; ++i)
        if (fz.exec[i].e) pick[n++] = i;
    return n ? pick[rnd(0, n - 1)] : -1;
}

static void exec_gone(mexec *x)
{
    x->graph->nexec--;
    prog_free(x->p);
    prog_free(x->base);
    memset(x, 0, sizeof *x);
}

static void op_exec(void)
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

static void op_launch(void)
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

static void op_set(void)
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

static void op_update(void)
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

static void op_capture(void)
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

static void op_dot(void)
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

static void op_region(void)
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

/* ---- A run: px_init ... px_finalize ----------------------------------------------------------- */

static size_t bytes_in_use(px_space s)
{
    px_memory_stats ms;
    TK_OK(px_space_memory(s, &ms));
    return ms.bytes_in_use;
}

/* The views and instances of a run; the memory in use before them. */
static void setup_run(void)
{
    fz.base_host = bytes_in_use(px_host());
    fz.base_space = bytes_in_use(tk_space());
    static const int64_t lengths[] = {0, 3, 3, 8, 8, 8, 17};
    for (int i = 0; i < NPOOL; ++i) {
        mview *m = &fz.pool[i];
        m->dtype = i == 4 ? PX_F64 : PX_I64;
        m->strided = i == 5;
        m->n = m->strided ? (chance(50) ? 3 : 8) : PICK(lengths);
        if (m->strided) {
            /* Column 0 of an n x 2 view: a 1-D view with stride 2. */
            px_view *whole = tk_view("strided", tk_space(), PX_I64, 2, (const int64_t[]){m->n, 2});
            const px_slice sl[2] = {px_slice_all(), px_slice_index(0)};
            m->v = NULL;
            TK_OK(px_view_subview(&m->v, whole, sl, 2));
            TK_RELEASE(whole);
        } else {
            m->v = tk_view1("pool", tk_space(), m->dtype, m->n);
        }
        m->shadow = calloc(m->n > 0 ? (size_t)m->n : 1, sizeof *m->shadow);
        ck_assert_ptr_nonnull(m->shadow);
        const int64_t bits = fill_bits(m->dtype, small_value());
        TK_OK(px_fill(m->v, &bits, NULL));
        for (int64_t k = 0; k < m->n; ++k) m->shadow[k] = (uint64_t)bits;
    }
    for (int i = 0; i < NINSTS; ++i) fz.inst[i] = tk_instance("fuzz");
    fz.capturing = -1;
}

/* Releases everything of a run; then no memory is in use but what was before it. */
static void cleanup_run(void)
{
    if (fz.capturing >= 0) {
        px_graph *g = NULL;
        op("px_graph_capture_end(cleanup)");
        judge("px_graph_capture_end", px_graph_capture_end(instance(fz.capturing), &g), EXP_OK, "");
        if (g) judge("px_graph_destroy", px_graph_destroy(&g), EXP_OK, "");
        fz.capturing = -1;
    }
    for (int i = 0; i < NEXECS; ++i)
        if (fz.exec[i].e) {
            op("px_graph_exec_destroy(cleanup)");
            judge("px_graph_exec_destroy", px_graph_exec_destroy(&fz.exec[i].e), EXP_OK, "");
            exec_gone(&fz.exec[i]);
        }
    for (int s = 0; s < NSLOTS; ++s)
        if (fz.slot[s]) {
            op("px_graph_destroy(cleanup)");
            judge("px_graph_destroy", px_graph_destroy(&fz.slot[s]->g), EXP_OK, "");
            fz.slot[s] = NULL;
        }
    for (int c = 0; c < fz.ncounters; ++c) TK_RELEASE(fz.counters[c].v);
    fz.ncounters = 0;
    for (int i = 0; i < NPOOL; ++i) {
        TK_RELEASE(fz.pool[i].v);
        free(fz.pool[i].shadow);
        fz.pool[i].shadow = NULL;
    }
    tk_destroy_all(fz.inst, NINSTS);
    for (int i = 0; i < fz.ngraphs; ++i) {
        for (int k = 0; k < fz.graphs[i]->n; ++k) free(fz.graphs[i]->nodes[k]);
        free(fz.graphs[i]->nodes);
        free(fz.graphs[i]);
    }
    fz.ngraphs = 0;
    op("(memory after a run)");
    const size_t host = bytes_in_use(px_host()), space = bytes_in_use(tk_space());
    if (host != fz.base_host || space != fz.base_space)
        found("(memory)", "still in use after everything was released",
              "%zu bytes of HOST, %zu of the backend's space beyond what was in use before",
              host - fz.base_host, space - fz.base_space);
}

/* Another reference to px_init, or one fewer, or a whole cycle: everything released, the
   last px_finalize (refused first while the default instance is captured, sometimes),
   calls that need portex, px_init again and new views. Regions open go with the cycle. */
static void op_lifetime(void)
{
    const px_init_options o = {.skip_topology = true};
    const int r = (int)rnd(0, 9);
    if (r < 3 && fz.init_refs < 3) {
        op("px_init(another reference)");
        if (judge("px_init", px_init(&o), EXP_OK, "")) fz.init_refs++;
        return;
    }
    if (r < 6) {
        op("px_finalize(%d references, views alive)", fz.init_refs);
        if (judge_status("px_finalize", px_finalize(), fz.init_refs > 1 ? PX_OK : PX_ERR_BUSY,
                         "views alive"))
            fz.init_refs--;
        return;
    }
    cleanup_run();
    while (fz.init_refs > 1) {
        op("px_finalize(an extra reference)");
        if (judge("px_finalize", px_finalize(), EXP_OK, "")) fz.init_refs--;
    }
    if (chance(30)) {
        op("px_graph_capture_begin(the default instance, before px_finalize)");
        judge("px_graph_capture_begin", px_graph_capture_begin(tk_inst(), PX_CAPTURE_THREAD_LOCAL),
              EXP_OK, "");
        op("px_finalize(the default instance captured)");
        judge_status("px_finalize", px_finalize(), PX_ERR_CAPTURING,
                     "the default instance is captured");
        if (!px_is_initialized()) found("px_finalize", "tore down while refusing", "%s", "");
        px_graph *g = NULL;
        op("px_graph_capture_end(the default instance)");
        judge("px_graph_capture_end", px_graph_capture_end(tk_inst(), &g), EXP_OK, "");
        if (g) judge("px_graph_destroy", px_graph_destroy(&g), EXP_OK, "");
    }
    op("px_finalize(the last reference, %d regions open)", fz.regions);
    judge("px_finalize", px_finalize(), EXP_OK, "");
    fz.init_refs = 0;
    fz.regions = 0;
    op("px_region_push(not initialized)");
    judge_status("px_region_push", px_region_push("early"), PX_ERR_NOT_INITIALIZED,
                 "not initialized");
    op("px_region_pop(not initialized)");
    judge_status("px_region_pop", px_region_pop(), PX_ERR_NOT_INITIALIZED, "not initialized");
    px_graph *g = NULL;
    op("px_graph_create(not initialized)");
    judge_status("px_graph_create", px_graph_create(&g, tk_exec(), 0, "early"),
                 PX_ERR_NOT_INITIALIZED, "not initialized");
    op("px_init(after the last px_finalize)");
    TK_OK(px_init(&o));
    fz.init_refs = 1;
    setup_run();
}

/* ---- The test ------------------------------------------------------------------------------------ */

static const fuzz_kind kinds[] = {
    {"graph", 8, op_graph}, {"node", 30, op_node},    {"child", 10, op_child},
    {"loop", 4, op_loop},   {"exec", 8, op_exec},     {"launch", 12, op_launch},
    {"set", 10, op_set},    {"update", 6, op_update}, {"capture", 8, op_capture},
    {"dot", 2, op_dot},     {"region", 6, op_region}, {"lifetime", 1, op_lifetime},
};
#define NKINDS ((int)(sizeof kinds / sizeof kinds[0]))

START_TEST(fuzz_graphs)
{
    const uint64_t seed = fuzz_seed(_i);
    const long long iters = fuzz_iters(ITERS_DEFAULT);
    fuzz_start(seed, iters);
    memset(&fz, 0, sizeof fz);
    fz.cuda = tk_is_cuda();
    fz.init_refs = 1;
    fz.sink = fopen("/dev/null", "w");
    ck_assert_ptr_nonnull(fz.sink);
    atomic_store(&host_calls, 0);
    TK_ASSERT(fuzz_choose(kinds, NKINDS), "PX_FUZZ_OPS='%s' names no kind of call",
              getenv("PX_FUZZ_OPS"));
    setup_run();
    tk_watchdog_start(20);
    for (g_call = 0; g_call < (uint64_t)iters && !fuzz_stopped(); ++g_call) fuzz_one(kinds, NKINDS);
    g_call = (uint64_t)iters;
    cleanup_run();
    while (fz.init_refs > 1) {
        op("px_finalize(cleanup)");
        judge("px_finalize", px_finalize(), EXP_OK, "");
        fz.init_refs--;
    }
    tk_watchdog_stop();
    free(fz.counters);
    free(fz.graphs);
    fclose(fz.sink);
    fuzz_report();
}
END_TEST

int main(void)
{
    TCase *tc = tk_case("fuzz_graph", "graphs");
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, fuzz_graphs, 0, fuzz_seeds(FUZZ_SEEDS));
    return tk_run();
}
