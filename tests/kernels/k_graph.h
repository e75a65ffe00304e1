/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernels of test_graph (k_graph.c): argument structs and declarations.
 * Included by the kernel file (compiled as C, or as CUDA C++ when CUDA is on) and by the
 * C test; it must stay valid in both languages. */
#ifndef PX_TESTS_K_GRAPH_H
#define PX_TESTS_K_GRAPH_H

#include "portex/kernel.h"
#include "portex/view.h"

/* y[i] = v */
typedef struct g_set_args {
    px_span_f64 y;
    double v;
} g_set_args;
PX_DECLARE_KERNEL(g_set);

/* y[i] = a * x[i] + b (x and y may be the same view: in place) */
typedef struct g_axpb_args {
    px_span_f64 x, y;
    double a, b;
} g_axpb_args;
PX_DECLARE_KERNEL(g_axpb);

/* z[i] = x[i] + y[i] */
typedef struct g_add_args {
    px_span_f64 x, y, z;
} g_add_args;
PX_DECLARE_KERNEL(g_add);

/* v[i] += d */
typedef struct g_inc_args {
    px_span_i64 v;
    int64_t d;
} g_inc_args;
PX_DECLARE_KERNEL(g_inc);

/* Index 0 only: counter[0] += 1, then the condition becomes (counter[0] < limit). */
typedef struct g_count_args {
    px_span_i64 counter;
    int64_t limit;
    px_cond cond;
} g_count_args;
PX_DECLARE_KERNEL(g_count);

/* Index 0 only: the condition becomes (v[0] != 0). */
typedef struct g_cond_args {
    px_span_i64 v;
    px_cond cond;
} g_cond_args;
PX_DECLARE_KERNEL(g_cond_nonzero);

/* The sum of x[i] (double). */
typedef struct g_sum_args {
    px_span_f64 x;
} g_sum_args;
PX_DECLARE_KERNEL(g_sum);

/* out[i] = in[0] + ... + in[i-1] (int64, exclusive) */
typedef struct g_scan_args {
    px_span_i64 in, out;
} g_scan_args;
PX_DECLARE_KERNEL(g_scan_excl);

#endif /* PX_TESTS_K_GRAPH_H */
