/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Fault injection: every host allocation portex makes for itself (and, on CUDA, its pinned
 * allocations and thread starts) fails once, in turn, during a scenario that touches every
 * part of the library. Each run must end either with a status whose message names the
 * public function called, or with the right results (where portex has a fallback), and
 * leave nothing behind: px_finalize succeeds, and the leak checkers of the sanitizer and
 * valgrind runs see no leak.
 *
 * The hook (px__fault_inject) is internal: this test links the static library. */
#include <stdio.h>
#include <stdlib.h>

#include "common.h"
#include "kernels.h"
#include "portex/dlpack.h"

uint64_t px__fault_inject(uint64_t n);

/* What a run saw. */
typedef struct outcome {
    bool failed;
    char message[1024];
    char call[128];
} outcome;

/* Runs expr; on failure records it and jumps to the scenario's cleanup. */
#define STEP(o, expr)                                                          \
    do {                                                                       \
        const px_status st_ = (expr);                                          \
        if (st_ != PX_OK) {                                                    \
            (o)->failed = true;                                                \
            snprintf((o)->message, sizeof(o)->message, "%s", px_last_error()); \
            snprintf((o)->call, sizeof(o)->call, "%s", #expr);                 \
            goto cleanup;                                                      \
        }                                                                      \
    } while (0)

static void release_all(px_view **views, int n)
{
    for (int i = 0; i < n; ++i)
        if (views[i] != NULL) (void)px_view_release(&views[i]);
}

static px_view_desc desc2(const char *label, px_space space, px_layout layout, int64_t r, int64_t c)
{
    px_view_desc d = tk_desc(label, space, PX_F64, 2, (const int64_t[]){r, c});
    d.layout = layout;
    return d;
}

/* Views, subviews, mirrors, copies (flat, strided, overlapping), fills, instances,
   partitions, events, dispatches and a DLPack round trip, in `space` with instances of
   `exec`. On success the results are checked. */
static void scenario(px_exec_space exec, px_space space, outcome *o)
{
    enum { NV = 9 };
    px_view *v[NV] = {NULL};
    px_instance *inst = NULL, *parts[3] = {NULL, NULL, NULL};
    px_event *ev = NULL;
    double user[64];
    memset(o, 0, sizeof *o);
    STEP(o, px_init(NULL));
    {
        const int64_t R = 37, C = 53;
        px_view_desc d = desc2("a", space, PX_LAYOUT_RIGHT, R, C);
        STEP(o, px_view_create(&v[0], &d));
        px_view_desc h = desc2("h", px_host(), PX_LAYOUT_LEFT, R, C);
        STEP(o, px_view_create(&v[1], &h));
        double *hd = tk_info(v[1]).data;
        for (int64_t i = 0; i < R * C; ++i) hd[i] = (double)i * 0.5 + 1.0;
        px_view_desc w = desc2("user", px_host(), PX_LAYOUT_RIGHT, 8, 8);
        STEP(o, px_view_wrap(&v[2], &w, user));
        STEP(o, px_view_create_mirror(&v[3], px_host(), v[0]));
        STEP(o, px_view_create_mirror_view(&v[4], space, v[0]));

        px_instance_desc idesc;
        memset(&idesc, 0, sizeof idesc);
        idesc.exec = exec;
        idesc.label = "faulted";
        STEP(o, px_instance_create(&inst, &idesc));
        STEP(o, px_partition(inst, 3, (const double[]){1, 2, 3}, parts));
        STEP(o, px_event_create(&ev, parts[0], 0));

        /* Host (LEFT) to space (RIGHT): a strided path; then back, flat. */
        STEP(o, px_deep_copy_async(parts[0], v[0], v[1], NULL));
        STEP(o, px_event_record(ev, parts[0]));
        STEP(o, px_instance_wait_event(parts[1], ev));
        STEP(o, px_deep_copy_async(parts[1], v[3], v[0], NULL));
        STEP(o, px_instance_fence(parts[1]));

        /* Two overlapping subviews of one view: through a temporary. */
        const px_slice lo[2] = {px_slice_range(0, 30), px_slice_all()};
        const px_slice hi[2] = {px_slice_range(7, 37), px_slice_all()};
        STEP(o, px_view_subview(&v[5], v[3], lo, 2));
        STEP(o, px_view_subview(&v[6], v[3], hi, 2));
        STEP(o, px_deep_copy(v[5], v[6], NULL));

        const double fill = 3.25;
        STEP(o, px_fill_async(parts[2], v[4], &fill, NULL));

        px_view_desc x = desc2("x", space, PX_LAYOUT_RIGHT, 1, 1000);
        x.rank = 1;
        x.extent[0] = 1000;
        STEP(o, px_view_create(&v[7], &x));
        axpy_args a;
        memset(&a, 0, sizeof a);
        a.a = 2.0;
        STEP(o, px_view_span_f64(v[7], &a.x));
        STEP(o, px_view_span_f64(v[7], &a.y));
        STEP(o, px_fill_async(parts[2], v[7], &fill, NULL));
        STEP(o, px_parallel_for(parts[2], "axpy", px_range(0, 1000), PX_KERNEL(axpy), &a));
        /* v[7] as a DLPack tensor, and the tensor as a view again, which the sum reads. A
           refused tensor is still ours: its deleter gives v[7]'s extra reference back. */
        DLManagedTensor *tensor = NULL;
        STEP(o, px_view_to_dlpack(v[7], &tensor));
        const px_status taken = px_view_from_dlpack(&v[8], "x through DLPack", tensor);
        if (taken != PX_OK) tensor->deleter(tensor);
        STEP(o, taken);
        red_args_double ra;
        STEP(o, px_view_span_f64(v[8], &ra.x));
        double sum = 0;
        STEP(o, px_parallel_reduce(parts[2], "sum", px_range(0, 1000), PX_KERNEL(red_sum_double),
                                   &ra, &sum));
        STEP(o, px_fence_all());

        /* Results: rows 0..29 of the mirror hold what rows 7..36 held. */
        const double *m = tk_info(v[3]).data;
        for (int64_t i = 0; i < 30; ++i)
            for (int64_t j = 0; j < C; ++j) {
                const double want = (double)(j * R + i + 7) * 0.5 + 1.0;
                TK_ASSERT(m[i * C + j] == want, "mirror(%lld, %lld) = %g, expected %g",
                          (long long)i, (long long)j, m[i * C + j], want);
            }
        TK_ASSERT(sum == 1000 * 3.25 * 3, "sum %g", sum);
    }
cleanup:
    release_all(v, NV);
    if (ev) (void)px_event_destroy(&ev);
    for (int i = 0; i < 3; ++i)
        if (parts[i]) (void)px_instance_destroy(&parts[i]);
    if (inst) (void)px_instance_destroy(&inst);
    if (px_is_initialized()) {
        const px_status st = px_finalize();
        TK_ASSERT(st == PX_OK, "px_finalize after the run: %s: %s", px_status_name(st),
                  px_last_error());
    }
}

START_TEST(every_allocation_fails_once)
{
    const px_exec_space exec = tk_exec();
    const px_space space = tk_space();
    uint64_t n = 1;
    for (;; ++n) {
        outcome o;
        px__fault_inject(n);
        scenario(exec, space, &o);
        const uint64_t seen = px__fault_inject(0);
        if (getenv("PX_TEST_VERBOSE"))
            printf("%llu: %s\n", (unsigned long long)n, o.failed ? o.message : "(completed)");
        if (o.failed) {
            /* The message names a public function, and the status came from the call. */
            TK_ASSERT(
                strncmp(o.message, "px_", 3) == 0 && strstr(o.message, "px__") == NULL,
                "allocation %llu: %s failed with a message that names no public function: '%s'",
                (unsigned long long)n, o.call, o.message);
        }
        if (seen < n) {
            /* The fault point was never reached: the scenario ran whole. */
            TK_ASSERT(!o.failed, "no allocation failed, yet %s failed: %s", o.call, o.message);
            break;
        }
    }
    TK_ASSERT(n > 20, "only %llu allocations: the hook is not reached", (unsigned long long)n);
    printf("%s: %llu allocation sites failed in turn\n", px_exec_space_string(exec),
           (unsigned long long)(n - 1));
}
END_TEST

static Suite *faults_suite(void)
{
    Suite *s = suite_create("faults");
    TCase *tc = tcase_create("faults");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, every_allocation_fails_once);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    const tk_suite_fn suites[] = {faults_suite};
    return tk_main(suites, 1);
}
