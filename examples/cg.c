/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* cg: the conjugate-gradient method on the 5-point Laplacian of an n x n grid (n from
 * argv[1], default 128), built from libportex_linalg's pieces alone (portex/linalg.h: the
 * CSR matrix, its product with a vector, dot, axpy and axpby) on the default execution
 * space. The right-hand side is A times a vector of ones, so the solution is known: the
 * program stops at a residual below 1e-10 of |b| and checks the solution to 1e-7. It
 * prints the iterations and the time an iteration takes; the same iterations on every
 * backend (their dot products differ in the last bits, not in the count).
 *
 *   cg [n] */
#include <math.h>
#include <stdlib.h>
#include <time.h>

#include <portex/linalg.h>

#include "../common/csr.h"
#include "example.h"

static double now_s(void)
{
    struct timespec t;
    timespec_get(&t, TIME_UTC);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static px_view *vector(example_backend be, const char *label, int64_t n)
{
    px_view *v;
    CHECK(px_view_create_1d(&v, label, be.space, PX_F64, n));
    return v;
}

int main(int argc, char **argv)
{
    const int64_t grid = argc > 1 ? atoll(argv[1]) : 128;
    if (grid < 2 || grid > 4096) {
        fprintf(stderr, "usage: cg [n], 2 <= n <= 4096\n");
        return 2;
    }
    CHECK(px_init(NULL));
    const example_backend be = example_default("cg");
    csr lap = csr_laplacian2d(grid);
    const int64_t n = lap.nrows;
    px_csr_desc desc = {.nrows = n,
                        .ncols = n,
                        .nnz = lap.nnz,
                        .value_type = PX_F64,
                        .index_type = PX_I32,
                        .row_offsets = lap.row,
                        .col_indices = lap.col,
                        .values = lap.val};
    px_csr *A;
    CHECK(px_csr_create(be.inst, be.space, &desc, &A));

    /* b = A * ones; x = 0, r = b, p = r. */
    px_view *x = vector(be, "x", n), *r = vector(be, "r", n), *p = vector(be, "p", n);
    px_view *ap = vector(be, "Ap", n), *b = vector(be, "b", n);
    const double one = 1, zero = 0;
    CHECK(px_fill_async(be.inst, p, &one, NULL));
    CHECK(px_csr_spmv(be.inst, 1.0, A, p, 0.0, b));
    CHECK(px_fill_async(be.inst, x, &zero, NULL));
    CHECK(px_deep_copy_async(be.inst, r, b, NULL));
    CHECK(px_deep_copy_async(be.inst, p, b, NULL));
    double rr, bb;
    CHECK(px_blas_dot(be.inst, r, r, &rr));
    bb = rr;

    const double t0 = now_s();
    int it = 0;
    while (it < 10 * grid && rr > 1e-20 * bb) {
        double pap;
        CHECK(px_csr_spmv(be.inst, 1.0, A, p, 0.0, ap));
        CHECK(px_blas_dot(be.inst, p, ap, &pap)); /* waits: the scalars steer the loop */
        const double alpha = rr / pap;
        CHECK(px_blas_axpy(be.inst, alpha, p, x));
        CHECK(px_blas_axpy(be.inst, -alpha, ap, r));
        double rr_next;
        CHECK(px_blas_dot(be.inst, r, r, &rr_next));
        CHECK(px_blas_axpby(be.inst, 1.0, r, rr_next / rr, p)); /* p = r + beta p */
        rr = rr_next;
        ++it;
    }
    const double per = it > 0 ? (now_s() - t0) / it : 0;

    /* x against the ones it should be. */
    double *hx = (double *)malloc((size_t)n * sizeof *hx);
    if (!hx) return 2;
    CHECK(px_deep_copy_to_host(hx, (size_t)n * sizeof *hx, x));
    double err = 0;
    for (int64_t i = 0; i < n; ++i) err = fmax(err, fabs(hx[i] - 1));
    const bool ok = rr <= 1e-20 * bb && err < 1e-7;
    printf("cg: %lld x %lld grid, %d iterations, residual %.3g of |b|, max error %.3g, "
           "%.1f us an iteration: %s\n",
           (long long)grid, (long long)grid, it, sqrt(rr / bb), err, per * 1e6,
           ok ? "ok" : "FAILED");
    free(hx);
    csr_free(&lap);
    CHECK(px_csr_release(&A));
    px_view *views[] = {x, r, p, ap, b};
    for (int i = 0; i < 5; ++i) CHECK(px_view_release(&views[i]));
    CHECK(px_finalize());
    return ok ? 0 : 1;
}
