/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Scatter-adds (portex/scatter.h) on the backend under test: the strategy PX_SCATTER_AUTO
 * picks (ATOMIC on CUDA, PLAIN on one host thread, DUPLICATED on several, ATOMIC past the
 * copies' limit); histograms into targets of every element type with heavy contention (all
 * indices on 3 bins) and spread over many bins, from for (1-D and 2-D), reduce, scan and
 * team kernels, with each strategy the backend takes and AUTO, integers exact and doubles
 * against a host reference; rank-2 targets; contribute twice, reset; a dispatch on more
 * threads than the scatter has copies, and the host entry run outside any dispatch; copies
 * large enough that the contribute is a dispatch; dispatch and contribute captured into a
 * graph; the same bits twice with copies; every refusal, each naming its call. Suite
 * "scatter". */
#include <math.h>
#include <stdlib.h>

#include "common.h"
#include "k_scatter.h"

/* Bins: all indices on 3; spread over 10007; over 65541, whose copies take more than
   128 KiB whatever the element type. */
enum { SC_TYPES = 6, SC_FEW = 3, SC_MANY = 10007, SC_BIG = 65541 };

/* Indices per kernel: 2^18, enough for the threads of a loaded machine to overlap; 2^14
   under valgrind, which runs one thread at a time. */
static int64_t sc_n(void) { return tk_under_valgrind() ? (int64_t)1 << 14 : (int64_t)1 << 18; }

static const px_dtype sc_dtypes[SC_TYPES] = {PX_I32, PX_U32, PX_I64, PX_U64, PX_F32, PX_F64};

/* The strategies the backend under test takes: AUTO and ATOMIC everywhere; DUPLICATED on
   the host backends; PLAIN where kernels run on one thread. */
static int sc_strategies(px_scatter_strategy *out)
{
    int n = 0, threads = 1;
    TK_OK(px_instance_concurrency(tk_inst(), &threads));
    out[n++] = PX_SCATTER_AUTO;
    out[n++] = PX_SCATTER_ATOMIC;
    if (!tk_is_cuda()) out[n++] = PX_SCATTER_DUPLICATED;
    if (!tk_is_cuda() && threads == 1) out[n++] = PX_SCATTER_PLAIN;
    return n;
}

/* Six targets (one per element type) of nbins elements, or rows x cols when rank2, their
   scatters and the kernels' arguments. */
typedef struct sc_run {
    px_view *v[SC_TYPES];
    px_scatter *s[SC_TYPES];
    sc_args a;
} sc_run;

static void sc_open(sc_run *r, px_instance *inst, px_scatter_strategy st, int64_t nbins, int spread,
                    int64_t cols)
{
    memset(r, 0, sizeof *r);
    r->a.nbins = nbins;
    r->a.spread = spread;
    r->a.rank2 = cols > 0;
    r->a.cols = cols > 0 ? cols : 1;
    const int64_t ext[2] = {cols > 0 ? nbins / cols : nbins, cols};
    for (int t = 0; t < SC_TYPES; ++t) {
        r->v[t] = tk_view("target", tk_space(), sc_dtypes[t], cols > 0 ? 2 : 1, ext);
        TK_OK(px_scatter_create(&r->s[t], inst, r->v[t], st));
    }
    TK_OK(px_scatter_get_span(r->s[0], &r->a.c32));
    TK_OK(px_scatter_get_span(r->s[1], &r->a.u32));
    TK_OK(px_scatter_get_span(r->s[2], &r->a.s64));
    TK_OK(px_scatter_get_span(r->s[3], &r->a.u64));
    TK_OK(px_scatter_get_span(r->s[4], &r->a.f32));
    TK_OK(px_scatter_get_span(r->s[5], &r->a.f64));
}

static void sc_contribute(sc_run *r, px_instance *inst)
{
    for (int t = 0; t < SC_TYPES; ++t) TK_OK(px_scatter_contribute(inst, r->s[t]));
    TK_OK(px_instance_fence(inst));
}

static void sc_close(sc_run *r)
{
    for (int t = 0; t < SC_TYPES; ++t) {
        TK_OK(px_scatter_destroy(&r->s[t]));
        ck_assert_ptr_null(r->s[t]);
        TK_RELEASE(r->v[t]);
    }
}

/* The targets hold `times` x the adds of the indices [0, n) (times 0: zeros), on the host:
   integers exactly, doubles to 1e-9 relative. */
static void sc_expect(sc_run *r, int64_t n, int times, const char *what)
{
    const int64_t nb = r->a.nbins;
    int64_t *count = calloc((size_t)nb, sizeof *count), *sum = calloc((size_t)nb, sizeof *sum);
    uint64_t *wrap = calloc((size_t)nb, sizeof *wrap);
    double *val = calloc((size_t)nb, sizeof *val);
    ck_assert(count && sum && wrap && val);
    for (int64_t i = 0; i < n; ++i) {
        const int64_t b = sc_bin(i, nb, r->a.spread);
        count[b] += times;
        sum[b] += times * i;
        wrap[b] += (uint64_t)times * (((uint64_t)i << 33) + 1u);
        val[b] += times * sc_value(i);
    }
    px_view *h[SC_TYPES];
    for (int t = 0; t < SC_TYPES; ++t) h[t] = tk_to_host(r->v[t]);
    const int32_t *c32 = tk_data(h[0]);
    const uint32_t *u32 = tk_data(h[1]);
    const int64_t *s64 = tk_data(h[2]);
    const uint64_t *u64 = tk_data(h[3]);
    const float *f32 = tk_data(h[4]);
    const double *f64 = tk_data(h[5]);
    for (int64_t b = 0; b < nb; ++b) {
        TK_ASSERT(c32[b] == count[b], "%s: i32 bin %lld holds %d, expected %lld", what,
                  (long long)b, (int)c32[b], (long long)count[b]);
        TK_ASSERT(u32[b] == (uint32_t)count[b], "%s: u32 bin %lld holds %u", what, (long long)b,
                  (unsigned)u32[b]);
        TK_ASSERT(s64[b] == sum[b], "%s: i64 bin %lld holds %lld, expected %lld", what,
                  (long long)b, (long long)s64[b], (long long)sum[b]);
        TK_ASSERT(u64[b] == wrap[b], "%s: u64 bin %lld holds %llu, expected %llu", what,
                  (long long)b, (unsigned long long)u64[b], (unsigned long long)wrap[b]);
        TK_ASSERT(f32[b] == (float)count[b], "%s: f32 bin %lld holds %g, expected %lld", what,
                  (long long)b, (double)f32[b], (long long)count[b]);
        TK_ASSERT(fabs(f64[b] - val[b]) <= 1e-9 * fabs(val[b]),
                  "%s: f64 bin %lld holds %.17g, expected %.17g", what, (long long)b, f64[b],
                  val[b]);
    }
    for (int t = 0; t < SC_TYPES; ++t) TK_RELEASE(h[t]);
    free(count);
    free(sum);
    free(wrap);
    free(val);
}

/* ---- The strategy chosen ---------------------------------------------------------------- */

START_TEST(scatter_auto_choice)
{
    int threads = 1;
    TK_OK(px_instance_concurrency(tk_inst(), &threads));
    px_view *v = tk_view1("hist", tk_space(), PX_F64, 1000);
    px_scatter *s = NULL;
    TK_OK(px_scatter_create(&s, tk_inst(), v, PX_SCATTER_AUTO));
    px_scatter_info info;
    TK_OK(px_scatter_info_get(s, &info));
    ck_assert_int_eq(info.requested, PX_SCATTER_AUTO);
    ck_assert_int_eq(info.threads, threads);
    const px_scatter_strategy want = tk_is_cuda()   ? PX_SCATTER_ATOMIC
                                     : threads == 1 ? PX_SCATTER_PLAIN
                                                    : PX_SCATTER_DUPLICATED;
    ck_assert_msg(info.strategy == want, "AUTO chose %s with %d threads, expected %s",
                  px_scatter_strategy_string(info.strategy), threads,
                  px_scatter_strategy_string(want));
    if (want == PX_SCATTER_DUPLICATED) {
        ck_assert_int_eq(info.copies, threads);
        ck_assert_uint_eq(info.bytes, (size_t)threads * 1008 * sizeof(double)); /* 128 B each */
    } else {
        ck_assert_int_eq(info.copies, 0);
        ck_assert_uint_eq(info.bytes, 0);
    }
    TK_OK(px_scatter_destroy(&s));

    /* Copies over the limit: atomics (with several host threads). */
    if (!tk_is_cuda() && threads > 1) {
        const int64_t n = (int64_t)(PX_SCATTER_DUPLICATE_LIMIT / (size_t)threads / 4) + 64;
        px_view *big = tk_view1("big", tk_space(), PX_I32, n);
        TK_OK(px_scatter_create(&s, tk_inst(), big, PX_SCATTER_AUTO));
        TK_OK(px_scatter_info_get(s, &info));
        ck_assert_int_eq(info.strategy, PX_SCATTER_ATOMIC);
        TK_OK(px_scatter_destroy(&s));
        TK_RELEASE(big);
    }
    /* What the caller asks for, where the backend takes it. */
    px_scatter_strategy st[4];
    const int nst = sc_strategies(st);
    for (int k = 1; k < nst; ++k) {
        TK_OK(px_scatter_create(&s, tk_inst(), v, st[k]));
        TK_OK(px_scatter_info_get(s, &info));
        ck_assert_int_eq(info.strategy, st[k]);
        ck_assert_int_eq(info.requested, st[k]);
        TK_OK(px_scatter_destroy(&s));
    }
    TK_RELEASE(v);
}
END_TEST

START_TEST(scatter_strategy_names)
{
    ck_assert_str_eq(px_scatter_strategy_string(PX_SCATTER_AUTO), "auto");
    ck_assert_str_eq(px_scatter_strategy_string(PX_SCATTER_ATOMIC), "atomic");
    ck_assert_str_eq(px_scatter_strategy_string(PX_SCATTER_DUPLICATED), "duplicated");
    ck_assert_str_eq(px_scatter_strategy_string(PX_SCATTER_PLAIN), "plain");
    ck_assert_str_eq(px_scatter_strategy_string(PX_SCATTER_STRATEGY_COUNT), "unknown");
    ck_assert_str_eq(px_scatter_strategy_string((px_scatter_strategy)-1), "unknown");
}
END_TEST

/* ---- Histograms ------------------------------------------------------------------------ */

/* _i: strategy index x 2 + spread. */
START_TEST(scatter_histogram)
{
    px_scatter_strategy st[4];
    const int nst = sc_strategies(st);
    if (_i / 2 >= nst) TK_SKIP("strategy %d is not one this backend takes", _i / 2);
    const int spread = _i % 2;
    const int64_t n = sc_n();
    sc_run r;
    sc_open(&r, tk_inst(), st[_i / 2], spread ? SC_MANY : SC_FEW, spread, 0);
    TK_OK(px_parallel_for(tk_inst(), "hist", px_range(0, n), PX_KERNEL(sc_for), &r.a));
    px_scatter_info info;
    TK_OK(px_scatter_info_get(r.s[0], &info));
    if (info.strategy == PX_SCATTER_DUPLICATED) {
        /* Every part of the dispatch added into its own copy: nothing in the targets yet. */
        TK_OK(px_instance_fence(tk_inst()));
        sc_expect(&r, n, 0, "before the contribute");
    }
    sc_contribute(&r, tk_inst());
    sc_expect(&r, n, 1, px_scatter_strategy_string(st[_i / 2]));
    sc_close(&r);
}
END_TEST

/* Every kind of kernel adds through a scatter of each strategy: _i the strategy. */
START_TEST(scatter_kernel_kinds)
{
    px_scatter_strategy st[4];
    const int nst = sc_strategies(st);
    if (_i >= nst) TK_SKIP("strategy %d is not one this backend takes", _i);
    const char *name = px_scatter_strategy_string(st[_i]);
    const int64_t n = sc_n(), rows = n / SC_COLS2, leagues = n / SC_PER_TEAM;
    sc_run r;
    sc_open(&r, tk_inst(), st[_i], SC_FEW, 0, 0);

    TK_OK(px_parallel_for(tk_inst(), "hist 2-D", px_mdrange2(0, rows, 0, SC_COLS2),
                          PX_KERNEL(sc_for_2d), &r.a));
    sc_contribute(&r, tk_inst());
    sc_expect(&r, rows * SC_COLS2, 1, name);

    int64_t count = 0;
    for (int t = 0; t < SC_TYPES; ++t) TK_OK(px_scatter_reset(tk_inst(), r.s[t]));
    TK_OK(px_parallel_reduce(tk_inst(), "hist reduce", px_range(0, n), PX_KERNEL(sc_reduce), &r.a,
                             &count));
    ck_assert_int_eq(count, n);
    sc_contribute(&r, tk_inst());
    sc_expect(&r, n, 1, name);

    for (int t = 0; t < SC_TYPES; ++t) TK_OK(px_scatter_reset(tk_inst(), r.s[t]));
    TK_OK(
        px_parallel_scan(tk_inst(), "hist scan", px_range(0, n), PX_KERNEL(sc_scan), &r.a, &count));
    TK_OK(px_instance_fence(tk_inst()));
    ck_assert_int_eq(count, n);
    sc_contribute(&r, tk_inst());
    sc_expect(&r, n, 1, name);

    for (int t = 0; t < SC_TYPES; ++t) TK_OK(px_scatter_reset(tk_inst(), r.s[t]));
    TK_OK(px_parallel_for_team(tk_inst(), "hist team", px_teams(leagues, PX_AUTO, PX_AUTO),
                               PX_KERNEL(sc_team), &r.a));
    sc_contribute(&r, tk_inst());
    sc_expect(&r, leagues * SC_PER_TEAM, 1, name);
    sc_close(&r);
}
END_TEST

/* Rank-2 targets: px_scatter_add2 at (bin / cols, bin % cols); _i the strategy. */
START_TEST(scatter_rank2)
{
    px_scatter_strategy st[4];
    const int nst = sc_strategies(st);
    if (_i >= nst) TK_SKIP("strategy %d is not one this backend takes", _i);
    const int64_t n = sc_n();
    sc_run r;
    sc_open(&r, tk_inst(), st[_i], 61 * 7, 1, 7); /* 61 rows of 7 */
    TK_OK(px_parallel_for(tk_inst(), "hist", px_range(0, n), PX_KERNEL(sc_for), &r.a));
    sc_contribute(&r, tk_inst());
    sc_expect(&r, n, 1, px_scatter_strategy_string(st[_i]));
    /* px_scatter_add on the same rank-2 targets: element i in row-major order. */
    r.a.rank2 = 0;
    TK_OK(px_parallel_for(tk_inst(), "hist", px_range(0, n), PX_KERNEL(sc_for), &r.a));
    sc_contribute(&r, tk_inst());
    sc_expect(&r, n, 2, px_scatter_strategy_string(st[_i]));
    sc_close(&r);
}
END_TEST

/* ---- Contribute, reset ------------------------------------------------------------------- */

START_TEST(scatter_contribute_twice_and_reset)
{
    px_scatter_strategy st[4];
    const int nst = sc_strategies(st);
    if (_i >= nst) TK_SKIP("strategy %d is not one this backend takes", _i);
    const int64_t n = sc_n();
    sc_run r;
    sc_open(&r, tk_inst(), st[_i], SC_FEW, 0, 0);
    const char *name = px_scatter_strategy_string(st[_i]);
    /* Contribute with nothing added: the target stays zero. */
    sc_contribute(&r, tk_inst());
    sc_expect(&r, n, 0, name);
    /* Two rounds: the second adds to the first; a contribute without adds changes
       nothing. */
    for (int round = 1; round <= 2; ++round) {
        TK_OK(px_parallel_for(tk_inst(), "hist", px_range(0, n), PX_KERNEL(sc_for), &r.a));
        sc_contribute(&r, tk_inst());
        sc_contribute(&r, tk_inst());
        sc_expect(&r, n, round, name);
    }
    /* Two dispatches before one contribute. */
    TK_OK(px_parallel_for(tk_inst(), "hist", px_range(0, n), PX_KERNEL(sc_for), &r.a));
    TK_OK(px_parallel_for(tk_inst(), "hist", px_range(0, n), PX_KERNEL(sc_for), &r.a));
    sc_contribute(&r, tk_inst());
    sc_expect(&r, n, 4, name);
    /* Reset: zeros, and the adds not contributed are dropped (with copies). */
    TK_OK(px_parallel_for(tk_inst(), "hist", px_range(0, n), PX_KERNEL(sc_for), &r.a));
    TK_OK(px_instance_fence(tk_inst()));
    for (int t = 0; t < SC_TYPES; ++t) TK_OK(px_scatter_reset(tk_inst(), r.s[t]));
    sc_contribute(&r, tk_inst());
    sc_expect(&r, n, 0, name);
    TK_OK(px_parallel_for(tk_inst(), "hist", px_range(0, n), PX_KERNEL(sc_for), &r.a));
    sc_contribute(&r, tk_inst());
    sc_expect(&r, n, 1, name);
    sc_close(&r);
}
END_TEST

/* Copies too large to be added on the calling thread (over 128 KiB): the contribute is a
   dispatch on the instance, every element type, each strategy. */
START_TEST(scatter_large_target)
{
    px_scatter_strategy st[4];
    const int nst = sc_strategies(st);
    if (_i >= nst) TK_SKIP("strategy %d is not one this backend takes", _i);
    const int64_t n = sc_n();
    sc_run r;
    sc_open(&r, tk_inst(), st[_i], SC_BIG, 1, 0);
    for (int round = 1; round <= 2; ++round) {
        TK_OK(px_parallel_for(tk_inst(), "hist", px_range(0, n), PX_KERNEL(sc_for), &r.a));
        sc_contribute(&r, tk_inst());
        sc_expect(&r, n, round, px_scatter_strategy_string(st[_i]));
    }
    sc_close(&r);
}
END_TEST

/* A dispatch and its contribute captured into a graph, launched twice: twice the adds
   (the contribute is recorded, not run, while the instance is captured). */
START_TEST(scatter_in_a_graph)
{
    const int64_t n = sc_n();
    px_instance *inst = tk_instance("captured");
    for (int big = 0; big < 2; ++big) {
        sc_run r;
        sc_open(&r, inst, PX_SCATTER_AUTO, big ? SC_BIG : SC_FEW, big, 0);
        px_graph *g = NULL;
        px_graph_exec *e = NULL;
        TK_OK(px_graph_capture_begin(inst, PX_CAPTURE_THREAD_LOCAL));
        TK_OK(px_parallel_for(inst, "hist", px_range(0, n), PX_KERNEL(sc_for), &r.a));
        for (int t = 0; t < SC_TYPES; ++t) TK_OK(px_scatter_contribute(inst, r.s[t]));
        TK_OK(px_graph_capture_end(inst, &g));
        TK_OK(px_instance_fence(inst));
        sc_expect(&r, n, 0, "captured, not launched");
        TK_OK(px_graph_instantiate(g, &e));
        TK_OK(px_graph_launch(e, inst));
        TK_OK(px_graph_launch(e, inst));
        TK_OK(px_instance_fence(inst));
        sc_expect(&r, n, 2, "a graph launched twice");
        TK_OK(px_graph_exec_destroy(&e));
        TK_OK(px_graph_destroy(&g));
        sc_close(&r);
    }
    tk_destroy_all(&inst, 1);
}
END_TEST

/* Copies: the same bits from two runs of one dispatch (host backends). */
START_TEST(scatter_duplicated_same_bits)
{
    if (tk_is_cuda()) TK_SKIP("copies are for the host backends");
    const int64_t n = sc_n();
    sc_run r;
    sc_open(&r, tk_inst(), PX_SCATTER_DUPLICATED, SC_MANY, 1, 0);
    double *first = malloc(SC_MANY * sizeof *first);
    ck_assert_ptr_nonnull(first);
    for (int round = 0; round < 2; ++round) {
        for (int t = 0; t < SC_TYPES; ++t) TK_OK(px_scatter_reset(tk_inst(), r.s[t]));
        TK_OK(px_parallel_for(tk_inst(), "hist", px_range(0, n), PX_KERNEL(sc_for), &r.a));
        sc_contribute(&r, tk_inst());
        const double *f64 = tk_data(r.v[5]);
        if (round == 0)
            memcpy(first, f64, SC_MANY * sizeof *first);
        else
            ck_assert_msg(memcmp(first, f64, SC_MANY * sizeof *first) == 0,
                          "two runs of one dispatch gave different sums");
    }
    free(first);
    sc_close(&r);
}
END_TEST

/* A dispatch on an instance of more threads than the scatter has copies (made for a
   partition of fewer): the parts without a copy add atomically; and the kernel's host entry
   run by the test's thread outside any dispatch adds atomically too. */
START_TEST(scatter_fewer_copies_than_parts)
{
    if (tk_is_cuda()) TK_SKIP("copies are for the host backends");
    int threads = 1;
    TK_OK(px_instance_concurrency(tk_inst(), &threads));
    const int64_t n = sc_n();
    px_instance *part[2] = {NULL, NULL};
    px_instance *small = tk_inst();
    if (threads > 1) {
        const double w[2] = {1, (double)threads - 1}; /* a partition of one thread, and the rest */
        TK_OK(px_partition(tk_inst(), 2, w, part));
        small = part[0];
        int t = 0;
        TK_OK(px_instance_concurrency(small, &t));
        ck_assert_int_lt(t, threads);
    }
    sc_run r;
    sc_open(&r, small, PX_SCATTER_DUPLICATED, SC_FEW, 0, 0);
    TK_OK(px_parallel_for(tk_inst(), "hist", px_range(0, n), PX_KERNEL(sc_for), &r.a));
    sc_contribute(&r, small);
    sc_expect(&r, n, 1, "more parts than copies");
    /* Outside a dispatch. */
    const px_policy all = px_range(0, n);
    tk_host_range(PX_KERNEL(sc_for))(&r.a, &all, NULL);
    sc_contribute(&r, tk_inst());
    sc_expect(&r, n, 2, "outside a dispatch");
    sc_close(&r);
    if (part[0]) tk_destroy_all(part, 2);
}
END_TEST

/* ---- Refusals -------------------------------------------------------------------------- */

START_TEST(scatter_refusals)
{
    px_view *v = tk_view1("v", tk_space(), PX_F64, 100);
    px_scatter *s = NULL, *none = NULL;
    const px_space host = px_host();
    /* create: NULLs, strategy, element type, rank, layout, space. */
    TK_FAIL(px_scatter_create(NULL, tk_inst(), v, PX_SCATTER_AUTO), PX_ERR_INVALID_ARGUMENT,
            "px_scatter_create");
    TK_FAIL(px_scatter_create(&s, NULL, v, PX_SCATTER_AUTO), PX_ERR_INVALID_ARGUMENT,
            "px_scatter_create");
    ck_assert_ptr_null(s);
    TK_FAIL(px_scatter_create(&s, tk_inst(), NULL, PX_SCATTER_AUTO), PX_ERR_INVALID_ARGUMENT,
            "px_scatter_create");
    TK_FAIL(px_scatter_create(&s, tk_inst(), v, PX_SCATTER_STRATEGY_COUNT), PX_ERR_INVALID_ARGUMENT,
            "px_scatter_create");
    TK_ERROR_HAS("strategy");
    TK_FAIL(px_scatter_create(&s, tk_inst(), v, (px_scatter_strategy)-1), PX_ERR_INVALID_ARGUMENT,
            "px_scatter_create");
    px_view *u8 = tk_view1("bytes", tk_space(), PX_U8, 100);
    TK_FAIL(px_scatter_create(&s, tk_inst(), u8, PX_SCATTER_AUTO), PX_ERR_INVALID_ARGUMENT,
            "px_scatter_create");
    TK_ERROR_HAS("u8 elements");
    const int64_t ext3[3] = {2, 3, 4};
    px_view *r3 = tk_view("cube", tk_space(), PX_F64, 3, ext3);
    TK_FAIL(px_scatter_create(&s, tk_inst(), r3, PX_SCATTER_AUTO), PX_ERR_INVALID_ARGUMENT,
            "px_scatter_create");
    TK_ERROR_HAS("rank 3");
    const int64_t ext2[2] = {10, 10};
    px_view *m = tk_view("m", tk_space(), PX_F64, 2, ext2);
    px_view *cols = tk_sub2(m, 0, 10, 2, 5); /* a block of columns: not contiguous */
    TK_FAIL(px_scatter_create(&s, tk_inst(), cols, PX_SCATTER_AUTO), PX_ERR_INVALID_ARGUMENT,
            "px_scatter_create");
    TK_ERROR_HAS("contiguous");
    px_view *rows = tk_sub2(m, 2, 5, 0, 10); /* whole rows: fine */
    TK_OK(px_scatter_create(&s, tk_inst(), rows, PX_SCATTER_AUTO));
    TK_OK(px_scatter_destroy(&s));
    const int64_t ext_left[2] = {10, 10};
    px_view *left = tk_view_ex("left", tk_space(), PX_F64, 0, PX_LAYOUT_LEFT, 2, ext_left, 0);
    TK_FAIL(px_scatter_create(&s, tk_inst(), left, PX_SCATTER_AUTO), PX_ERR_INVALID_ARGUMENT,
            "px_scatter_create");
    ck_assert_ptr_null(s);
    if (tk_is_cuda()) {
        TK_FAIL(px_scatter_create(&s, tk_inst(), v, PX_SCATTER_DUPLICATED), PX_ERR_UNSUPPORTED,
                "px_scatter_create");
        TK_ERROR_HAS("atomics");
        TK_FAIL(px_scatter_create(&s, tk_inst(), v, PX_SCATTER_PLAIN), PX_ERR_UNSUPPORTED,
                "px_scatter_create");
        px_view *pageable = tk_view1("pageable", host, PX_F64, 100);
        TK_FAIL(px_scatter_create(&s, tk_inst(), pageable, PX_SCATTER_AUTO),
                PX_ERR_INVALID_ARGUMENT, "px_scatter_create");
        TK_ERROR_HAS("cannot reach");
        /* A host instance cannot reach a DEVICE target. */
        px_instance *h = NULL;
        TK_OK(px_instance_default(PX_EXEC_SERIAL, 0, &h));
        TK_FAIL(px_scatter_create(&s, h, v, PX_SCATTER_AUTO), PX_ERR_INVALID_ARGUMENT,
                "px_scatter_create");
        TK_ERROR_HAS("cannot reach");
        TK_RELEASE(pageable);
    } else {
        int threads = 1;
        TK_OK(px_instance_concurrency(tk_inst(), &threads));
        if (threads > 1) {
            TK_FAIL(px_scatter_create(&s, tk_inst(), v, PX_SCATTER_PLAIN), PX_ERR_INVALID_ARGUMENT,
                    "px_scatter_create");
            TK_ERROR_HAS("threads");
        }
    }
    ck_assert_ptr_null(s);

    /* The handles: the element type, NULLs. */
    TK_OK(px_scatter_create(&s, tk_inst(), v, PX_SCATTER_AUTO));
    px_scatter_f64 h64;
    px_scatter_i32 h32;
    px_scatter_f32 hf32;
    TK_OK(px_scatter_get_span(s, &h64));
    ck_assert_int_eq(h64.size, 100);
    TK_FAIL(px_scatter_get_span(s, &h32), PX_ERR_TYPE_MISMATCH, "px_scatter_span_i32");
    TK_ERROR_HAS("f64 elements, not i32");
    TK_FAIL(px_scatter_span_f32(s, &hf32), PX_ERR_TYPE_MISMATCH, "px_scatter_span_f32");
    TK_FAIL(px_scatter_span_f64(s, NULL), PX_ERR_INVALID_ARGUMENT, "px_scatter_span_f64");
    TK_FAIL(px_scatter_span_f64(NULL, &h64), PX_ERR_INVALID_ARGUMENT, "px_scatter_span_f64");
    ck_assert_ptr_null(h64.data); /* cleared on failure */
    /* info, contribute, reset, destroy: NULLs, a scatter that is gone. */
    px_scatter_info info;
    TK_FAIL(px_scatter_info_get(s, NULL), PX_ERR_INVALID_ARGUMENT, "px_scatter_info_get");
    TK_FAIL(px_scatter_info_get(NULL, &info), PX_ERR_INVALID_ARGUMENT, "px_scatter_info_get");
    TK_FAIL(px_scatter_contribute(NULL, s), PX_ERR_INVALID_ARGUMENT, "px_scatter_contribute");
    TK_FAIL(px_scatter_contribute(tk_inst(), NULL), PX_ERR_INVALID_ARGUMENT,
            "px_scatter_contribute");
    TK_FAIL(px_scatter_reset(NULL, s), PX_ERR_INVALID_ARGUMENT, "px_scatter_reset");
    TK_FAIL(px_scatter_reset(tk_inst(), NULL), PX_ERR_INVALID_ARGUMENT, "px_scatter_reset");
    TK_FAIL(px_scatter_destroy(NULL), PX_ERR_INVALID_ARGUMENT, "px_scatter_destroy");
    TK_FAIL(px_scatter_destroy(&none), PX_ERR_INVALID_ARGUMENT, "px_scatter_destroy");
    TK_OK(px_scatter_destroy(&s));
    ck_assert_ptr_null(s);
    TK_FAIL(px_scatter_destroy(&s), PX_ERR_INVALID_ARGUMENT, "px_scatter_destroy");

    /* Copies are host memory: a contribute on a CUDA instance is refused (host builds: a
       host instance of copies; nothing else to refuse). */
    if (!tk_is_cuda()) {
        TK_OK(px_scatter_create(&s, tk_inst(), v, PX_SCATTER_DUPLICATED));
        TK_OK(px_scatter_contribute(tk_inst(), s));
        if (px_exec_space_available(PX_EXEC_CUDA)) {
            px_instance *gpu = NULL;
            TK_OK(px_instance_default(PX_EXEC_CUDA, 0, &gpu));
            TK_FAIL(px_scatter_contribute(gpu, s), PX_ERR_INVALID_ARGUMENT,
                    "px_scatter_contribute");
        }
        TK_OK(px_scatter_destroy(&s));
    }
    /* The target outlives the scatter's reference, and the scatter the caller's. */
    TK_OK(px_scatter_create(&s, tk_inst(), v, PX_SCATTER_AUTO));
    ck_assert_int_eq(tk_info(v).use_count, 2);
    TK_OK(px_scatter_destroy(&s));
    ck_assert_int_eq(tk_info(v).use_count, 1);
    TK_RELEASE(v, u8, r3, m, cols, rows, left);
}
END_TEST

int main(void)
{
    TCase *tc = tk_case("scatter", "scatter");
    tcase_add_test(tc, scatter_auto_choice);
    tcase_add_test(tc, scatter_strategy_names);
    tcase_add_loop_test(tc, scatter_histogram, 0, 8);
    tcase_add_loop_test(tc, scatter_kernel_kinds, 0, 4);
    tcase_add_loop_test(tc, scatter_rank2, 0, 4);
    tcase_add_loop_test(tc, scatter_contribute_twice_and_reset, 0, 4);
    tcase_add_loop_test(tc, scatter_large_target, 0, 4);
    tcase_add_test(tc, scatter_in_a_graph);
    tcase_add_test(tc, scatter_duplicated_same_bits);
    tcase_add_test(tc, scatter_fewer_copies_than_parts);
    tcase_add_test(tc, scatter_refusals);
    return tk_run();
}
