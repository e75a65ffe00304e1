/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* A sticky CUDA error never hangs anything (GPU only).
 *
 * A kernel that traps loses the device's context for the rest of the process, so every
 * scenario runs in a process of its own (CK_RUN_CASE names it; without it the program
 * runs itself once per scenario). In each, after the fault, every call returns, with an
 * error where the GPU was needed, and the whole process ends within a 30 s watchdog that
 * names the step that hung:
 *
 *   trap_queued          a trap, then a 256 MiB staged copy DEVICE -> pageable HOST queued
 *                        behind it on the same instance (or refused, if the fault is
 *                        already known when it is issued)
 *   trap_reported        the fault is reported (by a fence) before the copy is issued: the
 *                        copy call itself fails, at once; staging pool already built
 *   trap_reported_cold   the same with no staging pool yet (the copy tries to build it)
 *   trap_while_waiting   staged copies both ways, on two instances, queued and waiting
 *                        (the workers polling) when the trap fires a second later
 *   trap_other_instance  the trap fires on another instance while a staged copy moves
 *   trap_in_graph        the trap is in a captured graph: destroying its executable graph
 *                        returns the fault
 *   two_gpu              GPU 0 faults with a staged copy queued behind the trap; staged
 *                        copies on GPU 1, before and after the fault is known, are right and
 *                        quick, or (CUDA fails every GPU of a process once one traps, as
 *                        scripts/probes/two_gpu_probe.cu shows on raw CUDA) fail at once with the
 *                        fault's error; nothing hangs (skips, 77, with fewer than two GPUs)
 *
 * Then, in every scenario: the fence reports PX_ERR_LAUNCH; further staged copies both
 * ways, px_deep_copy and px_fence_all fail; px_staging_get and px_staging_set (same shape,
 * new shape) return within a second; px_instance_destroy returns and clears the handle;
 * the views are released; px_finalize tears portex down; px_init again, and the calls
 * after it, return (whatever they answer: the context stays lost).
 *
 * Built and registered only with CUDA; skips (77) without a GPU. */
#define _POSIX_C_SOURCE 200809L

#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "common.h"
#include "hz_util.h"
#include "k_hazards.h"

extern char **environ;

static const int64_t BIG = (int64_t)256 << 20;

/* Runs expr as a named step (the watchdog names it if it hangs); logs status and time. */
#define RUN(st, expr)                                                                      \
    do {                                                                                   \
        hz_step("%s", #expr);                                                              \
        px_clear_error();                                                                  \
        const double run_t_ = hz_now();                                                    \
        (st) = (expr);                                                                     \
        run_secs = hz_now() - run_t_;                                                      \
        fprintf(stderr, "            -> %s in %.3f s%s%s\n", px_status_name(st), run_secs, \
                (st) != PX_OK ? ": " : "", (st) != PX_OK ? px_last_error() : "");          \
    } while (0)

static double run_secs; /* the last RUN's duration */

static void init_portex(void)
{
    px_init_options o;
    memset(&o, 0, sizeof o);
    o.skip_topology = true;
    TK_OK(px_init(&o));
}

/* The instance that faults, with a 256 MiB device view (0x5A) and a pageable view. */
typedef struct world {
    px_instance *in;
    cudaStream_t s;
    px_view *dev, *host;
    px_view *extra[6]; /* more views to release before px_finalize */
    int nextra;
} world;

static void world_make(world *w, bool warm)
{
    memset(w, 0, sizeof *w);
    w->in = hz_instance(0, "faulted");
    w->s = hz_stream(w->in);
    w->dev = hz_view1("dev", px_device(0), PX_U8, BIG);
    w->host = hz_view1("host", px_host(), PX_U8, BIG);
    const unsigned char v = 0x5A;
    TK_OK(px_fill_async(w->in, w->dev, &v, NULL));
    memset(tk_data(w->host), 0xEE, (size_t)BIG);
    if (warm) {
        /* A staged copy before the fault: the pool and the threads exist, and the data
           moves while the context is healthy. */
        hz_step("warm-up: staged DEVICE -> HOST before the fault");
        HZ_COPY(w->in, w->host, w->dev, PX_COPY_CUDA_STAGED);
        TK_OK(px_instance_fence(w->in));
        const size_t bad = hz_first_not(tk_data(w->host), 0x5A, (size_t)BIG);
        TK_ASSERT(bad == (size_t)BIG, "the warm-up copy is wrong at byte %zu", bad);
        memset(tk_data(w->host), 0xEE, (size_t)BIG);
    } else {
        TK_OK(px_instance_fence(w->in));
    }
}

/* A scenario's start: its step named, portex initialized, the world made. */
static void world_setup(world *w, const char *scenario, bool warm)
{
    hz_step("%s: setup", scenario);
    init_portex();
    world_make(w, warm);
}

static px_view *world_extra(world *w, const char *label, px_space sp, int64_t n)
{
    px_view *v = hz_view1(label, sp, PX_U8, n);
    ck_assert_int_lt(w->nextra, (int)(sizeof w->extra / sizeof w->extra[0]));
    w->extra[w->nextra++] = v;
    return v;
}

/* Every scenario's end: the fault is reported, nothing hangs, portex tears down and
   starts again. */
static void aftermath(world *w, bool probe_reinit)
{
    px_status st;
    px_copy_path p;
    RUN(st, px_instance_fence(w->in));
    TK_ASSERT(st == PX_ERR_LAUNCH, "the fence after the fault returned %s: %s", px_status_name(st),
              px_last_error());
    RUN(st, px_instance_fence(w->in));
    TK_ASSERT(st == PX_ERR_LAUNCH, "a second fence returned %s", px_status_name(st));
    RUN(st, px_deep_copy_async(w->in, w->host, w->dev, &p));
    TK_ASSERT(st != PX_OK, "a staged copy to the host after the fault succeeded");
    RUN(st, px_deep_copy_async(w->in, w->dev, w->host, &p));
    TK_ASSERT(st != PX_OK, "a staged copy to the device after the fault succeeded");
    RUN(st, px_deep_copy(w->host, w->dev, &p));
    TK_ASSERT(st != PX_OK, "px_deep_copy after the fault succeeded");
    RUN(st, px_fence_all());
    TK_ASSERT(st != PX_OK, "px_fence_all after the fault succeeded");

    px_staging_config c;
    memset(&c, 0, sizeof c);
    RUN(st, px_staging_get(&c));
    TK_ASSERT(st == PX_OK, "px_staging_get after the fault: %s", px_status_name(st));
    TK_ASSERT(run_secs < 1.0, "px_staging_get took %.3f s", run_secs);
    RUN(st, px_staging_set(&c));
    TK_ASSERT(run_secs < 1.0, "px_staging_set (same shape) took %.3f s", run_secs);
    const px_staging_config other = hz_other_shape(c);
    RUN(st, px_staging_set(&other));
    TK_ASSERT(run_secs < 1.0, "px_staging_set (new shape) took %.3f s", run_secs);

    RUN(st, px_instance_destroy(&w->in));
    TK_ASSERT(w->in == NULL, "px_instance_destroy left the handle (it returned %s)",
              px_status_name(st));
    RUN(st, px_view_release(&w->dev));
    TK_OK(st);
    RUN(st, px_view_release(&w->host));
    TK_OK(st);
    for (int k = 0; k < w->nextra; ++k) {
        RUN(st, px_view_release(&w->extra[k]));
        TK_OK(st);
    }
    RUN(st, px_finalize());
    TK_ASSERT(st != PX_ERR_BUSY, "px_finalize: %s", px_last_error());
    TK_ASSERT(!px_is_initialized(), "px_finalize returned %s and left portex initialised",
              px_status_name(st));
    if (!probe_reinit) return;

    /* Again: portex starts, and each call returns (the context is still lost). */
    px_init_options o;
    memset(&o, 0, sizeof o);
    o.skip_topology = true;
    RUN(st, px_init(&o));
    if (st != PX_OK) return;
    px_instance *in = NULL;
    px_instance_desc d;
    memset(&d, 0, sizeof d);
    d.exec = PX_EXEC_CUDA;
    d.label = "after";
    RUN(st, px_instance_create(&in, &d));
    const int64_t n = (int64_t)1 << 20;
    px_view_desc dd = tk_desc("after_dev", px_device(0), PX_U8, 1, &n);
    px_view_desc hd = tk_desc("after_host", px_host(), PX_U8, 1, &n);
    px_view *dv = NULL, *hv = NULL;
    RUN(st, px_view_create(&dv, &dd));
    RUN(st, px_view_create(&hv, &hd));
    if (in && dv && hv) {
        RUN(st, px_deep_copy_async(in, dv, hv, &p));
        RUN(st, px_instance_fence(in));
    }
    if (dv) RUN(st, px_view_release(&dv));
    if (hv) RUN(st, px_view_release(&hv));
    if (in) RUN(st, px_instance_destroy(&in));
    RUN(st, px_finalize());
}

/* ---- Scenarios ---------------------------------------------------------------------------- */

START_TEST(trap_queued)
{
    world w;
    world_setup(&w, "trap_queued", true);
    hz_step("a kernel that traps");
    CU_OK(hz_spin_trap(0, w.s, 0));
    px_status st;
    px_copy_path p = PX_COPY_PATH_COUNT;
    RUN(st, px_deep_copy_async(w.in, w.host, w.dev, &p));
    TK_ASSERT(st != PX_OK || p == PX_COPY_CUDA_STAGED, "the copy took %s", px_copy_path_string(p));
    aftermath(&w, true);
}
END_TEST

/* A trap inside a graph: destroying the executable graph waits for its launch, and that
   wait returns the fault instead of hanging; the graph goes too. */
START_TEST(trap_in_graph)
{
    world w;
    world_setup(&w, "trap_in_graph", true);
    hz_step("capture a kernel that traps");
    TK_OK(px_graph_capture_begin(w.in, PX_CAPTURE_THREAD_LOCAL));
    CU_OK(hz_spin_trap(0, w.s, 0));
    px_graph *g = NULL;
    TK_OK(px_graph_capture_end(w.in, &g));
    px_graph_exec *e = NULL;
    TK_OK(px_graph_instantiate(g, &e));
    px_status st;
    RUN(st, px_graph_launch(e, w.in));
    RUN(st, px_graph_exec_destroy(&e));
    TK_ASSERT(st == PX_ERR_LAUNCH, "destroying the executable graph after the fault returned %s",
              px_status_name(st));
    TK_ASSERT(e == NULL, "px_graph_exec_destroy left the handle");
    RUN(st, px_graph_destroy(&g));
    TK_OK(st);
    aftermath(&w, true);
}
END_TEST

/* A trap reported by a fence before any copy: staged copies fail at once, H2D first (and
   D2H too when `both_ways`); `warm`: the staging pool was made before the trap. */
static void trap_reported_then_copy(const char *scenario, bool warm, bool both_ways)
{
    world w;
    world_setup(&w, scenario, warm);
    hz_step("a kernel that traps");
    CU_OK(hz_spin_trap(0, w.s, 0));
    px_status st;
    px_copy_path p;
    RUN(st, px_instance_fence(w.in));
    TK_ASSERT(st == PX_ERR_LAUNCH, "the fence after the trap returned %s", px_status_name(st));
    RUN(st, px_deep_copy_async(w.in, w.host, w.dev, &p));
    TK_ASSERT(st != PX_OK, "the first staged copy, after the reported fault, succeeded");
    TK_ASSERT(run_secs < 2.0, "the failing copy call took %.3f s", run_secs);
    if (both_ways) {
        RUN(st, px_deep_copy_async(w.in, w.dev, w.host, &p));
        TK_ASSERT(st != PX_OK, "a staged copy to the device after the reported fault succeeded");
        TK_ASSERT(run_secs < 2.0, "the failing copy call took %.3f s", run_secs);
    }
    aftermath(&w, true);
}

START_TEST(trap_reported) { trap_reported_then_copy("trap_reported", true, true); }
END_TEST

START_TEST(trap_reported_cold) { trap_reported_then_copy("trap_reported_cold", false, false); }
END_TEST

START_TEST(trap_while_waiting)
{
    world w;
    world_setup(&w, "trap_while_waiting", true);
    px_view *dev2 = world_extra(&w, "dev2", px_device(0), BIG),
            *host2 = world_extra(&w, "host2", px_host(), BIG);
    px_view *dev3 = world_extra(&w, "dev3", px_device(0), (int64_t)64 << 20);
    px_view *host3 = world_extra(&w, "host3", px_host(), (int64_t)64 << 20);
    memset(tk_data(host2), 0x77, (size_t)BIG);
    px_instance *j = hz_instance(0, "second");
    const cudaStream_t sj = hz_stream(j);

    hz_step(
        "a kernel that traps after 1 s; staged copies queued behind it and on a second instance");
    CU_OK(hz_spin_trap(0, w.s, 1000000000ull));
    cudaEvent_t trap_done = hz_mark(0, w.s);
    HZ_COPY(w.in, w.host, w.dev, PX_COPY_CUDA_STAGED);
    HZ_COPY(w.in, dev2, host2, PX_COPY_CUDA_STAGED);
    CU_OK(hz_spin(0, sj, 3000000000ull));
    HZ_COPY(j, host3, dev3, PX_COPY_CUDA_STAGED);
    const bool queued_before = hz_running(trap_done);
    px_status st;
    px_staging_config now;
    TK_OK(px_staging_get(&now));
    const px_staging_config other = hz_other_shape(now);
    RUN(st, px_staging_set(&other));
    TK_ASSERT(st == PX_ERR_BUSY, "px_staging_set with copies waiting returned %s",
              px_status_name(st));
    TK_ASSERT(run_secs < 1.0, "px_staging_set refusing took %.3f s", run_secs);
    TK_ASSERT(queued_before, "premise: the trap had fired before the copies were queued");

    hz_step("wait for the trap");
    const double t = hz_now();
    cudaError_t q;
    while ((q = cudaEventQuery(trap_done)) == cudaErrorNotReady && hz_now() - t < 10.0)
        hz_sleep_ms(1);
    TK_ASSERT(q != cudaErrorNotReady && q != cudaSuccess, "the trap did not fire (%s)",
              cudaGetErrorName(q));
    /* Nothing has learned of the fault yet: the copies' host parts are still waiting. */
    px_staging_config c;
    RUN(st, px_staging_get(&c));
    TK_ASSERT(st == PX_OK && run_secs < 1.0, "px_staging_get: %s in %.3f s", px_status_name(st),
              run_secs);
    RUN(st, px_instance_fence(j));
    TK_ASSERT(st != PX_OK, "the second instance's fence succeeded after the fault");
    RUN(st, px_instance_destroy(&j));
    TK_ASSERT(j == NULL, "px_instance_destroy left the handle");
    (void)cudaEventDestroy(trap_done);
    aftermath(&w, true);
}
END_TEST

START_TEST(trap_other_instance)
{
    world w;
    world_setup(&w, "trap_other_instance", true);
    px_instance *j = hz_instance(0, "trapping");
    const cudaStream_t sj = hz_stream(j);
    hz_step("a staged copy moving; a kernel on another instance traps 2 ms later");
    HZ_COPY(w.in, w.host, w.dev, PX_COPY_CUDA_STAGED);
    CU_OK(hz_spin_trap(0, sj, 2000000ull));
    px_status st;
    RUN(st, px_instance_fence(j));
    TK_ASSERT(st == PX_ERR_LAUNCH, "the trapping instance's fence returned %s", px_status_name(st));
    RUN(st, px_instance_destroy(&j));
    TK_ASSERT(j == NULL, "px_instance_destroy left the handle");
    aftermath(&w, true);
}
END_TEST

/* A staged round trip on GPU 1 (pageable a -> d1 -> pageable b): right, and quick, while
   nothing has trapped. After GPU 0 trapped, CUDA fails every call of the process on every
   GPU, peer access or not (scripts/probes/two_gpu_probe.cu shows it with raw CUDA on driver 580): the
   round trip may then fail, but with the fault's error and at once, never hanging and
   never handing back wrong data as if it were right. */
static void gpu1_round_trip(px_instance *g1, px_view *d1, px_view *a, px_view *b, const char *when,
                            bool after_trap)
{
    hz_step("GPU 1: staged round trip, %s", when);
    memset(tk_data(b), 0xEE, (size_t)BIG);
    const double t = hz_now();
    px_copy_path in = PX_COPY_PATH_COUNT, out = PX_COPY_PATH_COUNT;
    px_clear_error();
    px_status st = px_deep_copy_async(g1, d1, a, &in);
    if (st == PX_OK) st = px_deep_copy_async(g1, b, d1, &out);
    const px_status fs = px_instance_fence(g1);
    if (st == PX_OK) st = fs;
    const double took = hz_now() - t;
    fprintf(stderr, "            -> %s in %.1f ms%s%s\n", px_status_name(st), took * 1e3,
            st != PX_OK ? ": " : "", st != PX_OK ? px_last_error() : "");
    TK_ASSERT(took < 3.0, "GPU 1's 256 MiB round trip %s took %.3f s", when, took);
    if (st == PX_OK || !after_trap) {
        TK_ASSERT(st == PX_OK, "GPU 1's round trip %s: %s", when, px_last_error());
        TK_ASSERT(in == PX_COPY_CUDA_STAGED && out == PX_COPY_CUDA_STAGED,
                  "GPU 1's round trip %s took %s and %s", when, px_copy_path_string(in),
                  px_copy_path_string(out));
        TK_ASSERT(memcmp(tk_data(b), tk_data(a), (size_t)BIG) == 0,
                  "GPU 1's round trip %s is wrong", when);
    } else {
        TK_ASSERT(st == PX_ERR_LAUNCH,
                  "GPU 1's round trip %s failed with %s, not the fault's PX_ERR_LAUNCH: %s", when,
                  px_status_name(st), px_last_error());
    }
}

START_TEST(two_gpu)
{
    world w;
    world_setup(&w, "two_gpu", true); /* the pool is made with GPU 0 current */
    px_instance *g1 = hz_instance(1, "gpu1");
    px_view *d1 = world_extra(&w, "d1", px_device(1), BIG);
    px_view *a = world_extra(&w, "a", px_host(), BIG), *b = world_extra(&w, "b", px_host(), BIG);
    tk_rng r = tk_rng_seed(37000);
    tk_random_bytes(&r, tk_data(a), (size_t)BIG);
    gpu1_round_trip(g1, d1, a, b, "before the fault", false);

    hz_step("GPU 0: a kernel that traps, a staged copy behind it");
    CU_OK(hz_spin_trap(0, w.s, 0));
    px_status st;
    px_copy_path p;
    RUN(st, px_deep_copy_async(w.in, w.host, w.dev, &p));
    /* Nothing has learned of the fault: GPU 0's copy may still hold staging buffers. */
    gpu1_round_trip(g1, d1, a, b, "after GPU 0's fault, not yet reported", true);
    RUN(st, px_fence_all());
    TK_ASSERT(st != PX_OK, "px_fence_all succeeded with GPU 0 lost");
    gpu1_round_trip(g1, d1, a, b, "after GPU 0's fault was reported", true);
    hz_step("GPU 1: views and instances come and go (or are refused with the fault's error)");
    {
        const int64_t n = (int64_t)1 << 20;
        px_view_desc vd = tk_desc("v1", px_device(1), PX_U8, 1, &n);
        px_view *v = NULL;
        RUN(st, px_view_create(&v, &vd));
        if (v != NULL) TK_OK(px_view_release(&v));
        px_instance_desc id;
        memset(&id, 0, sizeof id);
        id.exec = PX_EXEC_CUDA;
        id.device = 1;
        id.label = "tmp";
        px_instance *tmp = NULL;
        RUN(st, px_instance_create(&tmp, &id));
        if (tmp != NULL) {
            RUN(st, px_instance_destroy(&tmp));
            TK_ASSERT(tmp == NULL, "px_instance_destroy left the handle (it returned %s)",
                      px_status_name(st));
        }
    }
    RUN(st, px_instance_destroy(&g1));
    TK_ASSERT(g1 == NULL, "px_instance_destroy left the handle (it returned %s)",
              px_status_name(st));
    /* GPU 0's aftermath, then px_init again: each call returns (the contexts stay lost). */
    aftermath(&w, true);
}
END_TEST

/* ---- One process per scenario ------------------------------------------------------------------ */

static const char *const scenarios[] = {
    "trap_queued",         "trap_reported", "trap_reported_cold", "trap_while_waiting",
    "trap_other_instance", "two_gpu",       "trap_in_graph",
};
enum { NSCENARIOS = sizeof scenarios / sizeof scenarios[0] };

static const char *chosen;

#define ADD_IF_CHOSEN(tc, test)                                     \
    do {                                                            \
        if (strcmp(chosen, #test) == 0) tcase_add_test((tc), test); \
    } while (0)

static Suite *faults_suite(void)
{
    Suite *s = suite_create("faults");
    TCase *tc = tcase_create(chosen);
    tcase_set_timeout(tc, 60);
    ADD_IF_CHOSEN(tc, trap_queued);
    ADD_IF_CHOSEN(tc, trap_in_graph);
    ADD_IF_CHOSEN(tc, trap_reported);
    ADD_IF_CHOSEN(tc, trap_reported_cold);
    ADD_IF_CHOSEN(tc, trap_while_waiting);
    ADD_IF_CHOSEN(tc, trap_other_instance);
    ADD_IF_CHOSEN(tc, two_gpu);
    suite_add_tcase(s, tc);
    return s;
}

/* Without CK_RUN_CASE: this program once per scenario, one after the other. 77 when every
   scenario skipped, 1 when any failed. */
static int run_each(void)
{
    int failed = 0, ran = 0;
    for (int k = 0; k < NSCENARIOS; ++k) {
        if (setenv("CK_RUN_CASE", scenarios[k], 1) != 0) return 1;
        char *argv[] = {(char *)"test_cuda_faults", NULL};
        pid_t pid;
        if (posix_spawn(&pid, "/proc/self/exe", NULL, NULL, argv, environ) != 0) {
            perror("posix_spawn");
            return 1;
        }
        int status = 0;
        if (waitpid(pid, &status, 0) != pid) {
            perror("waitpid");
            return 1;
        }
        const int rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        fprintf(stderr, "test_cuda_faults: %s: %s\n", scenarios[k],
                rc == 0    ? "passed"
                : rc == 77 ? "skipped"
                           : "FAILED");
        if (rc != 77) ++ran;
        if (rc != 0 && rc != 77) ++failed;
    }
    unsetenv("CK_RUN_CASE");
    return failed ? 1 : ran == 0 ? 77 : 0;
}

int main(void)
{
    if (!hz_backend_is_cuda("test_cuda_faults")) return 77;
    const char *name = getenv("CK_RUN_CASE");
    if (name == NULL || *name == '\0') return run_each();
    for (int k = 0; k < NSCENARIOS; ++k)
        if (strcmp(name, scenarios[k]) == 0) chosen = scenarios[k];
    if (chosen == NULL) {
        fprintf(stderr, "test_cuda_faults: no scenario '%s'\n", name);
        return 1;
    }
    if (strcmp(name, "two_gpu") == 0) {
        int devices = 0;
        if (cudaGetDeviceCount(&devices) != cudaSuccess) devices = 0;
        if (devices < 2) {
            fprintf(stderr, "skip: two_gpu needs two GPUs (%d here)\n", devices);
            return 77;
        }
    }
    /* The whole process, its exit included. */
    hz_watchdog(30);
    hz_step("%s: start", name);
    const tk_suite_fn suites[] = {faults_suite};
    const int rc = tk_main(suites, 1);
    hz_step("%s: process exit (status %d)", name, rc);
    return rc;
}
