/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The parts of test_view (suite view), a file per test case (view_create.c: create,
 * view_subview.c: subview, view_mirror.c: mirror_span_memory), each registering its tests;
 * test_view.c's main runs them. What the parts share: the dtypes and extents the loop tests
 * go through, the strides a layout gives, a small grid of known values. */
#ifndef PX_TESTS_TEST_VIEW_H
#define PX_TESTS_TEST_VIEW_H

#include "common.h"

void view_create_cases(void);
void view_subview_cases(void);
void view_mirror_cases(void);

static const px_dtype builtin[] = {PX_U8, PX_I32, PX_I64, PX_U32, PX_U64, PX_F32, PX_F64};
static const size_t builtin_size[] = {1, 4, 8, 4, 8, 4, 8};
#define NBUILTIN 7
#define NDTYPES (NBUILTIN + 1) /* + PX_USER */
#define USER_SIZE 12           /* an element of 12 bytes (3 floats) */

static const int64_t ext8[PX_MAX_RANK] = {2, 3, 1, 4, 3, 2, 1, 2};

static inline int64_t product(const int64_t *e, int rank)
{
    int64_t p = 1;
    for (int k = 0; k < rank; ++k) p *= e[k];
    return p;
}

static inline void expect_strides(const px_view_info *in, px_layout layout)
{
    int64_t s = 1;
    if (layout == PX_LAYOUT_RIGHT) {
        for (int k = in->rank - 1; k >= 0; --k) {
            TK_ASSERT(in->stride[k] == s, "RIGHT stride[%d] = %lld, want %lld", k,
                      (long long)in->stride[k], (long long)s);
            s *= in->extent[k];
        }
    } else {
        for (int k = 0; k < in->rank; ++k) {
            TK_ASSERT(in->stride[k] == s, "LEFT stride[%d] = %lld, want %lld", k,
                      (long long)in->stride[k], (long long)s);
            s *= in->extent[k];
        }
    }
}

/* A 5x7 HOST view with v(i,j) = 100 i + j. */
static inline px_view *grid(px_layout layout)
{
    const int64_t e[2] = {5, 7};
    px_view_desc d = tk_desc("grid", px_host(), PX_I32, 2, e);
    d.layout = layout;
    px_view *v = NULL;
    TK_OK(px_view_create(&v, &d));
    px_span_i32 s;
    TK_OK(px_view_span_i32(v, &s));
    for (int i = 0; i < 5; ++i)
        for (int j = 0; j < 7; ++j) PX_AT2(s, i, j) = 100 * i + j;
    return v;
}

#endif /* PX_TESTS_TEST_VIEW_H */
