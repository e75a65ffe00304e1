/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The product with several vectors (px_csr_spmm) on the backend under test, against a
 * reference computed here in long double: random matrices of odd shapes (0 x 0, no
 * columns, non-square, empty rows, repeated columns), a skewed one (a row of 9000
 * entries among short ones, so that the GPU's league has long rows and rows of several
 * lanes, and the row has a chunk past its first 8192) and a regular one; every value and
 * index type; k from 0 to 19 (groups of 4 and 8, and a rest); X and Y row-major, column-major and strided (a subview of a wider view) in mixed pairs;
 * several alpha and beta (Y full of NaN where beta = 0, X of NaN where alpha = 0). Suite
 * "spmm"; the refusals, each naming the call: suite "spmm_errors". */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "la_test.h"
#include "portex/linalg.h"

/* Row r of `len` entries at random columns (repeats possible), values in [-1, 1). */
static la_mat make_mat(int64_t nrows, int64_t ncols, const int64_t *len, uint64_t seed)
{
    tk_rng g = tk_rng_seed(seed);
    int64_t nnz = 0;
    for (int64_t r = 0; r < nrows; ++r) nnz += len[r];
    la_mat m = {nrows,
                ncols,
                nnz,
                (int64_t *)la_calloc((size_t)nrows + 1, 8),
                (int64_t *)la_calloc((size_t)nnz, 8),
                (double *)la_calloc((size_t)nnz, 8)};
    for (int64_t r = 0, k = 0; r < nrows; ++r) {
        m.off[r] = k;
        for (int64_t e = 0; e < len[r]; ++e, ++k) {
            m.col[k] = tk_int(&g, 0, ncols - 1);
            m.val[k] = tk_uniform(&g, -1, 1);
        }
    }
    m.off[nrows] = nnz;
    return m;
}

/* The kinds of rows: random, of 0 to 6 entries; skewed, mostly short, every 97th of 200
   to 500 entries and row 17 of 9000; regular, 5 entries each (the GPU takes groups of 8
   vectors for these and of 4 for the others, px_csr_spmm's rule). */
enum { RANDOM_ROWS, SKEWED_ROWS, REGULAR_ROWS };
static la_mat test_mat(int64_t nrows, int64_t ncols, int kind, uint64_t seed)
{
    tk_rng g = tk_rng_seed(seed + 1000);
    int64_t *len = (int64_t *)la_calloc((size_t)nrows, 8);
    for (int64_t r = 0; r < nrows; ++r)
        len[r] = ncols == 0             ? 0
                 : kind == REGULAR_ROWS ? 5
                 : kind == RANDOM_ROWS  ? tk_int(&g, 0, 6)
                 : r == 17              ? 9000
                 : r % 97 == 0          ? tk_int(&g, 200, 500)
                                        : tk_int(&g, 0, 9);
    la_mat m = make_mat(nrows, ncols, len, seed);
    free(len);
    return m;
}

/* How a dense operand is laid out: row-major, column-major, or columns 1 to k of a
   row-major view of k + 3 columns (strided: neither layout). */
typedef enum { ROW_MAJOR, COL_MAJOR, STRIDED, NLAYOUTS } dense_layout;
static const char *const layout_names[] = {"row-major", "column-major", "strided"};

/* A dense operand: the view the call gets, and the view that owns its memory. */
typedef struct dense {
    px_view *op, *whole;
    int64_t rows, k, cols; /* cols: the whole view's columns (row-major and strided) */
    dense_layout layout;
    px_dtype vt;
} dense;

/* Where (i, j) of the operand sits in the whole view's host image. */
static int64_t dense_at(const dense *d, int64_t i, int64_t j)
{
    return d->layout == COL_MAJOR ? j * d->rows + i
                                  : i * d->cols + j + (d->layout == STRIDED ? 1 : 0);
}

/* An operand of rows x k in tk_space() holding vals (row-major rows x k doubles; the rest
   of a strided operand's whole view holds NaN, which the call must not read or write). */
static dense dense_put(dense_layout layout, px_dtype vt, int64_t rows, int64_t k,
                       const double *vals)
{
    dense d = {NULL, NULL, rows, k, layout == STRIDED ? k + 3 : k, layout, vt};
    const int64_t ext[2] = {rows, d.cols};
    d.whole = tk_view_ex("dense", tk_space(), vt, 0,
                         layout == COL_MAJOR ? PX_LAYOUT_LEFT : PX_LAYOUT_RIGHT, 2, ext, 0);
    const int64_t n = rows * d.cols;
    double *img = (double *)la_calloc((size_t)n, 8);
    for (int64_t e = 0; e < n; ++e) img[e] = NAN;
    for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < k; ++j) img[dense_at(&d, i, j)] = vals[i * k + j];
    void *h = la_as_values(img, n, vt);
    TK_OK(px_deep_copy_from_host(d.whole, h, (size_t)n * px_dtype_size(vt)));
    free(h);
    free(img);
    if (layout == STRIDED) {
        d.op = tk_sub2(d.whole, 0, rows, 1, k + 1);
    } else {
        d.op = d.whole;
        TK_OK(px_view_retain(d.op));
    }
    return d;
}

/* The whole view's host image as long doubles (after the instance's work). */
static long double *dense_get(const dense *d)
{
    TK_OK(px_instance_fence(tk_inst()));
    const int64_t n = d->rows * d->cols;
    void *h = la_calloc((size_t)n, px_dtype_size(d->vt));
    TK_OK(px_deep_copy_to_host(h, (size_t)n * px_dtype_size(d->vt), d->whole));
    long double *out = (long double *)la_calloc((size_t)n, sizeof *out);
    for (int64_t e = 0; e < n; ++e) out[e] = la_value_at(h, d->vt, e);
    free(h);
    return out;
}

static void dense_drop(dense *d) { TK_RELEASE(d->op, d->whole); }

static const px_dtype value_types[] = {PX_F32, PX_F64}, index_types[] = {PX_I32, PX_I64};
/* nrows, ncols, kind of rows */
static const int64_t shapes[][3] = {{0, 0, 0},    {0, 4, 0},    {4, 0, 0},     {1, 1, 0},
                                    {37, 113, 0}, {113, 37, 0}, {700, 700, 0}, {3000, 9500, 1}};
enum { NSHAPES = sizeof shapes / sizeof shapes[0] };
static const int64_t ks[] = {0, 1, 3, 4, 5, 8, 11, 19};
enum { NKS = sizeof ks / sizeof ks[0] };

/* One product, Y = alpha A X + beta Y with k vectors, against the reference: each element
   within tol of the sum of its terms' magnitudes. Everything outside a strided Y's columns
   is untouched (NaN). */
static void check_product(const la_mat *m, px_csr *A, px_dtype vt, int64_t k, dense_layout xl,
                          dense_layout yl, double alpha, double beta, tk_rng *g)
{
    const double tol = vt == PX_F32 ? 1e-5 : 1e-12;
    const int64_t nr = m->nrows, nc = m->ncols;
    double *x = (double *)la_calloc((size_t)(nc * k), 8),
           *y0 = (double *)la_calloc((size_t)(nr * k), 8);
    for (int64_t e = 0; e < nc * k; ++e) x[e] = alpha == 0 ? NAN : tk_uniform(g, -1, 1);
    for (int64_t e = 0; e < nr * k; ++e) y0[e] = beta == 0 ? NAN : tk_uniform(g, -1, 1);
    dense X = dense_put(xl, vt, nc, k, x), Y = dense_put(yl, vt, nr, k, y0);
    TK_OK(px_csr_spmm(tk_inst(), alpha, A, X.op, beta, Y.op));
    long double *ximg = dense_get(&X), *yimg = dense_get(&Y);
    void *vals = la_as_values(m->val, m->nnz, vt);
    void *y0r = la_as_values(y0, nr * k, vt);
    for (int64_t r = 0; r < nr; ++r)
        for (int64_t j = 0; j < k; ++j) {
            long double want = 0, bound = 0;
            if (alpha != 0)
                for (int64_t e = m->off[r]; e < m->off[r + 1]; ++e) {
                    const long double t = (long double)alpha * la_value_at(vals, vt, e) *
                                          ximg[dense_at(&X, m->col[e], j)];
                    want += t;
                    bound += fabsl(t);
                }
            if (beta != 0) {
                const long double old = (long double)beta * la_value_at(y0r, vt, r * k + j);
                want += old;
                bound += fabsl(old);
            }
            const long double got = yimg[dense_at(&Y, r, j)];
            ck_assert_msg(fabsl(got - want) <= tol * bound + (bound == 0 ? 0 : 1e-30),
                          "%lld x %lld %s, k %lld, X %s, Y %s, alpha %g beta %g: Y(%lld, %lld) "
                          "= %.17Lg, want %.17Lg",
                          (long long)nr, (long long)nc, px_dtype_string(vt), (long long)k,
                          layout_names[xl], layout_names[yl], alpha, beta, (long long)r,
                          (long long)j, got, want);
        }
    if (yl == STRIDED) /* the columns around Y's are still NaN */
        for (int64_t r = 0; r < nr; ++r) {
            ck_assert(isnan((double)yimg[r * Y.cols]));
            for (int64_t j = k + 1; j < Y.cols; ++j) ck_assert(isnan((double)yimg[r * Y.cols + j]));
        }
    dense_drop(&X);
    dense_drop(&Y);
    free(x);
    free(y0);
    free(ximg);
    free(yimg);
    free(vals);
    free(y0r);
}

/* _i: shape, value type, index type; every algorithm (px_csr_set_spmv_alg: SpMM runs
   SpMV's) and every k, with X and Y layouts and scalars varied. */
START_TEST(products)
{
    const int64_t nr = shapes[_i / 4][0], nc = shapes[_i / 4][1];
    const int kind = (int)shapes[_i / 4][2];
    const px_dtype vt = value_types[(_i / 2) % 2], it = index_types[_i % 2];
    const double ab[][2] = {{1, 0}, {-2.5, 1}, {0.5, -3}, {0, 2}};
    la_mat m = test_mat(nr, nc, kind, 7 + (uint64_t)_i);
    px_csr *A = la_create(&m, vt, it);
    tk_rng g = tk_rng_seed(3 + (uint64_t)_i);
    for (int alg = PX_SPMV_AUTO; alg <= PX_SPMV_TILES; ++alg) {
        TK_OK(px_csr_set_spmv_alg(A, (px_spmv_alg)alg));
        for (int c = 0; c < NKS; ++c) {
            const dense_layout xl = (dense_layout)((c + alg) % NLAYOUTS),
                               yl = (dense_layout)((c / NLAYOUTS + c) % NLAYOUTS);
            check_product(&m, A, vt, ks[c], xl, yl, ab[(c + alg) % 4][0], ab[(c + alg) % 4][1], &g);
        }
    }
    TK_OK(px_csr_release(&A));
    la_mat_drop(&m);
}
END_TEST

/* Every pair of layouts with the groups of 4 and 8 on the skewed matrix (f64, i32), each
   algorithm, and the result equal to k single-vector products (px_csr_spmv) column by
   column. */
START_TEST(layouts_agree_with_spmv)
{
    la_mat m = test_mat(3000, 9500, SKEWED_ROWS, 5);
    px_csr *A = la_create(&m, PX_F64, PX_I32);
    tk_rng g = tk_rng_seed(11);
    for (int alg = PX_SPMV_ROWS; alg <= PX_SPMV_TILES; ++alg) {
        TK_OK(px_csr_set_spmv_alg(A, (px_spmv_alg)alg));
        for (int xl = 0; xl < NLAYOUTS; ++xl)
            for (int yl = 0; yl < NLAYOUTS; ++yl)
                check_product(&m, A, PX_F64, xl == yl ? 8 : 4, (dense_layout)xl, (dense_layout)yl,
                              1.5, 0.5, &g);
    }
    TK_OK(px_csr_set_spmv_alg(A, PX_SPMV_AUTO));
    /* Column j of an SpMM is the SpMV of column j of X. */
    const int64_t k = 6;
    double *x = (double *)la_calloc((size_t)(m.ncols * k), 8);
    for (int64_t e = 0; e < m.ncols * k; ++e) x[e] = tk_uniform(&g, -1, 1);
    double *y0 = (double *)la_calloc((size_t)(m.nrows * k), 8);
    dense X = dense_put(COL_MAJOR, PX_F64, m.ncols, k, x),
          Y = dense_put(COL_MAJOR, PX_F64, m.nrows, k, y0);
    TK_OK(px_csr_spmm(tk_inst(), 1, A, X.op, 0, Y.op));
    long double *yimg = dense_get(&Y);
    px_view *xv = tk_view1("x", tk_space(), PX_F64, m.ncols),
            *yv = tk_view1("y", tk_space(), PX_F64, m.nrows);
    double *xj = (double *)la_calloc((size_t)m.ncols, 8),
           *yj = (double *)la_calloc((size_t)m.nrows, 8);
    for (int64_t j = 0; j < k; ++j) {
        for (int64_t c = 0; c < m.ncols; ++c) xj[c] = x[c * k + j];
        TK_OK(px_deep_copy_from_host(xv, xj, (size_t)m.ncols * 8));
        TK_OK(px_csr_spmv(tk_inst(), 1, A, xv, 0, yv));
        TK_OK(px_instance_fence(tk_inst()));
        TK_OK(px_deep_copy_to_host(yj, (size_t)m.nrows * 8, yv));
        for (int64_t r = 0; r < m.nrows; ++r)
            ck_assert_msg(fabs((double)yimg[dense_at(&Y, r, j)] - yj[r]) <=
                              1e-12 * (1 + fabs(yj[r])),
                          "vector %lld, row %lld: SpMM %.17g, SpMV %.17g", (long long)j,
                          (long long)r, (double)yimg[dense_at(&Y, r, j)], yj[r]);
    }
    TK_RELEASE(xv, yv);
    dense_drop(&X);
    dense_drop(&Y);
    free(x);
    free(y0);
    free(xj);
    free(yj);
    free(yimg);
    TK_OK(px_csr_release(&A));
    la_mat_drop(&m);
}
END_TEST

/* ---- Refusals --------------------------------------------------------------------------- */

START_TEST(refusals)
{
    const char *S = "px_csr_spmm";
    la_mat wide = test_mat(3, 5, RANDOM_ROWS, 2);
    px_csr *W = la_create(&wide, PX_F64, PX_I32);
    const int64_t e54[2] = {5, 4}, e34[2] = {3, 4}, e33[2] = {3, 3}, e84[2] = {8, 4};
    px_view *X = tk_view("X", tk_space(), PX_F64, 2, e54),
            *Y = tk_view("Y", tk_space(), PX_F64, 2, e34);
    px_view *Y3 = tk_view("Y3", tk_space(), PX_F64, 2, e33),
            *F = tk_view("F", tk_space(), PX_F32, 2, e34);
    px_view *B = tk_view("B", tk_space(), PX_F64, 2, e84),
            *v5 = tk_view1("v5", tk_space(), PX_F64, 5);
    px_view *top = tk_sub2(B, 0, 5, 0, 4), *bottom = tk_sub2(B, 3, 6, 0, 4),
            *below = tk_sub2(B, 5, 8, 0, 4);
    TK_OK(px_csr_spmm(tk_inst(), 1, W, X, 0, Y));       /* the baseline is accepted */
    TK_OK(px_csr_spmm(tk_inst(), 1, W, top, 0, below)); /* disjoint rows of one view too */
    la_expect_refused(px_csr_spmm(tk_inst(), 1, W, Y, 0, X), PX_ERR_EXTENTS_MISMATCH, S,
                      "X and Y swapped");
    la_expect_refused(px_csr_spmm(tk_inst(), 1, W, X, 0, Y3), PX_ERR_EXTENTS_MISMATCH, S,
                      "3 vectors in Y, 4 in X");
    la_expect_refused(px_csr_spmm(tk_inst(), 1, W, X, 0, F), PX_ERR_TYPE_MISMATCH, S, "f32 Y");
    la_expect_refused(px_csr_spmm(tk_inst(), 1, W, v5, 0, Y), PX_ERR_INVALID_ARGUMENT, S,
                      "a vector for X");
    la_expect_refused(px_csr_spmm(tk_inst(), 1, W, top, 0, bottom), PX_ERR_INVALID_ARGUMENT, S,
                      "X and Y share rows of one view");
    la_expect_refused(px_csr_spmm(tk_inst(), 1, W, NULL, 0, Y), PX_ERR_INVALID_ARGUMENT, S, "no X");
    la_expect_refused(px_csr_spmm(tk_inst(), 1, NULL, X, 0, Y), PX_ERR_INVALID_ARGUMENT, S,
                      "no matrix");
    la_expect_refused(px_csr_spmm(NULL, 1, W, X, 0, Y), PX_ERR_INVALID_ARGUMENT, S, "no instance");
    TK_OK(px_instance_fence(tk_inst()));
    TK_RELEASE(X, Y, Y3, F, B, v5, top, bottom, below);
    TK_OK(px_csr_release(&W));
    la_mat_drop(&wide);
}
END_TEST

int main(void)
{
    TCase *tc = tk_case("spmm", "products");
    tcase_add_loop_test(tc, products, 0, NSHAPES * 4);
    tcase_add_test(tc, layouts_agree_with_spmv);
    TK_ADD(tk_case("spmm_errors", "errors"), refusals);
    return tk_run();
}
