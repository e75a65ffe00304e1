/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* spmv: y = A x for a sparse matrix A in CSR form, as a team kernel on the default
 * execution space over the league px_team_rows shapes from the row pointer: the lanes a
 * row gets, the rows a team takes and, on a GPU, the long rows that get a team each are
 * the library's choice, printed. A is the 5-point Laplacian of an n x n grid (n from
 * argv[1], default 64), then a power-law matrix with as many rows (which has long rows);
 * y is checked against a plain C SpMV.
 *
 *   spmv [n] */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "../common/csr.h"
#include "example.h"
#include "spmv_kernels.h"

/* A 1-D view of `n` elements of `dtype` in the example's space, holding `src`. */
static px_view *upload(example_backend be, const char *label, px_dtype dtype, int64_t n,
                       const void *src, size_t elem)
{
    px_view_desc desc = {.label = label,
                         .space = be.space,
                         .dtype = dtype,
                         .rank = 1,
                         .extent = {n > 0 ? n : 1},
                         .flags = PX_VIEW_NO_INIT};
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

/* y = A x with the team kernel, checked against plain C: true when it agrees. */
static bool spmv_check(example_backend be, const char *name, const csr *m)
{
    double *x = malloc((size_t)m->nrows * sizeof *x), *ref = malloc((size_t)m->nrows * sizeof *ref);
    double *nan = malloc((size_t)m->nrows * sizeof *nan);
    if (!x || !ref || !nan) exit(2);
    uint64_t seed = 11;
    for (int64_t r = 0; r < m->nrows; ++r) {
        x[r] = csr_random(&seed);
        nan[r] = NAN; /* y's start: a row the kernel misses fails the check */
    }
    csr_spmv_plain(m, x, ref);

    px_view *v[5] = {upload(be, "row", PX_I32, m->nrows + 1, m->row, sizeof *m->row),
                     upload(be, "col", PX_I32, m->nnz, m->col, sizeof *m->col),
                     upload(be, "val", PX_F64, m->nnz, m->val, sizeof *m->val),
                     upload(be, "x", PX_F64, m->nrows, x, sizeof *x),
                     upload(be, "y", PX_F64, m->nrows, nan, sizeof *nan)};
    spmv_args args;
    CHECK(px_view_get_span(v[0], &args.row));
    CHECK(px_view_get_span(v[1], &args.col));
    CHECK(px_view_get_span(v[2], &args.val));
    CHECK(px_view_get_span(v[3], &args.x));
    CHECK(px_view_get_span(v[4], &args.y));
    /* The rows measured once (as a sparse library's analysis step), the shape chosen. */
    px_team_rows *rows;
    CHECK(px_team_rows_create(be.inst, v[0], &rows));
    CHECK(px_parallel_for_team(be.inst, "spmv", px_teams_rows(rows), PX_KERNEL(spmv), &args));

    px_view *hy;
    CHECK(px_view_create_mirror_view(&hy, px_host(), v[4]));
    CHECK(px_deep_copy(hy, v[4], NULL)); /* waits for the kernel */
    px_span_f64 ys;
    CHECK(px_view_get_span(hy, &ys));
    const double diff = csr_max_rel_diff(m, x, ys.data, ref);
    const bool ok = diff <= 1e-12;
    px_team_rows_info in;
    CHECK(px_team_rows_info_get(rows, &in));
    printf("spmv: %s, %lld rows, %lld entries (longest %lld): teams of %d x %d, %lld rows a team, "
           "%lld rows longer than %lld in teams of their own; max relative difference from plain "
           "C %.3g: %s\n",
           name, (long long)in.rows, (long long)in.entries, (long long)in.max_entries, in.team_size,
           in.vector_length, (long long)in.rows_per_team, (long long)in.long_rows,
           (long long)in.long_after, diff, ok ? "OK" : "MISMATCH");

    CHECK(px_team_rows_release(&rows));
    CHECK(px_view_release(&hy));
    for (int k = 0; k < 5; ++k) CHECK(px_view_release(&v[k]));
    free(x);
    free(ref);
    free(nan);
    return ok;
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

    char name[64];
    snprintf(name, sizeof name, "%lld x %lld grid Laplacian", (long long)n, (long long)n);
    csr lap = csr_laplacian2d(n);
    bool ok = spmv_check(be, name, &lap);
    csr_free(&lap);
    csr pl = csr_powerlaw(n * n, 4096, 42);
    ok = spmv_check(be, "power-law rows", &pl) && ok;
    csr_free(&pl);

    CHECK(px_finalize());
    return ok ? 0 : 1;
}
