/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* A seeded random sequence of graph and tools-region calls on the backend under test, with
 * valid and invalid arguments: graphs built node by node in random orders (kernels,
 * copies and fills, those that move nothing included, empty and host nodes, children,
 * px_graph_add_captured nodes, WHILE and IF nodes, nested, whose bodies fill up later),
 * captures, instantiation, launches, profiles and uploads, px_graph_exec_set_* and
 * px_graph_exec_update from random graphs, handles destroyed in any order, regions pushed
 * and popped, and px_init / px_finalize cycles in between. A model of what the test made
 * predicts every call's status (the exact one where the headers say it), what every
 * launch leaves in each view and how often host nodes ran; the test checks all of it, and
 * that every cycle ends with no memory in use and px_finalize succeeding: nothing leaked.
 * The harness (fuzz.h) reports each kind of finding once, with its seed and call number.
 *
 * Views live in tk_space(), so the rules of graphs (what bodies take, what replays) are
 * the same on every backend, and so is the model. The host backends run nodes in the
 * order they were added, whatever the dependencies, so there dependencies are random; on
 * CUDA every new node depends on the nodes before it, so that a launch leaves what it
 * leaves on the host, and a WHILE node is never put inside a WHILE body (when CUDA assigns
 * a nested condition its initial value is its own business). Crashes and memory errors
 * are for the sanitizers (CI runs this under ASan and UBSan); a call that does not return
 * fails the test through the watchdog.
 *
 * CI runs FUZZ_SEEDS seeds of ITERS_DEFAULT calls on serial and OpenMP (and on CUDA where
 * there is a GPU). A longer run, for a GPU pass or before a release (fuzz.h lists the
 * environment):
 *   PX_TEST_BACKEND=cuda PX_FUZZ_SEED=1000 PX_FUZZ_ITERS=40000 build/tests/test_fuzz_graph
 *   PX_TEST_BACKEND=openmp2 PX_FUZZ_SEED=1000 PX_FUZZ_ITERS=40000 build/tests/test_fuzz_graph
 *
 * The model and the calls of each kind are parts of their own (fuzz_graph.h). */
#define _POSIX_C_SOURCE 200809L

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_graph.h"

/* ---- A run: px_init ... px_finalize ----------------------------------------------------------- */

static size_t bytes_in_use(px_space s)
{
    px_memory_stats ms;
    TK_OK(px_space_memory(s, &ms));
    return ms.bytes_in_use;
}

/* The views and instances of a run; the memory in use before them. */
static void setup_run(void)
{
    fz.base_host = bytes_in_use(px_host());
    fz.base_space = bytes_in_use(tk_space());
    static const int64_t lengths[] = {0, 3, 3, 8, 8, 8, 17};
    for (int i = 0; i < NPOOL; ++i) {
        mview *m = &fz.pool[i];
        m->dtype = i == 4 ? PX_F64 : PX_I64;
        m->strided = i == 5;
        m->n = m->strided ? (chance(50) ? 3 : 8) : PICK(lengths);
        if (m->strided) {
            /* Column 0 of an n x 2 view: a 1-D view with stride 2. */
            px_view *whole = tk_view("strided", tk_space(), PX_I64, 2, (const int64_t[]){m->n, 2});
            const px_slice sl[2] = {px_slice_all(), px_slice_index(0)};
            m->v = NULL;
            TK_OK(px_view_subview(&m->v, whole, sl, 2));
            TK_RELEASE(whole);
        } else {
            m->v = tk_view1("pool", tk_space(), m->dtype, m->n);
        }
        m->shadow = calloc(m->n > 0 ? (size_t)m->n : 1, sizeof *m->shadow);
        ck_assert_ptr_nonnull(m->shadow);
        const int64_t bits = fill_bits(m->dtype, small_value());
        TK_OK(px_fill(m->v, &bits, NULL));
        for (int64_t k = 0; k < m->n; ++k) m->shadow[k] = (uint64_t)bits;
    }
    for (int i = 0; i < NINSTS; ++i) fz.inst[i] = tk_instance("fuzz");
    fz.capturing = -1;
}

/* Releases everything of a run; then no memory is in use but what was before it. */
static void cleanup_run(void)
{
    if (fz.capturing >= 0) {
        px_graph *g = NULL;
        op("px_graph_capture_end(cleanup)");
        judge("px_graph_capture_end", px_graph_capture_end(instance(fz.capturing), &g), EXP_OK, "");
        if (g) judge("px_graph_destroy", px_graph_destroy(&g), EXP_OK, "");
        fz.capturing = -1;
    }
    for (int i = 0; i < NEXECS; ++i)
        if (fz.exec[i].e) {
            op("px_graph_exec_destroy(cleanup)");
            judge("px_graph_exec_destroy", px_graph_exec_destroy(&fz.exec[i].e), EXP_OK, "");
            exec_gone(&fz.exec[i]);
        }
    for (int s = 0; s < NSLOTS; ++s)
        if (fz.slot[s]) {
            op("px_graph_destroy(cleanup)");
            judge("px_graph_destroy", px_graph_destroy(&fz.slot[s]->g), EXP_OK, "");
            fz.slot[s] = NULL;
        }
    for (int c = 0; c < fz.ncounters; ++c) TK_RELEASE(fz.counters[c].v);
    fz.ncounters = 0;
    for (int i = 0; i < NPOOL; ++i) {
        TK_RELEASE(fz.pool[i].v);
        free(fz.pool[i].shadow);
        fz.pool[i].shadow = NULL;
    }
    tk_destroy_all(fz.inst, NINSTS);
    for (int i = 0; i < fz.ngraphs; ++i) {
        for (int k = 0; k < fz.graphs[i]->n; ++k) free(fz.graphs[i]->nodes[k]);
        free(fz.graphs[i]->nodes);
        free(fz.graphs[i]);
    }
    fz.ngraphs = 0;
    op("(memory after a run)");
    const size_t host = bytes_in_use(px_host()), space = bytes_in_use(tk_space());
    if (host != fz.base_host || space != fz.base_space)
        found("(memory)", "still in use after everything was released",
              "%zu bytes of HOST, %zu of the backend's space beyond what was in use before",
              host - fz.base_host, space - fz.base_space);
}

/* Another reference to px_init, or one fewer, or a whole cycle: everything released, the
   last px_finalize (refused first while the default instance is captured, sometimes),
   calls that need portex, px_init again and new views. Regions open go with the cycle. */
static void op_lifetime(void)
{
    const px_init_options o = {.skip_topology = true};
    const int r = (int)rnd(0, 9);
    if (r < 3 && fz.init_refs < 3) {
        op("px_init(another reference)");
        if (judge("px_init", px_init(&o), EXP_OK, "")) fz.init_refs++;
        return;
    }
    if (r < 6) {
        op("px_finalize(%d references, views alive)", fz.init_refs);
        if (judge_status("px_finalize", px_finalize(), fz.init_refs > 1 ? PX_OK : PX_ERR_BUSY,
                         "views alive"))
            fz.init_refs--;
        return;
    }
    cleanup_run();
    while (fz.init_refs > 1) {
        op("px_finalize(an extra reference)");
        if (judge("px_finalize", px_finalize(), EXP_OK, "")) fz.init_refs--;
    }
    if (chance(30)) {
        op("px_graph_capture_begin(the default instance, before px_finalize)");
        judge("px_graph_capture_begin", px_graph_capture_begin(tk_inst(), PX_CAPTURE_THREAD_LOCAL),
              EXP_OK, "");
        op("px_finalize(the default instance captured)");
        judge_status("px_finalize", px_finalize(), PX_ERR_CAPTURING,
                     "the default instance is captured");
        if (!px_is_initialized()) found("px_finalize", "tore down while refusing", "%s", "");
        px_graph *g = NULL;
        op("px_graph_capture_end(the default instance)");
        judge("px_graph_capture_end", px_graph_capture_end(tk_inst(), &g), EXP_OK, "");
        if (g) judge("px_graph_destroy", px_graph_destroy(&g), EXP_OK, "");
    }
    op("px_finalize(the last reference, %d regions open)", fz.regions);
    judge("px_finalize", px_finalize(), EXP_OK, "");
    fz.init_refs = 0;
    fz.regions = 0;
    op("px_region_push(not initialized)");
    judge_status("px_region_push", px_region_push("early"), PX_ERR_NOT_INITIALIZED,
                 "not initialized");
    op("px_region_pop(not initialized)");
    judge_status("px_region_pop", px_region_pop(), PX_ERR_NOT_INITIALIZED, "not initialized");
    px_graph *g = NULL;
    op("px_graph_create(not initialized)");
    judge_status("px_graph_create", px_graph_create(&g, tk_exec(), 0, "early"),
                 PX_ERR_NOT_INITIALIZED, "not initialized");
    op("px_init(after the last px_finalize)");
    TK_OK(px_init(&o));
    fz.init_refs = 1;
    setup_run();
}

/* ---- The test ------------------------------------------------------------------------------------ */

static const fuzz_kind kinds[] = {
    {"graph", 8, op_graph}, {"node", 30, op_node},    {"child", 10, op_child},
    {"loop", 4, op_loop},   {"exec", 8, op_exec},     {"launch", 12, op_launch},
    {"set", 10, op_set},    {"update", 6, op_update}, {"capture", 8, op_capture},
    {"dot", 2, op_dot},     {"region", 6, op_region}, {"lifetime", 1, op_lifetime},
};
#define NKINDS ((int)(sizeof kinds / sizeof kinds[0]))

START_TEST(fuzz_graphs)
{
    const uint64_t seed = fuzz_seed(_i);
    const long long iters = fuzz_iters(ITERS_DEFAULT);
    fuzz_start(seed, iters);
    memset(&fz, 0, sizeof fz);
    fz.cuda = tk_is_cuda();
    fz.init_refs = 1;
    fz.sink = fopen("/dev/null", "w");
    ck_assert_ptr_nonnull(fz.sink);
    atomic_store(&host_calls, 0);
    TK_ASSERT(fuzz_choose(kinds, NKINDS), "PX_FUZZ_OPS='%s' names no kind of call",
              getenv("PX_FUZZ_OPS"));
    setup_run();
    tk_watchdog_start(20);
    for (g_call = 0; g_call < (uint64_t)iters && !fuzz_stopped(); ++g_call) fuzz_one(kinds, NKINDS);
    g_call = (uint64_t)iters;
    cleanup_run();
    while (fz.init_refs > 1) {
        op("px_finalize(cleanup)");
        judge("px_finalize", px_finalize(), EXP_OK, "");
        fz.init_refs--;
    }
    tk_watchdog_stop();
    free(fz.counters);
    free(fz.graphs);
    fclose(fz.sink);
    fuzz_report();
}
END_TEST

int main(void) { return fuzz_main("fuzz_graph", "graphs", fuzz_graphs, FUZZ_SEEDS, 600); }
