/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* What the linalg tests share: host arrays in the types libportex_linalg takes, made from
 * the int64 indices and double values the tests build matrices with. */
#ifndef LA_TEST_H
#define LA_TEST_H

#include <stdlib.h>

#include "common.h"

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

#endif
