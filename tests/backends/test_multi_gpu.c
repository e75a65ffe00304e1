/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Copies between two GPUs: path CUDA_PEER, ordered after the pending work of both GPUs,
 * and strided copies and fills that reach a peer's memory. Built and registered only with
 * CUDA; skips (77) with fewer than two GPUs.
 *
 * The chains replay the race NVIDIA Warp had (`a.to("cuda:1")` issued while the kernel
 * producing `a` still ran on GPU 0: the copy, queued on GPU 1's stream, read stale data):
 * host -> GPU 0 -> GPU 1 -> host, with the producer on GPU 0 held back by a spinning
 * kernel when the copy to GPU 1 is issued, and half the time a late write to the
 * destination pending on GPU 1 as well. The copy is issued on either GPU's instances, or
 * in the blocking form; every element of every chain is checked. peer_chains_pageable runs
 * the same chains with pageable host memory at both ends (the host copies staged,
 * CUDA_STAGED); peer_chains_graph captures chains on GPU 0 into graphs and replays each
 * many times with fresh input. PX_TEST_MG_CHAINS lowers the number of chains (10^4) of
 * the three, e.g. under compute-sanitizer. The negative control
 * does the same with cudaMemcpyPeerAsync on GPU 1's stream and no ordering, and reports
 * how often that read stale data (information, not an assertion). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "common_cuda.h"
#include "k_multi_gpu.h"

enum { MAX_N = 1 << 20, CHAINS = 10000, GRAPHS = 100, CONTROL_TRIALS = 20 };

static const uint32_t POISON = 0xdeadbeefu;
/* What the graph case writes into the host's output before each replay. */
static const uint32_t HOST_POISON = 0xa5a5a5a5u;

static double seconds(void)
{
    struct timespec t;
    timespec_get(&t, TIME_UTC);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void spin(px_instance *in, int64_t ns)
{
    mg_spin_args a = {ns};
    TK_OK(px_parallel_for(in, "mg_spin", px_range(0, 1), PX_KERNEL(mg_spin), &a));
}

static void produce(px_instance *in, px_view *x, px_view *y, uint32_t mul, uint32_t add)
{
    mg_produce_args a;
    memset(&a, 0, sizeof a);
    a.mul = mul;
    a.add = add;
    TK_OK(px_view_span_u32(x, &a.x));
    TK_OK(px_view_span_u32(y, &a.y));
    TK_OK(
        px_parallel_for(in, "mg_produce", px_range(0, tk_info(x).size), PX_KERNEL(mg_produce), &a));
}

/* 1 to 2^20 elements: a quarter uniform, the rest log-uniform (small copies matter too). */
static int64_t chain_size(tk_rng *r)
{
    if (tk_next(r) % 4 == 0) return tk_int(r, 1, MAX_N);
    const int bits = (int)tk_int(r, 0, 20);
    const int64_t hi = (int64_t)1 << bits;
    return tk_int(r, bits > 0 ? hi / 2 : 1, hi);
}

/* How many chains each chain case runs: PX_TEST_MG_CHAINS (1 to 10^4, e.g. fewer under
   compute-sanitizer), else 10^4. */
static int chain_count(void) { return (int)tk_env_ll("PX_TEST_MG_CHAINS", 1, CHAINS, CHAINS); }

/* One chain's random draw: n elements from hin[oh], through x0[ox] and y0[oy] on GPU 0,
   to y1[o1] on GPU 1; the producer computes y = x * mul + add. */
typedef struct chain {
    int64_t n, oh, ox, oy, o1;
    uint32_t mul, add;
} chain;

static chain chain_draw(tk_rng *r, int c)
{
    chain ch;
    ch.n = chain_size(r);
    ch.oh = tk_int(r, 0, MAX_N - ch.n);
    ch.ox = tk_int(r, 0, MAX_N - ch.n);
    ch.oy = tk_int(r, 0, MAX_N - ch.n);
    ch.o1 = tk_int(r, 0, MAX_N - ch.n);
    ch.mul = (uint32_t)tk_next(r) | 1u;
    ch.add = (uint32_t)c * 2654435761u + 1u;
    return ch;
}

/* Wrong elements over all chains, and the first one described. */
typedef struct tally {
    int64_t elems, bad_chains, bad_elems;
    char first[320];
} tally;

/* Checks out[i] == in[oh + i] * mul + add for the chain's n elements; `where` says which
   chain (for the first wrong element). */
static void check_chain(tally *t, const chain *ch, const uint32_t *in, const uint32_t *out,
                        const char *where)
{
    int64_t bad = 0;
    for (int64_t i = 0; i < ch->n; ++i) {
        const uint32_t want = in[ch->oh + i] * ch->mul + ch->add;
        if (out[i] != want) {
            if (bad == 0 && t->bad_chains == 0)
                snprintf(t->first, sizeof t->first,
                         "%s (n %lld): element %lld is 0x%08x, expected 0x%08x%s", where,
                         (long long)ch->n, (long long)i, out[i], want,
                         out[i] == POISON ? " (the poison written on GPU 1 before the copy)"
                         : out[i] == HOST_POISON
                             ? " (the host's poison: the copy to the host did not land)"
                             : "");
            ++bad;
        }
    }
    t->elems += ch->n;
    t->bad_elems += bad;
    t->bad_chains += bad != 0;
}

/* The chains of peer_chains and peer_chains_pageable, with host buffers in `host` at both
   ends, whose copies to GPU 0 and from GPU 1 must take `host_path`. */
static void run_chains(const char *name, px_space host, px_copy_path host_path)
{
    const int chains = chain_count();
    px_instance *gpu[2][2];
    TK_OK(px_instance_default(PX_EXEC_CUDA, 0, &gpu[0][0]));
    TK_OK(px_instance_default(PX_EXEC_CUDA, 1, &gpu[1][0]));
    gpu[0][1] = tk_instance_on(PX_EXEC_CUDA, 0, "gpu0-second");
    gpu[1][1] = tk_instance_on(PX_EXEC_CUDA, 1, "gpu1-second");

    px_view *hin = tk_view1("hin", host, PX_U32, MAX_N);
    px_view *hout = tk_view1("hout", host, PX_U32, MAX_N);
    px_view *x0 = tk_view1("x0", px_device(0), PX_U32, MAX_N);
    px_view *y0 = tk_view1("y0", px_device(0), PX_U32, MAX_N);
    px_view *y1 = tk_view1("y1", px_device(1), PX_U32, MAX_N);
    const uint32_t *in = (const uint32_t *)tk_data(hin);
    const uint32_t *out = (const uint32_t *)tk_data(hout);
    tk_rng r = tk_rng_seed(2026);
    /* Written once, before any copy: pageable memory a staged copy reads is left alone. */
    tk_random_bytes(&r, tk_data(hin), (size_t)MAX_N * sizeof(uint32_t));

    int issued[5] = {0};
    tally t;
    memset(&t, 0, sizeof t);
    uint64_t before[PX_COPY_PATH_COUNT], after[PX_COPY_PATH_COUNT];
    TK_OK(px_copy_path_counts(before));
    const double t0 = seconds();

    for (int c = 0; c < chains; ++c) {
        const chain ch = chain_draw(&r, c);
        const int64_t n = ch.n;
        px_view *hs = tk_sub1(hin, ch.oh, n), *xs = tk_sub1(x0, ch.ox, n),
                *ys = tk_sub1(y0, ch.oy, n);
        px_view *ds = tk_sub1(y1, ch.o1, n), *os = tk_sub1(hout, 0, n);

        /* host -> GPU 0, then the producer, held back on the GPU. */
        px_instance *p = gpu[0][tk_next(&r) & 1];
        px_copy_path up = PX_COPY_NONE, down = PX_COPY_NONE;
        if (tk_next(&r) % 4 == 0)
            TK_OK(px_deep_copy(xs, hs, &up));
        else
            TK_OK(px_deep_copy_async(p, xs, hs, &up));
        TK_ASSERT(up == host_path, "%s, chain %d: host -> GPU 0 took %s, expected %s", name, c,
                  px_copy_path_string(up), px_copy_path_string(host_path));
        spin(p, tk_int(&r, 10000, 150000));
        produce(p, xs, ys, ch.mul, ch.add);

        /* Half the time a late write of the destination is pending on GPU 1 as well. */
        if (tk_next(&r) & 1) {
            px_instance *q = gpu[1][tk_next(&r) & 1];
            spin(q, tk_int(&r, 10000, 100000));
            TK_OK(px_fill_async(q, ds, &POISON, NULL));
        }

        /* GPU 0 -> GPU 1: on one of the four instances, or blocking. */
        const int mode = (int)(tk_next(&r) % 5);
        px_instance *via = mode < 4 ? gpu[mode >> 1][mode & 1] : NULL;
        px_copy_path path = PX_COPY_NONE;
        if (via)
            TK_OK(px_deep_copy_async(via, ds, ys, &path));
        else
            TK_OK(px_deep_copy(ds, ys, &path));
        TK_ASSERT(path == PX_COPY_CUDA_PEER, "%s, chain %d: path %s", name, c,
                  px_copy_path_string(path));
        ++issued[mode];

        /* GPU 1 -> host, on a GPU 1 instance that has seen the copy; fenced before the
           host reads (a staged copy into pageable memory is done only then). */
        if (via && (mode >> 1) == 1) {
            TK_OK(px_deep_copy_async(via, os, ds, &down));
            TK_OK(px_instance_fence(via));
        } else {
            if (via) TK_OK(px_instance_fence(via));
            px_instance *d = gpu[1][tk_next(&r) & 1];
            TK_OK(px_deep_copy_async(d, os, ds, &down));
            TK_OK(px_instance_fence(d));
        }
        TK_ASSERT(down == host_path, "%s, chain %d: GPU 1 -> host took %s, expected %s", name, c,
                  px_copy_path_string(down), px_copy_path_string(host_path));

        char where[64];
        snprintf(where, sizeof where, "chain %d, mode %d", c, mode);
        check_chain(&t, &ch, in, out, where);
        px_view *parts[] = {hs, xs, ys, ds, os};
        for (size_t k = 0; k < sizeof parts / sizeof parts[0]; ++k) px_view_release(&parts[k]);
    }
    TK_OK(px_fence_all());
    const double secs = seconds() - t0;
    TK_OK(px_copy_path_counts(after));

    printf("%s: %d chains, %lld elements, %.1f s; host copies %s, GPU 0 -> GPU 1 %s; copy to GPU 1 "
           "issued on GPU 0's instances %d, on GPU 1's %d, blocking %d; %lld chains with %lld "
           "stale or "
           "wrong elements\n",
           name, chains, (long long)t.elems, secs, px_copy_path_string(host_path),
           px_copy_path_string(PX_COPY_CUDA_PEER), issued[0] + issued[1], issued[2] + issued[3],
           issued[4], (long long)t.bad_chains, (long long)t.bad_elems);
    fflush(stdout);
    TK_ASSERT(t.bad_chains == 0, "%s: %lld of %d chains wrong; first: %s", name,
              (long long)t.bad_chains, chains, t.first);
    ck_assert_uint_eq(after[PX_COPY_CUDA_PEER] - before[PX_COPY_CUDA_PEER], (uint64_t)chains);

    TK_OK(px_instance_destroy(&gpu[0][1]));
    TK_OK(px_instance_destroy(&gpu[1][1]));
    px_view *views[] = {hin, hout, x0, y0, y1};
    for (size_t k = 0; k < sizeof views / sizeof views[0]; ++k) px_view_release(&views[k]);
}

/* Pinned memory at both ends: the copies to and from the host are DMAs. */
START_TEST(peer_chains) { run_chains("peer chains", px_host_pinned(), PX_COPY_CUDA_DMA); }
END_TEST

/* Pageable memory at both ends: the copies to and from the host are staged through
   portex's pinned buffers (CUDA_STAGED), queued on the instance and returning before they
   are done; the producer is held back as before. */
START_TEST(peer_chains_pageable)
{
    run_chains("peer chains, pageable", px_host(), PX_COPY_CUDA_STAGED);
}
END_TEST

/* The chain as a graph: GRAPHS random chains, each captured once on an instance of GPU 0
   (pinned -> GPU 0, the spin, the producer, GPU 0 -> GPU 1, GPU 1 -> pinned: all on GPU 0's
   stream, which a capture needs; the copy from GPU 1's memory to the host is a DMA issued
   there), instantiated and replayed on either instance of GPU 0 with fresh input written
   into the pinned buffer before each replay (after the previous one was fenced), every
   element checked after each. Inside the graph the producer -> peer copy order is the
   captured stream's order (portex records no events during a capture). Without a late
   write pending on GPU 1: a captured peer copy is not ordered after other instances' work
   (docs/cuda.md), so the output on the host is poisoned before each replay instead. */
START_TEST(peer_chains_graph)
{
    const int total = chain_count();
    const int graphs = total < GRAPHS ? total : GRAPHS, replays = total / graphs;
    px_instance *g0[2];
    TK_OK(px_instance_default(PX_EXEC_CUDA, 0, &g0[0]));
    g0[1] = tk_instance_on(PX_EXEC_CUDA, 0, "gpu0-capture");

    px_view *hin = tk_view1("hin", px_host_pinned(), PX_U32, MAX_N);
    px_view *hout = tk_view1("hout", px_host_pinned(), PX_U32, MAX_N);
    px_view *x0 = tk_view1("x0", px_device(0), PX_U32, MAX_N);
    px_view *y0 = tk_view1("y0", px_device(0), PX_U32, MAX_N);
    px_view *y1 = tk_view1("y1", px_device(1), PX_U32, MAX_N);
    uint32_t *in = (uint32_t *)tk_data(hin);
    uint32_t *out = (uint32_t *)tk_data(hout);
    tk_rng r = tk_rng_seed(2027);
    /* portex enables peer access at the first copy between the two GPUs outside a capture
       (not during one): one blocking copy first, as a program would have made. */
    TK_OK(px_deep_copy(y1, y0, NULL));

    int64_t launched[2] = {0, 0};
    tally t;
    memset(&t, 0, sizeof t);
    const double t0 = seconds();

    for (int g = 0; g < graphs; ++g) {
        const chain ch = chain_draw(&r, g);
        const int64_t n = ch.n, oo = tk_int(&r, 0, MAX_N - n);
        px_view *hs = tk_sub1(hin, ch.oh, n), *xs = tk_sub1(x0, ch.ox, n),
                *ys = tk_sub1(y0, ch.oy, n);
        px_view *ds = tk_sub1(y1, ch.o1, n), *os = tk_sub1(hout, oo, n);
        const int64_t ns = tk_int(&r, 10000, 150000);

        px_copy_path path[3] = {PX_COPY_NONE, PX_COPY_NONE, PX_COPY_NONE};
        px_graph *graph = NULL;
        TK_OK(px_graph_capture_begin(g0[1], PX_CAPTURE_THREAD_LOCAL));
        TK_OK(px_deep_copy_async(g0[1], xs, hs, &path[0]));
        spin(g0[1], ns);
        produce(g0[1], xs, ys, ch.mul, ch.add);
        TK_OK(px_deep_copy_async(g0[1], ds, ys, &path[1]));
        TK_OK(px_deep_copy_async(g0[1], os, ds, &path[2]));
        TK_OK(px_graph_capture_end(g0[1], &graph));
        TK_ASSERT(path[0] == PX_COPY_CUDA_DMA && path[1] == PX_COPY_CUDA_PEER &&
                      path[2] == PX_COPY_CUDA_DMA,
                  "graph %d: captured paths %s, %s, %s; expected CUDA_DMA, CUDA_PEER, CUDA_DMA", g,
                  px_copy_path_string(path[0]), px_copy_path_string(path[1]),
                  px_copy_path_string(path[2]));
        px_graph_exec *exec = NULL;
        TK_OK(px_graph_instantiate(graph, &exec));
        TK_OK(px_graph_destroy(&graph)); /* the executable graph keeps it */

        for (int k = 0; k < replays; ++k) {
            /* The previous replay was fenced: nothing reads hin or writes hout now. */
            tk_random_bytes(&r, in + ch.oh, (size_t)n * sizeof(uint32_t));
            for (int64_t i = 0; i < n; ++i) out[oo + i] = HOST_POISON;
            const int which = (int)(tk_next(&r) & 1);
            TK_OK(px_graph_launch(exec, g0[which]));
            TK_OK(px_instance_fence(g0[which]));
            ++launched[which];
            char where[64];
            snprintf(where, sizeof where, "graph %d, replay %d", g, k);
            check_chain(&t, &ch, in, out + oo, where);
        }
        TK_OK(px_graph_exec_destroy(&exec));
        px_view *parts[] = {hs, xs, ys, ds, os};
        for (size_t k = 0; k < sizeof parts / sizeof parts[0]; ++k) px_view_release(&parts[k]);
    }
    TK_OK(px_fence_all());
    const double secs = seconds() - t0;
    const int64_t total_replays = (int64_t)graphs * replays;

    printf("peer chains, graph: %d chains captured on GPU 0 (host -> GPU 0 %s, GPU 0 -> GPU 1 %s, "
           "GPU 1 -> host %s), each replayed %d times: %lld replays (on the default instance %lld, "
           "on the capturing one %lld), %lld elements, %.1f s; %lld replays with %lld wrong "
           "elements\n",
           graphs, px_copy_path_string(PX_COPY_CUDA_DMA), px_copy_path_string(PX_COPY_CUDA_PEER),
           px_copy_path_string(PX_COPY_CUDA_DMA), replays, (long long)total_replays,
           (long long)launched[0], (long long)launched[1], (long long)t.elems, secs,
           (long long)t.bad_chains, (long long)t.bad_elems);
    fflush(stdout);
    TK_ASSERT(t.bad_chains == 0, "graph: %lld of %lld replays wrong; first: %s",
              (long long)t.bad_chains, (long long)total_replays, t.first);

    TK_OK(px_instance_destroy(&g0[1]));
    px_view *views[] = {hin, hout, x0, y0, y1};
    for (size_t k = 0; k < sizeof views / sizeof views[0]; ++k) px_view_release(&views[k]);
}
END_TEST

/* What a program gets without the ordering: the producer on GPU 0, then at once
   cudaMemcpyPeerAsync on a stream of GPU 1 (the destination's), no event between. */
START_TEST(raw_control)
{
    const int64_t n = MAX_N;
    px_instance *g0 = NULL;
    TK_OK(px_instance_default(PX_EXEC_CUDA, 0, &g0));
    px_view *hin = tk_view1("hin", px_host_pinned(), PX_U32, n);
    px_view *hout = tk_view1("hout", px_host_pinned(), PX_U32, n);
    px_view *x0 = tk_view1("x0", px_device(0), PX_U32, n);
    px_view *y0 = tk_view1("y0", px_device(0), PX_U32, n);
    px_view *y1 = tk_view1("y1", px_device(1), PX_U32, n);
    tk_rng r = tk_rng_seed(77);
    tk_random_bytes(&r, tk_data(hin), (size_t)n * sizeof(uint32_t));
    TK_OK(px_deep_copy(x0, hin, NULL));
    const uint32_t *in = (const uint32_t *)tk_data(hin), *out = (const uint32_t *)tk_data(hout);

    int saved = 0;
    cudaStream_t s1;
    CU_OK(cudaGetDevice(&saved));
    CU_OK(cudaSetDevice(1));
    CU_OK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    CU_OK(cudaSetDevice(saved));

    int stale = 0;
    for (int t = 0; t < CONTROL_TRIALS; ++t) {
        const uint32_t mul = (uint32_t)tk_next(&r) | 1u, add = (uint32_t)t + 1u;
        TK_OK(px_fill(y0, &POISON, NULL));
        TK_OK(px_fill(y1, &POISON, NULL));
        spin(g0, 2000000); /* 2 ms */
        produce(g0, x0, y0, mul, add);
        CU_OK(cudaMemcpyPeerAsync(tk_info(y1).data, 1, tk_info(y0).data, 0,
                                  (size_t)n * sizeof(uint32_t), s1));
        CU_OK(cudaStreamSynchronize(s1));
        TK_OK(px_instance_fence(g0));
        TK_OK(px_deep_copy(hout, y1, NULL));
        bool wrong = false;
        for (int64_t i = 0; i < n && !wrong; ++i) wrong = out[i] != in[i] * mul + add;
        stale += wrong;
    }
    CU_OK(cudaStreamDestroy(s1));
    printf("negative control (raw CUDA, not an assertion): cudaMemcpyPeerAsync on GPU 1's stream "
           "without ordering after the producer on GPU 0 copied stale data in %d of %d trials\n",
           stale, CONTROL_TRIALS);
    fflush(stdout);
    px_view *views[] = {hin, hout, x0, y0, y1};
    for (size_t k = 0; k < sizeof views / sizeof views[0]; ++k) px_view_release(&views[k]);
}
END_TEST

static px_view *view2(const char *label, px_space space, px_layout layout, int64_t e0, int64_t e1)
{
    const int64_t e[2] = {e0, e1};
    return tk_view_ex(label, space, PX_I64, 0, layout, 2, e, 0);
}

/* Element (i, j) of a HOST rank-2 view of 8-byte elements. */
static int64_t at2(const px_view *v, int64_t i, int64_t j)
{
    const px_view_info vi = tk_info(v);
    int64_t x;
    memcpy(&x, tk_elem(&vi, i * vi.extent[1] + j), 8);
    return x;
}

/* Strided copies and fills whose kernel reaches the other GPU's memory: they work where
   the GPUs have peer access and are refused (with the way out) where they do not. */
START_TEST(peer_strided)
{
    int can10 = 0, can01 = 0;
    CU_OK(cudaDeviceCanAccessPeer(&can10, 1, 0));
    CU_OK(cudaDeviceCanAccessPeer(&can01, 0, 1));
    px_instance *g0 = NULL, *g1 = NULL;
    TK_OK(px_instance_default(PX_EXEC_CUDA, 0, &g0));
    TK_OK(px_instance_default(PX_EXEC_CUDA, 1, &g1));

    /* A block of a GPU 0 view into a contiguous GPU 1 view, by a kernel on GPU 1. */
    px_view *h = view2("h", px_host(), PX_LAYOUT_RIGHT, 37, 53);
    tk_rng r = tk_rng_seed(5);
    tk_random_bytes(&r, tk_data(h), (size_t)37 * 53 * 8);
    px_view *d0 = view2("d0", px_device(0), PX_LAYOUT_RIGHT, 37, 53);
    TK_OK(px_deep_copy(d0, h, NULL));
    px_slice sl[2] = {px_slice_range(3, 30), px_slice_range(5, 50)};
    px_view *d0sub = NULL;
    TK_OK(px_view_subview(&d0sub, d0, sl, 2));
    px_view *d1 = view2("d1", px_device(1), PX_LAYOUT_RIGHT, 27, 45);
    px_copy_path p = PX_COPY_NONE;
    TK_OK(px_deep_copy_query(d1, d0sub, &p));
    ck_assert_int_eq(p, PX_COPY_CUDA_STRIDED);
    if (can10) {
        TK_OK(px_deep_copy_async(g1, d1, d0sub, &p));
        TK_OK(px_instance_fence(g1));
        px_view *back = tk_to_host(d1);
        for (int64_t i = 0; i < 27; ++i)
            for (int64_t j = 0; j < 45; ++j)
                TK_ASSERT(at2(back, i, j) == at2(h, i + 3, j + 5), "block (%lld, %lld)",
                          (long long)i, (long long)j);
        px_view_release(&back);
    } else {
        TK_FAIL(px_deep_copy_async(g1, d1, d0sub, &p), PX_ERR_UNSUPPORTED, "px_deep_copy");
        TK_ERROR_HAS("contiguous view");
    }

    /* RIGHT on GPU 0 -> LEFT on GPU 1 (blocking: GPU 1's instance), big enough for tiles. */
    px_view *hr = view2("hr", px_host(), PX_LAYOUT_RIGHT, 300, 70);
    tk_random_bytes(&r, tk_data(hr), (size_t)300 * 70 * 8);
    px_view *dr = view2("dr", px_device(0), PX_LAYOUT_RIGHT, 300, 70);
    TK_OK(px_deep_copy(dr, hr, NULL));
    px_view *dl = view2("dl", px_device(1), PX_LAYOUT_LEFT, 300, 70);
    if (can10) {
        TK_OK(px_deep_copy(dl, dr, &p));
        ck_assert_int_eq(p, PX_COPY_CUDA_STRIDED);
        px_view *back = tk_to_host(dl);
        for (int64_t i = 0; i < 300; ++i)
            for (int64_t j = 0; j < 70; ++j)
                TK_ASSERT(at2(back, i, j) == at2(hr, i, j), "(%lld, %lld)", (long long)i,
                          (long long)j);
        px_view_release(&back);
    } else {
        TK_FAIL(px_deep_copy(dl, dr, &p), PX_ERR_UNSUPPORTED, "px_deep_copy");
    }

    /* A strided fill of GPU 1 memory from GPU 0's instance; the rest stays as it was. */
    px_view *f1 = view2("f1", px_device(1), PX_LAYOUT_RIGHT, 40, 40);
    px_slice fs[2] = {px_slice_range(2, 38), px_slice_range(4, 20)};
    px_view *f1sub = NULL;
    TK_OK(px_view_subview(&f1sub, f1, fs, 2));
    const int64_t val = 0x0123456789abcdefLL;
    if (can01) {
        TK_OK(px_fill_async(g0, f1sub, &val, &p));
        ck_assert_int_eq(p, PX_COPY_CUDA_FILL);
        TK_OK(px_instance_fence(g0));
        px_view *back = tk_to_host(f1);
        for (int64_t i = 0; i < 40; ++i)
            for (int64_t j = 0; j < 40; ++j) {
                const bool in = i >= 2 && i < 38 && j >= 4 && j < 20;
                TK_ASSERT(at2(back, i, j) == (in ? val : 0), "fill (%lld, %lld)", (long long)i,
                          (long long)j);
            }
        px_view_release(&back);
        /* A flat fill of GPU 1 memory from GPU 0's instance, with equal bytes. */
        const int64_t zero = 0;
        TK_OK(px_fill_async(g0, f1, &zero, &p));
        TK_OK(px_instance_fence(g0));
        back = tk_to_host(f1);
        for (int64_t i = 0; i < 40 * 40; ++i)
            TK_ASSERT(((const int64_t *)tk_data(back))[i] == 0, "flat fill [%lld]", (long long)i);
        px_view_release(&back);
    } else {
        TK_FAIL(px_fill_async(g0, f1sub, &val, &p), PX_ERR_UNSUPPORTED, "px_fill");
    }

    /* GPU 1 -> GPU 0, flat, on GPU 0's instance: CUDA_PEER in either case. */
    px_view *d0b = view2("d0b", px_device(0), PX_LAYOUT_RIGHT, 37, 53);
    px_view *d1b = view2("d1b", px_device(1), PX_LAYOUT_RIGHT, 37, 53);
    TK_OK(px_deep_copy(d1b, h, NULL));
    TK_OK(px_deep_copy_async(g0, d0b, d1b, &p));
    ck_assert_int_eq(p, PX_COPY_CUDA_PEER);
    TK_OK(px_instance_fence(g0));
    px_view *back = tk_to_host(d0b);
    ck_assert_int_eq(memcmp(tk_data(back), tk_data(h), (size_t)37 * 53 * 8), 0);

    px_view *views[] = {h, d0, d0sub, d1, hr, dr, dl, f1, f1sub, d0b, d1b, back};
    for (size_t k = 0; k < sizeof views / sizeof views[0]; ++k) px_view_release(&views[k]);
}
END_TEST

/* The CUDA backend with two GPUs. */
static const char *need_two_gpus(void)
{
    static char why[128];
    const char *no_cuda = tk_need_cuda();
    if (no_cuda) return no_cuda;
    int gpus = 0;
    if (px_init(NULL) == PX_OK) {
        if (px_exec_space_device_count(PX_EXEC_CUDA, &gpus) != PX_OK) gpus = 0;
        if (px_finalize() != PX_OK) gpus = 0;
    }
    snprintf(why, sizeof why, "the suite needs two GPUs, this machine has %d", gpus);
    return gpus < 2 ? why : NULL;
}

int main(void)
{
    TCase *tc = tk_case("multi_gpu", "peer");
    tcase_set_timeout(tc, 120);
    TK_ADD(tc, peer_strided, peer_chains, peer_chains_pageable, peer_chains_graph, raw_control);
    tk_require("multi_gpu", need_two_gpus);
    return tk_run();
}
