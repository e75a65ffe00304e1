/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* CSR matrices on the host for the SpMV example and benchmarks: a 2-D 5-point Laplacian,
 * a power-law matrix, the plain C product and the check of a computed y. Plain C, used by
 * main files only (never by kernel files). 32-bit offsets and indices (nnz < 2^31), the
 * form cuSPARSE's CUSPARSE_INDEX_32I takes, so both sides read the same bytes. */
#ifndef PX_CSR_H
#define PX_CSR_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct csr {
    int64_t nrows, nnz;
    int32_t *row; /* nrows + 1 */
    int32_t *col; /* nnz */
    double *val;  /* nnz */
} csr;

/* A reproducible random double in (0, 1] (splitmix64), as example_random. */
static inline double csr_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    z ^= z >> 31;
    return (double)((z >> 11) + 1) * 0x1.0p-53;
}

static inline void csr_free(csr *m)
{
    free(m->row);
    free(m->col);
    free(m->val);
}

/* Room for nrows rows and nnz entries; exits on a size past 32-bit offsets or no memory. */
static inline csr csr_alloc(int64_t nrows, int64_t nnz)
{
    csr m = {nrows, nnz, NULL, NULL, NULL};
    if (nrows >= INT32_MAX || nnz >= INT32_MAX) {
        fprintf(stderr, "csr: %lld rows, %lld entries: past 32-bit offsets\n", (long long)nrows,
                (long long)nnz);
        exit(2);
    }
    m.row = (int32_t *)malloc((size_t)(nrows + 1) * sizeof *m.row);
    m.col = (int32_t *)malloc((size_t)(nnz > 0 ? nnz : 1) * sizeof *m.col);
    m.val = (double *)malloc((size_t)(nnz > 0 ? nnz : 1) * sizeof *m.val);
    if (!m.row || !m.col || !m.val) {
        fprintf(stderr, "csr: out of memory\n");
        exit(2);
    }
    return m;
}

/* The 5-point Laplacian of an n x n grid (row i * n + j), columns in increasing order:
 * 4 on the diagonal, -1 for each neighbour inside the grid. */
static inline csr csr_laplacian2d(int64_t n)
{
    csr m = csr_alloc(n * n, 5 * n * n - 4 * n);
    int64_t k = 0;
    for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < n; ++j) {
            m.row[i * n + j] = (int32_t)k;
            if (i > 0) {
                m.col[k] = (int32_t)((i - 1) * n + j);
                m.val[k++] = -1.0;
            }
            if (j > 0) {
                m.col[k] = (int32_t)(i * n + j - 1);
                m.val[k++] = -1.0;
            }
            m.col[k] = (int32_t)(i * n + j);
            m.val[k++] = 4.0;
            if (j < n - 1) {
                m.col[k] = (int32_t)(i * n + j + 1);
                m.val[k++] = -1.0;
            }
            if (i < n - 1) {
                m.col[k] = (int32_t)((i + 1) * n + j);
                m.val[k++] = -1.0;
            }
        }
    m.row[n * n] = (int32_t)k;
    return m;
}

/* nrows x nrows with the row lengths len[0..nrows) (their sum below 2^31): columns uniform
 * at random (repeats allowed), values in (0, 1], from `seed`. Frees len. */
static inline csr csr_with_lengths(int64_t nrows, int32_t *len, uint64_t seed)
{
    int64_t nnz = 0;
    for (int64_t r = 0; r < nrows; ++r) nnz += len[r];
    csr m = csr_alloc(nrows, nnz);
    int64_t k = 0;
    for (int64_t r = 0; r < nrows; ++r) {
        m.row[r] = (int32_t)k;
        for (int32_t e = 0; e < len[r]; ++e, ++k) {
            m.col[k] = (int32_t)((double)nrows * csr_random(&seed) - 0.5);
            m.val[k] = csr_random(&seed);
        }
    }
    m.row[nrows] = (int32_t)k;
    free(len);
    return m;
}

/* nrows x nrows with power-law row lengths: floor(4 / sqrt(u)) for u uniform in (0, 1]
 * (a Pareto tail of exponent 2: mean about 8, most rows 4 to 8 long, a few thousand
 * long), capped at max_len and at nrows; columns uniform at random (repeats allowed),
 * values in (0, 1]. Deterministic for a seed. What a web or social graph looks like to
 * SpMV: a few long rows among many short ones. */
static inline csr csr_powerlaw(int64_t nrows, int64_t max_len, uint64_t seed)
{
    int32_t *len = (int32_t *)malloc((size_t)nrows * sizeof *len);
    if (!len) exit(2);
    for (int64_t r = 0; r < nrows; ++r) {
        int64_t l = (int64_t)(4.0 / sqrt(csr_random(&seed)));
        if (l > max_len) l = max_len;
        if (l > nrows) l = nrows;
        len[r] = (int32_t)l;
    }
    return csr_with_lengths(nrows, len, seed);
}

/* As csr_powerlaw with the same tail (exponent 2), scaled so that the mean row length is
 * about `mean` once capped at max_len (> mean): lengths floor(c / sqrt(u)), where
 * E[min(c / sqrt(u), max_len)] = 2c - c^2 / max_len = mean. */
static inline csr csr_powerlaw_mean(int64_t nrows, double mean, int64_t max_len, uint64_t seed)
{
    const double cap = (double)max_len, c = cap * (1.0 - sqrt(1.0 - mean / cap)) + 0.5;
    int32_t *len = (int32_t *)malloc((size_t)nrows * sizeof *len);
    if (!len) exit(2);
    for (int64_t r = 0; r < nrows; ++r) {
        int64_t l = (int64_t)(c / sqrt(csr_random(&seed)));
        if (l > max_len) l = max_len;
        if (l > nrows) l = nrows;
        len[r] = (int32_t)l;
    }
    return csr_with_lengths(nrows, len, seed);
}

/* The 7-point Laplacian of an n x n x n grid (6 on the diagonal, -1 for each neighbour
 * inside the grid), columns in increasing order. */
static inline csr csr_laplacian3d(int64_t n)
{
    csr m = csr_alloc(n * n * n, 7 * n * n * n - 6 * n * n);
    int64_t k = 0;
    for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < n; ++j)
            for (int64_t l = 0; l < n; ++l) {
                const int64_t r = (i * n + j) * n + l;
                const int64_t nb[7] = {
                    i > 0 ? r - n * n : -1, j > 0 ? r - n : -1,     l > 0 ? r - 1 : -1,        r,
                    l < n - 1 ? r + 1 : -1, j < n - 1 ? r + n : -1, i < n - 1 ? r + n * n : -1};
                m.row[r] = (int32_t)k;
                for (int q = 0; q < 7; ++q)
                    if (nb[q] >= 0) {
                        m.col[k] = (int32_t)nb[q];
                        m.val[k++] = nb[q] == r ? 6.0 : -1.0;
                    }
            }
    m.row[n * n * n] = (int32_t)k;
    return m;
}

/* The 27-point stencil of an n x n x n grid: every point coupled to the 3 x 3 x 3 block
 * around it, columns in increasing order: the shape of a trilinear hexahedral finite-
 * element matrix (27 entries a row inside, as SuiteSparse's 3-D FEM matrices have), values
 * in (0, 1] from `seed`. */
static inline csr csr_stencil27(int64_t n, uint64_t seed)
{
    const int64_t rows = n * n * n, inner = n > 2 ? (n - 2) * (n - 2) * (n - 2) : 0;
    csr m = csr_alloc(rows, 27 * inner + 18 * (rows - inner)); /* at most */
    int64_t k = 0;
    for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < n; ++j)
            for (int64_t l = 0; l < n; ++l) {
                m.row[(i * n + j) * n + l] = (int32_t)k;
                for (int64_t a = i - 1; a <= i + 1; ++a)
                    for (int64_t b = j - 1; b <= j + 1; ++b)
                        for (int64_t c = l - 1; c <= l + 1; ++c)
                            if (a >= 0 && a < n && b >= 0 && b < n && c >= 0 && c < n) {
                                m.col[k] = (int32_t)((a * n + b) * n + c);
                                m.val[k++] = csr_random(&seed);
                            }
            }
    m.row[rows] = (int32_t)k;
    m.nnz = k;
    return m;
}

/* An R-MAT graph of 2^scale vertices and edge_factor * 2^scale directed edges (Graph500's
 * generator and quadrant probabilities 0.57, 0.19, 0.19, 0.05, as SuiteSparse's
 * kron_g500-logn* matrices), a row per vertex holding its out-edges in the order made
 * (repeats kept), values in (0, 1]: the skew of a scale-free graph, a few rows tens of
 * thousands long among mostly empty and short ones. */
static inline csr csr_rmat(int scale, int64_t edge_factor, uint64_t seed)
{
    const int64_t nv = (int64_t)1 << scale, ne = edge_factor * nv;
    int32_t *src = (int32_t *)malloc((size_t)ne * sizeof *src);
    int32_t *dst = (int32_t *)malloc((size_t)ne * sizeof *dst);
    int32_t *len = (int32_t *)calloc((size_t)nv, sizeof *len);
    if (!src || !dst || !len) exit(2);
    for (int64_t e = 0; e < ne; ++e) {
        int64_t r = 0, c = 0;
        for (int b = 0; b < scale; ++b) {
            const double u = csr_random(&seed);
            const int down = u > 0.57 + 0.19, right = (u > 0.57 && u <= 0.76) || u > 0.95;
            r = r << 1 | down;
            c = c << 1 | right;
        }
        src[e] = (int32_t)r;
        dst[e] = (int32_t)c;
        ++len[r];
    }
    csr m = csr_alloc(nv, ne);
    int64_t k = 0;
    for (int64_t r = 0; r < nv; ++r) {
        m.row[r] = (int32_t)k;
        k += len[r];
    }
    m.row[nv] = (int32_t)k;
    int32_t *fill = len; /* reused as each row's cursor */
    memset(fill, 0, (size_t)nv * sizeof *fill);
    for (int64_t e = 0; e < ne; ++e) { /* each row's edges in the order made */
        const int32_t r = src[e];
        const int64_t at = (int64_t)m.row[r] + fill[r]++;
        m.col[at] = dst[e];
        m.val[at] = csr_random(&seed);
    }
    free(src);
    free(dst);
    free(fill);
    return m;
}

/* The rows with more than max_len entries, in order (malloc'd; *count of them; none when
 * max_len is 0): what spmv_long computes. Made once per matrix, as a sparse library's
 * analysis step is. */
static inline int32_t *csr_long_rows(const csr *m, int64_t max_len, int64_t *count)
{
    if (max_len <= 0) max_len = INT64_MAX;
    int64_t c = 0;
    for (int64_t r = 0; r < m->nrows; ++r) c += m->row[r + 1] - m->row[r] > max_len;
    int32_t *rows = (int32_t *)malloc((size_t)(c > 0 ? c : 1) * sizeof *rows);
    if (!rows) exit(2);
    c = 0;
    for (int64_t r = 0; r < m->nrows; ++r)
        if (m->row[r + 1] - m->row[r] > max_len) rows[c++] = (int32_t)r;
    *count = c;
    return rows;
}

/* The most entries a row has. */
static inline int64_t csr_longest_row(const csr *m)
{
    int64_t longest = 0;
    for (int64_t r = 0; r < m->nrows; ++r)
        if (m->row[r + 1] - m->row[r] > longest) longest = m->row[r + 1] - m->row[r];
    return longest;
}

/* Row r of A x, in order. */
static inline double csr_row_dot(const csr *m, const double *x, int64_t r)
{
    double s = 0.0;
    for (int32_t k = m->row[r]; k < m->row[r + 1]; ++k) s += m->val[k] * x[m->col[k]];
    return s;
}

/* y = A x in plain C: the reference. */
static inline void csr_spmv_plain(const csr *m, const double *x, double *y)
{
    for (int64_t r = 0; r < m->nrows; ++r) y[r] = csr_row_dot(m, x, r);
}

/* The largest difference of y from the reference, each row's relative to the sum of its
 * |a_k x_k| (the scale of its rounding: a Laplacian row sums to about 0, so |y_r| itself
 * is no scale). Summation order differs between backends; 1e-12 is far above what that
 * gives and far below a wrong entry. */
static inline double csr_max_rel_diff(const csr *m, const double *x, const double *y,
                                      const double *ref)
{
    double worst = 0.0;
    for (int64_t r = 0; r < m->nrows; ++r) {
        double scale = 0.0;
        for (int32_t k = m->row[r]; k < m->row[r + 1]; ++k) scale += fabs(m->val[k] * x[m->col[k]]);
        const double d = fabs(y[r] - ref[r]);
        const double rel = scale > 0.0 ? d / scale : d;
        if (isnan(rel)) return INFINITY; /* a NaN is a failure, whatever the other rows */
        if (rel > worst) worst = rel;
    }
    return worst;
}

#endif /* PX_CSR_H */
