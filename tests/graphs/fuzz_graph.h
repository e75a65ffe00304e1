/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The parts of test_fuzz_graph, the seeded random sequence of graph and tools-region calls
 * (test_fuzz_graph.c says what it checks and how to run it longer): the model
 * (fuzz_graph_model.c), building graphs (fuzz_graph_build.c), executable graphs, captures,
 * DOT and regions (fuzz_graph_exec.c); test_fuzz_graph.c has the px_init ... px_finalize
 * cycles and the test. Each op_* function makes one call of its kind and judges it
 * (fuzz.h). The including file defines _POSIX_C_SOURCE 200809L first. */
#ifndef PX_TESTS_FUZZ_GRAPH_H
#define PX_TESTS_FUZZ_GRAPH_H

#include <stdatomic.h>
#include <stdio.h>

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

struct fuzz {
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
};
extern struct fuzz fz;

extern atomic_llong host_calls; /* what host nodes counted */

/* Kernel arguments of an INC on pool view i. */
typedef union inc_args {
    g_inc_args i64;
    g_axpb_args f64;
} inc_args;

/* ---- The model (fuzz_graph_model.c) -------------------------------------------------------- */

/* A host node's function (counts host_calls); the test's instance i (DEFAULT_INST: the
   default one). */
void host_fn(void *data);
px_instance *instance(int i);
/* New model graphs and nodes, and walks over them (any_node: children as copied, bodies
   whole; reaches: through children and bodies as they are now). */
mgraph *mgraph_new(int kind, px_graph *g, mgraph *owner);
mnode *mnode_add(mgraph *g, const pnode *p, px_graph_node *h, const int *deps, int ndeps);
mgraph *root_of(mgraph *g);
bool any_node(const mgraph *g, int count, bool (*visit)(const mnode *n));
bool is_host(const mnode *n);
bool holds_capture(const mnode *n);
bool has_conditionals(const mgraph *g, int count);
bool reaches(mgraph *g, const mgraph *target);
int live_copies(const mgraph *g);
/* The graph for the trace; the nodes a launch runs (children copied, loops unrolled), up
   to cap. */
void trace_graph(const mgraph *g, int count);
int work(const mgraph *g, int count, int cap);
/* What an executable graph runs: a program from the graph's first count nodes; whether an
   update may go from one graph to another (core_same) and keeps the host nodes. */
prog *snapshot(const mgraph *g, int count);
void prog_free(prog *p);
int core_kind(mkind k);
bool core_same(const mgraph *was, int wn, const mgraph *now, int nn);
bool host_same(const prog *a, const prog *b);
/* Runs a program on the model's memory; checks the views against it after `func`. */
void run_prog(const prog *p);
void verify(const char *func);
/* Random choices: a graph (bodies too), a body, a node of another graph, dependencies
   (*bad: invalid ones), an extent like view `like`, values and their element bits. */
mgraph *pick_graph(bool bodies);
mgraph *pick_body(void);
mnode *foreign_node(const mgraph *g);
int gen_deps(const mgraph *g, px_graph_node **h, int *idx, bool *bad);
int same_length(int like);
int64_t small_value(void);
int64_t fill_bits(px_dtype dt, int64_t x);

/* ---- Building graphs (fuzz_graph_build.c) -------------------------------------------------- */

/* The kernel and arguments of an INC on pool view `view`; one call issued on an instance
   rec's capture records; a free graph slot (-1: none). */
const px_kernel *inc_kernel(int view, inc_args *a, int64_t d);
void issue(px_instance *inst, mgraph *rec);
int free_slot(void);
void op_graph(void);
void op_node(void);
void op_child(void);
void op_loop(void);

/* ---- Executable graphs, captures, DOT, regions (fuzz_graph_exec.c) ------------------------- */

/* The model's side of an executable graph destroyed. */
void exec_gone(mexec *x);
void op_exec(void);
void op_launch(void);
void op_set(void);
void op_update(void);
void op_capture(void);
void op_dot(void);
void op_region(void);

#endif /* PX_TESTS_FUZZ_GRAPH_H */
