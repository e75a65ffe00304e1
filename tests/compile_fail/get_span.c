/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* px_view_get_span given something that is no span (check_compile_fail.py: each mistake must
 * fail with the words after EXPECT; without one the file compiles). Host code in a kernel
 * file, as in a one-file program: compiled as C and, with CUDA, as CUDA C++; never built
 * otherwise. */
#include "portex.h"

px_status cf_get_spans(px_view *v, px_view *m);
px_status cf_get_spans(px_view *v, px_view *m)
{
    px_span any;
    px_span_f64 s;
    px_span_f64_1d_restrict x;
    px_span_i64_right r;
    px_status st = px_view_get_span(v, &any);
    if (st == PX_OK) st = px_view_get_span(v, &s);
    if (st == PX_OK) st = px_view_get_span(v, &x);
    if (st == PX_OK) st = px_view_get_span(m, &r);
#if PX_TEST_MISTAKE == \
    1 /* EXPECT: px_view_get_span: the second argument must point to a px_span_* type */
    double *data = NULL;
    if (st == PX_OK) st = px_view_get_span(v, &data);
#elif PX_TEST_MISTAKE == \
    2 /* EXPECT: px_view_get_span: the second argument must point to a px_span_* type */
    if (st == PX_OK) st = px_view_get_span(v, &v);
#elif PX_TEST_MISTAKE == \
    3 /* EXPECT: px_view_get_span: the second argument must point to a px_span_* type */
    if (st == PX_OK) st = px_view_get_span(v, s);
#elif PX_TEST_MISTAKE == \
    4 /* EXPECT: px_view_get_span: the second argument must point to a px_span_* type */
    const px_span_f64 *cs = &s;
    if (st == PX_OK) st = px_view_get_span(v, cs);
#endif
    return st;
}
