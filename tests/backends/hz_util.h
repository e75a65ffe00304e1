/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Helpers of the hazard suites (test_cuda_faults, test_isolation, test_hazards), GPU only:
 * CUDA checks (CU_OK, common_cuda.h), a monotonic clock, a watchdog that names the step that hung, a host
 * function that holds a stream until released, and instances, views and copies with
 * their checks. Everything is static inline (each suite uses what it needs); the
 * including file defines _POSIX_C_SOURCE 200809L first. */
#ifndef PX_TESTS_HZ_UTIL_H
#define PX_TESTS_HZ_UTIL_H

#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "common_cuda.h" /* CU_OK */

static inline double hz_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static inline void hz_sleep_ms(double ms)
{
    struct timespec t;
    t.tv_sec = (time_t)(ms / 1000.0);
    t.tv_nsec = (long)((ms - 1000.0 * (double)t.tv_sec) * 1e6);
    nanosleep(&t, NULL);
}

/* ---- Watchdog: a test that hangs says where, and the process ends ------------------------ */

/* The step in progress, for the watchdog's message. */
static inline char *hz_step_buf(void)
{
    static char buf[256] = "start";
    return buf;
}

static inline double *hz_t0(void)
{
    static double t0;
    return &t0;
}

static inline void hz_on_alarm(int sig)
{
    (void)sig;
    static const char head[] = "\nWATCHDOG: time is up; the step that did not finish: ";
    const char *s = hz_step_buf();
    size_t n = 0;
    while (n < 255 && s[n] != '\0') ++n;
    ssize_t r = write(STDERR_FILENO, head, sizeof head - 1);
    r = write(STDERR_FILENO, s, n);
    r = write(STDERR_FILENO, "\n", 1);
    (void)r;
    _exit(1);
}

/* After `seconds` the process prints the current step and exits with status 1. */
static inline void hz_watchdog(unsigned seconds)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = hz_on_alarm;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, NULL);
    *hz_t0() = hz_now();
    alarm(seconds);
}

static inline void hz_watchdog_off(void) { alarm(0); }

/* Names the step that follows (the watchdog reports it) and logs it with the time since
   the watchdog was armed. */
static inline void hz_step(const char *fmt, ...)
{
    char tmp[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    snprintf(hz_step_buf(), 256, "%s", tmp);
    fprintf(stderr, "[%7.3f s] %s\n", hz_now() - *hz_t0(), tmp);
}

/* ---- A host function that holds a stream until released ------------------------------------ */

typedef struct hz_blocker {
    atomic_int release;
    atomic_int state; /* 0 not started, 1 holding, 2 released, 3 timed out */
    double timeout_s;
} hz_blocker;

static inline void hz_blocker_init(hz_blocker *b, double timeout_s)
{
    atomic_init(&b->release, 0);
    atomic_init(&b->state, 0);
    b->timeout_s = timeout_s;
}

static inline void CUDART_CB hz_blocker_fn(void *arg)
{
    hz_blocker *b = arg;
    atomic_store(&b->state, 1);
    const double t0 = hz_now();
    while (!atomic_load(&b->release)) {
        if (hz_now() - t0 > b->timeout_s) {
            atomic_store(&b->state, 3);
            return;
        }
        hz_sleep_ms(0.2);
    }
    atomic_store(&b->state, 2);
}

/* Waits (bounded) until the blocker holds its stream. */
static inline bool hz_blocker_wait_holding(hz_blocker *b, double timeout_s)
{
    const double t0 = hz_now();
    while (atomic_load(&b->state) == 0 && hz_now() - t0 < timeout_s) hz_sleep_ms(1);
    return atomic_load(&b->state) == 1;
}

/* ---- Instances, views, copies ---------------------------------------------------------------- */

static inline px_instance *hz_instance(int device, const char *label)
{
    return tk_instance_on(PX_EXEC_CUDA, device, label);
}

static inline cudaStream_t hz_stream(const px_instance *in)
{
    cudaStream_t s = NULL;
    TK_OK(px_instance_cuda_stream(in, &s));
    return s;
}

/* A view without zero-filling (the test writes what it needs). */
static inline px_view *hz_view(const char *label, px_space sp, px_dtype dt, px_layout layout,
                               int rank, const int64_t *extent)
{
    px_view_desc d = tk_desc(label, sp, dt, rank, extent);
    d.layout = layout;
    d.flags = PX_VIEW_NO_INIT;
    px_view *v = NULL;
    TK_OK(px_view_create(&v, &d));
    return v;
}

static inline px_view *hz_view1(const char *label, px_space sp, px_dtype dt, int64_t n)
{
    return hz_view(label, sp, dt, PX_LAYOUT_RIGHT, 1, &n);
}

static inline void hz_copy(px_instance *in, px_view *dst, const px_view *src, px_copy_path want,
                           int line)
{
    px_copy_path p = PX_COPY_PATH_COUNT;
    TK_OK(px_deep_copy_async(in, dst, src, &p));
    TK_ASSERT(p == want, "line %d: the copy took %s, expected %s", line, px_copy_path_string(p),
              px_copy_path_string(want));
}
#define HZ_COPY(in, dst, src, want) hz_copy((in), (dst), (src), (want), __LINE__)

/* Whether the work an event captured is still running (false once it has completed);
   any other answer fails the test. */
static inline bool hz_running(cudaEvent_t e)
{
    const cudaError_t r = cudaEventQuery(e);
    if (r == cudaErrorNotReady) {
        (void)cudaGetLastError();
        return true;
    }
    TK_ASSERT(r == cudaSuccess, "cudaEventQuery: %s", cudaGetErrorString(r));
    return false;
}

/* An event (no timing) of `device`, recorded on s now. */
static inline cudaEvent_t hz_mark(int device, cudaStream_t s)
{
    int cur = -1;
    CU_OK(cudaGetDevice(&cur));
    CU_OK(cudaSetDevice(device));
    cudaEvent_t e = NULL;
    CU_OK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    CU_OK(cudaEventRecord(e, s));
    CU_OK(cudaSetDevice(cur));
    return e;
}

static inline size_t hz_host_in_use(void)
{
    px_memory_stats ms;
    TK_OK(px_space_memory(px_host(), &ms));
    return ms.bytes_in_use;
}

/* The first byte of p[0, n) that is not `want`, or n. */
static inline size_t hz_first_not(const unsigned char *p, unsigned char want, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        if (p[i] != want) return i;
    return n;
}

/* ---- Fixture: portex's checked fixture, the staging configuration kept as found, and a
   watchdog per test ------------------------------------------------------------------------ */

static inline px_staging_config *hz_saved_cfg(void)
{
    static px_staging_config c;
    return &c;
}

static inline void hz_setup(void)
{
    hz_watchdog(120); /* each test arms its own, tighter bound */
    hz_step("setup");
    tk_setup();
    TK_OK(px_staging_get(hz_saved_cfg()));
}

static inline void hz_teardown(void)
{
    hz_step("teardown");
    TK_OK(px_fence_all());
    TK_OK(px_staging_set(hz_saved_cfg()));
    tk_teardown();
    hz_watchdog_off();
}

/* A configuration that differs from c (one thread more or fewer): setting it empties the
   staging pool, so that the next staged copy builds it again. */
static inline px_staging_config hz_other_shape(px_staging_config c)
{
    c.threads = c.threads > 1 ? c.threads - 1 : 2;
    return c;
}

static inline TCase *hz_tcase(const char *name, int timeout)
{
    TCase *tc = tcase_create(name);
    tcase_add_checked_fixture(tc, hz_setup, hz_teardown);
    tcase_set_timeout(tc, timeout);
    return tc;
}

/* The hazard suites test the CUDA backend only: PX_TEST_BACKEND defaults to cuda, any
   other value skips. */
static inline bool hz_backend_is_cuda(const char *prog)
{
    const char *b = getenv("PX_TEST_BACKEND");
    if (b == NULL || *b == '\0') {
        setenv("PX_TEST_BACKEND", "cuda", 1);
        return true;
    }
    if (strcmp(b, "cuda") == 0) return true;
    fprintf(stderr, "skip: %s tests the CUDA backend only (PX_TEST_BACKEND=%s)\n", prog, b);
    return false;
}

#endif /* PX_TESTS_HZ_UTIL_H */
