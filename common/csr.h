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

/* nrows x nrows with power-law row lengths: floor(4 / sqrt(u)) for u uniform in (0, 1]
 * (a Pareto tail of exponent 2: mean about 8, most rows 4 to 8 long, a few thousand
 * long), capped at max_len and at nrows; columns uniform at random (repeats allowed),
 * values in (0, 1]. Deterministic for a seed. What a web or social graph looks like to
 * SpMV: a few long rows among many short ones. */
static inline csr csr_powerlaw(int64_t nrows, int64_t max_len, uint64_t seed)
{
    int32_t *len = (int32_t *)malloc((size_t)nrows * sizeof *len);
    if (!len) exit(2);
    int64_t nnz = 0;
    for (int64_t r = 0; r < nrows; ++r) {
        int64_t l = (int64_t)(4.0 / sqrt(csr_random(&seed)));
        if (l > max_len) l = max_len;
        if (l > nrows) l = nrows;
        len[r] = (int32_t)l;
        nnz += l;
    }
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
        if (!(rel <= worst)) worst = rel; /* NaN propagates as a failure */
    }
    return worst;
}

#endif /* PX_CSR_H */
