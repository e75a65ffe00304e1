/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Helpers of the graph suites (test_graph, test_graph_rules), on the backend under test:
 * views of the kernels' space and of the host memory a graph's copies replay from, spans,
 * graphs and executable graphs whose calls are asserted, the g_inc and g_axpb kernels'
 * arguments, conditions as kernels see them,
 * elements read back through HOST copies (tk_readable), and text written to memory.
 * Everything is static inline (each suite uses what it needs); the including file
 * defines _POSIX_C_SOURCE 200809L first (open_memstream). */
#ifndef PX_TESTS_GRAPH_UTIL_H
#define PX_TESTS_GRAPH_UTIL_H

#include <stdio.h>

#include "common.h"
#include "k_graph.h"
#include "portex/graph.h"

/* Host memory a graph's copies can replay from: HOST_PINNED on CUDA (a graph refuses
   pageable memory there), HOST on the host backends. */
static inline px_space host_side(void) { return tk_is_cuda() ? px_host_pinned() : px_host(); }

/* 1-D views of n elements: F64 and I64 in tk_space(), F64 in host_side(). */
static inline px_view *vf(const char *label, int64_t n)
{
    return tk_view1(label, tk_space(), PX_F64, n);
}
static inline px_view *vi(const char *label, int64_t n)
{
    return tk_view1(label, tk_space(), PX_I64, n);
}
static inline px_view *hf(const char *label, int64_t n)
{
    return tk_view1(label, host_side(), PX_F64, n);
}

static inline px_span_f64 sf(const px_view *v)
{
    px_span_f64 s;
    TK_OK(px_view_span_f64(v, &s));
    return s;
}

static inline px_span_i64 si(const px_view *v)
{
    px_span_i64 s;
    TK_OK(px_view_span_i64(v, &s));
    return s;
}

/* ---- Graphs --------------------------------------------------------------------------------- */

/* A new graph of the backend under test, on device 0. */
static inline px_graph *new_graph(const char *label)
{
    px_graph *g = NULL;
    TK_OK(px_graph_create(&g, tk_exec(), 0, label));
    ck_assert_ptr_nonnull(g);
    return g;
}

static inline px_graph_exec *instantiate(px_graph *g)
{
    px_graph_exec *e = NULL;
    TK_OK(px_graph_instantiate(g, &e));
    ck_assert_ptr_nonnull(e);
    return e;
}

/* Destroys an executable graph, then the graph it was made from; both handles cleared. */
static inline void destroy_exec_and_graph(px_graph_exec **e, px_graph **g)
{
    TK_OK(px_graph_exec_destroy(e));
    TK_OK(px_graph_destroy(g));
}

/* One launch of e on `in`, finished when it returns. */
static inline void launch_fenced(px_graph_exec *e, px_instance *in)
{
    TK_OK(px_graph_launch(e, in));
    TK_OK(px_instance_fence(in));
}

/* A node's index, and a graph's node count. */
static inline int index_of(const px_graph_node *n)
{
    int i = -2;
    TK_OK(px_graph_node_index(n, &i));
    return i;
}

static inline int count_of(const px_graph *g)
{
    int n = -1;
    TK_OK(px_graph_node_count(g, &n));
    return n;
}

/* The arguments of g_inc: v += d. */
static inline g_inc_args inc_args(const px_view *v, int64_t d)
{
    g_inc_args r;
    r.v = si(v);
    r.d = d;
    return r;
}

/* The value a kernel passes to px_cond_set for condition c. */
static inline px_cond cond_of(const px_graph_cond_t *c)
{
    px_cond v;
    memset(&v, 0, sizeof v);
    TK_OK(px_graph_cond_value(c, &v));
    return v;
}

/* The arguments of g_axpb: y = a x + b. */
static inline g_axpb_args axpb(const px_view *x, const px_view *y, double a, double b)
{
    g_axpb_args r;
    r.x = sf(x);
    r.y = sf(y);
    r.a = a;
    r.b = b;
    return r;
}

/* ---- Results ----------------------------------------------------------------------------------- */

/* Element i of a F64 or I64 view of any space (the caller fenced). */
static inline double getf(px_view *v, int64_t i)
{
    px_view *h = tk_readable(v);
    const double x = ((const double *)tk_data(h))[i];
    TK_RELEASE(h);
    return x;
}

static inline int64_t geti(px_view *v, int64_t i)
{
    px_view *h = tk_readable(v);
    const int64_t x = ((const int64_t *)tk_data(h))[i];
    TK_RELEASE(h);
    return x;
}

/* Every element of a 1-D F64 / I64 view of any space is `want`. */
#define ALL_F64(v, want) all_f64((v), (want), __LINE__)
static inline void all_f64(px_view *v, double want, int line)
{
    px_view *h = tk_readable(v);
    const px_view_info in = tk_info(h);
    const double *x = (const double *)in.data;
    for (int64_t i = 0; i < in.size; ++i)
        TK_ASSERT(x[i] == want, "line %d: '%s'[%lld] = %.17g, expected %.17g", line, in.label,
                  (long long)i, x[i], want);
    TK_RELEASE(h);
}

#define ALL_I64(v, want) all_i64((v), (want), __LINE__)
static inline void all_i64(px_view *v, int64_t want, int line)
{
    px_view *h = tk_readable(v);
    const px_view_info in = tk_info(h);
    const int64_t *x = (const int64_t *)in.data;
    for (int64_t i = 0; i < in.size; ++i)
        TK_ASSERT(x[i] == want, "line %d: '%s'[%lld] = %lld, expected %lld", line, in.label,
                  (long long)i, (long long)x[i], (long long)want);
    TK_RELEASE(h);
}

/* ---- Text px_graph_dot / px_graph_profile write, malloc'ed ------------------------------------ */

typedef struct memfile {
    char *buf;
    size_t size;
    FILE *f;
} memfile;

/* open_memstream writes through &m->buf and &m->size: m must stay where it is. */
static inline void mem_open(memfile *m)
{
    m->buf = NULL;
    m->size = 0;
    m->f = open_memstream(&m->buf, &m->size);
    ck_assert_ptr_nonnull(m->f);
}

/* Closes the stream; the text, which the caller frees. */
static inline char *mem_close(memfile *m)
{
    ck_assert_int_eq(fclose(m->f), 0);
    ck_assert_ptr_nonnull(m->buf);
    return m->buf;
}

#endif /* PX_TESTS_GRAPH_UTIL_H */
