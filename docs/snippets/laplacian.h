/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* A sparse matrix for the harnesses whose snippets multiply one (docs/kernels.md's and
 * docs/teams.md's SpMV): the 1-D Laplacian (2 on the diagonal, -1 beside it) in CSR form,
 * as views of the default space, with x(i) = i and room for y = A x. */
#ifndef SNIPPET_LAPLACIAN_H
#define SNIPPET_LAPLACIAN_H

#include "snippet.h"

typedef struct laplacian {
    int64_t nrows;
    px_view *row;       /* I64, nrows + 1: row r's entries are [row(r), row(r + 1)) */
    px_view *col, *val; /* I32 and F64, an entry each */
    px_view *x, *y;     /* F64, nrows each */
} laplacian;

/* The matrix's spans in `args`, a struct with spans row, col, val, x and y of any span
 * types that fit the views (each harness's SpMV takes its own): a macro, because
 * px_view_get_span takes each span by its own type. */
#define LAPLACIAN_SPANS(m, args)                       \
    do {                                               \
        CHECK(px_view_get_span((m).row, &(args).row)); \
        CHECK(px_view_get_span((m).col, &(args).col)); \
        CHECK(px_view_get_span((m).val, &(args).val)); \
        CHECK(px_view_get_span((m).x, &(args).x));     \
        CHECK(px_view_get_span((m).y, &(args).y));     \
    } while (0)

/* A host view's copy in the default space, released from the host. */
static inline px_view *laplacian_to_default_space(px_view *h)
{
    px_space where;
    px_view *v;
    CHECK(px_default_space(&where));
    CHECK(px_view_create_mirror(&v, where, h));
    CHECK(px_deep_copy(v, h, NULL));
    CHECK(px_view_release(&h));
    return v;
}

static inline void laplacian_create(laplacian *m, int64_t nrows)
{
    const int64_t nnz = 3 * nrows - 2;
    px_view *row, *col, *val, *x;
    px_span_i64_1d rs;
    px_span_i32_1d cs;
    px_span_f64_1d vs, xs;
    CHECK(px_view_create_1d(&row, "row", px_host(), PX_I64, nrows + 1));
    CHECK(px_view_create_1d(&col, "col", px_host(), PX_I32, nnz));
    CHECK(px_view_create_1d(&val, "val", px_host(), PX_F64, nnz));
    CHECK(px_view_create_1d(&x, "x", px_host(), PX_F64, nrows));
    CHECK(px_view_get_span(row, &rs));
    CHECK(px_view_get_span(col, &cs));
    CHECK(px_view_get_span(val, &vs));
    CHECK(px_view_get_span(x, &xs));
    int64_t k = 0;
    for (int64_t r = 0; r < nrows; ++r) {
        PX_AT1(rs, r) = k;
        PX_AT1(xs, r) = (double)r;
        for (int64_t c = r - 1; c <= r + 1; ++c) {
            if (c < 0 || c >= nrows) continue;
            PX_AT1(cs, k) = (int32_t)c;
            PX_AT1(vs, k) = c == r ? 2.0 : -1.0;
            ++k;
        }
    }
    PX_AT1(rs, nrows) = k;
    m->nrows = nrows;
    m->row = laplacian_to_default_space(row);
    m->col = laplacian_to_default_space(col);
    m->val = laplacian_to_default_space(val);
    m->x = laplacian_to_default_space(x);
    px_space where;
    CHECK(px_default_space(&where));
    CHECK(px_view_create_1d(&m->y, "y", where, PX_F64, nrows));
}

/* y = A x: 2r - (r - 1) - (r + 1) = 0 inside; the first and last rows lack a neighbour. */
static inline void laplacian_check_and_release(laplacian *m)
{
    px_view *h = snippet_host_copy(m->y);
    px_span_f64_1d ys;
    CHECK(px_view_get_span(h, &ys));
    for (int64_t r = 0; r < m->nrows; ++r)
        EXPECT(PX_AT1(ys, r) == (r == 0 ? -1.0 : r == m->nrows - 1 ? (double)m->nrows : 0.0));
    CHECK(px_view_release(&h));
    CHECK(px_view_release(&m->row));
    CHECK(px_view_release(&m->col));
    CHECK(px_view_release(&m->val));
    CHECK(px_view_release(&m->x));
    CHECK(px_view_release(&m->y));
}

#endif /* SNIPPET_LAPLACIAN_H */
