/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* cg: the conjugate-gradient method on the 5-point Laplacian of an n x n grid (n from
 * argv[1], default 128), built from libportex_linalg's pieces (portex/linalg.h: the CSR
 * matrix, its product with a vector, dot, axpy and axpby) on the default execution space,
 * two ways (cg_solve.c): a host loop, and a graph whose WHILE node runs the iterations
 * without the host (the product and the dot products as the library's graph nodes, the
 * scalar updates as this example's kernels, cg_kernels.c). The right-hand side is A times
 * a vector of ones, so the solution is known: each stops at a residual below 1e-10 of |b|
 * and checks the solution to 1e-7; both take the same iterations, on every backend. It
 * prints the iterations and the time an iteration takes each way.
 *
 *   cg [n] */
#include <math.h>
#include <stdlib.h>

#include <portex/linalg.h>

#include "../common/csr.h"
#include "cg_solve.h"
#include "example.h"

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

    /* b = A * ones. */
    px_view *x = vector(be, "x", n), *b = vector(be, "b", n), *ones = vector(be, "ones", n);
    const double one = 1;
    CHECK(px_fill_async(be.inst, ones, &one, NULL));
    CHECK(px_csr_spmv(be.inst, 1.0, A, ones, 0.0, b));

    const double tol = 1e-10;
    const int max_it = 10 * (int)grid;
    double *hx = (double *)malloc((size_t)n * sizeof *hx);
    if (!hx) return 2;
    cg_result res[2];
    bool ok = true;
    for (int way = 0; way < 2; ++way) {
        CHECK(way == 0 ? cg_host_loop(be.inst, be.space, A, b, x, tol, max_it, &res[way])
                       : cg_graph_loop(be.inst, be.space, A, b, x, tol, max_it, &res[way]));
        /* x against the ones it should be. */
        CHECK(px_deep_copy_to_host(hx, (size_t)n * sizeof *hx, x));
        double err = 0;
        for (int64_t i = 0; i < n; ++i) err = fmax(err, fabs(hx[i] - 1));
        const bool good = res[way].residual <= tol && err < 1e-7;
        const int it = res[way].iterations;
        printf("cg: %lld x %lld grid, %s: %d iterations, residual %.3g of |b|, max error %.3g, "
               "%.1f us an iteration: %s\n",
               (long long)grid, (long long)grid, way == 0 ? "host loop" : "graph (WHILE node)", it,
               res[way].residual, err, it > 0 ? res[way].seconds / it * 1e6 : 0.0,
               good ? "ok" : "FAILED");
        ok = ok && good;
    }
    if (res[0].iterations != res[1].iterations) {
        printf("cg: the host loop took %d iterations and the graph %d: FAILED\n", res[0].iterations,
               res[1].iterations);
        ok = false;
    }
    free(hx);
    csr_free(&lap);
    CHECK(px_csr_release(&A));
    px_view *views[] = {x, b, ones};
    for (int i = 0; i < 3; ++i) CHECK(px_view_release(&views[i]));
    CHECK(px_finalize());
    return ok ? 0 : 1;
}
