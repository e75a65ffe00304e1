/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Execution instances and events on the backend under test. */
#include <stdio.h>
#include <stdlib.h>

#include "common.h"
#include "kernels.h"

/* ---- default instance ---------------------------------------------------------------------- */

/* in runs on the execution space under test, device 0. */
static void check_on_tested_space(px_instance *in)
{
    px_exec_space e;
    TK_OK(px_instance_exec_space(in, &e));
    ck_assert_int_eq(e, tk_exec());
    int dev = -1;
    TK_OK(px_instance_device(in, &dev));
    ck_assert_int_eq(dev, 0);
}

START_TEST(default_instance)
{
    px_instance *a = NULL, *b = NULL;
    TK_OK(px_instance_default(tk_exec(), 0, &a));
    TK_OK(px_instance_default(tk_exec(), 0, &b));
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_eq(a, b); /* one per execution space and device */
    check_on_tested_space(a);
    const char *label = NULL;
    TK_OK(px_instance_label(a, &label));
    ck_assert_ptr_nonnull(label);
    TK_OK(px_instance_fence(a));

    /* It belongs to portex: destroying it is refused and leaves it usable. */
    px_instance *c = a;
    px_status st = px_instance_destroy(&c);
    TK_ASSERT(st == PX_ERR_INVALID_ARGUMENT, "destroying the default instance: %s",
              px_status_name(st));
    ck_assert_ptr_nonnull(strstr(px_last_error(), "px_instance_destroy"));
    TK_OK(px_instance_fence(a));
}
END_TEST

START_TEST(default_instance_bad_input)
{
    px_instance *a = NULL;
    TK_FAIL(px_instance_default(tk_exec(), 0, NULL), PX_ERR_INVALID_ARGUMENT,
            "px_instance_default");
    TK_FAIL(px_instance_default(PX_EXEC_COUNT, 0, &a), PX_ERR_INVALID_ARGUMENT,
            "px_instance_default");
    TK_FAIL(px_instance_default((px_exec_space)-1, 0, &a), PX_ERR_INVALID_ARGUMENT,
            "px_instance_default");
    TK_FAIL2(px_instance_default(tk_exec(), -1, &a), PX_ERR_INVALID_ARGUMENT, PX_ERR_NO_DEVICE,
             "px_instance_default");
    int n = 0;
    TK_OK(px_exec_space_device_count(tk_exec(), &n));
    /* A device that is not there: the headers do not say which of the two. */
    TK_FAIL2(px_instance_default(tk_exec(), n, &a), PX_ERR_NO_DEVICE, PX_ERR_INVALID_ARGUMENT,
             "px_instance_default");
    TK_FAIL2(px_instance_default(tk_exec(), 1000, &a), PX_ERR_NO_DEVICE, PX_ERR_INVALID_ARGUMENT,
             "px_instance_default");
    ck_assert_ptr_null(a);
}
END_TEST

/* ---- create / destroy ----------------------------------------------------------------------- */

START_TEST(create_destroy)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%s", "solver");
    px_instance *in = tk_instance(buf);
    memset(buf, 'Z', sizeof buf - 1);
    const char *label = NULL;
    TK_OK(px_instance_label(in, &label));
    ck_assert_str_eq(label, "solver");
    check_on_tested_space(in);
    px_instance *def = tk_inst();
    ck_assert_ptr_ne(in, def);
    TK_OK(px_instance_destroy(&in));
    ck_assert_ptr_null(in);

    /* NULL label: "<exec>:<device>". */
    in = tk_instance(NULL);
    TK_OK(px_instance_label(in, &label));
    char want[64];
    snprintf(want, sizeof want, "%s:0", px_exec_space_string(tk_exec()));
    TK_ASSERT(strlen(label) == strlen(want) && tk_contains_ci(label, want), "label '%s', want '%s'",
              label, want);
    TK_OK(px_instance_destroy(&in));

    /* Priorities are clamped, never refused. */
    px_instance_desc d;
    memset(&d, 0, sizeof d);
    d.exec = tk_exec();
    d.priority = -1000;
    TK_OK(px_instance_create(&in, &d));
    TK_OK(px_instance_fence(in));
    TK_OK(px_instance_destroy(&in));
    d.priority = 1000;
    TK_OK(px_instance_create(&in, &d));
    TK_OK(px_instance_destroy(&in));

    /* Many at once. */
    px_instance *many[8];
    for (int i = 0; i < 8; ++i) many[i] = tk_instance("many");
    for (int i = 0; i < 8; ++i) TK_OK(px_instance_destroy(&many[i]));
}
END_TEST

START_TEST(create_destroy_bad_input)
{
    px_instance_desc d;
    memset(&d, 0, sizeof d);
    d.exec = tk_exec();
    px_instance *in = NULL;
    TK_FAIL(px_instance_create(NULL, &d), PX_ERR_INVALID_ARGUMENT, "px_instance_create");
    TK_FAIL(px_instance_create(&in, NULL), PX_ERR_INVALID_ARGUMENT, "px_instance_create");
    d.exec = PX_EXEC_COUNT;
    TK_FAIL(px_instance_create(&in, &d), PX_ERR_INVALID_ARGUMENT, "px_instance_create");
    d.exec = (px_exec_space)-4;
    TK_FAIL(px_instance_create(&in, &d), PX_ERR_INVALID_ARGUMENT, "px_instance_create");
    d.exec = tk_exec();
    d.device = 1000;
    TK_FAIL2(px_instance_create(&in, &d), PX_ERR_NO_DEVICE, PX_ERR_INVALID_ARGUMENT,
             "px_instance_create");
    d.device = -1;
    TK_FAIL2(px_instance_create(&in, &d), PX_ERR_INVALID_ARGUMENT, PX_ERR_NO_DEVICE,
             "px_instance_create");
    ck_assert_ptr_null(in);
    /* CUDA on a build or machine without it. */
    if (!px_exec_space_available(PX_EXEC_CUDA)) {
        d.exec = PX_EXEC_CUDA;
        d.device = 0;
        px_status st = px_instance_create(&in, &d);
        TK_ASSERT(st == PX_ERR_UNSUPPORTED || st == PX_ERR_NO_DEVICE, "%s", px_status_name(st));
        ck_assert_ptr_nonnull(strstr(px_last_error(), "px_instance_create"));
        ck_assert_ptr_null(in);
    }

    TK_FAIL(px_instance_destroy(NULL), PX_ERR_INVALID_ARGUMENT, "px_instance_destroy");
    TK_FAIL(px_instance_destroy(&in), PX_ERR_INVALID_ARGUMENT, "px_instance_destroy");
    TK_FAIL(px_instance_fence(NULL), PX_ERR_INVALID_ARGUMENT, "px_instance_fence");

    px_exec_space e;
    int dev;
    const char *label;
    in = tk_instance("q");
    TK_FAIL(px_instance_exec_space(NULL, &e), PX_ERR_INVALID_ARGUMENT, "px_instance_exec_space");
    TK_FAIL(px_instance_exec_space(in, NULL), PX_ERR_INVALID_ARGUMENT, "px_instance_exec_space");
    TK_FAIL(px_instance_device(NULL, &dev), PX_ERR_INVALID_ARGUMENT, "px_instance_device");
    TK_FAIL(px_instance_device(in, NULL), PX_ERR_INVALID_ARGUMENT, "px_instance_device");
    TK_FAIL(px_instance_label(NULL, &label), PX_ERR_INVALID_ARGUMENT, "px_instance_label");
    TK_FAIL(px_instance_label(in, NULL), PX_ERR_INVALID_ARGUMENT, "px_instance_label");
    TK_OK(px_instance_destroy(&in));
}
END_TEST

/* ---- the memory space of an instance --------------------------------------------------------- */

static void space_is(px_instance *inst, px_space want)
{
    px_space s = {PX_SPACE_KIND_COUNT, 99};
    TK_OK(px_instance_space(inst, &s));
    TK_ASSERT(s.kind == want.kind && s.device == want.device, "space %s(%d), expected %s(%d)",
              px_space_kind_string(s.kind), s.device, px_space_kind_string(want.kind), want.device);
}

/* DEVICE(n) for an instance of GPU n, HOST for serial and OpenMP: the default instance of
 * every device of every execution space here, created instances and partitions; and a
 * kernel on an instance runs on a view made in its space. */
START_TEST(instance_space)
{
    for (int e = 0; e < PX_EXEC_COUNT; ++e) {
        const px_exec_space x = (px_exec_space)e;
        int n = 0;
        if (!px_exec_space_available(x)) continue;
        TK_OK(px_exec_space_device_count(x, &n));
        for (int d = 0; d < n; ++d) {
            px_instance *inst = NULL;
            TK_OK(px_instance_default(x, d, &inst));
            space_is(inst, x == PX_EXEC_CUDA ? px_device(d) : px_host());
        }
    }
    px_instance *def = tk_inst(), *made = tk_instance("made"), *part[2] = {NULL, NULL};
    space_is(def, tk_space());
    space_is(made, tk_space());
    TK_OK(px_partition(def, 2, NULL, part));
    space_is(part[0], tk_space());
    space_is(part[1], tk_space());

    /* y += 2 x on `made`, with x and y where px_instance_space says. */
    px_space where;
    TK_OK(px_instance_space(made, &where));
    const int64_t n = 1000;
    px_view *x = NULL, *y = NULL;
    TK_OK(px_view_create_1d(&x, "x", where, PX_F64, n));
    TK_OK(px_view_create_1d(&y, "y", where, PX_F64, n));
    const double one = 1.0;
    TK_OK(px_fill_async(made, x, &one, NULL));
    axpy_args a = {.a = 2.0};
    TK_OK(px_view_get_span(x, &a.x));
    TK_OK(px_view_get_span(y, &a.y));
    TK_OK(px_parallel_for(made, "axpy", px_range(0, n), PX_KERNEL(axpy), &a));
    TK_OK(px_instance_fence(made));
    px_view *h = tk_to_host(y);
    const double *p = (const double *)tk_data(h);
    for (int64_t i = 0; i < n; ++i) TK_ASSERT(p[i] == 2.0, "y[%lld] = %g", (long long)i, p[i]);
    TK_RELEASE(x, y, h);
    TK_OK(px_instance_destroy(&part[0]));
    TK_OK(px_instance_destroy(&part[1]));
    TK_OK(px_instance_destroy(&made));
}
END_TEST

START_TEST(instance_space_bad_input)
{
    px_space s = px_host();
    px_instance *in = tk_instance("q");
    TK_FAIL(px_instance_space(NULL, &s), PX_ERR_INVALID_ARGUMENT, "px_instance_space");
    TK_ERROR_HAS("NULL");
    TK_FAIL(px_instance_space(in, NULL), PX_ERR_INVALID_ARGUMENT, "px_instance_space");
    TK_ERROR_HAS("out");
    /* Not an instance: refused by its magic number, never followed. */
    uint64_t junk[16];
    memset(junk, 0x5a, sizeof junk);
    TK_FAIL(px_instance_space((const px_instance *)junk, &s), PX_ERR_INVALID_ARGUMENT,
            "px_instance_space");
    TK_ERROR_HAS("not a live instance");
    TK_OK(px_instance_destroy(&in));
    TK_FAIL(px_instance_space(in, &s), PX_ERR_INVALID_ARGUMENT, "px_instance_space");
}
END_TEST

/* ---- fences ----------------------------------------------------------------------------------- */

/* Work issued to an instance is done after its fence, after px_fence_all, and after its
 * destruction. */
START_TEST(fence_and_destroy_wait)
{
    const int64_t n = 65537;
    tk_rng r = tk_rng_seed(42);
    px_view *hx = tk_view1("x", px_host(), PX_F64, n);
    double *x = (double *)tk_data(hx);
    for (int64_t i = 0; i < n; ++i) x[i] = (double)tk_int(&r, -1000, 1000); /* exact sums */
    px_view *dx = tk_on_space(hx, "x"), *dy = tk_on_space(hx, "y");
    axpy_args a;
    a.a = 3.0;
    TK_OK(px_view_span_f64(dx, &a.x));
    TK_OK(px_view_span_f64(dy, &a.y));

    for (int how = 0; how < 3; ++how) {
        px_instance *in = tk_instance("fenced");
        TK_OK(px_parallel_for(in, NULL, px_range(0, n), PX_KERNEL(axpy), &a));
        if (how == 0) TK_OK(px_instance_fence(in));
        if (how == 1) TK_OK(px_fence_all());
        TK_OK(px_instance_destroy(&in)); /* how == 2: destroy waits */
        px_view *h = NULL;
        TK_OK(px_view_create_mirror(&h, px_host(), dy));
        /* Copy ordered on another instance, which is ordered after nothing: the work must
           be complete already. */
        px_instance *other = tk_instance("reader");
        TK_OK(px_deep_copy_async(other, h, dy, NULL));
        TK_OK(px_instance_fence(other));
        TK_OK(px_instance_destroy(&other));
        const double *y = (const double *)tk_data(h);
        for (int64_t i = 0; i < n; ++i)
            TK_ASSERT(y[i] == x[i] * (1.0 + 3.0 * (how + 1)), "how %d: y[%lld] = %g", how,
                      (long long)i, y[i]);
        px_view_release(&h);
    }
    TK_OK(px_fence_all());
    TK_RELEASE(dx, dy, hx);
}
END_TEST

/* ---- events ------------------------------------------------------------------------------------ */

START_TEST(events_record_query_sync)
{
    px_instance *in = tk_instance("ev");
    px_event *ev = NULL;
    TK_OK(px_event_create(&ev, in, 0));
    ck_assert_ptr_nonnull(ev);
    bool done = false;
    TK_OK(px_event_query(ev, &done));
    ck_assert(done); /* never recorded */
    TK_OK(px_event_synchronize(ev));

    const int64_t n = 65537;
    px_view *v = tk_view1("v", tk_space(), PX_F64, n);
    axpy_args a;
    a.a = 1.0;
    TK_OK(px_view_span_f64(v, &a.x));
    TK_OK(px_view_span_f64(v, &a.y));
    for (int rep = 0; rep < 3; ++rep) {
        TK_OK(px_parallel_for(in, NULL, px_range(0, n), PX_KERNEL(axpy), &a));
        TK_OK(px_event_record(ev, in));
        TK_OK(px_event_synchronize(ev));
        done = false;
        TK_OK(px_event_query(ev, &done));
        ck_assert(done);
    }
    /* The default instance records into an event of its execution space too. */
    TK_OK(px_event_record(ev, tk_inst()));
    TK_OK(px_event_synchronize(ev));
    TK_OK(px_event_destroy(&ev));
    ck_assert_ptr_null(ev);
    px_view_release(&v);
    TK_OK(px_instance_destroy(&in));
}
END_TEST

/* An event orders work between two instances without a fence: B's kernel reads what A's
 * kernel wrote. */
START_TEST(events_order_instances)
{
    const int64_t n = tk_is_cuda() ? (1 << 22) : (1 << 16);
    px_instance *ia = tk_instance("A"), *ib = tk_instance("B");
    tk_rng r = tk_rng_seed(8);
    px_view *hx = tk_view1("x", px_host(), PX_F64, n);
    double *x = (double *)tk_data(hx);
    for (int64_t i = 0; i < n; ++i) x[i] = (double)tk_int(&r, 1, 1000000); /* exact sums */
    px_view *dx = tk_on_space(hx, "x");
    px_view *dy = tk_view1("y", tk_space(), PX_F64, n);
    px_view *dz = tk_view1("z", tk_space(), PX_F64, n);
    px_event *ev = NULL;
    TK_OK(px_event_create(&ev, ia, 0));

    axpy_args a1, a2;
    a1.a = 2.0; /* y = 2 x, several times to make A's work long */
    TK_OK(px_view_span_f64(dx, &a1.x));
    TK_OK(px_view_span_f64(dy, &a1.y));
    for (int k = 0; k < 4; ++k)
        TK_OK(px_parallel_for(ia, "A", px_range(0, n), PX_KERNEL(axpy), &a1));
    TK_OK(px_event_record(ev, ia));
    TK_OK(px_instance_wait_event(ib, ev));
    a2.a = 1.0; /* z = y */
    a2.x = a1.y;
    TK_OK(px_view_span_f64(dz, &a2.y));
    TK_OK(px_parallel_for(ib, "B", px_range(0, n), PX_KERNEL(axpy), &a2));
    px_view *hz = NULL;
    TK_OK(px_view_create_mirror(&hz, px_host(), dz));
    TK_OK(px_deep_copy_async(ib, hz, dz, NULL));
    TK_OK(px_instance_fence(ib));
    const double *z = (const double *)tk_data(hz);
    for (int64_t i = 0; i < n; ++i)
        if (z[i] != 8.0 * x[i])
            ck_abort_msg("z[%lld] = %g, want %g", (long long)i, z[i], 8.0 * x[i]);

    TK_OK(px_event_destroy(&ev));
    TK_OK(px_instance_destroy(&ia));
    TK_OK(px_instance_destroy(&ib));
    TK_RELEASE(hz, hx, dx, dy, dz);
}
END_TEST

START_TEST(events_elapsed)
{
    px_instance *in = tk_instance("timed");
    px_event *t0 = NULL, *t1 = NULL, *plain = NULL;
    TK_OK(px_event_create(&t0, in, PX_EVENT_TIMING));
    TK_OK(px_event_create(&t1, in, PX_EVENT_TIMING));
    TK_OK(px_event_create(&plain, in, 0));
    float ms = -1;
    /* Not recorded yet. */
    TK_FAIL(px_event_elapsed_ms(t0, t1, &ms), PX_ERR_INVALID_ARGUMENT, "px_event_elapsed_ms");

    const int64_t n = 1 << 18;
    px_view *v = tk_view1("v", tk_space(), PX_F64, n);
    red_args_double ra;
    TK_OK(px_view_span_f64(v, &ra.x));
    TK_OK(px_event_record(t0, in));
    double sum = 0;
    TK_OK(px_parallel_reduce(in, NULL, px_range(0, n), PX_KERNEL(red_sum_double), &ra, &sum));
    TK_OK(px_event_record(t1, in));
    TK_OK(px_event_record(plain, in));
    TK_OK(px_event_synchronize(t1));
    TK_OK(px_event_synchronize(plain));
    TK_OK(px_event_elapsed_ms(t0, t1, &ms));
    TK_ASSERT(ms >= 0.0f && ms < 60000.0f, "elapsed %g ms", (double)ms);

    /* Events without PX_EVENT_TIMING cannot be timed. */
    TK_FAIL(px_event_elapsed_ms(t0, plain, &ms), PX_ERR_INVALID_ARGUMENT, "px_event_elapsed_ms");
    TK_FAIL(px_event_elapsed_ms(NULL, t1, &ms), PX_ERR_INVALID_ARGUMENT, "px_event_elapsed_ms");
    TK_FAIL(px_event_elapsed_ms(t0, NULL, &ms), PX_ERR_INVALID_ARGUMENT, "px_event_elapsed_ms");
    TK_FAIL(px_event_elapsed_ms(t0, t1, NULL), PX_ERR_INVALID_ARGUMENT, "px_event_elapsed_ms");

    TK_OK(px_event_destroy(&t0));
    TK_OK(px_event_destroy(&t1));
    TK_OK(px_event_destroy(&plain));
    px_view_release(&v);
    TK_OK(px_instance_destroy(&in));
}
END_TEST

START_TEST(events_bad_input)
{
    px_instance *in = tk_instance("evbad");
    px_event *ev = NULL;
    TK_FAIL(px_event_create(NULL, in, 0), PX_ERR_INVALID_ARGUMENT, "px_event_create");
    TK_FAIL(px_event_create(&ev, NULL, 0), PX_ERR_INVALID_ARGUMENT, "px_event_create");
    TK_FAIL(px_event_create(&ev, in, 0x80u), PX_ERR_INVALID_ARGUMENT, "px_event_create");
    ck_assert_ptr_null(ev);
    TK_OK(px_event_create(&ev, in, 0));
    bool done;
    TK_FAIL(px_event_record(NULL, in), PX_ERR_INVALID_ARGUMENT, "px_event_record");
    TK_FAIL(px_event_record(ev, NULL), PX_ERR_INVALID_ARGUMENT, "px_event_record");
    TK_FAIL(px_instance_wait_event(NULL, ev), PX_ERR_INVALID_ARGUMENT, "px_instance_wait_event");
    TK_FAIL(px_instance_wait_event(in, NULL), PX_ERR_INVALID_ARGUMENT, "px_instance_wait_event");
    TK_FAIL(px_event_query(NULL, &done), PX_ERR_INVALID_ARGUMENT, "px_event_query");
    TK_FAIL(px_event_query(ev, NULL), PX_ERR_INVALID_ARGUMENT, "px_event_query");
    TK_FAIL(px_event_synchronize(NULL), PX_ERR_INVALID_ARGUMENT, "px_event_synchronize");
    TK_FAIL(px_event_destroy(NULL), PX_ERR_INVALID_ARGUMENT, "px_event_destroy");
    TK_OK(px_event_destroy(&ev));
    TK_FAIL(px_event_destroy(&ev), PX_ERR_INVALID_ARGUMENT, "px_event_destroy");

    /* An event of CUDA recorded on a serial instance (or the reverse) is refused. */
    if (tk_is_cuda()) {
        px_instance *ser = NULL;
        TK_OK(px_instance_default(PX_EXEC_SERIAL, 0, &ser));
        TK_OK(px_event_create(&ev, in, 0));
        TK_FAIL(px_event_record(ev, ser), PX_ERR_INVALID_ARGUMENT, "px_event_record");
        TK_OK(px_event_destroy(&ev));
    }
    TK_OK(px_instance_destroy(&in));
}
END_TEST

/* px_fence_all with nothing queued, twice. */
START_TEST(fence_all_idle)
{
    TK_OK(px_fence_all());
    TK_OK(px_fence_all());
    TK_OK(px_instance_fence(tk_inst()));
}
END_TEST

int main(void)
{
    TK_ADD(tk_case("instance", "instance"), default_instance, default_instance_bad_input,
           create_destroy, create_destroy_bad_input, instance_space, instance_space_bad_input,
           fence_and_destroy_wait, fence_all_idle);
    TK_ADD(tk_case("instance", "event"), events_record_query_sync, events_order_instances,
           events_elapsed, events_bad_input);
    return tk_run();
}
