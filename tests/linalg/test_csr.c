/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* CSR sparse matrices and their product with a vector (portex/linalg.h) on the backend
 * under test, against a reference SpMV computed here in long double from the very values
 * the library got (f32 inputs rounded first). Every value type (f32, f64) with every index
 * type (i32, i64); shapes 0x0, 0x5, 5x0, 1x1, 37x113, 113x37, many empty rows, one dense
 * row, a row longer than any tile, power-law rows, repeated and unsorted columns, a 2-D
 * Laplacian; each with every algorithm (auto, rows, tiles) and several alpha/beta, y full
 * of NaN where beta = 0, x full of NaN where alpha = 0, products that accumulate; what
 * px_csr_info_get reports; a matrix released while its product is still enqueued;
 * products on another instance, and of a matrix made on another host backend. Suite
 * "csr". The refusals of every call, each naming the call: suite "csr_errors".
 *
 * Tolerance: |y - reference| <= tol * (|alpha| sum_j |a_ij x_j| + |beta y_i|) per row, tol
 * 1e-12 for f64 and 1e-5 for f32; a row whose bound is 0 must be exactly 0. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "portex/linalg.h"

/* ---- Matrices on the host ------------------------------------------------------------------ */

/* A CSR matrix as the test builds it: int64 offsets and columns, double values. */
typedef struct mat {
    int64_t nrows, ncols, nnz;
    int64_t *off; /* nrows + 1 */
    int64_t *col; /* nnz */
    double *val;  /* nnz */
} mat;

enum {
    S_0x0,
    S_0x5,
    S_5x0,
    S_1x1,
    S_WIDE,
    S_TALL,
    S_EMPTY_ROWS,
    S_DENSE_ROW,
    S_LONG_ROW,
    S_POWER_LAW,
    S_DUPLICATES,
    S_LAPLACIAN,
    SHAPES
};
static const char *const shape_names[SHAPES] = {
    "0x0",        "0x5",           "5x0",          "1x1",       "37x113",     "113x37",
    "empty rows", "one dense row", "one long row", "power-law", "duplicates", "laplacian"};
static const int64_t shape_dims[SHAPES][2] = {
    {0, 0},       {0, 5},     {5, 0},         {1, 1},       {37, 113}, {113, 37},
    {2000, 1500}, {300, 400}, {50000, 50000}, {4000, 4000}, {200, 50}, {0, 0}};

#define DENSE_AT 150   /* the dense row of S_DENSE_ROW */
#define LONG_AT 31337  /* the long row of S_LONG_ROW */
#define LONG_LEN 20000 /* its entries */
#define GRID_X 40      /* S_LAPLACIAN's grid */
#define GRID_Y 30

static void *xmalloc(size_t bytes)
{
    void *p = malloc(bytes > 0 ? bytes : 1);
    ck_assert_ptr_nonnull(p);
    return p;
}

static long double *zeros_ld(int64_t n)
{
    long double *p = xmalloc((size_t)n * sizeof *p);
    for (int64_t i = 0; i < n; ++i) p[i] = 0;
    return p;
}

/* Rows of the given lengths (off[r + 1] holds row r's length on entry); columns and values
   allocated, not filled. */
static void mat_finish(mat *m)
{
    m->off[0] = 0;
    for (int64_t r = 0; r < m->nrows; ++r) m->off[r + 1] += m->off[r];
    m->nnz = m->off[m->nrows];
    m->col = xmalloc((size_t)m->nnz * sizeof *m->col);
    m->val = xmalloc((size_t)m->nnz * sizeof *m->val);
}

static void mat_drop(mat *m)
{
    free(m->off);
    free(m->col);
    free(m->val);
}

static int64_t row_len(int shape, int64_t r, tk_rng *g)
{
    switch (shape) {
    case S_1x1: return 1;
    case S_WIDE:
    case S_TALL: return tk_int(g, 0, 8);
    case S_EMPTY_ROWS: return tk_int(g, 0, 9) < 8 ? 0 : tk_int(g, 1, 12);
    case S_DENSE_ROW: return r == DENSE_AT ? shape_dims[S_DENSE_ROW][1] : tk_int(g, 0, 3);
    case S_LONG_ROW: return r == LONG_AT ? LONG_LEN : tk_int(g, 0, 2);
    case S_POWER_LAW: { /* about 1 / u^1.5: mostly short, a few in the thousands */
        const int64_t len = (int64_t)(1.0 / pow(tk_uniform(g, 1e-3, 1.0), 1.5)) - 1;
        return len < 4000 ? len : 4000;
    }
    case S_DUPLICATES: return tk_int(g, 2, 9);
    default: return 0;
    }
}

/* Row r's columns: random (repeats and any order come with them), all columns shuffled for
   the dense row, descending pairs of equal columns for S_DUPLICATES. */
static void row_cols(const mat *m, int shape, int64_t r, tk_rng *g)
{
    int64_t *c = m->col + m->off[r];
    const int64_t len = m->off[r + 1] - m->off[r];
    if (shape == S_DENSE_ROW && r == DENSE_AT) {
        for (int64_t k = 0; k < len; ++k) c[k] = k;
        for (int64_t k = len - 1; k > 0; --k) {
            const int64_t j = tk_int(g, 0, k), t = c[k];
            c[k] = c[j];
            c[j] = t;
        }
    } else if (shape == S_DUPLICATES) {
        const int64_t start = tk_int(g, 0, m->ncols - 1);
        for (int64_t k = 0; k < len; ++k) c[k] = (start - k / 2 + 4 * m->ncols) % m->ncols;
    } else {
        for (int64_t k = 0; k < len; ++k) c[k] = tk_int(g, 0, m->ncols - 1);
    }
}

/* The 5-point Laplacian of a GRID_X x GRID_Y grid: the diagonal first, then its neighbours. */
static mat laplacian(void)
{
    mat m = {.nrows = GRID_X * GRID_Y, .ncols = GRID_X * GRID_Y};
    m.off = xmalloc((size_t)(m.nrows + 1) * sizeof *m.off);
    for (int64_t r = 0; r < m.nrows; ++r) {
        const int64_t i = r % GRID_X, j = r / GRID_X;
        m.off[r + 1] = 1 + (i > 0) + (i < GRID_X - 1) + (j > 0) + (j < GRID_Y - 1);
    }
    mat_finish(&m);
    for (int64_t r = 0; r < m.nrows; ++r) {
        const int64_t i = r % GRID_X, j = r / GRID_X;
        int64_t k = m.off[r];
        m.col[k] = r;
        m.val[k++] = 4.0;
        const int64_t nb[4] = {i > 0 ? r - 1 : -1, i < GRID_X - 1 ? r + 1 : -1,
                               j > 0 ? r - GRID_X : -1, j < GRID_Y - 1 ? r + GRID_X : -1};
        for (int q = 0; q < 4; ++q)
            if (nb[q] >= 0) {
                m.col[k] = nb[q];
                m.val[k++] = -1.0;
            }
        ck_assert_int_eq(k, m.off[r + 1]);
    }
    return m;
}

static mat make_shape(int shape, uint64_t seed)
{
    if (shape == S_LAPLACIAN) return laplacian();
    tk_rng g = tk_rng_seed(seed);
    mat m = {.nrows = shape_dims[shape][0], .ncols = shape_dims[shape][1]};
    m.off = xmalloc((size_t)(m.nrows + 1) * sizeof *m.off);
    for (int64_t r = 0; r < m.nrows; ++r) m.off[r + 1] = row_len(shape, r, &g);
    mat_finish(&m);
    for (int64_t r = 0; r < m.nrows; ++r) row_cols(&m, shape, r, &g);
    for (int64_t k = 0; k < m.nnz; ++k) m.val[k] = tk_uniform(&g, -1.0, 1.0);
    return m;
}

/* ---- Typed arrays -------------------------------------------------------------------------- */

static long double get(const void *p, px_dtype t, int64_t k)
{
    switch (t) {
    case PX_F32: return ((const float *)p)[k];
    case PX_F64: return ((const double *)p)[k];
    case PX_I32: return ((const int32_t *)p)[k];
    default: return (long double)((const int64_t *)p)[k];
    }
}

static void set(void *p, px_dtype t, int64_t k, double v)
{
    switch (t) {
    case PX_F32: ((float *)p)[k] = (float)v; break;
    case PX_F64: ((double *)p)[k] = v; break;
    case PX_I32: ((int32_t *)p)[k] = (int32_t)v; break;
    default: ((int64_t *)p)[k] = (int64_t)v;
    }
}

static void *to_index(const int64_t *src, int64_t n, px_dtype it)
{
    void *p = xmalloc((size_t)n * px_dtype_size(it));
    for (int64_t k = 0; k < n; ++k) {
        if (it == PX_I32)
            ((int32_t *)p)[k] = (int32_t)src[k];
        else
            ((int64_t *)p)[k] = src[k];
    }
    return p;
}

static void *to_values(const double *src, int64_t n, px_dtype vt)
{
    void *p = xmalloc((size_t)n * px_dtype_size(vt));
    for (int64_t k = 0; k < n; ++k) set(p, vt, k, src[k]);
    return p;
}

/* n values of vt: uniform in (-1, 1), or all NaN. */
static void *vec_random(px_dtype vt, int64_t n, tk_rng *g)
{
    void *p = xmalloc((size_t)n * px_dtype_size(vt));
    for (int64_t k = 0; k < n; ++k) set(p, vt, k, tk_uniform(g, -1.0, 1.0));
    return p;
}

static void *vec_nan(px_dtype vt, int64_t n)
{
    void *p = xmalloc((size_t)n * px_dtype_size(vt));
    for (int64_t k = 0; k < n; ++k) set(p, vt, k, NAN);
    return p;
}

/* A vector of n elements of vt in tk_space(), holding `host`. */
static px_view *put(const char *label, px_dtype vt, int64_t n, const void *host)
{
    px_view *v = tk_view1(label, tk_space(), vt, n);
    TK_OK(px_deep_copy_from_host(v, host, (size_t)n * px_dtype_size(vt)));
    return v;
}

/* ---- A matrix under test ------------------------------------------------------------------- */

typedef struct problem {
    mat m;
    px_dtype vt, it;
    void *val, *x; /* the values and x as the library got them */
    px_csr *A;
    px_view *xv, *yv;
    char name[96];
} problem;

/* desc of m with its arrays converted into *off, *col, *val (free them). */
static px_csr_desc desc_of(const mat *m, px_dtype vt, px_dtype it, void **off, void **col,
                           void **val)
{
    *off = to_index(m->off, m->nrows + 1, it);
    *col = to_index(m->col, m->nnz, it);
    *val = to_values(m->val, m->nnz, vt);
    px_csr_desc d = {.nrows = m->nrows,
                     .ncols = m->ncols,
                     .nnz = m->nnz,
                     .value_type = vt,
                     .index_type = it,
                     .row_offsets = *off,
                     .col_indices = *col,
                     .values = *val};
    return d;
}

static px_csr *create(const mat *m, px_dtype vt, px_dtype it, void **val)
{
    void *off, *col;
    const px_csr_desc d = desc_of(m, vt, it, &off, &col, val);
    px_csr *A = NULL;
    TK_OK(px_csr_create(tk_inst(), tk_space(), &d, &A));
    ck_assert_ptr_nonnull(A);
    free(off);
    free(col);
    return A;
}

static problem problem_new(int shape, px_dtype vt, px_dtype it, uint64_t seed)
{
    problem p = {.m = make_shape(shape, seed), .vt = vt, .it = it};
    snprintf(p.name, sizeof p.name, "%s %s/%s", shape_names[shape], px_dtype_string(vt),
             px_dtype_string(it));
    p.A = create(&p.m, vt, it, &p.val);
    tk_rng g = tk_rng_seed(seed ^ 0x7777);
    p.x = vec_random(vt, p.m.ncols, &g);
    p.xv = put("x", vt, p.m.ncols, p.x);
    p.yv = tk_view1("y", tk_space(), vt, p.m.nrows);
    return p;
}

static void problem_drop(problem *p)
{
    TK_OK(px_csr_release(&p->A));
    ck_assert_ptr_null(p->A);
    TK_RELEASE(p->xv, p->yv);
    free(p->val);
    free(p->x);
    mat_drop(&p->m);
}

/* ---- The reference and the comparison --------------------------------------------------------- */

/* y = alpha A x + beta y in long double (y: the old values on entry; as BLAS, beta = 0
   ignores them and alpha = 0 ignores A x, NaN included), bound[i] += |alpha| sum_j |a_ij x_j|
   + |beta y_i|. alpha and beta rounded as the library rounds them for f32. */
static void reference(const problem *p, double alpha, double beta, long double *y,
                      long double *bound)
{
    const long double a = p->vt == PX_F32 ? (float)alpha : alpha;
    const long double b = p->vt == PX_F32 ? (float)beta : beta;
    for (int64_t r = 0; r < p->m.nrows; ++r) {
        long double s = 0, sabs = 0;
        for (int64_t k = p->m.off[r]; k < p->m.off[r + 1]; ++k) {
            const long double t = get(p->val, p->vt, k) * get(p->x, p->vt, p->m.col[k]);
            s += t;
            sabs += fabsl(t);
        }
        const long double old = beta == 0 ? 0 : b * y[r];
        bound[r] += (alpha == 0 ? 0 : fabsl(a) * sabs) + fabsl(old);
        y[r] = (alpha == 0 ? 0 : a * s) + old;
    }
}

/* y (any space) holds `want` within the tolerance of `bound`. */
static void expect_y(const problem *p, const long double *want, const long double *bound,
                     const char *what)
{
    const int64_t n = p->m.nrows;
    void *got = xmalloc((size_t)n * px_dtype_size(p->vt));
    TK_OK(px_deep_copy_to_host(got, (size_t)n * px_dtype_size(p->vt), p->yv));
    const long double tol = p->vt == PX_F32 ? 1e-5L : 1e-12L;
    int64_t bad = -1; /* one assertion per vector */
    for (int64_t i = 0; i < n && bad < 0; ++i) {
        const long double g = get(got, p->vt, i);
        if (!isfinite(g) || fabsl(g - want[i]) > tol * bound[i]) bad = i;
    }
    const long double g = bad >= 0 ? get(got, p->vt, bad) : 0;
    free(got);
    ck_assert_msg(bad < 0, "%s, %s: y[%lld] = %.17Lg, expected %.17Lg (within %Lg)", p->name, what,
                  (long long)bad, g, bad >= 0 ? want[bad] : 0.0L,
                  bad >= 0 ? tol * bound[bad] : 0.0L);
}

/* y0 into p->yv (NaN where beta = 0, else random); the old values into *want as long double. */
static void fill_y(const problem *p, double beta, long double *want, tk_rng *g)
{
    const int64_t n = p->m.nrows;
    void *y0 = beta == 0 ? vec_nan(p->vt, n) : vec_random(p->vt, n, g);
    TK_OK(px_deep_copy_from_host(p->yv, y0, (size_t)n * px_dtype_size(p->vt)));
    for (int64_t i = 0; i < n; ++i) want[i] = get(y0, p->vt, i);
    free(y0);
}

static void check_product(const problem *p, double alpha, double beta, const char *alg, tk_rng *g)
{
    const int64_t n = p->m.nrows;
    long double *want = xmalloc((size_t)n * sizeof *want);
    long double *bound = zeros_ld(n);
    fill_y(p, beta, want, g);
    TK_OK(px_csr_spmv(tk_inst(), alpha, p->A, p->xv, beta, p->yv));
    TK_OK(px_instance_fence(tk_inst()));
    reference(p, alpha, beta, want, bound);
    char what[96];
    snprintf(what, sizeof what, "%s, alpha %g, beta %g", alg, alpha, beta);
    expect_y(p, want, bound, what);
    free(want);
    free(bound);
}

/* y = A x + y twice in a row, one fence at the end. */
static void check_accumulate(const problem *p, const char *alg, tk_rng *g)
{
    const int64_t n = p->m.nrows;
    long double *want = xmalloc((size_t)n * sizeof *want);
    long double *bound = zeros_ld(n);
    fill_y(p, 1.0, want, g);
    TK_OK(px_csr_spmv(tk_inst(), 1.0, p->A, p->xv, 1.0, p->yv));
    TK_OK(px_csr_spmv(tk_inst(), 1.0, p->A, p->xv, 1.0, p->yv));
    TK_OK(px_instance_fence(tk_inst()));
    reference(p, 1.0, 1.0, want, bound);
    reference(p, 1.0, 1.0, want, bound);
    char what[96];
    snprintf(what, sizeof what, "%s, y = A x + y twice", alg);
    expect_y(p, want, bound, what);
    free(want);
    free(bound);
}

/* ---- What px_csr_info_get reports ------------------------------------------------------------ */

typedef struct row_stats {
    double mean, cv;
    int64_t max;
} row_stats;

/* Mean, population coefficient of variation and longest of m's row lengths. */
static row_stats stats_of(const mat *m)
{
    row_stats s = {0};
    if (m->nrows == 0) return s;
    s.mean = (double)m->nnz / (double)m->nrows;
    long double ss = 0;
    for (int64_t r = 0; r < m->nrows; ++r) {
        const int64_t len = m->off[r + 1] - m->off[r];
        if (len > s.max) s.max = len;
        ss += ((long double)len - s.mean) * ((long double)len - s.mean);
    }
    s.cv = s.mean > 0 ? (double)(sqrtl(ss / (long double)m->nrows) / s.mean) : 0.0;
    return s;
}

static bool close_to(double got, double want, double rel, double abs)
{
    return fabs(got - want) <= rel * fabs(want) + abs;
}

/* The sizes, types, space and row statistics of m; the algorithm `set` (AUTO: rows or
   tiles); the tiles' counts; extra memory of less than 64 bytes a row and 4 KiB. */
static px_csr_info expect_info(const problem *p, px_spmv_alg set)
{
    px_csr_info in;
    memset(&in, 0xa5, sizeof in);
    TK_OK(px_csr_info_get(p->A, &in));
    const mat *m = &p->m;
    const row_stats s = stats_of(m);
    ck_assert_msg(in.nrows == m->nrows && in.ncols == m->ncols && in.nnz == m->nnz,
                  "%s: info says %lld x %lld, %lld entries; want %lld x %lld, %lld", p->name,
                  (long long)in.nrows, (long long)in.ncols, (long long)in.nnz, (long long)m->nrows,
                  (long long)m->ncols, (long long)m->nnz);
    ck_assert_msg(in.value_type == p->vt && in.index_type == p->it, "%s: info types %s/%s", p->name,
                  px_dtype_string(in.value_type), px_dtype_string(in.index_type));
    ck_assert_msg(in.space.kind == tk_space().kind && in.space.device == tk_space().device,
                  "%s: info space %s %d", p->name, px_space_kind_string(in.space.kind),
                  in.space.device);
    ck_assert_msg(close_to(in.mean_row, s.mean, 1e-12, 0), "%s: mean_row %.17g, want %.17g",
                  p->name, in.mean_row, s.mean);
    ck_assert_msg(in.max_row == s.max, "%s: max_row %lld, want %lld", p->name,
                  (long long)in.max_row, (long long)s.max);
    if (s.mean > 0)
        ck_assert_msg(close_to(in.row_cv, s.cv, 1e-9, 1e-12),
                      "%s: row_cv %.17g, want %.17g (population standard deviation / mean)",
                      p->name, in.row_cv, s.cv);
    if (set == PX_SPMV_AUTO) { /* docs/linalg.md's rule: tiles for skewed rows on a GPU */
        const px_spmv_alg rule =
            tk_is_cuda() && (s.cv > 0.5 || s.max > 2048) ? PX_SPMV_TILES : PX_SPMV_ROWS;
        ck_assert_msg(in.spmv_alg == rule, "%s: AUTO chose %d (%s), the rule says %s", p->name,
                      (int)in.spmv_alg, px_spmv_alg_string(in.spmv_alg), px_spmv_alg_string(rule));
    } else
        ck_assert_msg(in.spmv_alg == set, "%s: info says %s after %s was set", p->name,
                      px_spmv_alg_string(in.spmv_alg), px_spmv_alg_string(set));
    if (in.spmv_alg == PX_SPMV_TILES) {
        ck_assert_msg(in.long_rows >= 0 && in.long_rows <= m->nrows && in.tiles >= in.long_rows,
                      "%s: %lld tiles, %lld long rows", p->name, (long long)in.tiles,
                      (long long)in.long_rows);
        if (m->nnz > 0)
            ck_assert_msg(in.tiles >= 1, "%s: %lld tiles for %lld entries", p->name,
                          (long long)in.tiles, (long long)m->nnz);
        ck_assert_msg(in.long_chunks >= 0 && (in.long_rows > 0 || in.long_chunks == 0),
                      "%s: %lld chunks of %lld long rows", p->name, (long long)in.long_chunks,
                      (long long)in.long_rows);
    }
    const size_t limit = (size_t)m->nrows * 64 + 4096;
    ck_assert_msg(in.extra_bytes < limit, "%s, %s: extra_bytes %zu, want < %zu", p->name,
                  px_spmv_alg_string(in.spmv_alg), in.extra_bytes, limit);
    return in;
}

/* ---- Suite csr ------------------------------------------------------------------------------ */

static const px_spmv_alg algs[] = {PX_SPMV_AUTO, PX_SPMV_ROWS, PX_SPMV_TILES};
static const double alpha_beta[][2] = {{1, 0}, {2.5, -1}, {0, 3}, {-1, 1}, {0, 0}};

/* Loop index: shape * 4 + types (bit 0: f64, bit 1: i64 indices). */
START_TEST(csr_products)
{
    const int shape = _i / 4;
    const px_dtype vt = (_i & 1) ? PX_F64 : PX_F32, it = (_i & 2) ? PX_I64 : PX_I32;
    problem p = problem_new(shape, vt, it, 1000 + (uint64_t)_i);
    tk_rng g = tk_rng_seed(2000 + (uint64_t)_i);
    expect_info(&p, PX_SPMV_AUTO);
    for (size_t a = 0; a < sizeof algs / sizeof algs[0]; ++a) {
        TK_OK(px_csr_set_spmv_alg(p.A, algs[a]));
        const px_csr_info in = expect_info(&p, algs[a]);
        if (shape == S_LONG_ROW && in.spmv_alg == PX_SPMV_TILES)
            ck_assert_msg(in.long_rows >= 1,
                          "%s: a row of %d entries among %lld is not a long row (%lld tiles)",
                          p.name, LONG_LEN, (long long)p.m.nnz, (long long)in.tiles);
        const char *alg = px_spmv_alg_string(algs[a]);
        for (size_t k = 0; k < sizeof alpha_beta / sizeof alpha_beta[0]; ++k)
            check_product(&p, alpha_beta[k][0], alpha_beta[k][1], alg, &g);
        check_accumulate(&p, alg, &g);
    }
    problem_drop(&p);
}
END_TEST

START_TEST(csr_alg_strings)
{
    ck_assert_str_eq(px_spmv_alg_string(PX_SPMV_AUTO), "auto");
    ck_assert_str_eq(px_spmv_alg_string(PX_SPMV_ROWS), "rows");
    ck_assert_str_eq(px_spmv_alg_string(PX_SPMV_TILES), "tiles");
    ck_assert_str_eq(px_spmv_alg_string((px_spmv_alg)3), "?");
    ck_assert_str_eq(px_spmv_alg_string((px_spmv_alg)-1), "?");
}
END_TEST

/* As BLAS, alpha = 0 ignores A x: x full of NaN and infinities, y = beta y (0 with beta = 0,
   over y's NaN). Loop index: bit 0 f64, bit 1 i64 indices. */
START_TEST(csr_alpha_zero_ignores_ax)
{
    const px_dtype vt = (_i & 1) ? PX_F64 : PX_F32, it = (_i & 2) ? PX_I64 : PX_I32;
    problem p = problem_new(S_LONG_ROW, vt, it, 600 + (uint64_t)_i);
    for (int64_t j = 0; j < p.m.ncols; ++j) set(p.x, vt, j, j % 3 ? NAN : INFINITY);
    TK_OK(px_deep_copy_from_host(p.xv, p.x, (size_t)p.m.ncols * px_dtype_size(vt)));
    tk_rng g = tk_rng_seed(601);
    for (size_t a = 0; a < sizeof algs / sizeof algs[0]; ++a) {
        TK_OK(px_csr_set_spmv_alg(p.A, algs[a]));
        check_product(&p, 0.0, 3.0, px_spmv_alg_string(algs[a]), &g);
        check_product(&p, 0.0, 0.0, px_spmv_alg_string(algs[a]), &g);
    }
    problem_drop(&p);
}
END_TEST

/* Row statistics of a small matrix, worked out by hand: lengths 0, 1, 2, 3, 10. */
START_TEST(csr_row_stats)
{
    problem p = {.vt = PX_F64, .it = PX_I32, .m = {.nrows = 5, .ncols = 12}};
    snprintf(p.name, sizeof p.name, "lengths 0 1 2 3 10");
    p.m.off = xmalloc(6 * sizeof *p.m.off);
    const int64_t len[5] = {0, 1, 2, 3, 10};
    for (int r = 0; r < 5; ++r) p.m.off[r + 1] = len[r];
    mat_finish(&p.m);
    for (int64_t k = 0; k < p.m.nnz; ++k) {
        p.m.col[k] = k % 12;
        p.m.val[k] = 1.0;
    }
    p.A = create(&p.m, p.vt, p.it, &p.val);
    px_csr_info in;
    TK_OK(px_csr_info_get(p.A, &in));
    /* mean 3.2; population variance (3.2^2 + 2.2^2 + 1.2^2 + 0.2^2 + 6.8^2) / 5 = 12.56 */
    ck_assert_msg(fabs(in.mean_row - 3.2) < 1e-12, "mean_row %.17g", in.mean_row);
    ck_assert_int_eq(in.max_row, 10);
    const double cv = sqrt(12.56) / 3.2;
    ck_assert_msg(fabs(in.row_cv - cv) < 1e-12, "row_cv %.17g, want %.17g", in.row_cv, cv);
    TK_OK(px_csr_release(&p.A));
    ck_assert_ptr_null(p.A);
    mat_drop(&p.m);
    free(p.val);

    /* Rows all of one length: no variation. */
    p.m = (mat){.nrows = 7, .ncols = 7};
    p.m.off = xmalloc(8 * sizeof *p.m.off);
    for (int r = 0; r < 7; ++r) p.m.off[r + 1] = 3;
    mat_finish(&p.m);
    for (int64_t k = 0; k < p.m.nnz; ++k) {
        p.m.col[k] = (k * 5) % 7;
        p.m.val[k] = 0.5;
    }
    p.A = create(&p.m, p.vt, p.it, &p.val);
    TK_OK(px_csr_info_get(p.A, &in));
    ck_assert_msg(fabs(in.mean_row - 3.0) < 1e-12 && in.max_row == 3 && fabs(in.row_cv) < 1e-12,
                  "uniform rows: mean %g, max %lld, cv %g", in.mean_row, (long long)in.max_row,
                  in.row_cv);
    TK_OK(px_csr_release(&p.A));
    mat_drop(&p.m);
    free(p.val);
}
END_TEST

/* Setting AUTO again brings back the library's first choice; each set takes effect. */
START_TEST(csr_alg_switch)
{
    const int shapes[2] = {S_LAPLACIAN, S_LONG_ROW};
    for (int s = 0; s < 2; ++s) {
        problem p = problem_new(shapes[s], PX_F64, PX_I32, 77 + (uint64_t)s);
        const px_spmv_alg first = expect_info(&p, PX_SPMV_AUTO).spmv_alg;
        const px_spmv_alg order[] = {PX_SPMV_TILES, PX_SPMV_ROWS, PX_SPMV_TILES, PX_SPMV_AUTO};
        for (int k = 0; k < 4; ++k) {
            TK_OK(px_csr_set_spmv_alg(p.A, order[k]));
            const px_spmv_alg now = expect_info(&p, order[k]).spmv_alg;
            if (order[k] == PX_SPMV_AUTO)
                ck_assert_msg(now == first, "%s: AUTO chose %s at first, %s after a set", p.name,
                              px_spmv_alg_string(first), px_spmv_alg_string(now));
        }
        problem_drop(&p);
    }
}
END_TEST

/* The matrix released right after two products were enqueued: they still run on its arrays.
   The teardown then checks that its memory is gone. Loop index: the algorithm. */
START_TEST(csr_release_while_enqueued)
{
    problem p = problem_new(S_LONG_ROW, PX_F64, PX_I64, 4242);
    tk_rng g = tk_rng_seed(99);
    TK_OK(px_csr_set_spmv_alg(p.A, algs[_i]));
    snprintf(p.name + strlen(p.name), sizeof p.name - strlen(p.name), ", %s, released",
             px_spmv_alg_string(algs[_i]));
    const int64_t n = p.m.nrows;
    long double *want = xmalloc((size_t)n * sizeof *want);
    long double *bound = zeros_ld(n);
    fill_y(&p, 0.0, want, &g);
    TK_OK(px_csr_spmv(tk_inst(), 1.0, p.A, p.xv, 0.0, p.yv));
    TK_OK(px_csr_spmv(tk_inst(), 2.5, p.A, p.xv, -1.0, p.yv));
    TK_OK(px_csr_release(&p.A)); /* the host arrays stay, for the reference */
    ck_assert_ptr_null(p.A);
    TK_OK(px_instance_fence(tk_inst()));
    reference(&p, 1.0, 0.0, want, bound);
    reference(&p, 2.5, -1.0, want, bound);
    expect_y(&p, want, bound, "y = 1.5 A x");
    free(want);
    free(bound);
    problem_drop(&p); /* releases NULL: a no-op */
}
END_TEST

/* A product on another instance than the one that made the matrix. */
START_TEST(csr_other_instance)
{
    problem p = problem_new(S_POWER_LAW, PX_F32, PX_I32, 555);
    px_instance *other = tk_instance("other");
    tk_rng g = tk_rng_seed(5);
    const int64_t n = p.m.nrows;
    long double *want = xmalloc((size_t)n * sizeof *want);
    long double *bound = zeros_ld(n);
    fill_y(&p, -2.0, want, &g);
    TK_OK(px_csr_spmv(other, 0.75, p.A, p.xv, -2.0, p.yv));
    TK_OK(px_instance_fence(other));
    reference(&p, 0.75, -2.0, want, bound);
    expect_y(&p, want, bound, "on another instance");
    tk_destroy_all(&other, 1);
    free(want);
    free(bound);
    problem_drop(&p);
}
END_TEST

/* A matrix made on an instance of another host backend, in HOST memory, multiplied on the
   backend under test (which reaches HOST). On CUDA, such a matrix is in memory the GPU's
   kernels do not reach: refused. */
START_TEST(csr_other_backend)
{
    const px_exec_space other = tk_exec() != PX_EXEC_SERIAL                ? PX_EXEC_SERIAL
                                : px_exec_space_available(PX_EXEC_THREADS) ? PX_EXEC_THREADS
                                                                           : PX_EXEC_OPENMP;
    if (!px_exec_space_available(other)) TK_SKIP("no second host backend");
    px_instance *oi = NULL;
    TK_OK(px_instance_default(other, 0, &oi));
    problem p = {.m = make_shape(S_POWER_LAW, 31), .vt = PX_F64, .it = PX_I32};
    snprintf(p.name, sizeof p.name, "power-law made on %s", px_exec_space_string(other));
    void *off, *col;
    const px_csr_desc d = desc_of(&p.m, p.vt, p.it, &off, &col, &p.val);
    TK_OK(px_csr_create(oi, px_host(), &d, &p.A));
    free(off);
    free(col);
    tk_rng g = tk_rng_seed(32);
    p.x = vec_random(p.vt, p.m.ncols, &g);
    p.xv = put("x", p.vt, p.m.ncols, p.x);
    p.yv = tk_view1("y", tk_space(), p.vt, p.m.nrows);
    if (tk_is_cuda()) {
        TK_FAIL(px_csr_spmv(tk_inst(), 1.0, p.A, p.xv, 0.0, p.yv), PX_ERR_INVALID_ARGUMENT,
                "px_csr_spmv");
        TK_ASSERT(tk_error_from("px_csr_spmv"), "'%s'", px_last_error());
    } else {
        for (size_t a = 0; a < sizeof algs / sizeof algs[0]; ++a) {
            TK_OK(px_csr_set_spmv_alg(p.A, algs[a]));
            check_product(&p, 1.5, 0.5, px_spmv_alg_string(algs[a]), &g);
        }
    }
    problem_drop(&p);
}
END_TEST

/* ---- Suite csr_errors -------------------------------------------------------------------------- */

/* A 3 x 4 matrix: rows {0, 3}, {}, {1, 2, 3}. */
static const int32_t good_off32[4] = {0, 2, 2, 5}, good_col32[5] = {0, 3, 1, 2, 3};
static const int64_t good_off64[4] = {0, 2, 2, 5}, good_col64[5] = {0, 3, 1, 2, 3};
static const double good_val[5] = {1, 2, 3, 4, 5};

static px_csr_desc good_desc(px_dtype it)
{
    px_csr_desc d = {.nrows = 3,
                     .ncols = 4,
                     .nnz = 5,
                     .value_type = PX_F64,
                     .index_type = it,
                     .row_offsets = it == PX_I32 ? (const void *)good_off32 : good_off64,
                     .col_indices = it == PX_I32 ? (const void *)good_col32 : good_col64,
                     .values = good_val};
    return d;
}

/* px_csr_create refuses d with w1 or w2, naming itself, and leaves *A NULL. */
static void refused(px_space space, const px_csr_desc *d, px_status w1, px_status w2,
                    const char *what)
{
    px_csr *A = NULL;
    px_clear_error();
    const px_status st = px_csr_create(tk_inst(), space, d, &A);
    ck_assert_msg(st == w1 || st == w2, "%s: px_csr_create returned %s, want %s or %s (%s)", what,
                  px_status_name(st), px_status_name(w1), px_status_name(w2), px_last_error());
    ck_assert_msg(tk_error_from("px_csr_create"), "%s: last error '%s' is not px_csr_create's",
                  what, px_last_error());
    ck_assert_msg(A == NULL, "%s: a refused px_csr_create set *A", what);
}

#define REFUSED(d, what) \
    refused(tk_space(), (d), PX_ERR_INVALID_ARGUMENT, PX_ERR_INVALID_ARGUMENT, what)

START_TEST(csr_create_null_arguments)
{
    px_csr_desc d = good_desc(PX_I32);
    px_csr *A = NULL;
    TK_FAIL(px_csr_create(NULL, tk_space(), &d, &A), PX_ERR_INVALID_ARGUMENT, "px_csr_create");
    TK_ASSERT(tk_error_from("px_csr_create"), "'%s'", px_last_error());
    ck_assert_ptr_null(A);
    TK_FAIL(px_csr_create(tk_inst(), tk_space(), NULL, &A), PX_ERR_INVALID_ARGUMENT,
            "px_csr_create");
    TK_ASSERT(tk_error_from("px_csr_create"), "'%s'", px_last_error());
    ck_assert_ptr_null(A);
    TK_FAIL(px_csr_create(tk_inst(), tk_space(), &d, NULL), PX_ERR_INVALID_ARGUMENT,
            "px_csr_create");
    TK_ASSERT(tk_error_from("px_csr_create"), "'%s'", px_last_error());

    /* A null array where one is needed. */
    d.row_offsets = NULL;
    REFUSED(&d, "row_offsets NULL, 3 rows");
    d = good_desc(PX_I64);
    d.col_indices = NULL;
    REFUSED(&d, "col_indices NULL, 5 entries");
    d = good_desc(PX_I32);
    d.values = NULL;
    REFUSED(&d, "values NULL, 5 entries");

    /* Without entries, column indices and values are not needed: 3 empty rows, y = beta y. */
    const int32_t zeros[4] = {0, 0, 0, 0};
    d = (px_csr_desc){.nrows = 3,
                      .ncols = 2,
                      .nnz = 0,
                      .value_type = PX_F64,
                      .index_type = PX_I32,
                      .row_offsets = zeros};
    TK_OK(px_csr_create(tk_inst(), tk_space(), &d, &A));
    const double y0[3] = {1, -2, 4}, x0[2] = {7, 8};
    px_view *x = put("x", PX_F64, 2, x0), *y = put("y", PX_F64, 3, y0);
    TK_OK(px_csr_spmv(tk_inst(), 1.0, A, x, -0.5, y));
    TK_OK(px_instance_fence(tk_inst()));
    double got[3];
    TK_OK(px_deep_copy_to_host(got, sizeof got, y));
    ck_assert_msg(got[0] == -0.5 && got[1] == 1.0 && got[2] == -2.0, "y = %g %g %g", got[0], got[1],
                  got[2]);
    TK_OK(px_csr_release(&A));
    ck_assert_ptr_null(A);
    TK_RELEASE(x, y);

    /* No rows and no row offsets: whether the one offset is "needed" the header leaves open;
       refused naming px_csr_create, or a matrix whose product does nothing. */
    d = (px_csr_desc){.nrows = 0, .ncols = 2, .nnz = 0, .value_type = PX_F32, .index_type = PX_I64};
    px_clear_error();
    const px_status st = px_csr_create(tk_inst(), tk_space(), &d, &A);
    if (st == PX_OK) {
        x = tk_view1("x", tk_space(), PX_F32, 2);
        y = tk_view1("y", tk_space(), PX_F32, 0);
        TK_OK(px_csr_spmv(tk_inst(), 1.0, A, x, 0.0, y));
        TK_OK(px_instance_fence(tk_inst()));
        TK_OK(px_csr_release(&A));
        TK_RELEASE(x, y);
    } else {
        ck_assert_msg(st == PX_ERR_INVALID_ARGUMENT && tk_error_from("px_csr_create"),
                      "no rows, no offsets: %s, '%s'", px_status_name(st), px_last_error());
        ck_assert_ptr_null(A);
    }
}
END_TEST

START_TEST(csr_create_bad_types)
{
    static const px_dtype bad_values[] = {PX_I32, PX_I64, PX_U8, PX_USER, PX_DTYPE_COUNT};
    static const px_dtype bad_indices[] = {PX_F64, PX_F32, PX_U32, PX_U64, PX_DTYPE_COUNT};
    char what[64];
    for (size_t k = 0; k < sizeof bad_values / sizeof bad_values[0]; ++k) {
        px_csr_desc d = good_desc(PX_I32);
        d.value_type = bad_values[k];
        snprintf(what, sizeof what, "value type %s", px_dtype_string(bad_values[k]));
        refused(tk_space(), &d, PX_ERR_INVALID_ARGUMENT, PX_ERR_TYPE_MISMATCH, what);
    }
    for (size_t k = 0; k < sizeof bad_indices / sizeof bad_indices[0]; ++k) {
        px_csr_desc d = good_desc(PX_I64);
        d.index_type = bad_indices[k];
        snprintf(what, sizeof what, "index type %s", px_dtype_string(bad_indices[k]));
        refused(tk_space(), &d, PX_ERR_INVALID_ARGUMENT, PX_ERR_TYPE_MISMATCH, what);
    }
}
END_TEST

START_TEST(csr_create_bad_sizes)
{
    px_csr_desc d = good_desc(PX_I32);
    d.nrows = -1;
    REFUSED(&d, "nrows -1");
    d = good_desc(PX_I64);
    d.ncols = -1;
    REFUSED(&d, "ncols -1");
    d = good_desc(PX_I32);
    d.nnz = -1;
    REFUSED(&d, "nnz -1");
    d = good_desc(PX_I64);
    d.nrows = INT64_MIN;
    REFUSED(&d, "nrows INT64_MIN");
    /* Entries past int32 with int32 indices (a check of the description: nothing that big
       is allocated; the offsets end at 0). */
    const int32_t off[2] = {0, 0};
    d = (px_csr_desc){.nrows = 1,
                      .ncols = 1,
                      .nnz = (int64_t)INT32_MAX + 1,
                      .value_type = PX_F32,
                      .index_type = PX_I32,
                      .row_offsets = off,
                      .col_indices = good_col32,
                      .values = good_val};
    refused(tk_space(), &d, PX_ERR_INVALID_ARGUMENT, PX_ERR_OVERFLOW, "nnz 2^31, i32 indices");
    /* Columns past int32 with int32 indices; the same matrix with int64 ones is fine. */
    d = good_desc(PX_I32);
    d.ncols = (int64_t)INT32_MAX + 2;
    refused(tk_space(), &d, PX_ERR_INVALID_ARGUMENT, PX_ERR_OVERFLOW,
            "ncols 2^31 + 1, i32 indices");
    d = good_desc(PX_I64);
    d.ncols = (int64_t)INT32_MAX + 2;
    px_csr *A = NULL;
    px_csr_info in;
    TK_OK(px_csr_create(tk_inst(), tk_space(), &d, &A));
    TK_OK(px_csr_info_get(A, &in));
    ck_assert_int_eq(in.ncols, (int64_t)INT32_MAX + 2);
    TK_OK(px_csr_release(&A));
}
END_TEST

START_TEST(csr_create_bad_offsets)
{
    static const int32_t start1[4] = {1, 2, 2, 5}, down[4] = {0, 3, 2, 5},
                         short_end[4] = {0, 2, 2, 4};
    static const int64_t start1_64[4] = {1, 2, 2, 5}, down64[4] = {0, 3, 2, 5},
                         long_end64[4] = {0, 2, 2, 5}, neg64[4] = {-1, 2, 2, 5};
    px_csr_desc d = good_desc(PX_I32);
    d.row_offsets = start1;
    REFUSED(&d, "offsets start at 1 (i32)");
    d.row_offsets = down;
    REFUSED(&d, "offsets decrease (i32)");
    d.row_offsets = short_end;
    REFUSED(&d, "offsets end at 4, nnz 5 (i32)");
    d = good_desc(PX_I64);
    d.row_offsets = start1_64;
    REFUSED(&d, "offsets start at 1 (i64)");
    d.row_offsets = neg64;
    REFUSED(&d, "offsets start at -1 (i64)");
    d.row_offsets = down64;
    REFUSED(&d, "offsets decrease (i64)");
    d.row_offsets = long_end64;
    d.nnz = 4;
    REFUSED(&d, "offsets end at 5, nnz 4 (i64)");
}
END_TEST

START_TEST(csr_create_bad_columns)
{
    static const int32_t neg[5] = {0, 3, 1, -1, 3}, past[5] = {0, 4, 1, 2, 3};
    static const int64_t neg64[5] = {0, 3, 1, 2, -1}, past64[5] = {0, 3, 1, 2, 4},
                         huge64[5] = {0, (int64_t)1 << 40, 1, 2, 3};
    px_csr_desc d = good_desc(PX_I32);
    d.col_indices = neg;
    REFUSED(&d, "column -1 (i32)");
    d.col_indices = past;
    REFUSED(&d, "column 4 of 4 (i32)");
    d = good_desc(PX_I64);
    d.col_indices = neg64;
    REFUSED(&d, "column -1 (i64)");
    d.col_indices = past64;
    REFUSED(&d, "column 4 of 4 (i64)");
    d.col_indices = huge64;
    REFUSED(&d, "column 2^40 of 4 (i64)");
    /* Any column is out of range without columns. */
    d = good_desc(PX_I32);
    d.ncols = 0;
    REFUSED(&d, "entries in a matrix of 0 columns");
}
END_TEST

/* Memory the instance's kernels do not reach: DEVICE memory for a host backend, pageable
   HOST memory for CUDA. */
START_TEST(csr_create_unreachable_space)
{
    const px_csr_desc d = good_desc(PX_I32);
    const px_space far = tk_is_cuda() ? px_host() : px_device(0);
    refused(far, &d, PX_ERR_INVALID_ARGUMENT, PX_ERR_NO_DEVICE,
            "a space the instance cannot reach");
}
END_TEST

START_TEST(csr_info_and_alg_refusals)
{
    const px_csr_desc d = good_desc(PX_I32);
    px_csr *A = NULL;
    px_csr_info in;
    TK_OK(px_csr_create(tk_inst(), tk_space(), &d, &A));
    TK_FAIL(px_csr_info_get(NULL, &in), PX_ERR_INVALID_ARGUMENT, "px_csr_info_get");
    TK_ASSERT(tk_error_from("px_csr_info_get"), "'%s'", px_last_error());
    TK_FAIL(px_csr_info_get(A, NULL), PX_ERR_INVALID_ARGUMENT, "px_csr_info_get");
    TK_ASSERT(tk_error_from("px_csr_info_get"), "'%s'", px_last_error());

    TK_OK(px_csr_set_spmv_alg(A, PX_SPMV_TILES));
    TK_FAIL(px_csr_set_spmv_alg(NULL, PX_SPMV_ROWS), PX_ERR_INVALID_ARGUMENT,
            "px_csr_set_spmv_alg");
    TK_ASSERT(tk_error_from("px_csr_set_spmv_alg"), "'%s'", px_last_error());
    TK_FAIL(px_csr_set_spmv_alg(A, (px_spmv_alg)3), PX_ERR_INVALID_ARGUMENT, "px_csr_set_spmv_alg");
    TK_ASSERT(tk_error_from("px_csr_set_spmv_alg"), "'%s'", px_last_error());
    TK_FAIL(px_csr_set_spmv_alg(A, (px_spmv_alg)-1), PX_ERR_INVALID_ARGUMENT,
            "px_csr_set_spmv_alg");
    TK_ASSERT(tk_error_from("px_csr_set_spmv_alg"), "'%s'", px_last_error());
    TK_OK(px_csr_info_get(A, &in));
    ck_assert_msg(in.spmv_alg == PX_SPMV_TILES, "a refused set changed the algorithm to %s",
                  px_spmv_alg_string(in.spmv_alg));

    /* Release: NULL and a NULL matrix are no-ops; a matrix is released and cleared. */
    TK_OK(px_csr_release(NULL));
    px_csr *none = NULL;
    TK_OK(px_csr_release(&none));
    ck_assert_ptr_null(none);
    TK_OK(px_csr_release(&A));
    ck_assert_ptr_null(A);
    TK_OK(px_csr_release(&A));
    ck_assert_ptr_null(A);
}
END_TEST

/* One refused product: status w1 or w2, naming px_csr_spmv. */
#define SPMV_REFUSED(A, x, y, w1, w2)                                                     \
    do {                                                                                  \
        TK_FAIL2(px_csr_spmv(tk_inst(), 1.0, (A), (x), 0.0, (y)), w1, w2, "px_csr_spmv"); \
        TK_ASSERT(tk_error_from("px_csr_spmv"), "'%s'", px_last_error());                 \
    } while (0)

START_TEST(csr_spmv_refusals)
{
    const px_csr_desc d = good_desc(PX_I32); /* 3 x 4, f64 */
    px_csr *A = NULL;
    TK_OK(px_csr_create(tk_inst(), tk_space(), &d, &A));
    const double y0[3] = {5, 6, 7};
    const int64_t ext2[2] = {4, 1}, ext42[2] = {4, 2};
    px_view *x = tk_view1("x", tk_space(), PX_F64, 4), *y = put("y", PX_F64, 3, y0);
    px_view *x5 = tk_view1("x5", tk_space(), PX_F64, 5),
            *y4 = tk_view1("y4", tk_space(), PX_F64, 4);
    px_view *x32 = tk_view1("x32", tk_space(), PX_F32, 4),
            *y32 = tk_view1("y32", tk_space(), PX_F32, 3);
    px_view *xi = tk_view1("xi", tk_space(), PX_I32, 4);
    px_view *x2d = tk_view("x2d", tk_space(), PX_F64, 2, ext2);
    px_view *wide = tk_view("wide", tk_space(), PX_F64, 2, ext42), *strided = NULL;
    const px_slice col0[2] = {px_slice_all(), px_slice_index(0)};
    TK_OK(px_view_subview(&strided, wide, col0, 2)); /* 4 elements, stride 2 */

    TK_OK(px_csr_spmv(tk_inst(), 1.0, A, x, 0.0, y)); /* the arguments are right otherwise */
    TK_OK(px_instance_fence(tk_inst()));
    TK_OK(px_deep_copy_from_host(y, y0, sizeof y0));

    SPMV_REFUSED(NULL, x, y, PX_ERR_INVALID_ARGUMENT, PX_ERR_INVALID_ARGUMENT);
    SPMV_REFUSED(A, NULL, y, PX_ERR_INVALID_ARGUMENT, PX_ERR_INVALID_ARGUMENT);
    SPMV_REFUSED(A, x, NULL, PX_ERR_INVALID_ARGUMENT, PX_ERR_INVALID_ARGUMENT);
    SPMV_REFUSED(A, x5, y, PX_ERR_EXTENTS_MISMATCH, PX_ERR_INVALID_ARGUMENT);
    SPMV_REFUSED(A, x, y4, PX_ERR_EXTENTS_MISMATCH, PX_ERR_INVALID_ARGUMENT);
    SPMV_REFUSED(A, x32, y, PX_ERR_TYPE_MISMATCH, PX_ERR_TYPE_MISMATCH);
    SPMV_REFUSED(A, x, y32, PX_ERR_TYPE_MISMATCH, PX_ERR_TYPE_MISMATCH);
    SPMV_REFUSED(A, x32, y32, PX_ERR_TYPE_MISMATCH, PX_ERR_TYPE_MISMATCH);
    SPMV_REFUSED(A, xi, y, PX_ERR_TYPE_MISMATCH, PX_ERR_TYPE_MISMATCH);
    SPMV_REFUSED(A, x2d, y, PX_ERR_INVALID_ARGUMENT, PX_ERR_INVALID_ARGUMENT);
    SPMV_REFUSED(A, strided, y, PX_ERR_INVALID_ARGUMENT, PX_ERR_INVALID_ARGUMENT);
    if (tk_is_cuda()) {
        px_view *hx = tk_view1("hx", px_host(), PX_F64, 4);
        SPMV_REFUSED(A, hx, y, PX_ERR_INVALID_ARGUMENT, PX_ERR_INVALID_ARGUMENT);
        TK_RELEASE(hx);
    }
    /* No refused call wrote y. */
    TK_OK(px_instance_fence(tk_inst()));
    double got[3];
    TK_OK(px_deep_copy_to_host(got, sizeof got, y));
    ck_assert_msg(memcmp(got, y0, sizeof got) == 0, "y after refusals: %g %g %g", got[0], got[1],
                  got[2]);
    TK_OK(px_csr_release(&A));

    /* x and y the same view, or overlapping, for a square matrix. */
    static const int32_t off[5] = {0, 1, 2, 3, 4}, col[4] = {3, 2, 1, 0};
    const px_csr_desc sq = {.nrows = 4,
                            .ncols = 4,
                            .nnz = 4,
                            .value_type = PX_F64,
                            .index_type = PX_I32,
                            .row_offsets = off,
                            .col_indices = col,
                            .values = good_val};
    TK_OK(px_csr_create(tk_inst(), tk_space(), &sq, &A));
    px_view *seven = tk_view1("seven", tk_space(), PX_F64, 7);
    px_view *lo = tk_sub1(seven, 0, 4), *hi = tk_sub1(seven, 3, 4);
    SPMV_REFUSED(A, x, x, PX_ERR_INVALID_ARGUMENT, PX_ERR_INVALID_ARGUMENT);
    SPMV_REFUSED(A, lo, hi, PX_ERR_INVALID_ARGUMENT, PX_ERR_INVALID_ARGUMENT);
    TK_OK(px_csr_release(&A));
    TK_RELEASE(x, y, x5, y4, x32, y32, xi, x2d, wide, strided, seven, lo, hi);
}
END_TEST

int main(void)
{
    TCase *tc = tk_case("csr", "products");
    tcase_add_loop_test(tc, csr_products, 0, SHAPES * 4);
    tcase_add_loop_test(tc, csr_release_while_enqueued, 0, 3);
    tcase_add_loop_test(tc, csr_alpha_zero_ignores_ax, 0, 4);
    TK_ADD(tc, csr_alg_strings, csr_row_stats, csr_alg_switch, csr_other_instance,
           csr_other_backend);
    tcase_set_timeout(tc, 120);
    TK_ADD(tk_case("csr_errors", "errors"), csr_create_null_arguments, csr_create_bad_types,
           csr_create_bad_sizes, csr_create_bad_offsets, csr_create_bad_columns,
           csr_create_unreachable_space, csr_info_and_alg_refusals, csr_spmv_refusals);
    return tk_run();
}
