/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* libportex_linalg's calls as graph nodes (px_graph_add_csr_spmv, px_graph_add_blas_axpby,
 * px_graph_add_blas_dot) on the backend under test: the same results as the calls on an
 * instance, launch after launch with the operands' contents changed in between, for each
 * algorithm (the tiles' two nodes with a long row's chunks included), every value and index
 * type; the nodes in a WHILE node's body, looping on a count kept in a view; a call with
 * nothing to do as an empty node; the refusals, each naming the call. Suite
 * "linalg_graph"; refusals: "linalg_graph_errors". */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "la_test.h"
#include "portex/linalg.h"

/* A square matrix of n rows: 0 to 9 entries a row at random columns, and (`long_row`)
   row 3 of 9000 entries, past one chunk. */
static px_csr *make(int64_t n, bool long_row, px_dtype vt, px_dtype it, uint64_t seed)
{
    tk_rng g = tk_rng_seed(seed);
    int64_t *off = (int64_t *)la_calloc((size_t)n + 1, 8);
    for (int64_t r = 0; r < n; ++r)
        off[r + 1] = off[r] + (long_row && r == 3 ? 9000 : tk_int(&g, 0, 9));
    const int64_t nnz = off[n];
    int64_t *col = (int64_t *)la_calloc((size_t)nnz, 8);
    double *val = (double *)la_calloc((size_t)nnz, 8);
    for (int64_t k = 0; k < nnz; ++k) {
        col[k] = tk_int(&g, 0, n - 1);
        val[k] = tk_uniform(&g, -1, 1);
    }
    void *o = la_as_index(off, n + 1, it), *c = la_as_index(col, nnz, it);
    void *v = la_as_values(val, nnz, vt);
    px_csr_desc d = {n, n, nnz, vt, it, o, c, v};
    px_csr *A = NULL;
    TK_OK(px_csr_create(tk_inst(), tk_space(), &d, &A));
    free(o);
    free(c);
    free(v);
    free(off);
    free(col);
    free(val);
    return A;
}

/* n random values of vt into v (deep copy from the host). */
static void put_random(px_view *v, px_dtype vt, int64_t n, tk_rng *g)
{
    double *d = (double *)la_calloc((size_t)n, 8);
    for (int64_t i = 0; i < n; ++i) d[i] = tk_uniform(g, -1, 1);
    void *h = la_as_values(d, n, vt);
    TK_OK(px_deep_copy_from_host(v, h, (size_t)n * px_dtype_size(vt)));
    free(h);
    free(d);
}

/* The view's n values as doubles (after the instance's work). */
static double *get(px_view *v, px_dtype vt, int64_t n)
{
    TK_OK(px_fence_all());
    void *h = la_calloc((size_t)n, px_dtype_size(vt));
    TK_OK(px_deep_copy_to_host(h, (size_t)n * px_dtype_size(vt), v));
    double *out = (double *)la_calloc((size_t)n, 8);
    for (int64_t i = 0; i < n; ++i) out[i] = (double)la_value_at(h, vt, i);
    free(h);
    return out;
}

static void expect_close(const double *got, const double *want, int64_t n, double tol,
                         const char *what)
{
    for (int64_t i = 0; i < n; ++i)
        ck_assert_msg(fabs(got[i] - want[i]) <= tol * (1 + fabs(want[i])),
                      "%s: element %lld is %.17g, want %.17g", what, (long long)i, got[i], want[i]);
}

static px_graph *new_graph(const char *label)
{
    px_graph *g = NULL;
    TK_OK(px_graph_create(&g, tk_exec(), tk_space().kind == PX_SPACE_DEVICE ? tk_space().device : 0,
                          label));
    return g;
}

static const px_dtype value_types[] = {PX_F32, PX_F64}, index_types[] = {PX_I32, PX_I64};

/* y = alpha A x + beta y, then z = 2 x - y, then d = x . z, as three nodes in a row,
   launched twice with new x and y; against the same calls on the instance. _i: value type,
   index type, algorithm (ROWS, TILES). */
START_TEST(nodes_match_calls)
{
    const px_dtype vt = value_types[_i / 4], it = index_types[(_i / 2) % 2];
    const px_spmv_alg alg = _i % 2 ? PX_SPMV_TILES : PX_SPMV_ROWS;
    const double tol = vt == PX_F32 ? 1e-5 : 1e-12;
    const int64_t n = 5000;
    px_csr *A = make(n, true, vt, it, 17 + (uint64_t)_i);
    TK_OK(px_csr_set_spmv_alg(A, alg));
    px_view *x = tk_view1("x", tk_space(), vt, n), *y = tk_view1("y", tk_space(), vt, n);
    px_view *z = tk_view1("z", tk_space(), vt, n), *d = tk_view1("d", tk_space(), vt, 1);
    px_view *y2 = tk_view1("y2", tk_space(), vt, n), *z2 = tk_view1("z2", tk_space(), vt, n);
    px_view *d2 = tk_view1("d2", tk_space(), vt, 1);
    px_graph *g = new_graph("spmv-axpby-dot");
    px_graph_node *s, *a, *t;
    TK_OK(px_graph_add_csr_spmv(g, NULL, 0, 1.5, A, x, 0.5, y, &s));
    TK_OK(px_graph_add_blas_axpby(g, &s, 1, 2.0, x, 0.0, z, &a));
    TK_OK(px_graph_add_blas_axpby(g, &a, 1, -1.0, y, 1.0, z, &a));
    TK_OK(px_graph_add_blas_dot(g, &a, 1, x, z, d, &t));
    px_graph_exec *e = NULL;
    TK_OK(px_graph_instantiate(g, &e));
    tk_rng rng = tk_rng_seed(5);
    for (int launch = 0; launch < 2; ++launch) {
        put_random(x, vt, n, &rng);
        put_random(y, vt, n, &rng);
        TK_OK(px_deep_copy(y2, y, NULL));
        TK_OK(px_graph_launch(e, tk_inst()));
        TK_OK(px_csr_spmv(tk_inst(), 1.5, A, x, 0.5, y2));
        TK_OK(px_blas_axpby(tk_inst(), 2.0, x, 0.0, z2));
        TK_OK(px_blas_axpby(tk_inst(), -1.0, y2, 1.0, z2));
        TK_OK(px_blas_dot_view(tk_inst(), x, z2, d2));
        double *gy = get(y, vt, n), *cy = get(y2, vt, n), *gz = get(z, vt, n), *cz = get(z2, vt, n),
               *gd = get(d, vt, 1), *cd = get(d2, vt, 1);
        expect_close(gy, cy, n, tol, "y");
        expect_close(gz, cz, n, tol, "z");
        ck_assert_msg(fabs(gd[0] - cd[0]) <= tol * 1e2 * (1 + fabs(cd[0])), "d %.17g, want %.17g",
                      gd[0], cd[0]);
        free(gy);
        free(cy);
        free(gz);
        free(cz);
        free(gd);
        free(cd);
    }
    TK_OK(px_graph_exec_destroy(&e));
    TK_OK(px_graph_destroy(&g));
    TK_RELEASE(x, y, z, d, y2, z2, d2);
    TK_OK(px_csr_release(&A));
}
END_TEST

/* A WHILE body of y = A x + y and count = count + 1 (an axpby on one element), looping
   while count < 5: y ends as 5 A x. _i: algorithm. */
START_TEST(nodes_in_a_while_body)
{
    const px_spmv_alg alg = _i ? PX_SPMV_TILES : PX_SPMV_ROWS;
    const int64_t n = 3000;
    px_csr *A = make(n, true, PX_F64, PX_I32, 3);
    TK_OK(px_csr_set_spmv_alg(A, alg));
    px_view *x = tk_view1("x", tk_space(), PX_F64, n), *y = tk_view1("y", tk_space(), PX_F64, n);
    px_view *ref = tk_view1("ref", tk_space(), PX_F64, n);
    px_view *count = tk_view1("count", tk_space(), PX_F64, 1),
            *one = tk_view1("one", tk_space(), PX_F64, 1);
    const double uno = 1;
    TK_OK(px_fill(one, &uno, NULL));
    tk_rng rng = tk_rng_seed(9);
    put_random(x, PX_F64, n, &rng);
    px_graph *g = new_graph("loop"), *body = NULL;
    px_graph_cond_t *cond = NULL;
    px_graph_node *w, *s, *c;
    TK_OK(px_graph_add_while(g, NULL, 0, "five passes", 1, &cond, &body, &w));
    TK_OK(px_graph_add_csr_spmv(body, NULL, 0, 1.0, A, x, 1.0, y, &s));
    TK_OK(px_graph_add_blas_axpby(body, &s, 1, 1.0, one, 1.0, count, &c));
    TK_OK(px_graph_cond_from_view(body, cond, count, PX_CMP_LT, 5.0, NULL));
    px_graph_exec *e = NULL;
    TK_OK(px_graph_instantiate(g, &e));
    TK_OK(px_graph_launch(e, tk_inst()));
    TK_OK(px_csr_spmv(tk_inst(), 5.0, A, x, 0.0, ref));
    double *got = get(y, PX_F64, n), *want = get(ref, PX_F64, n), *cnt = get(count, PX_F64, 1);
    ck_assert_msg(cnt[0] == 5, "the body ran %g times, want 5", cnt[0]);
    expect_close(got, want, n, 1e-12, "y after five passes");
    free(got);
    free(want);
    free(cnt);
    TK_OK(px_graph_exec_destroy(&e));
    TK_OK(px_graph_destroy(&g));
    TK_RELEASE(x, y, ref, count, one);
    TK_OK(px_csr_release(&A));
}
END_TEST

/* A product of a matrix without rows, and an axpby of empty vectors: empty nodes that
   order what follows them. */
START_TEST(nothing_to_do_is_an_empty_node)
{
    px_csr_desc d = {0, 0, 0, PX_F64, PX_I32, NULL, NULL, NULL};
    const int32_t zero = 0;
    d.row_offsets = &zero;
    px_csr *A = NULL;
    TK_OK(px_csr_create(tk_inst(), tk_space(), &d, &A));
    px_view *e0 = tk_view1("e0", tk_space(), PX_F64, 0),
            *e1 = tk_view1("e1", tk_space(), PX_F64, 0);
    px_graph *g = new_graph("empty");
    px_graph_node *s = NULL, *a = NULL;
    TK_OK(px_graph_add_csr_spmv(g, NULL, 0, 1, A, e0, 0, e1, &s));
    ck_assert_ptr_nonnull(s);
    TK_OK(px_graph_add_blas_axpby(g, &s, 1, 1, e0, 1, e1, &a));
    ck_assert_ptr_nonnull(a);
    int nodes = 0;
    TK_OK(px_graph_node_count(g, &nodes));
    ck_assert_int_eq(nodes, 2);
    px_graph_exec *e = NULL;
    TK_OK(px_graph_instantiate(g, &e));
    TK_OK(px_graph_launch(e, tk_inst()));
    TK_OK(px_instance_fence(tk_inst()));
    TK_OK(px_graph_exec_destroy(&e));
    TK_OK(px_graph_destroy(&g));
    TK_RELEASE(e0, e1);
    TK_OK(px_csr_release(&A));
}
END_TEST

/* ---- Refusals --------------------------------------------------------------------------- */

START_TEST(refusals)
{
    px_csr *A = make(6, false, PX_F64, PX_I32, 1);
    px_view *v6 = tk_view1("v6", tk_space(), PX_F64, 6),
            *u6 = tk_view1("u6", tk_space(), PX_F64, 6);
    px_view *v5 = tk_view1("v5", tk_space(), PX_F64, 5),
            *f6 = tk_view1("f6", tk_space(), PX_F32, 6);
    px_view *r1 = tk_view1("r1", tk_space(), PX_F64, 1);
    px_graph *g = new_graph("refusals");
    const char *S = "px_graph_add_csr_spmv", *X = "px_graph_add_blas_axpby",
               *D = "px_graph_add_blas_dot";
    TK_OK(px_graph_add_csr_spmv(g, NULL, 0, 1, A, v6, 0, u6, NULL)); /* the baseline */
    la_expect_refused(px_graph_add_csr_spmv(NULL, NULL, 0, 1, A, v6, 0, u6, NULL),
                      PX_ERR_INVALID_ARGUMENT, S, "no graph");
    la_expect_refused(px_graph_add_csr_spmv(g, NULL, 1, 1, A, v6, 0, u6, NULL),
                      PX_ERR_INVALID_ARGUMENT, S, "one dependency, none given");
    la_expect_refused(px_graph_add_csr_spmv(g, NULL, 0, 1, NULL, v6, 0, u6, NULL),
                      PX_ERR_INVALID_ARGUMENT, S, "no matrix");
    la_expect_refused(px_graph_add_csr_spmv(g, NULL, 0, 1, A, v5, 0, u6, NULL),
                      PX_ERR_EXTENTS_MISMATCH, S, "short x");
    la_expect_refused(px_graph_add_csr_spmv(g, NULL, 0, 1, A, v6, 0, v6, NULL),
                      PX_ERR_INVALID_ARGUMENT, S, "x is y");
    la_expect_refused(px_graph_add_blas_axpby(g, NULL, 0, 1, v6, 1, f6, NULL), PX_ERR_TYPE_MISMATCH,
                      X, "f32 y");
    la_expect_refused(px_graph_add_blas_axpby(g, NULL, -1, 1, v6, 1, u6, NULL),
                      PX_ERR_INVALID_ARGUMENT, X, "negative ndeps");
    la_expect_refused(px_graph_add_blas_dot(g, NULL, 0, v6, u6, NULL, NULL),
                      PX_ERR_INVALID_ARGUMENT, D, "no result");
    la_expect_refused(px_graph_add_blas_dot(g, NULL, 0, v6, v5, r1, NULL), PX_ERR_EXTENTS_MISMATCH,
                      D, "x and y of different lengths");
    int nodes = 0;
    TK_OK(px_graph_node_count(g, &nodes));
    ck_assert_int_eq(nodes, 1); /* the refusals added nothing */
    TK_OK(px_graph_destroy(&g));
    TK_RELEASE(v6, u6, v5, f6, r1);
    TK_OK(px_csr_release(&A));
}
END_TEST

int main(void)
{
    TCase *tc = tk_case("linalg_graph", "nodes");
    tcase_add_loop_test(tc, nodes_match_calls, 0, 8);
    tcase_add_loop_test(tc, nodes_in_a_while_body, 0, 2);
    tcase_add_test(tc, nothing_to_do_is_an_empty_node);
    TK_ADD(tk_case("linalg_graph_errors", "errors"), refusals);
    return tk_run();
}
