/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* What the linalg tests share: host arrays in the types libportex_linalg takes, made from
 * the int64 indices and double values the tests build matrices with. */
#ifndef LA_TEST_H
#define LA_TEST_H

#include <stdlib.h>

#include "common.h"
#include "portex/linalg.h"

/* calloc that fails the test when out of memory (n = 0: one element). */
static inline void *la_calloc(size_t n, size_t size)
{
    void *p = calloc(n > 0 ? n : 1, size);
    ck_assert_ptr_nonnull(p);
    return p;
}

/* src as n indices of `it` (PX_I32 or PX_I64); free it. */
static inline void *la_as_index(const int64_t *src, int64_t n, px_dtype it)
{
    void *p = la_calloc((size_t)n, px_dtype_size(it));
    for (int64_t i = 0; i < n; ++i)
        if (it == PX_I32)
            ((int32_t *)p)[i] = (int32_t)src[i];
        else
            ((int64_t *)p)[i] = src[i];
    return p;
}

/* src as n values of `vt` (PX_F32 or PX_F64); free it. */
static inline void *la_as_values(const double *src, int64_t n, px_dtype vt)
{
    void *p = la_calloc((size_t)n, px_dtype_size(vt));
    for (int64_t i = 0; i < n; ++i)
        if (vt == PX_F32)
            ((float *)p)[i] = (float)src[i];
        else
            ((double *)p)[i] = src[i];
    return p;
}

/* Element i of values of `vt`. */
static inline long double la_value_at(const void *p, px_dtype vt, int64_t i)
{
    return vt == PX_F32 ? (long double)((const float *)p)[i] : (long double)((const double *)p)[i];
}

/* A CSR matrix on the host as the tests build them: int64 indices, double values. */
typedef struct la_mat {
    int64_t nrows, ncols, nnz;
    int64_t *off, *col;
    double *val;
} la_mat;

static inline void la_mat_drop(la_mat *m)
{
    free(m->off);
    free(m->col);
    free(m->val);
}

/* m as a px_csr of vt values and it indices in tk_space(), on tk_inst(). */
static inline px_csr *la_create(const la_mat *m, px_dtype vt, px_dtype it)
{
    void *off = la_as_index(m->off, m->nrows + 1, it), *col = la_as_index(m->col, m->nnz, it);
    void *val = la_as_values(m->val, m->nnz, vt);
    px_csr_desc d = {m->nrows, m->ncols, m->nnz, vt, it, off, col, val};
    px_csr *A = NULL;
    TK_OK(px_csr_create(tk_inst(), tk_space(), &d, &A));
    free(off);
    free(col);
    free(val);
    return A;
}

/* st is `want`, and the last error names `func` (`what`: the case, for the message). */
static inline void la_expect_refused(px_status st, px_status want, const char *func,
                                     const char *what)
{
    ck_assert_msg(st == want, "%s: %s returned %s, want %s (%s)", what, func, px_status_name(st),
                  px_status_name(want), px_last_error());
    ck_assert_msg(tk_error_from(func), "%s: last error '%s' is not %s's", what, px_last_error(),
                  func);
}

#endif
