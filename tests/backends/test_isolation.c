/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* One slow instance holds up no one else (GPU only).
 *
 * Instance A runs a kernel that keeps its stream busy for seconds; meanwhile:
 *   - instance B's 64 MiB staged copies (both ways) and fences finish in well under a
 *     second, with the data right; A's own staged copy, queued behind the kernel, is right
 *     after A's fence. Staging buffers are only ever held by their own instance's copies,
 *     so B never waits for a buffer A's copy holds. With the pool warm (buffers made
 *     before) and cold (the pool is made while A's kernel runs);
 *   - releasing a DEVICE view and creating another, and the same in HOST_PINNED, takes
 *     well under 100 ms: a free waits for queued work on the GPU, never on the host, and
 *     an allocation does not wait for pending frees;
 *   - px_staging_get and px_staging_set return at once: BUSY while A's copy is queued,
 *     and, with no staged copy in flight, a new shape (the pool freed) without waiting
 *     for the device.
 * And px_fence_all blocks only its caller: while it waits for a stream held by a host
 * function, another thread creates and releases views of every space, instances and
 * events, and runs a staged copy, all in well under a second; released, fence_all
 * returns PX_OK.
 *
 * Every test checks its premise too (A's kernel still running, fence_all still blocked),
 * so that a pass means what it says. Built and registered only with CUDA; skips (77)
 * without a GPU. */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "hz_util.h"
#include "k_hazards.h"

static const uint64_t SLOW_NS = 2000000000ull; /* A's kernel: 2 s */
static const int64_t COPY_BYTES = ((int64_t)64 << 20) + 4093;

/* ---- B is not held up by A ----------------------------------------------------------------- */

/* _i: 0 the staging pool is warm (made beforehand, with buffers for both instances);
   1 cold (emptied first: A's and B's copies make it while A's kernel runs). */
START_TEST(slow_instance_holds_up_no_one)
{
    const bool cold = _i == 1;
    hz_watchdog(60);
    hz_step("slow_instance_holds_up_no_one (%s pool): setup", cold ? "cold" : "warm");
    px_instance *A = hz_instance(0, "A-slow"), *B = hz_instance(0, "B");
    const cudaStream_t sa = hz_stream(A);
    const int64_t n = COPY_BYTES;
    px_view *hA = hz_view1("hA", px_host(), PX_U8, n), *hB = hz_view1("hB", px_host(), PX_U8, n);
    px_view *rA = hz_view1("rA", px_host(), PX_U8, n), *rB = hz_view1("rB", px_host(), PX_U8, n);
    px_view *dA = hz_view1("dA", px_device(0), PX_U8, n),
            *dB = hz_view1("dB", px_device(0), PX_U8, n);
    px_view *old_dev = hz_view1("old_dev", px_device(0), PX_U8, (int64_t)64 << 20);
    px_view *old_pin = hz_view1("old_pin", px_host_pinned(), PX_U8, (int64_t)1 << 20);
    px_view *zeros = hz_view1("zeros", px_host(), PX_U8, (int64_t)64 << 20);
    tk_rng r = tk_rng_seed(31000 + (uint64_t)_i);
    tk_random_bytes(&r, tk_data(hA), (size_t)n);
    tk_random_bytes(&r, tk_data(hB), (size_t)n);
    memset(tk_data(rA), 0xEE, (size_t)n);
    memset(tk_data(rB), 0xEE, (size_t)n);
    memset(tk_data(zeros), 0xEE, (size_t)64 << 20);

    const px_staging_config cfg = *hz_saved_cfg();
    if (cold) {
        hz_step("empty the staging pool");
        const px_staging_config other = hz_other_shape(cfg);
        TK_OK(px_staging_set(&other));
    } else {
        /* A's warm-up copy is held behind a short kernel while B's runs: the pool gets
           buffers for both. */
        hz_step("warm the staging pool for A and B");
        CU_OK(hz_spin(0, sa, 50000000ull));
        HZ_COPY(A, dA, hA, PX_COPY_CUDA_STAGED);
        HZ_COPY(B, dB, hB, PX_COPY_CUDA_STAGED);
        TK_OK(px_instance_fence(A));
        TK_OK(px_instance_fence(B));
    }

    hz_step("A: a 2 s kernel, then a staged copy behind it");
    CU_OK(hz_spin(0, sa, SLOW_NS));
    cudaEvent_t slow = hz_mark(0, sa);
    double t = hz_now();
    HZ_COPY(A, dA, hA, PX_COPY_CUDA_STAGED);
    const double a_call = hz_now() - t;

    hz_step("B: staged host -> device + fence");
    t = hz_now();
    HZ_COPY(B, dB, hB, PX_COPY_CUDA_STAGED);
    TK_OK(px_instance_fence(B));
    const double b_in = hz_now() - t;
    hz_step("B: staged device -> host + fence");
    t = hz_now();
    HZ_COPY(B, rB, dB, PX_COPY_CUDA_STAGED);
    TK_OK(px_instance_fence(B));
    const double b_out = hz_now() - t;

    hz_step("release a DEVICE view, create another");
    t = hz_now();
    TK_OK(px_view_release(&old_dev));
    px_view *new_dev =
        tk_view1("new_dev", px_device(0), PX_U8, (int64_t)64 << 20); /* zero-filled */
    const double dev_realloc = hz_now() - t;
    hz_step("release a HOST_PINNED view, create another");
    t = hz_now();
    TK_OK(px_view_release(&old_pin));
    px_view *new_pin = tk_view1("new_pin", px_host_pinned(), PX_U8, (int64_t)1 << 20);
    const double pin_realloc = hz_now() - t;
    /* The new device memory is usable at once, without A. */
    hz_step("B: read the new DEVICE view");
    HZ_COPY(B, zeros, new_dev, PX_COPY_CUDA_STAGED);
    TK_OK(px_instance_fence(B));

    hz_step("px_staging_set while A's copy is queued");
    const px_staging_config other = hz_other_shape(cold ? hz_other_shape(cfg) : cfg);
    t = hz_now();
    const px_status busy = px_staging_set(&other);
    const double busy_time = hz_now() - t;
    const bool a_running = hz_running(slow);

    fprintf(stderr,
            "  A's staged call %.2f ms; B: in %.2f ms, out %.2f ms; re-allocation: DEVICE %.2f ms, "
            "HOST_PINNED %.2f ms; px_staging_set %.3f ms (%s); A's kernel %s\n",
            a_call * 1e3, b_in * 1e3, b_out * 1e3, dev_realloc * 1e3, pin_realloc * 1e3,
            busy_time * 1e3, px_status_name(busy), a_running ? "still running" : "done");
    TK_ASSERT(b_in < 0.5,
              "B's 64 MiB staged copy to the device and fence took %.3f s behind A's kernel", b_in);
    TK_ASSERT(b_out < 0.5,
              "B's 64 MiB staged copy to the host and fence took %.3f s behind A's kernel", b_out);
    TK_ASSERT(dev_realloc < 0.1, "releasing and re-creating a 64 MiB DEVICE view took %.3f s",
              dev_realloc);
    TK_ASSERT(pin_realloc < 0.1, "releasing and re-creating a 1 MiB HOST_PINNED view took %.3f s",
              pin_realloc);
    TK_ASSERT(busy == PX_ERR_BUSY, "px_staging_set with A's copy queued returned %s",
              px_status_name(busy));
    TK_ASSERT(busy_time < 0.1, "px_staging_set refusing took %.3f s", busy_time);
    TK_ASSERT(a_running,
              "premise: A's 2 s kernel had already finished; the timings above prove nothing");
    TK_ASSERT(memcmp(tk_data(rB), tk_data(hB), (size_t)n) == 0, "B's data came back wrong");
    const size_t z = hz_first_not(tk_data(zeros), 0, (size_t)64 << 20);
    TK_ASSERT(z == (size_t)64 << 20, "the new DEVICE view is not zero-filled at byte %zu", z);

    hz_step("A: fence, then its data");
    TK_OK(px_instance_fence(A));
    HZ_COPY(A, rA, dA, PX_COPY_CUDA_STAGED);
    TK_OK(px_instance_fence(A));
    TK_ASSERT(memcmp(tk_data(rA), tk_data(hA), (size_t)n) == 0, "A's data came back wrong");

    /* Nothing of staging's own in flight: a new shape frees the pool without waiting for
       the device (A's next kernel keeps running). */
    hz_step("px_staging_get / px_staging_set with nothing staged in flight, A busy");
    CU_OK(hz_spin(0, sa, 3 * SLOW_NS / 2));
    cudaEvent_t slow2 = hz_mark(0, sa);
    px_staging_config got;
    t = hz_now();
    TK_OK(px_staging_get(&got));
    const double get_time = hz_now() - t;
    t = hz_now();
    TK_OK(px_staging_set(&got)); /* the same shape: nothing to do */
    const double same_time = hz_now() - t;
    const px_staging_config reshape = hz_other_shape(got);
    t = hz_now();
    TK_OK(px_staging_set(&reshape)); /* a new shape: the pool is freed */
    const double reshape_time = hz_now() - t;
    t = hz_now();
    TK_OK(px_staging_set(&got)); /* back: the pool is empty, nothing to free */
    const double back_time = hz_now() - t;
    const bool a_running2 = hz_running(slow2);
    fprintf(stderr,
            "  px_staging_get %.3f ms; set: same %.3f ms, new shape %.3f ms, back %.3f ms; A's "
            "kernel %s\n",
            get_time * 1e3, same_time * 1e3, reshape_time * 1e3, back_time * 1e3,
            a_running2 ? "still running" : "done");
    TK_ASSERT(get_time < 0.1, "px_staging_get took %.3f s while A ran", get_time);
    TK_ASSERT(same_time < 0.1, "px_staging_set (same shape) took %.3f s while A ran", same_time);
    TK_ASSERT(
        reshape_time < 1.0,
        "px_staging_set (new shape, pool freed) took %.3f s while A ran: it waited for the device",
        reshape_time);
    TK_ASSERT(back_time < 0.1, "px_staging_set (pool empty) took %.3f s while A ran", back_time);
    TK_ASSERT(a_running2,
              "premise: A's 3 s kernel had already finished; the timings above prove nothing");
    TK_OK(px_instance_fence(A));

    CU_OK(cudaEventDestroy(slow));
    CU_OK(cudaEventDestroy(slow2));
    px_view *all[] = {hA, hB, rA, rB, dA, dB, new_dev, new_pin, zeros};
    for (size_t k = 0; k < sizeof all / sizeof all[0]; ++k) TK_OK(px_view_release(&all[k]));
    TK_OK(px_instance_destroy(&A));
    TK_OK(px_instance_destroy(&B));
}
END_TEST

/* ---- px_fence_all blocks no one else --------------------------------------------------------- */

typedef struct fencer {
    atomic_int done;
    px_status status;
    char err[512];
} fencer;

static void *fencer_main(void *arg)
{
    fencer *f = arg;
    f->status = px_fence_all();
    if (f->status != PX_OK) snprintf(f->err, sizeof f->err, "%s", px_last_error());
    atomic_store(&f->done, 1);
    return NULL;
}

/* What another thread does while px_fence_all waits; the first failure in `err`. */
#define OP(expr)                                                                                  \
    do {                                                                                          \
        const px_status op_st_ = (expr);                                                          \
        if (op_st_ != PX_OK) {                                                                    \
            snprintf(err, errsize, "%s: %s: %s", #expr, px_status_name(op_st_), px_last_error()); \
            return false;                                                                         \
        }                                                                                         \
    } while (0)

static bool views_come_and_go(char *err, size_t errsize)
{
    const px_space spaces[3] = {px_host(), px_host_pinned(), px_device(0)};
    for (int k = 0; k < 4; ++k)
        for (int s = 0; s < 3; ++s) {
            const int64_t n = (int64_t)65536 << (2 * k); /* 64 KiB to 4 MiB */
            px_view_desc d = tk_desc("meanwhile", spaces[s], PX_U8, 1, &n);
            px_view *v = NULL;
            OP(px_view_create(&v, &d));
            OP(px_view_release(&v));
        }
    return true;
}

static bool instances_and_events(char *err, size_t errsize)
{
    for (int k = 0; k < 2; ++k) {
        px_instance_desc d;
        memset(&d, 0, sizeof d);
        d.exec = PX_EXEC_CUDA;
        d.label = "meanwhile";
        px_instance *in = NULL;
        OP(px_instance_create(&in, &d));
        px_event *e = NULL;
        OP(px_event_create(&e, in, PX_EVENT_TIMING));
        OP(px_event_record(e, in));
        OP(px_event_synchronize(e));
        OP(px_event_destroy(&e));
        /* A staged round trip on it, fenced. */
        const int64_t n = ((int64_t)4 << 20) + 17;
        px_view_desc hd = tk_desc("h", px_host(), PX_U8, 1, &n),
                     dd = tk_desc("d", px_device(0), PX_U8, 1, &n);
        px_view *h = NULL, *h2 = NULL, *dv = NULL;
        OP(px_view_create(&h, &hd));
        OP(px_view_create(&h2, &hd));
        OP(px_view_create(&dv, &dd));
        px_view_info hi, h2i;
        OP(px_view_info_get(h, &hi));
        OP(px_view_info_get(h2, &h2i));
        memset(hi.data, 0x3C + k, (size_t)n);
        OP(px_deep_copy_async(in, dv, h, NULL));
        OP(px_deep_copy_async(in, h2, dv, NULL));
        OP(px_instance_fence(in));
        if (memcmp(h2i.data, hi.data, (size_t)n) != 0) {
            snprintf(err, errsize, "a staged round trip on a new instance came back wrong");
            return false;
        }
        OP(px_view_release(&h));
        OP(px_view_release(&h2));
        OP(px_view_release(&dv));
        OP(px_instance_destroy(&in));
    }
    return true;
}
#undef OP

START_TEST(fence_all_blocks_no_one)
{
    hz_watchdog(60);
    hz_step("fence_all_blocks_no_one: a wrapped stream held by a host function");
    cudaStream_t s = NULL;
    CU_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    px_instance *held = NULL;
    TK_OK(px_instance_from_cuda_stream(&held, s, "held"));
    hz_blocker bk;
    hz_blocker_init(&bk, 20.0);
    CU_OK(cudaLaunchHostFunc(s, hz_blocker_fn, &bk));
    TK_ASSERT(hz_blocker_wait_holding(&bk, 10.0), "the host function did not start (state %d)",
              atomic_load(&bk.state));

    hz_step("px_fence_all on another thread");
    fencer f;
    memset(&f, 0, sizeof f);
    atomic_init(&f.done, 0);
    pthread_t th;
    ck_assert_int_eq(pthread_create(&th, NULL, fencer_main, &f), 0);
    hz_sleep_ms(100);
    const bool blocked_before = !atomic_load(&f.done);

    hz_step("views, instances, events and a staged copy meanwhile");
    char err[640] = "";
    const double t = hz_now();
    const bool ok = views_come_and_go(err, sizeof err) && instances_and_events(err, sizeof err);
    const double took = hz_now() - t;
    const bool blocked_after = !atomic_load(&f.done);

    hz_step("release the stream; px_fence_all returns");
    atomic_store(&bk.release, 1);
    const double t_rel = hz_now();
    while (!atomic_load(&f.done) && hz_now() - t_rel < 10.0) hz_sleep_ms(1);
    const bool returned = atomic_load(&f.done);
    if (returned) ck_assert_int_eq(pthread_join(th, NULL), 0);
    fprintf(stderr, "  meanwhile: %.1f ms (%s); fence_all %s\n", took * 1e3,
            ok ? "all succeeded" : err, returned ? "returned once released" : "did not return");

    TK_ASSERT(returned, "px_fence_all did not return within 10 s of the stream's release");
    TK_ASSERT(f.status == PX_OK, "px_fence_all returned %s: %s", px_status_name(f.status), f.err);
    TK_ASSERT(ok, "%s", err);
    TK_ASSERT(
        took < 1.0,
        "creating and releasing views, instances and events took %.3f s while px_fence_all waited",
        took);
    TK_ASSERT(blocked_before && blocked_after,
              "premise: px_fence_all returned while the stream was held (before: %d, after: %d)",
              blocked_before, blocked_after);
    TK_ASSERT(atomic_load(&bk.state) == 2, "the host function ended in state %d (3: it timed out)",
              atomic_load(&bk.state));
    TK_OK(px_instance_destroy(&held));
    CU_OK(cudaStreamDestroy(s));
}
END_TEST

static Suite *isolation_suite(void)
{
    Suite *s = suite_create("isolation");
    TCase *tc = hz_tcase("isolation", 90);
    tcase_add_loop_test(tc, slow_instance_holds_up_no_one, 0, 2);
    tcase_add_test(tc, fence_all_blocks_no_one);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    if (!hz_backend_is_cuda("test_isolation")) return 77;
    const tk_suite_fn suites[] = {isolation_suite};
    return tk_main(suites, 1);
}
