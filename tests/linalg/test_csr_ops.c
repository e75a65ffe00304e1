/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The transposed product (px_csr_spmv_transposed) and the Jacobi step (px_csr_jacobi) on
 * the backend under test, against references computed here in long double: random
 * matrices of odd shapes (non-square, empty rows, repeated columns), every value and index
 * type, several alpha and beta (y full of NaN where beta = 0); a Jacobi step of a
 * diagonally dominant matrix, and Jacobi iterations that solve it. Suite "csr_ops"; the
 * refusals, each naming the call: suite "csr_ops_errors". */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "la_test.h"
#include "portex/linalg.h"

/* Rows of 0 to 6 entries at random columns (repeats possible); with `diag`, square and
   each row holding its diagonal, 10 plus the row's other entries' magnitudes. */
static la_mat random_mat(int64_t nrows, int64_t ncols, bool diag, uint64_t seed)
{
    tk_rng g = tk_rng_seed(seed);
    la_mat m = {nrows,
                ncols,
                0,
                (int64_t *)la_calloc((size_t)nrows + 1, 8),
                (int64_t *)la_calloc((size_t)nrows * 8, 8),
                (double *)la_calloc((size_t)nrows * 8, 8)};
    for (int64_t r = 0; r < nrows; ++r) {
        m.off[r] = m.nnz;
        const int64_t len = ncols > 0 ? tk_int(&g, 0, 6) : 0;
        double sum = 0;
        for (int64_t e = 0; e < len; ++e, ++m.nnz) {
            m.col[m.nnz] = tk_int(&g, 0, ncols - 1);
            m.val[m.nnz] = m.col[m.nnz] == r && diag ? 0 : tk_uniform(&g, -1, 1);
            sum += fabs(m.val[m.nnz]);
        }
        if (diag) {
            m.col[m.nnz] = r;
            m.val[m.nnz++] = 10 + sum;
        }
    }
    m.off[nrows] = m.nnz;
    return m;
}

/* v as the library holds it in vt. */
static long double rounded(double v, px_dtype vt)
{
    return vt == PX_F32 ? (long double)(float)v : (long double)v;
}

/* A vector of n values of vt in tk_space() from doubles. */
static px_view *put(const char *label, px_dtype vt, const double *src, int64_t n)
{
    px_view *v = tk_view1(label, tk_space(), vt, n);
    void *h = la_as_values(src, n, vt);
    TK_OK(px_deep_copy_from_host(v, h, (size_t)n * px_dtype_size(vt)));
    free(h);
    return v;
}

/* The view's n values as long doubles (after the instance's work). */
static long double *get(px_view *v, px_dtype vt, int64_t n)
{
    TK_OK(px_instance_fence(tk_inst()));
    void *h = la_calloc((size_t)n, px_dtype_size(vt));
    TK_OK(px_deep_copy_to_host(h, (size_t)n * px_dtype_size(vt), v));
    long double *out = (long double *)la_calloc((size_t)n, sizeof *out);
    for (int64_t i = 0; i < n; ++i) out[i] = la_value_at(h, vt, i);
    free(h);
    return out;
}

static double *random_vec(int64_t n, tk_rng *g)
{
    double *v = (double *)la_calloc((size_t)n, 8);
    for (int64_t i = 0; i < n; ++i) v[i] = tk_uniform(g, -1, 1);
    return v;
}

static const px_dtype value_types[] = {PX_F32, PX_F64}, index_types[] = {PX_I32, PX_I64};
static const int64_t shapes[][2] = {{0, 0},    {0, 4},    {4, 0},    {1, 1},
                                    {37, 113}, {113, 37}, {500, 500}};
enum { NSHAPES = sizeof shapes / sizeof shapes[0] };

/* _i: shape, value type, index type. */
START_TEST(transposed_products)
{
    const int64_t nr = shapes[_i / 4][0], nc = shapes[_i / 4][1];
    const px_dtype vt = value_types[(_i / 2) % 2], it = index_types[_i % 2];
    const double tol = vt == PX_F32 ? 1e-5 : 1e-12;
    const double ab[][2] = {{1, 0}, {-2.5, 1}, {0.5, -3}, {0, 2}};
    la_mat m = random_mat(nr, nc, false, 7 + (uint64_t)_i);
    px_csr *A = la_create(&m, vt, it);
    tk_rng g = tk_rng_seed(3);
    for (size_t c = 0; c < sizeof ab / sizeof ab[0]; ++c) {
        const double alpha = ab[c][0], beta = ab[c][1];
        double *x = random_vec(nr, &g), *y0 = random_vec(nc, &g);
        if (beta == 0)
            for (int64_t j = 0; j < nc; ++j) y0[j] = NAN;
        px_view *xv = put("x", vt, x, nr), *yv = put("y", vt, y0, nc);
        TK_OK(px_csr_spmv_transposed(tk_inst(), alpha, A, xv, beta, yv));
        long double *y = get(yv, vt, nc);
        long double *xs = get(xv, vt, nr), *ys = (long double *)la_calloc((size_t)nc, sizeof *ys);
        long double *bound = (long double *)la_calloc((size_t)nc, sizeof *bound);
        void *vals = la_as_values(m.val, m.nnz, vt);
        for (int64_t j = 0; j < nc; ++j) {
            const long double old = beta == 0 ? 0 : (long double)beta * rounded(y0[j], vt);
            ys[j] = old;
            bound[j] = fabsl(old);
        }
        for (int64_t r = 0; r < nr; ++r)
            for (int64_t k = m.off[r]; k < m.off[r + 1]; ++k) {
                const long double t = (long double)alpha * la_value_at(vals, vt, k) * xs[r];
                ys[m.col[k]] += t;
                bound[m.col[k]] += fabsl(t);
            }
        for (int64_t j = 0; j < nc; ++j)
            ck_assert_msg(fabsl(y[j] - ys[j]) <= tol * bound[j] + (bound[j] == 0 ? 0 : 1e-30),
                          "%lld x %lld %s/%s alpha %g beta %g: y[%lld] = %.17Lg, want %.17Lg",
                          (long long)nr, (long long)nc, px_dtype_string(vt), px_dtype_string(it),
                          alpha, beta, (long long)j, y[j], ys[j]);
        TK_RELEASE(xv, yv);
        free(x);
        free(y0);
        free(y);
        free(xs);
        free(ys);
        free(bound);
        free(vals);
    }
    TK_OK(px_csr_release(&A));
    la_mat_drop(&m);
}
END_TEST

/* One step against the formula, from a random x; then 60 damped steps from 0 solve
   A x = b (A diagonally dominant) to the precision of the type. _i: value and index type. */
START_TEST(jacobi_steps)
{
    const px_dtype vt = value_types[_i / 2], it = index_types[_i % 2];
    const double tol = vt == PX_F32 ? 1e-5 : 1e-12;
    const int64_t n = 400;
    la_mat m = random_mat(n, n, true, 19 + (uint64_t)_i);
    px_csr *A = la_create(&m, vt, it);
    tk_rng g = tk_rng_seed(4);
    double *b = random_vec(n, &g), *x = random_vec(n, &g);
    px_view *bv = put("b", vt, b, n), *xv = put("x", vt, x, n),
            *nv = tk_view1("x_new", tk_space(), vt, n);
    TK_OK(px_csr_jacobi(tk_inst(), 0.8, A, bv, xv, nv));
    long double *got = get(nv, vt, n);
    for (int64_t r = 0; r < n; ++r) {
        long double ax = 0, diag = 0, mag = fabsl(rounded(b[r], vt));
        for (int64_t k = m.off[r]; k < m.off[r + 1]; ++k) {
            const long double t = rounded(m.val[k], vt) * rounded(x[m.col[k]], vt);
            ax += t;
            mag += fabsl(t);
            if (m.col[k] == r) diag += rounded(m.val[k], vt);
        }
        const long double want =
            rounded(x[r], vt) +
            (long double)(vt == PX_F32 ? (float)0.8 : 0.8) * (rounded(b[r], vt) - ax) / diag;
        ck_assert_msg(fabsl(got[r] - want) <= tol * (fabsl(rounded(x[r], vt)) + mag / diag),
                      "%s/%s: x_new[%lld] = %.17Lg, want %.17Lg", px_dtype_string(vt),
                      px_dtype_string(it), (long long)r, got[r], want);
    }
    free(got);
    /* Iterate from 0: x and x_new swap each step. */
    double *zero = (double *)la_calloc((size_t)n, 8);
    px_view *u = put("u", vt, zero, n), *w = put("w", vt, zero, n);
    for (int step = 0; step < 60; ++step) {
        TK_OK(px_csr_jacobi(tk_inst(), 0.9, A, bv, u, w));
        px_view *t = u;
        u = w;
        w = t;
    }
    long double *sol = get(u, vt, n);
    for (int64_t r = 0; r < n; ++r) {
        long double ax = 0;
        for (int64_t k = m.off[r]; k < m.off[r + 1]; ++k)
            ax += rounded(m.val[k], vt) * sol[m.col[k]];
        ck_assert_msg(fabsl(ax - rounded(b[r], vt)) <= (vt == PX_F32 ? 1e-4 : 1e-10),
                      "%s/%s: after 60 steps, (A x - b)[%lld] = %.3Lg", px_dtype_string(vt),
                      px_dtype_string(it), (long long)r, ax - rounded(b[r], vt));
    }
    free(sol);
    TK_RELEASE(bv, xv, nv, u, w);
    TK_OK(px_csr_release(&A));
    free(b);
    free(x);
    free(zero);
    la_mat_drop(&m);
}
END_TEST

/* A long row (a tile of its own; past 8192 entries, chunks too) that never uses column 0,
   with x[0] infinite: every algorithm reads only the columns the row has. _i: 0 one long
   tile, 1 a row with chunks. */
START_TEST(long_row_reads_its_columns)
{
    const int64_t len = _i == 0 ? 3001 : 20003; /* not a multiple of any batch */
    la_mat m = {1,
                len + 1,
                len,
                (int64_t *)la_calloc(2, 8),
                (int64_t *)la_calloc((size_t)len, 8),
                (double *)la_calloc((size_t)len, 8)};
    m.off[1] = len;
    for (int64_t k = 0; k < len; ++k) {
        m.col[k] = k + 1;
        m.val[k] = 1;
    }
    double *x = (double *)la_calloc((size_t)len + 1, 8);
    for (int64_t j = 1; j <= len; ++j) x[j] = 0.5;
    x[0] = INFINITY;
    px_csr *A = la_create(&m, PX_F64, PX_I32);
    px_view *xv = put("x", PX_F64, x, len + 1), *yv = tk_view1("y", tk_space(), PX_F64, 1);
    for (int alg = PX_SPMV_AUTO; alg <= PX_SPMV_TILES; ++alg) {
        TK_OK(px_csr_set_spmv_alg(A, (px_spmv_alg)alg));
        TK_OK(px_csr_spmv(tk_inst(), 1.0, A, xv, 0.0, yv));
        long double *y = get(yv, PX_F64, 1);
        ck_assert_msg(y[0] == 0.5L * (long double)len, "%s, a row of %lld: y = %Lg, want %g",
                      px_spmv_alg_string((px_spmv_alg)alg), (long long)len, y[0],
                      0.5 * (double)len);
        free(y);
    }
    TK_RELEASE(xv, yv);
    TK_OK(px_csr_release(&A));
    free(x);
    la_mat_drop(&m);
}
END_TEST

/* ---- Refusals --------------------------------------------------------------------------- */

START_TEST(ops_refusals)
{
    la_mat sq = random_mat(5, 5, true, 1), wide = random_mat(3, 5, false, 2);
    px_csr *S = la_create(&sq, PX_F64, PX_I32), *W = la_create(&wide, PX_F64, PX_I32);
    px_view *v5 = tk_view1("v5", tk_space(), PX_F64, 5),
            *u5 = tk_view1("u5", tk_space(), PX_F64, 5);
    px_view *v3 = tk_view1("v3", tk_space(), PX_F64, 3),
            *f5 = tk_view1("f5", tk_space(), PX_F32, 5);
    px_view *n5 = tk_view1("n5", tk_space(), PX_F64, 5);
    const char *T = "px_csr_spmv_transposed", *J = "px_csr_jacobi";
    TK_OK(px_csr_spmv_transposed(tk_inst(), 1, W, v3, 0, v5)); /* the baseline is accepted */
    TK_OK(px_csr_jacobi(tk_inst(), 1, S, v5, u5, n5));
    la_expect_refused(px_csr_spmv_transposed(tk_inst(), 1, W, v5, 0, v3), PX_ERR_EXTENTS_MISMATCH,
                      T, "x and y swapped");
    la_expect_refused(px_csr_spmv_transposed(tk_inst(), 1, S, v5, 0, v5), PX_ERR_INVALID_ARGUMENT,
                      T, "x is y");
    la_expect_refused(px_csr_spmv_transposed(tk_inst(), 1, S, f5, 0, v5), PX_ERR_TYPE_MISMATCH, T,
                      "f32 x");
    la_expect_refused(px_csr_spmv_transposed(tk_inst(), 1, NULL, v5, 0, u5),
                      PX_ERR_INVALID_ARGUMENT, T, "no matrix");
    la_expect_refused(px_csr_jacobi(tk_inst(), 1, W, v3, v5, u5), PX_ERR_INVALID_ARGUMENT, J,
                      "not square");
    la_expect_refused(px_csr_jacobi(tk_inst(), 1, S, v5, u5, u5), PX_ERR_INVALID_ARGUMENT, J,
                      "x_new is x");
    la_expect_refused(px_csr_jacobi(tk_inst(), 1, S, u5, v5, u5), PX_ERR_INVALID_ARGUMENT, J,
                      "x_new is b");
    la_expect_refused(px_csr_jacobi(tk_inst(), 1, S, v5, u5, v3), PX_ERR_EXTENTS_MISMATCH, J,
                      "short x_new");
    la_expect_refused(px_csr_jacobi(NULL, 1, S, v5, u5, n5), PX_ERR_INVALID_ARGUMENT, J,
                      "no instance");
    TK_OK(px_instance_fence(tk_inst()));
    TK_RELEASE(v5, u5, v3, f5, n5);
    TK_OK(px_csr_release(&S));
    TK_OK(px_csr_release(&W));
    la_mat_drop(&sq);
    la_mat_drop(&wide);
}
END_TEST

int main(void)
{
    TCase *tc = tk_case("csr_ops", "ops");
    tcase_add_loop_test(tc, transposed_products, 0, NSHAPES * 4);
    tcase_add_loop_test(tc, jacobi_steps, 0, 4);
    tcase_add_loop_test(tc, long_row_reads_its_columns, 0, 2);
    TK_ADD(tk_case("csr_ops_errors", "errors"), ops_refusals);
    return tk_run();
}
