/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The threads backend's own promises, beyond those it shares with OpenMP (test_openmp.c):
 * a kernel may dispatch on the instance it runs on (the team is busy: the inner dispatch
 * runs on its caller's thread, nothing waits); workers asleep after their spin wake for
 * the next dispatch; a child of fork gets workers of its own; PX_THREADS_BIND. Registered
 * for the threads runs (1, 2 and 3 threads: PX_NUM_THREADS). */
#define _GNU_SOURCE /* setenv, nanosleep */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common.h"
#include "kernels.h"

/* ---- A kernel that dispatches ------------------------------------------------------------- */

typedef struct nest_args {
    px_instance *inst; /* where the inner dispatches go */
    px_span_f64 y;     /* rows x cols */
    int64_t cols;
    int *failed; /* set when an inner dispatch fails */
} nest_args;

/* Row i: an inner px_parallel_for sets every element of it to i. */
PX_FOR(nest_rows, nest_args, a, i)
{
    host_only_args in;
    in.y = a->y;
    in.v = (double)i;
    if (px_parallel_for(a->inst, "row", px_range(i * a->cols, (i + 1) * a->cols),
                        PX_KERNEL(host_only_set), &in) != PX_OK)
        __atomic_store_n(a->failed, 1, __ATOMIC_RELAXED);
}

START_TEST(threads_nested_dispatch)
{
    const int64_t rows = 37, cols = 1001;
    px_view *y = tk_view1("y", px_host(), PX_F64, rows * cols);
    int failed = 0;
    nest_args a = {.inst = tk_inst(), .cols = cols, .failed = &failed};
    TK_OK(px_view_span_f64(y, &a.y));
    TK_OK(px_parallel_for(tk_inst(), "rows", px_range(0, rows), PX_KERNEL(nest_rows), &a));
    ck_assert_int_eq(failed, 0);
    const double *d = tk_data(y);
    for (int64_t k = 0; k < rows * cols; ++k)
        TK_ASSERT(d[k] == (double)(k / cols), "y[%lld] is %g", (long long)k, d[k]);
    px_view_release(&y);
}
END_TEST

/* ---- Sleeping workers ----------------------------------------------------------------------- */

/* Dispatches far apart (the workers spin 200 us, then sleep): each is woken and whole. */
START_TEST(threads_wake_after_sleep)
{
    const int64_t n = 10007;
    px_view *x = tk_view1("x", px_host(), PX_I64, n);
    int64_t *d = tk_data(x), want = 0;
    for (int64_t i = 0; i < n; ++i) want += d[i] = i % 97 - 40;
    red_args_int64_t a;
    TK_OK(px_view_span_i64(x, &a.x));
    for (int k = 0; k < 20; ++k) {
        int64_t s = -1;
        TK_OK(px_parallel_reduce(tk_inst(), "sum", px_range(0, n), PX_KERNEL(red_sum_int64_t), &a,
                                 &s));
        ck_assert_int_eq(s, want);
        const struct timespec pause = {0, 2000000}; /* 2 ms */
        nanosleep(&pause, NULL);
    }
    px_view_release(&x);
}
END_TEST

/* ---- fork ---------------------------------------------------------------------------------- */

/* A child of fork, after its parent's workers ran, dispatches on new workers of its own: it
   finishes, and right. The parent gives it 20 s. */
START_TEST(threads_after_fork)
{
#if defined(__SANITIZE_THREAD__)
    TK_SKIP("ThreadSanitizer refuses new threads in a child of a multi-threaded fork");
#endif
    const int64_t n = 100003;
    px_view *x = tk_view1("x", px_host(), PX_I64, n);
    int64_t *d = tk_data(x), want = 0;
    for (int64_t i = 0; i < n; ++i) want += d[i] = i % 13;
    red_args_int64_t a;
    TK_OK(px_view_span_i64(x, &a.x));
    int64_t s = -1;
    TK_OK(px_parallel_reduce(tk_inst(), "sum", px_range(0, n), PX_KERNEL(red_sum_int64_t), &a, &s));
    ck_assert_int_eq(s, want);
    const pid_t child = fork();
    ck_assert_int_ge(child, 0);
    if (child == 0) {
        int bad = 0;
        for (int k = 0; k < 10 && !bad; ++k) {
            s = -1;
            bad = px_parallel_reduce(tk_inst(), "sum", px_range(0, n), PX_KERNEL(red_sum_int64_t),
                                     &a, &s) != PX_OK ||
                  s != want;
        }
        _exit(bad);
    }
    int status = 0;
    pid_t done = 0;
    for (int waited = 0; waited < 2000 && done == 0; ++waited) {
        done = waitpid(child, &status, WNOHANG);
        if (done == 0) {
            const struct timespec tick = {0, 10000000}; /* 10 ms */
            nanosleep(&tick, NULL);
        }
    }
    if (done == 0) {
        kill(child, SIGKILL);
        waitpid(child, &status, 0);
        ck_abort_msg("the child of fork did not finish its dispatches in 20 s");
    }
    TK_ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the child's dispatches failed (%d)",
              status);
    px_view_release(&x);
}
END_TEST

/* ---- PX_THREADS_BIND ---------------------------------------------------------------------- */

/* Whether px_print_configuration's lines of the threads backend hold `what`. */
static bool configuration_says(const char *what)
{
    char *buf = tk_configuration();
    const char *own = strstr(buf, "backend THREADS");
    const bool says = own && strstr(own, what);
    if (!says) fprintf(stderr, "no '%s' in:\n%s", what, buf);
    free(buf);
    return says;
}

/* "none" leaves the threads unbound; another word fails px_init, naming the variable. */
START_TEST(threads_bind_env)
{
    const char *was = getenv("PX_THREADS_BIND");
    char keep[64];
    snprintf(keep, sizeof keep, "%s", was ? was : "");
    ck_assert_int_eq(setenv("PX_THREADS_BIND", "none", 1), 0);
    TK_OK(px_init(NULL));
    TK_ASSERT(configuration_says("binding: none (not asked for)"),
              "binding with PX_THREADS_BIND=none");
    TK_OK(px_finalize());

    ck_assert_int_eq(setenv("PX_THREADS_BIND", "spread", 1), 0);
    TK_FAIL(px_init(NULL), PX_ERR_INVALID_ARGUMENT, "px_init");
    TK_ERROR_HAS("PX_THREADS_BIND");
    TK_ERROR_HAS("'spread'");
    ck_assert(!px_is_initialized());

    ck_assert_int_eq(setenv("PX_THREADS_BIND", "cores", 1), 0);
    TK_OK(px_init(NULL));
    TK_OK(px_finalize());
    if (was)
        setenv("PX_THREADS_BIND", keep, 1);
    else
        unsetenv("PX_THREADS_BIND");
}
END_TEST

static const char *need_threads(void)
{
    return tk_exec() == PX_EXEC_THREADS ? NULL : "the threads backend is not the one under test";
}

int main(void)
{
    tk_require("threads_backend", need_threads);
    TK_ADD(tk_case("threads_backend", "hand-off"), threads_nested_dispatch,
           threads_wake_after_sleep, threads_after_fork);
    TK_ADD(tk_case_bare("threads_backend", "binding"), threads_bind_env);
    return tk_run();
}
