/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* CSR matrices from COO triplet lists (px_csr_create_coo) on the backend under test: random
 * triplets in random order with repeated places, every value and index type, shapes with
 * empty rows, no triplets, one place repeated many times, a 0 x 0 matrix. Checked against
 * what the triplets mean, computed here: the number of distinct places (the matrix's nnz)
 * and y = A x summed triplet by triplet in long double, with each algorithm. Suite "coo";
 * the refusals, each naming the call: suite "coo_errors". */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "la_test.h"
#include "portex/linalg.h"

/* Triplets as the test makes them: int64 indices, double values. */
typedef struct triplets {
    int64_t nrows, ncols, n;
    int64_t *row, *col;
    double *val;
} triplets;

/* n triplets over an nrows x ncols matrix, places drawn from `spread` rows and columns so
   that they repeat; values in [-1, 1). */
static triplets make(int64_t nrows, int64_t ncols, int64_t n, int64_t spread, uint64_t seed)
{
    tk_rng g = tk_rng_seed(seed);
    triplets t = {nrows,
                  ncols,
                  n,
                  (int64_t *)la_calloc((size_t)n, 8),
                  (int64_t *)la_calloc((size_t)n, 8),
                  (double *)la_calloc((size_t)n, 8)};
    for (int64_t k = 0; k < n; ++k) {
        t.row[k] = tk_int(&g, 0, (spread < nrows ? spread : nrows) - 1) *
                   (nrows > spread ? nrows / spread : 1);
        t.col[k] = tk_int(&g, 0, ncols - 1);
        t.val[k] = tk_uniform(&g, -1, 1);
    }
    return t;
}

static void drop(triplets *t)
{
    free(t->row);
    free(t->col);
    free(t->val);
}

/* The number of distinct (row, col) places. */
static int64_t places(const triplets *t)
{
    int64_t count = 0;
    for (int64_t k = 0; k < t->n; ++k) {
        bool seen = false;
        for (int64_t j = 0; j < k && !seen; ++j)
            seen = t->row[j] == t->row[k] && t->col[j] == t->col[k];
        count += !seen;
    }
    return count;
}

/* Makes the matrix of t in vt/it, checks its nnz, then y = A x with each algorithm against
   the triplets summed one by one. */
static void check(const triplets *t, px_dtype vt, px_dtype it)
{
    void *row = la_as_index(t->row, t->n, it), *col = la_as_index(t->col, t->n, it);
    void *val = la_as_values(t->val, t->n, vt);
    px_coo_desc d = {t->nrows, t->ncols, t->n, vt, it, row, col, val};
    px_csr *A = NULL;
    TK_OK(px_csr_create_coo(tk_inst(), tk_space(), &d, &A));
    px_csr_info in;
    TK_OK(px_csr_info_get(A, &in));
    ck_assert_int_eq(in.nnz, places(t));
    ck_assert_int_eq(in.nrows, t->nrows);
    ck_assert_int_eq(in.ncols, t->ncols);

    tk_rng g = tk_rng_seed(5);
    const double xs[] = {0.5, -1.25, 2, 0.75, -0.5, 1.5, -2, 1};
    double *x = (double *)la_calloc((size_t)t->ncols, 8);
    for (int64_t j = 0; j < t->ncols; ++j) x[j] = xs[tk_int(&g, 0, 7)]; /* exact in f32 */
    void *xh = la_as_values(x, t->ncols, vt);
    long double *want = (long double *)la_calloc((size_t)t->nrows, sizeof *want);
    long double *bound = (long double *)la_calloc((size_t)t->nrows, sizeof *bound);
    for (int64_t k = 0; k < t->n; ++k) {
        const long double term = la_value_at(val, vt, k) * x[t->col[k]];
        want[t->row[k]] += term;
        bound[t->row[k]] += fabsl(term);
    }
    px_view *xv = tk_view1("x", tk_space(), vt, t->ncols),
            *yv = tk_view1("y", tk_space(), vt, t->nrows);
    TK_OK(px_deep_copy_from_host(xv, xh, (size_t)t->ncols * px_dtype_size(vt)));
    void *y = la_calloc((size_t)t->nrows, px_dtype_size(vt));
    const double tol = vt == PX_F32 ? 1e-5 : 1e-12;
    for (int alg = PX_SPMV_AUTO; alg <= PX_SPMV_TILES; ++alg) {
        TK_OK(px_csr_set_spmv_alg(A, (px_spmv_alg)alg));
        TK_OK(px_csr_spmv(tk_inst(), 1.0, A, xv, 0.0, yv));
        TK_OK(px_instance_fence(tk_inst()));
        TK_OK(px_deep_copy_to_host(y, (size_t)t->nrows * px_dtype_size(vt), yv));
        for (int64_t r = 0; r < t->nrows; ++r) {
            const long double got = la_value_at(y, vt, r);
            ck_assert_msg(fabsl(got - want[r]) <= tol * bound[r],
                          "%s/%s, %lld x %lld, %lld triplets, %s: y[%lld] = %.17Lg, want %.17Lg",
                          px_dtype_string(vt), px_dtype_string(it), (long long)t->nrows,
                          (long long)t->ncols, (long long)t->n,
                          px_spmv_alg_string((px_spmv_alg)alg), (long long)r, got, want[r]);
        }
    }
    TK_OK(px_csr_release(&A));
    TK_RELEASE(xv, yv);
    free(row);
    free(col);
    free(val);
    free(x);
    free(xh);
    free(want);
    free(bound);
    free(y);
}

static const px_dtype value_types[] = {PX_F32, PX_F64}, index_types[] = {PX_I32, PX_I64};

/* _i: the value and index types, i / 2 and i % 2. */
START_TEST(coo_random)
{
    triplets t = make(300, 200, 3000, 40, 11 + (uint64_t)_i); /* many repeats, empty rows */
    check(&t, value_types[_i / 2], index_types[_i % 2]);
    drop(&t);
    t = make(97, 1000, 5000, 97, 23 + (uint64_t)_i); /* every row, fewer repeats */
    check(&t, value_types[_i / 2], index_types[_i % 2]);
    drop(&t);
}
END_TEST

START_TEST(coo_edges)
{
    const px_dtype vt = value_types[_i / 2], it = index_types[_i % 2];
    triplets none = make(5, 7, 0, 5, 1); /* no triplets: y = 0 */
    check(&none, vt, it);
    drop(&none);
    triplets empty = make(0, 0, 0, 1, 1);
    check(&empty, vt, it);
    drop(&empty);
    triplets one_place = make(4, 3, 500, 1, 2); /* 500 triplets, all in row 0 */
    for (int64_t k = 0; k < one_place.n; ++k) one_place.col[k] = 2;
    check(&one_place, vt, it);
    drop(&one_place);
}
END_TEST

/* ---- Refusals --------------------------------------------------------------------------- */

static const int32_t rows_ok[3] = {0, 2, 1}, cols_ok[3] = {1, 0, 1};
static const double vals_ok[3] = {1, 2, 3};

static px_coo_desc good(void)
{
    px_coo_desc d = {3, 2, 3, PX_F64, PX_I32, rows_ok, cols_ok, vals_ok};
    return d;
}

static void refused(const px_coo_desc *d, px_status want, const char *what)
{
    px_csr *A = NULL;
    px_clear_error();
    const px_status st = px_csr_create_coo(tk_inst(), tk_space(), d, &A);
    ck_assert_msg(st == want, "%s: returned %s, want %s (%s)", what, px_status_name(st),
                  px_status_name(want), px_last_error());
    ck_assert_msg(tk_error_from("px_csr_create_coo"), "%s: last error '%s'", what, px_last_error());
    ck_assert_msg(A == NULL, "%s: *A set", what);
}

START_TEST(coo_refusals)
{
    px_csr *A = NULL;
    px_coo_desc d = good();
    TK_OK(px_csr_create_coo(tk_inst(), tk_space(), &d, &A)); /* the baseline is accepted */
    TK_OK(px_csr_release(&A));
    ck_assert_int_eq(px_csr_create_coo(NULL, tk_space(), &d, &A), PX_ERR_INVALID_ARGUMENT);
    ck_assert_int_eq(px_csr_create_coo(tk_inst(), tk_space(), NULL, &A), PX_ERR_INVALID_ARGUMENT);
    ck_assert_int_eq(px_csr_create_coo(tk_inst(), tk_space(), &d, NULL), PX_ERR_INVALID_ARGUMENT);
    d.value_type = PX_I32;
    refused(&d, PX_ERR_TYPE_MISMATCH, "i32 values");
    d = good();
    d.index_type = PX_F64;
    refused(&d, PX_ERR_TYPE_MISMATCH, "f64 indices");
    d = good();
    d.nrows = -1;
    refused(&d, PX_ERR_INVALID_ARGUMENT, "negative rows");
    d = good();
    d.nrows = 2; /* row index 2 is out */
    refused(&d, PX_ERR_INVALID_ARGUMENT, "row out of range");
    d = good();
    d.ncols = 1; /* column 1 is out */
    refused(&d, PX_ERR_INVALID_ARGUMENT, "column out of range");
    d = good();
    d.values = NULL;
    refused(&d, PX_ERR_INVALID_ARGUMENT, "NULL values");
    d = good();
    d.row_indices = NULL;
    refused(&d, PX_ERR_INVALID_ARGUMENT, "NULL rows");
    d = good();
    d.index_type = PX_I64;
    d.nrows = INT64_C(1) << 40;
    d.ncols = INT64_C(1) << 40;
    d.nnz = 0;
    refused(&d, PX_ERR_OVERFLOW, "nrows * ncols past INT64_MAX");
}
END_TEST

int main(void)
{
    TCase *tc = tk_case("coo", "triplets");
    tcase_add_loop_test(tc, coo_random, 0, 4);
    tcase_add_loop_test(tc, coo_edges, 0, 4);
    TK_ADD(tk_case("coo_errors", "errors"), coo_refusals);
    return tk_run();
}
