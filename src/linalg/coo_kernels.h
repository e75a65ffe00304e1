/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The kernels that turn a COO triplet list into CSR (coo.c says the steps): keys, run
 * heads, the runs' sums, the row offsets. la_coo_<step>[_<value>]_<index>. Included by C
 * and, with CUDA on, by CUDA C++. */
#ifndef PX_LINALG_COO_KERNELS_H
#define PX_LINALG_COO_KERNELS_H

#include <portex.h>

/* key[i] = row[i] * ncols + col[i]: the triplets' order, rows first. */
#define LA_COO_KEYS_ARGS(I)                 \
    typedef struct la_coo_keys_args_##I {   \
        px_span_##I##_1d_restrict row, col; \
        px_span_i64_1d_restrict key;        \
        int64_t ncols;                      \
    } la_coo_keys_args_##I;                 \
    PX_DECLARE_KERNEL(la_coo_keys_##I)

/* For each run of equal keys in sorted order (key[perm[i]]), from its head i: its sum, in
   the triplets' order, at pos[i] - 1 (pos: the inclusive sum of the heads), its column and
   its key. */
#define LA_COO_SUM_ARGS(V, I)                         \
    typedef struct la_coo_sum_args_##V##_##I {        \
        px_span_i64_1d_restrict key, perm, head, pos; \
        px_span_##V##_1d_restrict val, val_out;       \
        px_span_##I##_1d_restrict col_out;            \
        px_span_i64_1d_restrict key_out;              \
        int64_t n, ncols;                             \
    } la_coo_sum_args_##V##_##I;                      \
    PX_DECLARE_KERNEL(la_coo_sum_##V##_##I)

/* offsets[r] for every row r: the first entry whose row is r or more (entries u in
   [0, entries], the last standing for the end). */
#define LA_COO_OFFSETS_ARGS(I)               \
    typedef struct la_coo_offsets_args_##I { \
        px_span_i64_1d_restrict key;         \
        px_span_##I##_1d_restrict offsets;   \
        int64_t entries, nrows, ncols;       \
    } la_coo_offsets_args_##I;               \
    PX_DECLARE_KERNEL(la_coo_offsets_##I)

LA_COO_KEYS_ARGS(i32);
LA_COO_KEYS_ARGS(i64);
LA_COO_SUM_ARGS(f32, i32);
LA_COO_SUM_ARGS(f32, i64);
LA_COO_SUM_ARGS(f64, i32);
LA_COO_SUM_ARGS(f64, i64);
LA_COO_OFFSETS_ARGS(i32);
LA_COO_OFFSETS_ARGS(i64);

/* head[i] = 1 where key[perm[i]] starts a run of equal keys, else 0. */
typedef struct la_coo_heads_args {
    px_span_i64_1d_restrict key, perm, head;
} la_coo_heads_args;
PX_DECLARE_KERNEL(la_coo_heads);

#endif
