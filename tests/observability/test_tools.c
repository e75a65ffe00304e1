/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Profiling (portex/tools.h): what a Kokkos Tools library hears (support/kp_recorder.c
 * writes every callback to a log this suite reads back), the fences it may ask for, the
 * fence portex gives it, loading errors, the public calls' checks with no tool, and
 * regions across px_finalize ... px_init. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#include "kernels.h"

static char log_path[64];

/* The recorder's path (the build passes it), or NULL. */
static const char *recorder(void) { return getenv("PX_TEST_KP_RECORDER"); }

/* px_init with the recorder loaded through the options, its log in a fresh temporary file
   and global fences as asked. */
static void init_with_recorder(bool fences, const char *args)
{
    strcpy(log_path, "/tmp/px_kp_log_XXXXXX");
    const int fd = mkstemp(log_path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    setenv("KP_RECORDER_LOG", log_path, 1);
    setenv("KP_RECORDER_FENCES", fences ? "1" : "0", 1);
    if (args)
        setenv("PX_TOOLS_ARGS", args, 1);
    else
        unsetenv("PX_TOOLS_ARGS");
    px_init_options o = {.tools_libs = recorder(), .skip_topology = true};
    TK_OK(px_init(&o));
}

/* The whole log (malloc'ed; free it). */
static char *read_log(void)
{
    FILE *f = fopen(log_path, "r");
    ck_assert_ptr_nonnull(f);
    static const size_t cap = 1 << 20;
    char *text = calloc(1, cap);
    ck_assert_ptr_nonnull(text);
    const size_t n = fread(text, 1, cap - 1, f);
    text[n] = '\0';
    fclose(f);
    unlink(log_path);
    return text;
}

/* The log has `needle`, and after `after` when that is not NULL. */
static const char *has(const char *log, const char *needle)
{
    const char *at = strstr(log, needle);
    TK_ASSERT(at != NULL, "the tool's log lacks '%s':\n%s", needle, log);
    return at;
}

static void clear_env(void)
{
    unsetenv("PX_TOOLS_LIBS");
    unsetenv("KOKKOS_TOOLS_LIBS");
    unsetenv("PX_TOOLS_ARGS");
    unsetenv("KOKKOS_TOOLS_ARGS");
}

static const char *need_recorder(void)
{
    return recorder() ? NULL
                      : "the recorder tool library was not built (PX_TEST_KP_RECORDER unset)";
}

/* Kokkos' device type of the backend under test (Kokkos::Tools::Experimental::DeviceType). */
static unsigned kp_type(void)
{
    return tk_exec() == PX_EXEC_CUDA      ? 2u
           : tk_exec() == PX_EXEC_OPENMP  ? 1u
           : tk_exec() == PX_EXEC_THREADS ? 6u
                                          : 0u;
}

START_TEST(tool_hears_everything)
{
    clear_env();
    init_with_recorder(false, "--flag value");
    const int64_t n = 1000;
    px_view *x = tk_view1("tt_x", tk_space(), PX_F64, n);
    px_view *y = tk_view1("tt_y", tk_space(), PX_F64, n);
    px_view *h = tk_view1("tt_host", px_host(), PX_F64, n);
    const double one = 1.0;
    TK_OK(px_fill(x, &one, NULL));
    axpy_args a = {.a = 2.0};
    TK_OK(px_view_get_span(x, &a.x));
    TK_OK(px_view_get_span(y, &a.y));
    TK_OK(px_region_push("tt_region"));
    TK_OK(px_parallel_for(tk_inst(), "tt_for", px_range(0, n), PX_KERNEL(axpy), &a));
    double sum = 0;
    red_args_double r = {.x = a.y};
    TK_OK(px_parallel_reduce(tk_inst(), "tt_reduce", px_range(0, n), PX_KERNEL(red_sum_double), &r,
                             &sum));
    px_view *idx = tk_view1("tt_idx", tk_space(), PX_I64, n);
    scan_i64_args sc;
    TK_OK(px_view_get_span(idx, &sc.in));
    TK_OK(px_view_get_span(idx, &sc.out));
    int64_t total = -1;
    TK_OK(px_parallel_scan(tk_inst(), "tt_scan", px_range(0, n), PX_KERNEL(scan_incl_i64), &sc,
                           &total));
    TK_OK(px_region_pop());
    ck_assert(sum == 2.0 * (double)n);
    ck_assert_int_eq(total, 0);
    TK_OK(px_deep_copy_async(tk_inst(), h, y, NULL));
    TK_OK(px_instance_fence(tk_inst()));
    TK_OK(px_fence_all());
    uint32_t sec = 0;
    TK_OK(px_profile_section_create("tt_section", &sec));
    TK_OK(px_profile_section_start(sec));
    TK_OK(px_profile_section_stop(sec));
    TK_OK(px_profile_section_destroy(sec));
    TK_OK(px_profile_event("tt_event"));
    TK_OK(px_declare_metadata("tt_key", "tt_value"));
    px_tools_info info;
    TK_OK(px_tools_info_get(&info));
    ck_assert_str_eq(info.library, recorder());
    ck_assert(!info.library_fences);
    TK_RELEASE(x, y, h, idx);
    TK_OK(px_finalize());

    char *log = read_log();
    ck_assert(strncmp(log, "init 0 20211015 ", 16) == 0);
    has(log, "request_tool_settings 1 1"); /* Kokkos' default: fences, unless the tool declines */
    has(log, "provide_tool_programming_interface 1 1");
    has(log, "parse_args 3 --flag value");
    const char *space = tk_is_cuda() ? "Cuda" : "Host";
    char want[256];
    snprintf(want, sizeof want, "allocate %s tt_x 1 %d", space, (int)(n * 8));
    has(log, want);
    has(log, "allocate Host tt_host 1 8000");
    snprintf(want, sizeof want, "begin_deep_copy %s tt_x 1 <- Host Scalar 1 8000", space);
    has(log, want);
    snprintf(want, sizeof want, "begin_parallel_for tt_for type=%u device=0 instance=", kp_type());
    const char *f = has(has(log, "push_region tt_region"), want);
    const char *end = has(f, "end_parallel_for id=");
    snprintf(want, sizeof want, "begin_parallel_reduce tt_reduce type=%u", kp_type());
    const char *reduce = has(end, want);
    has(reduce, "end_parallel_reduce id=");
    snprintf(want, sizeof want, "begin_parallel_scan tt_scan type=%u", kp_type());
    has(has(has(reduce, want), "end_parallel_scan id="), "pop_region");
    snprintf(want, sizeof want, "begin_deep_copy Host tt_host 1 <- %s tt_y 1 8000", space);
    has(has(log, want), "end_deep_copy");
    has(has(log, "begin_fence px_instance_fence: "), "end_fence");
    has(log, "begin_fence px_fence_all: fence of every instance type=0 device=0 instance=0");
    has(has(has(has(log, "create_section tt_section"), "start_section"), "stop_section"),
        "destroy_section");
    has(log, "event tt_event");
    has(log, "metadata tt_key=tt_value");
    has(log, "deallocate Host tt_host 1 8000");
    ck_assert_ptr_null(strstr(log, "the tool asks for fences")); /* it declined them */
    const size_t len = strlen(log);
    ck_assert(len > 9 && strcmp(log + len - 9, "finalize\n") == 0);
    free(log);
}
END_TEST

START_TEST(fences_only_when_asked)
{
    clear_env();
    init_with_recorder(true, NULL);
    px_tools_info info;
    TK_OK(px_tools_info_get(&info));
    ck_assert(info.library_fences);
    const int64_t n = 64;
    px_view *x = tk_view1("tf_x", tk_space(), PX_F64, n);
    px_view *y = tk_view1("tf_y", tk_space(), PX_F64, n);
    axpy_args a = {.a = 1.0};
    TK_OK(px_view_get_span(x, &a.x));
    TK_OK(px_view_get_span(y, &a.y));
    TK_OK(px_parallel_for(tk_inst(), "tf_for", px_range(0, n), PX_KERNEL(axpy), &a));
    TK_OK(px_deep_copy_async(tk_inst(), y, x, NULL));
    TK_RELEASE(x, y);
    TK_OK(px_finalize());
    char *log = read_log();
    /* The fence sits between the kernel's begin and end, on the kernel's instance. */
    const char *b = has(log, "begin_parallel_for tf_for");
    const char *fence = has(b, "after 'tf_for' (the tool asks for fences)");
    has(fence, "end_parallel_for");
    TK_ASSERT(strstr(b, "end_parallel_for") > fence, "the kernel ended before its fence:\n%s", log);
    has(has(log, "begin_deep_copy"), "after 'tf_y' (the tool asks for fences)");
    free(log);
}
END_TEST

START_TEST(tool_invoked_fence)
{
    clear_env();
    init_with_recorder(false, NULL);
    TK_OK(px_profile_event("call-fence"));
    TK_OK(px_finalize());
    char *log = read_log();
    has(has(log, "event call-fence"), "fence-returned");
    /* portex's own fence for the tool is not reported back to it. */
    ck_assert_ptr_null(strstr(log, "begin_fence"));
    free(log);
}
END_TEST

START_TEST(environment_chooses_the_library)
{
    clear_env();
    strcpy(log_path, "/tmp/px_kp_log_XXXXXX");
    const int fd = mkstemp(log_path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    setenv("KP_RECORDER_LOG", log_path, 1);
    setenv("KOKKOS_TOOLS_LIBS", recorder(), 1);
    TK_OK(px_init(&(px_init_options){.skip_topology = true}));
    px_tools_info info;
    TK_OK(px_tools_info_get(&info));
    ck_assert_str_eq(info.library, recorder());
    TK_OK(px_finalize());
    /* PX_TOOLS_LIBS first; "" in the options loads none whatever the environment says. */
    setenv("PX_TOOLS_LIBS", "/nonexistent/libnothing.so", 1);
    TK_FAIL(px_init(NULL), PX_ERR_SYSTEM, "px_init");
    TK_ERROR_HAS("/nonexistent/libnothing.so");
    TK_OK(px_init(&(px_init_options){.tools_libs = "", .skip_topology = true}));
    TK_OK(px_tools_info_get(&info));
    ck_assert_ptr_null(info.library);
    TK_OK(px_finalize());
    clear_env();
    free(read_log());
}
END_TEST

START_TEST(refuses_what_is_not_a_tool)
{
    clear_env();
    TK_FAIL(px_init(&(px_init_options){.tools_libs = "/nonexistent/kp.so"}), PX_ERR_SYSTEM,
            "px_init");
    TK_ERROR_HAS("cannot load the tool library");
    ck_assert(!px_is_initialized());
    /* A library without kokkosp_* entries (the C library itself). */
    TK_FAIL(px_init(&(px_init_options){.tools_libs = "libc.so.6"}), PX_ERR_INVALID_ARGUMENT,
            "px_init");
    TK_ERROR_HAS("not a Kokkos Tools library");
    ck_assert(!px_is_initialized());
    /* Nothing was left half done. */
    TK_OK(px_init(&(px_init_options){.skip_topology = true}));
    TK_OK(px_finalize());
}
END_TEST

START_TEST(calls_without_a_tool)
{
    clear_env();
    TK_FAIL(px_region_push("early"), PX_ERR_NOT_INITIALIZED, "px_region_push");
    TK_OK(px_init(&(px_init_options){.tools_libs = "", .skip_topology = true}));
    px_tools_info info;
    TK_OK(px_tools_info_get(&info));
    ck_assert(info.library == NULL && !info.library_fences && !info.nvtx);
    TK_FAIL(px_region_pop(), PX_ERR_INVALID_ARGUMENT, "px_region_pop");
    TK_ERROR_HAS("no region is open");
    TK_FAIL(px_region_push(NULL), PX_ERR_INVALID_ARGUMENT, "px_region_push");
    TK_OK(px_region_push("a"));
    TK_OK(px_region_push("b"));
    TK_OK(px_region_pop());
    TK_OK(px_region_pop());
    uint32_t id = 7;
    TK_FAIL(px_profile_section_create(NULL, &id), PX_ERR_INVALID_ARGUMENT,
            "px_profile_section_create");
    ck_assert_uint_eq(id, 0);
    TK_FAIL(px_profile_section_create("s", NULL), PX_ERR_INVALID_ARGUMENT,
            "px_profile_section_create");
    TK_OK(px_profile_section_create("s", &id));
    ck_assert_uint_ne(id, 0);
    TK_FAIL(px_profile_section_stop(id), PX_ERR_INVALID_ARGUMENT, "px_profile_section_stop");
    TK_OK(px_profile_section_start(id));
    TK_FAIL(px_profile_section_start(id), PX_ERR_INVALID_ARGUMENT, "px_profile_section_start");
    TK_OK(px_profile_section_stop(id));
    TK_OK(px_profile_section_destroy(id));
    TK_FAIL(px_profile_section_start(id), PX_ERR_INVALID_ARGUMENT, "px_profile_section_start");
    TK_FAIL(px_profile_section_destroy(0), PX_ERR_INVALID_ARGUMENT, "px_profile_section_destroy");
    TK_FAIL(px_profile_section_destroy(12345), PX_ERR_INVALID_ARGUMENT,
            "px_profile_section_destroy");
    TK_FAIL(px_profile_event(NULL), PX_ERR_INVALID_ARGUMENT, "px_profile_event");
    TK_FAIL(px_declare_metadata("k", NULL), PX_ERR_INVALID_ARGUMENT, "px_declare_metadata");
    TK_OK(px_profile_event("e"));
    TK_OK(px_declare_metadata("k", "v"));
    TK_FAIL(px_tools_info_get(NULL), PX_ERR_INVALID_ARGUMENT, "px_tools_info_get");
    TK_OK(px_finalize());
}
END_TEST

/* How often `needle` appears in text. */
static int occurrences(const char *text, const char *needle)
{
    int n = 0;
    for (const char *at = text; (at = strstr(at, needle)) != NULL; at += strlen(needle)) ++n;
    return n;
}

/* A region left open at the last px_finalize does not outlive it: after the next px_init
   the library, loaded anew, hears each pop after its push, and no pop of the last run. */
START_TEST(tool_hears_no_pop_of_the_last_run)
{
    clear_env();
    init_with_recorder(false, NULL);
    TK_OK(px_region_push("left open"));
    TK_OK(px_finalize());
    char *first = read_log();
    ck_assert_int_eq(occurrences(first, "push_region left open"), 1);
    ck_assert_int_eq(occurrences(first, "pop_region"), 0);
    free(first);
    init_with_recorder(false, NULL);
    TK_FAIL(px_region_pop(), PX_ERR_INVALID_ARGUMENT, "px_region_pop");
    TK_OK(px_region_push("second run"));
    TK_OK(px_region_pop());
    TK_OK(px_finalize());
    char *second = read_log();
    ck_assert_int_eq(occurrences(second, "push_region"), 1);
    ck_assert_int_eq(occurrences(second, "pop_region"), 1);
    has(has(second, "push_region second run"), "pop_region");
    free(second);
}
END_TEST

/* A thread that outlives a px_finalize ... px_init: its region of the first run is gone. */
typedef struct region_thread {
    pthread_barrier_t step;
    px_status push, pop_after, push_again, pop_again;
} region_thread;

static void *regions_across_runs(void *p)
{
    region_thread *t = p;
    t->push = px_region_push("worker");
    pthread_barrier_wait(&t->step); /* the main thread finalizes and initializes again */
    pthread_barrier_wait(&t->step);
    t->pop_after = px_region_pop();
    t->push_again = px_region_push("worker again");
    t->pop_again = px_region_pop();
    return NULL;
}

/* Without a library: after px_init, px_finalize, px_init no thread, this one or another
   that lived through it, can pop a region of the first run. */
START_TEST(regions_forgotten_at_finalize)
{
    clear_env();
    const px_init_options o = {.tools_libs = "", .skip_topology = true};
    TK_OK(px_init(&o));
    TK_OK(px_region_push("main"));
    region_thread t;
    ck_assert_int_eq(pthread_barrier_init(&t.step, NULL, 2), 0);
    pthread_t th;
    ck_assert_int_eq(pthread_create(&th, NULL, regions_across_runs, &t), 0);
    pthread_barrier_wait(&t.step);
    TK_OK(px_finalize());
    TK_OK(px_init(&o));
    pthread_barrier_wait(&t.step);
    ck_assert_int_eq(pthread_join(th, NULL), 0);
    pthread_barrier_destroy(&t.step);
    ck_assert_int_eq(t.push, PX_OK);
    ck_assert_int_eq(t.pop_after, PX_ERR_INVALID_ARGUMENT);
    ck_assert_int_eq(t.push_again, PX_OK);
    ck_assert_int_eq(t.pop_again, PX_OK);
    TK_FAIL(px_region_pop(), PX_ERR_INVALID_ARGUMENT, "px_region_pop");
    TK_ERROR_HAS("no region is open");
    TK_OK(px_region_push("main again"));
    TK_OK(px_region_pop());
    TK_OK(px_finalize());
}
END_TEST

int main(void)
{
    tk_require("tools_library", need_recorder);
    TK_ADD(tk_case_bare("tools_library", "hooks"), tool_hears_everything, fences_only_when_asked,
           tool_invoked_fence, environment_chooses_the_library, refuses_what_is_not_a_tool,
           tool_hears_no_pop_of_the_last_run);
    TK_ADD(tk_case_bare("tools", "calls"), calls_without_a_tool, regions_forgotten_at_finalize);
    return tk_run();
}
