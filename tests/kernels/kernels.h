/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernels of the test suites: argument structs and declarations.
 * Included by the kernel files (compiled as C, or as CUDA C++ when CUDA is on) and by the
 * C tests; it must stay valid in both languages. */
#ifndef PX_TESTS_KERNELS_H
#define PX_TESTS_KERNELS_H

#include "portex/kernel.h"
#include "portex/view.h"

/* ---- parallel_for (k_for.c) ------------------------------------------------------------ */

typedef struct axpy_args {
    double a;
    px_span_f64 x, y;
} axpy_args;
PX_DECLARE_KERNEL(axpy); /* y[i] += a * x[i] */

typedef struct visit_args {
    px_span_i32 hits;  /* hits(i[,j[,k]]) += 1 */
    px_span_i64 order; /* data NULL or order(i,j[,k]) = counter[0]++ (serial only) */
    px_span_i64 counter;
} visit_args;
PX_DECLARE_KERNEL(visit1);
PX_DECLARE_KERNEL(visit2);
PX_DECLARE_KERNEL(visit3);
PX_DECLARE_KERNEL(visit4);
PX_DECLARE_KERNEL(visit5);
PX_DECLARE_KERNEL(visit6);
/* The sum over the range of nd_term(i, j, ...) (the indices past the rank 0). */
PX_DECLARE_KERNEL(nd_sum4);
PX_DECLARE_KERNEL(nd_sum5);
PX_DECLARE_KERNEL(nd_sum6);
PX_FUNCTION int64_t nd_term(int64_t i, int64_t j, int64_t k, int64_t l, int64_t m, int64_t n)
{
    return ((((i * 7 + j) * 7 + k) * 7 + l) * 7 + m) * 7 + n + 3;
}

/* out(i, j) = 1000 * i + j, as a double */
typedef struct ij_args {
    px_span_f64 out;
} ij_args;
PX_DECLARE_KERNEL(index2);

/* ---- Host-only kernel (k_host_only.c, always compiled as C) ------------------------------- */

typedef struct host_only_args {
    px_span_f64 y;
    double v;
} host_only_args;
PX_DECLARE_KERNEL(host_only_set); /* y[i] = v; no CUDA entry in any build */

/* named[i] = 1 when px_view_span(NULL, ...) called at index i names px_parallel_for (the
   dispatch it runs in); off_caller[i] = 1 when index i ran on another thread than the
   dispatching one (px_last_error's buffer is per thread: caller_error is the address it
   gives the dispatching thread). */
typedef struct host_caller_args {
    px_span_i32 named, off_caller;
    uint64_t caller_error;
} host_caller_args;
PX_DECLARE_KERNEL(host_caller_probe);

/* ---- parallel_reduce (k_reduce.c) ----------------------------------------------------------- */

typedef struct red_args_float {
    px_span_f32 x;
} red_args_float;
typedef struct red_args_double {
    px_span_f64 x;
} red_args_double;
typedef struct red_args_int32_t {
    px_span_i32 x;
} red_args_int32_t;
typedef struct red_args_int64_t {
    px_span_i64 x;
} red_args_int64_t;
typedef struct red_args_uint32_t {
    px_span_u32 x;
} red_args_uint32_t;
typedef struct red_args_uint64_t {
    px_span_u64 x;
} red_args_uint64_t;

#define TK_DECLARE_RED(T)            \
    PX_DECLARE_KERNEL(red_sum_##T);  \
    PX_DECLARE_KERNEL(red_prod_##T); \
    PX_DECLARE_KERNEL(red_min_##T);  \
    PX_DECLARE_KERNEL(red_max_##T)
TK_DECLARE_RED(float);
TK_DECLARE_RED(double);
TK_DECLARE_RED(int32_t);
TK_DECLARE_RED(int64_t);
TK_DECLARE_RED(uint32_t);
TK_DECLARE_RED(uint64_t);

/* {x[i], i} folded with minloc / maxloc */
PX_DECLARE_KERNEL(red_minloc_f32);
PX_DECLARE_KERNEL(red_maxloc_f32);
PX_DECLARE_KERNEL(red_minloc_f64);
PX_DECLARE_KERNEL(red_maxloc_f64);
PX_DECLARE_KERNEL(red_minloc_i32);
PX_DECLARE_KERNEL(red_maxloc_i32);
PX_DECLARE_KERNEL(red_minloc_i64);
PX_DECLARE_KERNEL(red_maxloc_i64);

/* A custom join over a struct: sum and count of the positive x[i]. */
typedef struct tk_stats {
    double sum;
    int64_t count;
} tk_stats;
PX_DECLARE_KERNEL(red_stats); /* args: red_args_double */

/* A custom join that is not a sum: the product of complex numbers re[i] + i im[i]. */
typedef struct tk_cplx {
    double re, im;
} tk_cplx;
typedef struct cplx_args {
    px_span_f64 re, im;
} cplx_args;
PX_DECLARE_KERNEL(red_cprod);

/* Sums over 2-D (double) and 3-D (int64) views. */
PX_DECLARE_KERNEL(red2_sum); /* args: red_args_double, x rank 2 */
PX_DECLARE_KERNEL(red3_sum); /* args: red_args_int64_t, x rank 3 */

/* How many indices a 2-D or 3-D reduction visits (int64_t), whatever they are. */
typedef struct count_args {
    int64_t unused;
} count_args;
PX_DECLARE_KERNEL(count2);
PX_DECLARE_KERNEL(count3);

/* ---- parallel_scan (k_scan.c) ------------------------------------------------------------- */

typedef struct scan_i64_args {
    px_span_i64 in, out;
} scan_i64_args;
typedef struct scan_f64_args {
    px_span_f64 in, out;
} scan_f64_args;
typedef struct scan_i32_args {
    px_span_i32 in, out;
} scan_i32_args;
PX_DECLARE_KERNEL(scan_excl_i64); /* out[i] = in[0] + ... + in[i-1] */
PX_DECLARE_KERNEL(scan_incl_i64); /* out[i] = in[0] + ... + in[i] */
PX_DECLARE_KERNEL(scan_incl_f64);
PX_DECLARE_KERNEL(scan_max_i32); /* out[i] = max(in[0..i]), join max */

#endif /* PX_TESTS_KERNELS_H */
