/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Dual views and one-call mirrors (portex/dual_view.h, px_view_create_mirror_view_and_copy):
 * a pair of the backend's space and the host (on CUDA a device view and its host mirror; on
 * the host backends one view, or two host views wrapped), modify and sync copying only
 * when a side is out of date and saying which way, blocking and on an instance; the
 * refusals, each naming its call. Suite "dual_view". */
#include <stdlib.h>

#include "common.h"

enum { DV_N = 1000 };

/* Element i of a HOST copy of v. */
static int64_t at(px_view *v, int64_t i)
{
    px_view *h = tk_to_host(v);
    const int64_t x = ((const int64_t *)tk_data(h))[i];
    TK_RELEASE(h);
    return x;
}

/* v's elements become base + i, written on the host and copied where v lives. */
static void fill(px_view *v, int64_t base)
{
    px_view *h = tk_to_host(v);
    int64_t *p = tk_data(h);
    for (int64_t i = 0; i < DV_N; ++i) p[i] = base + i;
    tk_upload(v, h);
    TK_RELEASE(h);
}

static bool holds(px_view *v, int64_t base)
{
    px_view *h = tk_to_host(v);
    const int64_t *p = tk_data(h);
    bool ok = true;
    for (int64_t i = 0; i < DV_N && ok; ++i) ok = p[i] == base + i;
    TK_RELEASE(h);
    return ok;
}

static bool need(px_dual_view *dv, const px_view *side)
{
    bool b = false;
    TK_OK(px_dual_view_need_sync(dv, side, &b));
    return b;
}

/* The protocol on a pair of distinct views a and b. */
static void protocol(px_dual_view *dv, px_view *a, px_view *b, px_instance *inst)
{
    px_dual_sync done;
    ck_assert(!need(dv, a) && !need(dv, b));
    TK_OK(px_dual_view_sync(dv, b, inst, &done));
    ck_assert_msg(!done.copied, "a sync of a side in sync copied");

    fill(a, 100);
    TK_OK(px_dual_view_modify(dv, a));
    ck_assert(need(dv, b) && !need(dv, a));
    TK_OK(px_dual_view_sync(dv, b, inst, &done));
    ck_assert(done.copied);
    ck_assert_int_eq(done.from.kind, tk_info(a).space.kind);
    ck_assert_int_eq(done.to.kind, tk_info(b).space.kind);
    ck_assert_int_ne(done.path, PX_COPY_NONE);
    if (inst) TK_OK(px_instance_fence(inst));
    ck_assert_msg(holds(b, 100), "the sync did not bring a's elements into b");
    ck_assert(!need(dv, a) && !need(dv, b));
    TK_OK(px_dual_view_sync(dv, b, inst, &done));
    ck_assert_msg(!done.copied, "a second sync copied again");

    /* Modifying the same side again, then the other way round. */
    fill(a, 200);
    TK_OK(px_dual_view_modify(dv, a));
    TK_OK(px_dual_view_modify(dv, a));
    TK_FAIL(px_dual_view_modify(dv, b), PX_ERR_INVALID_ARGUMENT, "px_dual_view_modify");
    TK_ERROR_HAS("not synced");
    TK_OK(px_dual_view_sync(dv, b, inst, NULL));
    fill(b, 300);
    TK_OK(px_dual_view_modify(dv, b));
    TK_OK(px_dual_view_sync(dv, a, inst, &done));
    ck_assert(done.copied);
    if (inst) TK_OK(px_instance_fence(inst));
    ck_assert(holds(a, 300));
    ck_assert_int_eq(at(a, DV_N - 1), 300 + DV_N - 1);
}

START_TEST(dual_view_wrapped_host_pair)
{
    /* Two host views: the whole protocol on every backend (blocking, then on the backend's
       instance). */
    for (int on_inst = 0; on_inst < 2; ++on_inst) {
        px_view *a = tk_view1("a", tk_space(), PX_I64, DV_N);
        px_view *b = tk_view1("b", px_host(), PX_I64, DV_N);
        px_dual_view *dv = NULL;
        TK_OK(px_dual_view_wrap(&dv, a, b));
        protocol(dv, a, b, on_inst ? tk_inst() : NULL);
        TK_OK(px_dual_view_destroy(&dv));
        TK_RELEASE(a, b);
    }
}
END_TEST

START_TEST(dual_view_created_mirror)
{
    /* px_dual_view_create: the host mirror of a view in the backend's space; on the host
       backends that is the view itself, and nothing ever copies. */
    px_view *v = tk_view1("v", tk_space(), PX_I64, DV_N);
    px_dual_view *dv = NULL;
    TK_OK(px_dual_view_create(&dv, v, px_host()));
    px_view *h = NULL, *d = NULL;
    TK_OK(px_dual_view_get(dv, px_host(), &h));
    TK_OK(px_dual_view_get(dv, tk_space(), &d));
    ck_assert_ptr_eq(d, v);
    if (tk_is_cuda()) {
        ck_assert_ptr_ne(h, v);
        protocol(dv, v, h, tk_inst());
    } else {
        ck_assert_ptr_eq(h, v);
        px_dual_sync done;
        TK_OK(px_dual_view_modify(dv, v));
        ck_assert(!need(dv, v));
        TK_OK(px_dual_view_sync(dv, v, NULL, &done));
        ck_assert(!done.copied);
    }
    TK_OK(px_dual_view_destroy(&dv));
    TK_RELEASE(v);
}
END_TEST

START_TEST(mirror_view_and_copy)
{
    px_view *v = tk_view1("v", tk_space(), PX_I64, DV_N);
    fill(v, 7);
    px_view *h = NULL;
    TK_OK(px_view_create_mirror_view_and_copy(&h, px_host(), v));
    ck_assert(tk_on_host(h));
    ck_assert(holds(h, 7));
    if (tk_is_cuda())
        ck_assert_ptr_ne(h, v);
    else
        ck_assert_ptr_eq(h, v); /* already there: the view itself, one more reference */
    px_view *same = NULL;
    TK_OK(px_view_create_mirror_view_and_copy(&same, tk_space(), v));
    ck_assert_ptr_eq(same, v);
    TK_FAIL(px_view_create_mirror_view_and_copy(NULL, px_host(), v), PX_ERR_INVALID_ARGUMENT,
            "px_view_create_mirror_view_and_copy");
    px_view *none = v;
    TK_FAIL(px_view_create_mirror_view_and_copy(&none, px_host(), NULL), PX_ERR_INVALID_ARGUMENT,
            "px_view_create_mirror_view_and_copy");
    ck_assert_ptr_null(none);
    none = v;
    TK_FAIL2(px_view_create_mirror_view_and_copy(&none, (px_space){PX_SPACE_DEVICE, 99}, v),
             PX_ERR_INVALID_ARGUMENT, PX_ERR_NO_DEVICE, "px_view_create_mirror_view_and_copy");
    ck_assert_ptr_null(none);
    TK_RELEASE(same, h, v);
}
END_TEST

/* Plain host memory to and from a view in the backend's space, in row-major order for a
   LAYOUT_RIGHT 2-D view and column-major for LAYOUT_LEFT; a scalar; the refusals. */
START_TEST(deep_copy_host_memory)
{
    int64_t in[DV_N], out[DV_N];
    for (int64_t i = 0; i < DV_N; ++i) in[i] = 3 * i + 1;
    px_view *v = tk_view1("v", tk_space(), PX_I64, DV_N);
    TK_OK(px_deep_copy_from_host(v, in, sizeof in));
    ck_assert_int_eq(at(v, 10), 31);
    TK_OK(px_deep_copy_to_host(out, sizeof out, v));
    for (int64_t i = 0; i < DV_N; ++i) ck_assert_int_eq(out[i], in[i]);

    for (int layout = 0; layout < 2; ++layout) {
        px_view_desc d = {.label = "m", .space = tk_space(), .dtype = PX_F64, .rank = 2};
        d.extent[0] = 3;
        d.extent[1] = 5;
        d.layout = layout ? PX_LAYOUT_LEFT : PX_LAYOUT_RIGHT;
        px_view *m = NULL;
        TK_OK(px_view_create(&m, &d));
        double a[15], b[15];
        for (int i = 0; i < 15; ++i) a[i] = i + 0.5;
        TK_OK(px_deep_copy_from_host(m, a, sizeof a));
        px_view *h = tk_to_host(m); /* a mirror keeps m's layout */
        const double *hp = tk_data(h);
        for (int i = 0; i < 15; ++i) ck_assert(hp[i] == a[i]);
        px_span_f64 s;
        TK_OK(px_view_get_span(h, &s));
        ck_assert(PX_AT2(s, 1, 2) == (layout ? a[1 + 2 * 3] : a[1 * 5 + 2]));
        TK_OK(px_deep_copy_to_host(b, sizeof b, m));
        for (int i = 0; i < 15; ++i) ck_assert(b[i] == a[i]);
        TK_RELEASE(h, m);
    }

    px_view *one = tk_view1("one", tk_space(), PX_F64, 1);
    const double x = 2.25;
    double y = 0;
    TK_OK(px_deep_copy_from_host(one, &x, sizeof x));
    TK_OK(px_deep_copy_to_host(&y, sizeof y, one));
    ck_assert(y == 2.25);

    TK_FAIL(px_deep_copy_to_host(out, sizeof out - 8, v), PX_ERR_INVALID_ARGUMENT,
            "px_deep_copy_to_host");
    TK_FAIL(px_deep_copy_to_host(NULL, sizeof out, v), PX_ERR_INVALID_ARGUMENT,
            "px_deep_copy_to_host");
    TK_FAIL(px_deep_copy_to_host(out, sizeof out, NULL), PX_ERR_INVALID_ARGUMENT,
            "px_deep_copy_to_host");
    TK_FAIL(px_deep_copy_from_host(v, in, 1), PX_ERR_INVALID_ARGUMENT, "px_deep_copy_from_host");
    TK_FAIL(px_deep_copy_from_host(NULL, in, sizeof in), PX_ERR_INVALID_ARGUMENT,
            "px_deep_copy_from_host");
    ck_assert_int_eq(at(v, 10), 31); /* a refused copy changes nothing */
    px_view *empty = tk_view1("empty", tk_space(), PX_F64, 0);
    TK_OK(px_deep_copy_to_host(NULL, 0, empty)); /* nothing to copy, no memory needed */
    TK_OK(px_deep_copy_from_host(empty, NULL, 0));
    TK_RELEASE(empty);
    TK_RELEASE(one, v);
}
END_TEST

START_TEST(dual_view_refusals)
{
    px_view *a = tk_view1("a", px_host(), PX_I64, DV_N);
    px_view *b = tk_view1("b", px_host(), PX_I64, DV_N);
    px_view *other = tk_view1("other", px_host(), PX_I64, DV_N);
    px_view *shorter = tk_view1("shorter", px_host(), PX_I64, DV_N - 1);
    px_view *f = tk_view1("f", px_host(), PX_F64, DV_N);
    px_dual_view *dv = NULL;
    TK_FAIL(px_dual_view_wrap(&dv, a, shorter), PX_ERR_INVALID_ARGUMENT, "px_dual_view_wrap");
    TK_ERROR_HAS("dimension 0");
    TK_FAIL(px_dual_view_wrap(&dv, a, f), PX_ERR_INVALID_ARGUMENT, "px_dual_view_wrap");
    TK_ERROR_HAS("element types");
    TK_FAIL(px_dual_view_wrap(NULL, a, b), PX_ERR_INVALID_ARGUMENT, "px_dual_view_wrap");
    TK_FAIL(px_dual_view_wrap(&dv, a, NULL), PX_ERR_INVALID_ARGUMENT, "px_dual_view_wrap");
    ck_assert_ptr_null(dv);
    TK_OK(px_dual_view_wrap(&dv, a, b));
    bool n;
    TK_FAIL(px_dual_view_modify(dv, other), PX_ERR_INVALID_ARGUMENT, "px_dual_view_modify");
    TK_ERROR_HAS("neither side");
    TK_FAIL(px_dual_view_sync(dv, NULL, NULL, NULL), PX_ERR_INVALID_ARGUMENT, "px_dual_view_sync");
    TK_FAIL(px_dual_view_need_sync(dv, a, NULL), PX_ERR_INVALID_ARGUMENT, "px_dual_view_need_sync");
    TK_FAIL(px_dual_view_need_sync(NULL, a, &n), PX_ERR_INVALID_ARGUMENT, "px_dual_view_need_sync");
    px_view *got = NULL;
    if (!px_space_available(px_device(0))) {
        TK_FAIL(px_dual_view_get(dv, px_device(0), &got), PX_ERR_INVALID_ARGUMENT,
                "px_dual_view_get");
        TK_ERROR_HAS("neither side");
    }
    px_dual_view *none = NULL;
    TK_FAIL(px_dual_view_create(&none, NULL, px_host()), PX_ERR_INVALID_ARGUMENT,
            "px_dual_view_create");
    ck_assert_ptr_null(none);
    TK_FAIL(px_dual_view_create(NULL, a, px_host()), PX_ERR_INVALID_ARGUMENT,
            "px_dual_view_create");
    TK_FAIL2(px_dual_view_create(&none, a, (px_space){PX_SPACE_DEVICE, 99}),
             PX_ERR_INVALID_ARGUMENT, PX_ERR_NO_DEVICE, "px_dual_view_create");
    ck_assert_ptr_null(none);
    TK_FAIL(px_dual_view_get(dv, px_host(), NULL), PX_ERR_INVALID_ARGUMENT, "px_dual_view_get");
    TK_FAIL(px_dual_view_get(NULL, px_host(), &got), PX_ERR_INVALID_ARGUMENT, "px_dual_view_get");
    TK_FAIL(px_dual_view_modify(NULL, a), PX_ERR_INVALID_ARGUMENT, "px_dual_view_modify");
    TK_FAIL(px_dual_view_sync(NULL, a, NULL, NULL), PX_ERR_INVALID_ARGUMENT, "px_dual_view_sync");
    TK_FAIL(px_dual_view_need_sync(dv, other, &n), PX_ERR_INVALID_ARGUMENT,
            "px_dual_view_need_sync");
    TK_FAIL(px_dual_view_destroy(NULL), PX_ERR_INVALID_ARGUMENT, "px_dual_view_destroy");
    TK_FAIL(px_dual_view_destroy(&none), PX_ERR_INVALID_ARGUMENT, "px_dual_view_destroy");
    TK_OK(px_dual_view_destroy(&dv));
    TK_RELEASE(a, b, other, shorter, f);
}
END_TEST

int main(void)
{
    TCase *tc = tk_case("dual_view", "dual_view");
    tcase_add_test(tc, dual_view_wrapped_host_pair);
    tcase_add_test(tc, dual_view_created_mirror);
    tcase_add_test(tc, mirror_view_and_copy);
    tcase_add_test(tc, deep_copy_host_memory);
    tcase_add_test(tc, dual_view_refusals);
    return tk_run();
}
