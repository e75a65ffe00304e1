/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* px_scatter_add, px_scatter_add2 and px_scatter_get_span given something that is no
 * scatter handle: the target's span, its data pointer, a handle by value, a const handle to
 * fill (check_compile_fail.py: each mistake must fail with the words after EXPECT; without
 * one the file compiles). Compiled as C and, with CUDA, as CUDA C++; never built
 * otherwise. */
#include "portex.h"

typedef struct cf_scatter_args {
    px_scatter_i32 hist;
    px_scatter_f64 grid;
    px_span_i32_1d counts;
} cf_scatter_args;

PX_FOR(cf_scatter, cf_scatter_args, args, i)
{
    /* Every form on what it is for: the generic names convert the value. */
    px_scatter_add(&args->hist, i % 7, 1);
    px_scatter_add(&args->grid, i % 7, 1);
    px_scatter_add2(&args->grid, 0, i % 7, 0.5f);
    px_scatter_add_i32(&args->hist, 0, 2);
#if PX_TEST_MISTAKE == 1 /* EXPECT: px_scatter_add: the first argument must point to a scatter */
    px_scatter_add(&args->counts, i % 7, 1);
#elif PX_TEST_MISTAKE == 2 /* EXPECT: px_scatter_add: the first argument must point to a scatter */
    px_scatter_add(args->counts.data, i % 7, 1);
#elif PX_TEST_MISTAKE == 3 /* EXPECT: px_scatter_add: the first argument must point to a scatter */
    px_scatter_add(args->hist, i % 7, 1);
#elif PX_TEST_MISTAKE == 4 /* EXPECT: px_scatter_add2: the first argument must point to a scatter */
    px_scatter_add2(&args->counts, 0, i % 7, 1);
#endif
}

px_status cf_scatter_handles(const px_scatter *s, cf_scatter_args *a);
px_status cf_scatter_handles(const px_scatter *s, cf_scatter_args *a)
{
    px_status st = px_scatter_get_span(s, &a->hist);
    if (st == PX_OK) st = px_scatter_get_span(s, &a->grid);
#if PX_TEST_MISTAKE == 5 /* EXPECT: px_scatter_get_span: the second argument must point */
    if (st == PX_OK) st = px_scatter_get_span(s, &a->counts);
#elif PX_TEST_MISTAKE == 6 /* EXPECT: px_scatter_get_span: the second argument must point */
    const px_scatter_i32 *c = &a->hist;
    if (st == PX_OK) st = px_scatter_get_span(s, c);
#elif PX_TEST_MISTAKE == 7 /* EXPECT: px_scatter_get_span: the second argument must point */
    if (st == PX_OK) st = px_scatter_get_span(s, a->hist);
#endif
    return st;
}
