/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* A seeded random sequence of public API calls on the serial backend, with valid and
 * invalid arguments: library lifetime; views (create, wrap, subview, mirrors, retain and
 * release, info, spans) of every rank, extent, stride, dtype, flag, layout and space,
 * sensible or not; copies and fills between them, overlapping ones included; instances,
 * partitions and events; dispatches with policies next to the ends of int64_t; and the
 * small queries. A model of what the test made predicts, for every call, whether it must
 * succeed, must fail, or may do either, and the test checks that:
 *   - the status is one of the list, and a failure leaves a last error that starts with
 *     the name of the public function called ("px_view_create: ...");
 *   - valid input is not refused and invalid input is not accepted;
 *   - what a call made or changed is what it should be: the view's information, every
 *     element a copy or fill wrote and no byte beside them, every index a kernel was given
 *     exactly once, the copy path and its counter, the bytes portex says it holds;
 *   - nothing leaks: at the end everything is released and px_finalize succeeds.
 * Crashes and undefined behaviour are for the sanitizers (CI runs this under ASan and
 * UBSan); a call that does not return fails the test through the watchdog (SIGALRM).
 *
 * Deterministic for a seed. Environment (fuzz.h): PX_FUZZ_SEED (the first seed; the test
 * runs FUZZ_SEEDS seeds from it, or PX_FUZZ_SEEDS), PX_FUZZ_ITERS (calls per seed),
 * PX_FUZZ_TRACE=1 (print every call and its status), PX_FUZZ_STOP=1 (end a seed at its
 * first finding), PX_FUZZ_OPS (the kinds of calls to make, e.g. "create,subview,copy";
 * see kinds[]). Every finding names its seed and call number: rerun with that seed,
 * PX_FUZZ_SEEDS=1 and PX_FUZZ_TRACE=1 to see the calls that led to it. Graphs and tools
 * regions have their own model: test_fuzz_graph.c.
 *
 * The model and the calls of each kind are parts of their own (fuzz_api.h). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_api.h"

/* ---- Lifetime and small queries ------------------------------------------------------------------- */

void op_lifetime(void)
{
    if (chance(50) && fz.init_refs < 4) {
        px_init_options o = {.skip_topology = chance(90)};
        op("px_init(%s)", o.skip_topology ? "skip_topology" : "topology");
        if (judge("px_init", px_init(chance(20) && o.skip_topology ? NULL : &o), EXP_OK, ""))
            fz.init_refs++;
        return;
    }
    int exp = EXP_OK;
    const char *why = "";
    if (fz.init_refs == 0)
        exp = EXP_FAIL, why = "not initialized";
    else if (fz.init_refs == 1 && live_objects() > 0)
        exp = EXP_FAIL, why = "objects alive";
    op("px_finalize() with %d references, %d objects alive", fz.init_refs, live_objects());
    if (judge("px_finalize", px_finalize(), exp, why) && --fz.init_refs == 0) fz.def = NULL;
    if (px_is_initialized() != initialized())
        found("px_is_initialized", "disagrees with the references held", "%d",
              (int)px_is_initialized());
}

void op_misc(void)
{
    static const px_status odd_st[] = {(px_status)1, (px_status)-15, (px_status)-1000,
                                       (px_status)INT_MIN, (px_status)INT_MAX};
    char *p = NULL;
    switch (rnd(0, 9)) {
    case 0: {
        const px_status s = chance(50) ? (px_status)rnd(-14, 0) : PICK(odd_st);
        op("px_status_string(%d)", (int)s);
        if (!px_status_string(s) || !px_status_name(s))
            found("px_status_string", "returned NULL", "%d", (int)s);
        break;
    }
    case 1: {
        const int d = (int)rnd(-3, PX_DTYPE_COUNT + 3);
        op("px_dtype_string(%d)", d);
        const size_t want =
            d >= 0 && d < PX_USER ? (size_t)((const int[]){1, 4, 8, 4, 8, 4, 8})[d] : 0;
        if (!px_dtype_string((px_dtype)d) || px_dtype_size((px_dtype)d) != want)
            found("px_dtype_size", "gave a wrong size", "%d: %zu", d, px_dtype_size((px_dtype)d));
        if (!px_layout_string((px_layout)rnd(-3, 5)) ||
            !px_space_kind_string((px_space_kind)rnd(-3, 5)) ||
            !px_exec_space_string((px_exec_space)rnd(-3, 5)) ||
            !px_copy_path_string((px_copy_path)rnd(-3, 15)) ||
            !px_copy_path_description((px_copy_path)rnd(-3, 15)))
            found("px_*_string", "returned NULL", "%s", "");
        break;
    }
    case 2: {
        const px_space s = gen_space(true);
        op("px_space_check(%d(%d))", (int)s.kind, s.device);
        judge("px_space_check", px_space_check(s), space_usable(s) ? EXP_OK : EXP_FAIL,
              "space not usable");
        if (px_space_available(s) != space_usable(s))
            found("px_space_available", "disagrees with px_space_check", "%s", "");
        break;
    }
    case 3: {
        const px_space s = chance(70) ? px_host() : gen_space(true);
        px_memory_stats ms;
        const bool null_out = chance(5);
        op("px_space_memory(%d(%d)%s)", (int)s.kind, s.device, null_out ? ", NULL" : "");
        const px_status st = px_space_memory(s, null_out ? NULL : &ms);
        const int exp = null_out || !space_valid(s) ? EXP_FAIL : EXP_OK;
        if (judge("px_space_memory", st, exp, "no out or no space") && exp == EXP_OK &&
            s.kind == PX_SPACE_HOST && ms.bytes_in_use != fz.base_bytes + model_bytes())
            found("px_space_memory", "counts bytes that are not in use", "%zu, expected %zu",
                  ms.bytes_in_use, fz.base_bytes + model_bytes());
        break;
    }
    case 4: {
        int a, b, c;
        const bool nul = chance(30);
        op("px_version(%s)", nul ? "NULL" : "");
        judge("px_version", px_version(&a, nul ? NULL : &b, &c), nul ? EXP_FAIL : EXP_OK,
              "NULL argument");
        if (!px_version_string()) found("px_version_string", "returned NULL", "%s", "");
        break;
    }
    case 5: {
        px_space s;
        static int stat_obj;
        const void *ptrs[] = {NULL, &stat_obj, foreign, fz.slot[0] ? fz.slot[0]->data : NULL};
        const void *q = PICK(ptrs);
        const bool null_out = chance(10);
        op("px_pointer_space(%p%s)", q, null_out ? ", NULL" : "");
        if (judge("px_pointer_space", px_pointer_space(q, null_out ? NULL : &s),
                  q && !null_out ? EXP_OK : EXP_FAIL, "NULL argument") &&
            !fz.cuda && s.kind != PX_SPACE_HOST)
            found("px_pointer_space", "called host memory something else", "%d", (int)s.kind);
        break;
    }
    case 6: {
        if (fz.cuda) break; /* pinning on a GPU machine is for other tests */
        p = malloc(64);
        ck_assert_ptr_nonnull(p);
        const bool reg = chance(50);
        void *q = chance(20) ? NULL : p;
        const size_t n = chance(20) ? 0 : 64;
        op("%s(%p, %zu)", reg ? "px_host_register" : "px_host_unregister", q, n);
        if (reg)
            judge("px_host_register", px_host_register(q, n), EXP_FAIL, "no GPU");
        else
            judge("px_host_unregister", px_host_unregister(q), EXP_FAIL, "no GPU");
        break;
    }
    case 7: {
        uint64_t c[PX_COPY_PATH_COUNT];
        const bool nul = chance(20);
        op("px_copy_path_counts(%s)", nul ? "NULL" : "counts");
        judge("px_copy_path_counts", px_copy_path_counts(nul ? NULL : c), nul ? EXP_FAIL : EXP_OK,
              "NULL argument");
        int n = -1;
        const px_exec_space e = (px_exec_space)rnd(-1, PX_EXEC_COUNT);
        op("px_exec_space_device_count(%d)", (int)e);
        judge("px_exec_space_device_count", px_exec_space_device_count(e, &n),
              e == PX_EXEC_SERIAL || e == PX_EXEC_OPENMP || e == PX_EXEC_THREADS ||
                      (e == PX_EXEC_CUDA && fz.cuda_compiled)
                  ? EXP_ANY
                  : EXP_FAIL,
              "exec out of range");
        break;
    }
    case 8: {
        px_staging_config cfg = {(size_t)rnd(0, 1 << 20), (int)rnd(-2, 3), (int)rnd(-2, 70)};
        const bool invalid = (cfg.chunk_bytes && cfg.chunk_bytes < ((size_t)64 << 10)) ||
                             (cfg.buffers && cfg.buffers < 2) || cfg.threads < 0 ||
                             cfg.threads > 64;
        if (!invalid && fz.cuda_compiled) break; /* it would change the global configuration */
        op("px_staging_set(%zu, %d, %d)", cfg.chunk_bytes, cfg.buffers, cfg.threads);
        judge("px_staging_set", px_staging_set(chance(10) ? NULL : &cfg), EXP_FAIL,
              "invalid or no CUDA");
        op("px_staging_get(NULL)");
        judge("px_staging_get", px_staging_get(NULL), EXP_FAIL, "NULL argument");
        break;
    }
    default:
        op("px_is_initialized()");
        if (px_is_initialized() != initialized())
            found("px_is_initialized", "disagrees with the references held", "%d",
                  (int)px_is_initialized());
        break;
    }
    free(p);
}

/* ---- The test ------------------------------------------------------------------------------------ */

/* The kinds of calls, by how often they come. */
static const fuzz_kind kinds[] = {
    {"create", 16, op_view_create}, {"wrap", 8, op_view_wrap},        {"subview", 11, op_subview},
    {"mirror", 5, op_mirror},       {"retain", 7, op_retain_release}, {"info", 5, op_info_span},
    {"copy", 12, op_copy},          {"overlap", 3, op_copy_overlap},  {"fill", 5, op_fill},
    {"instance", 6, op_instance},   {"partition", 3, op_partition},   {"event", 5, op_event},
    {"dispatch", 12, op_dispatch},  {"lifetime", 2, op_lifetime},     {"misc", 3, op_misc},
};
#define NKINDS ((int)(sizeof kinds / sizeof kinds[0]))

static void one_call(void)
{
    fuzz_one(kinds, NKINDS);

    size_t in_use = 0;
    px_memory_stats ms;
    if (px_space_memory(px_host(), &ms) == PX_OK) in_use = ms.bytes_in_use;
    if (in_use != fz.base_bytes + model_bytes())
        found("(memory)", "HOST bytes_in_use differs from the views alive",
              "%zu bytes in use, the views alive have %zu", in_use - fz.base_bytes, model_bytes());
}

/* Releases everything and leaves one reference to px_init, the fixture's. */
static void cleanup(void)
{
    if (!initialized()) {
        op("px_init(NULL)");
        judge("px_init", px_init(NULL), EXP_OK, "");
        fz.init_refs = 1;
    }
    for (int s = 0; s < NSLOTS; ++s)
        if (fz.slot[s]) release_slot(s);
    for (int i = 0; i < NINST; ++i)
        if (fz.inst[i]) destroy_inst(&fz.inst[i]);
    for (int i = 0; i < NEVENTS; ++i)
        if (fz.ev[i].ev) {
            op("px_event_destroy(&ev)");
            judge("px_event_destroy", px_event_destroy(&fz.ev[i].ev), EXP_OK, "");
        }
    while (fz.init_refs > 1) {
        op("px_finalize()");
        judge("px_finalize", px_finalize(), EXP_OK, "");
        fz.init_refs--;
    }
}

START_TEST(fuzz_api)
{
    const uint64_t seed = fuzz_seed(_i);
    const long long iters = fuzz_iters(ITERS_DEFAULT);
    fuzz_start(seed, iters);

    memset(&fz, 0, sizeof fz);
    fz.init_refs = 1;
    px_memory_stats ms;
    TK_OK(px_space_memory(px_host(), &ms));
    fz.base_bytes = ms.bytes_in_use;
    fz.avail[PX_SPACE_HOST] = px_space_available(px_host());
    fz.avail[PX_SPACE_HOST_PINNED] = px_space_available(px_host_pinned());
    fz.avail[PX_SPACE_DEVICE] = px_space_available(px_device(0));
    fz.cuda = px_exec_space_available(PX_EXEC_CUDA);
    fz.cuda_compiled = px_exec_space_check(PX_EXEC_CUDA) != PX_ERR_UNSUPPORTED;
    px_clear_error();

    TK_ASSERT(fuzz_choose(kinds, NKINDS), "PX_FUZZ_OPS='%s' names no kind of call",
              getenv("PX_FUZZ_OPS"));
    tk_watchdog_start(5);
    for (g_call = 0; g_call < (uint64_t)iters && !fuzz_stopped(); ++g_call) one_call();
    g_call = (uint64_t)iters;
    cleanup();
    tk_watchdog_stop();

    TK_OK(px_space_memory(px_host(), &ms));
    TK_ASSERT(ms.bytes_in_use == fz.base_bytes,
              "%zu bytes of HOST memory still in use after the cleanup",
              ms.bytes_in_use - fz.base_bytes);
    fuzz_report();
}
END_TEST

int main(void) { return fuzz_main("fuzz", "api", fuzz_api, FUZZ_SEEDS, 300); }
