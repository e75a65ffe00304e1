/* spmv: y = A x for a sparse matrix A in CSR form, as a team kernel (one team per block
 * of rows, a thread per row, the row's entries over vector lanes), on the default
 * execution space. A is the 5-point Laplacian of an n x n grid (n from argv[1], default
 * 64); y is checked against a plain C SpMV.
 *
 *   spmv [n] */
#include <stdlib.h>
#include <string.h>

#include "csr.h"
#include "example.h"
#include "spmv_kernels.h"

/* A 1-D view of `n` elements of `dtype` in the example's space, holding `src`. */
static px_view *upload(example_backend be, const char *label, px_dtype dtype, int64_t n,
                       const void *src, size_t elem)
{
    px_view_desc desc = {.label = label, .space = be.space, .dtype = dtype, .rank = 1,
                         .extent = {n}, .flags = PX_VIEW_NO_INIT};
    px_view *v, *h;
    CHECK(px_view_create(&v, &desc));
    CHECK(px_view_create_mirror_view(&h, px_host(), v));
    px_span hs;
    CHECK(px_view_span(h, &hs));
    memcpy(hs.data, src, (size_t)n * elem);
    CHECK(px_deep_copy(v, h, NULL));
    CHECK(px_view_release(&h));
    return v;
}

int main(int argc, char **argv)
{
    const int64_t n = argc > 1 ? atoll(argv[1]) : 64;
    if (n < 1 || n > 20000) {
        fprintf(stderr, "usage: spmv [n], 1 <= n <= 20000 (an n x n grid)\n");
        return 2;
    }
    CHECK(px_init(NULL));
    example_backend be = example_default("spmv");

    csr m = csr_laplacian2d(n);
    double *x = malloc((size_t)m.nrows * sizeof *x), *ref = malloc((size_t)m.nrows * sizeof *ref);
    if (!x || !ref) return 2;
    uint64_t seed = 11;
    for (int64_t r = 0; r < m.nrows; ++r) x[r] = csr_random(&seed);
    csr_spmv_plain(&m, x, ref);

    px_view *row = upload(be, "row", PX_I32, m.nrows + 1, m.row, sizeof *m.row);
    px_view *col = upload(be, "col", PX_I32, m.nnz, m.col, sizeof *m.col);
    px_view *val = upload(be, "val", PX_F64, m.nnz, m.val, sizeof *m.val);
    px_view *xv = upload(be, "x", PX_F64, m.nrows, x, sizeof *x);
    /* y starts as NaN: a row the kernel misses fails the check. */
    for (int64_t r = 0; r < m.nrows; ++r) x[r] = NAN;
    px_view *yv = upload(be, "y", PX_F64, m.nrows, x, sizeof *x);
    seed = 11;
    for (int64_t r = 0; r < m.nrows; ++r) x[r] = csr_random(&seed);

    spmv_args args = {.nrows = m.nrows};
    CHECK(px_view_get_span(row, &args.row));
    CHECK(px_view_get_span(col, &args.col));
    CHECK(px_view_get_span(val, &args.val));
    CHECK(px_view_get_span(xv, &args.x));
    CHECK(px_view_get_span(yv, &args.y));
    const px_team_policy policy = spmv_policy(m.nrows, (double)m.nnz / (double)m.nrows, &args.rows_per_team);
    CHECK(px_parallel_for_team(be.inst, "spmv", policy, PX_KERNEL(spmv_team), &args));

    px_view *hy;
    CHECK(px_view_create_mirror_view(&hy, px_host(), yv));
    CHECK(px_deep_copy(hy, yv, NULL)); /* waits for the kernel */
    px_span_f64 ys;
    CHECK(px_view_get_span(hy, &ys));
    const double diff = csr_max_rel_diff(&m, x, ys.data, ref);
    const int ok = diff <= 1e-12;
    printf("spmv: %lld x %lld grid Laplacian, %lld rows, %lld entries, teams of %d x %d "
           "(%lld rows each), max relative difference from plain C %.3g: %s\n",
           (long long)n, (long long)n, (long long)m.nrows, (long long)m.nnz, policy.team_size,
           policy.vector_length, (long long)args.rows_per_team, diff, ok ? "OK" : "MISMATCH");

    CHECK(px_view_release(&hy));
    px_view *views[] = {row, col, val, xv, yv};
    for (int k = 0; k < 5; ++k) CHECK(px_view_release(&views[k]));
    csr_free(&m);
    free(x);
    free(ref);
    CHECK(px_finalize());
    return ok ? 0 : 1;
}
