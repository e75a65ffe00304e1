/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Random numbers (portex/random.h). Philox4x32-10 against values from outside portex:
 * Random123's known-answer blocks and streams that randomgen's Philox gives
 * (scripts/philox_reference.py prints them), which are cuRAND's curand_init /
 * curand streams too. The conversions at their edges; then kernels of every backend
 * drawing from subsequence i at index i, each value compared bit for bit with the same
 * draw on the host, and the ranges' counts against a uniform distribution. The normals'
 * own log, cos and sin against the C library's.
 * Suite "random". */
#include <math.h>
#include <stdlib.h>

#include "common.h"
#include "k_random.h"

static void same_words(const uint32_t *got, const uint32_t *want, int n, const char *what)
{
    for (int k = 0; k < n; ++k)
        ck_assert_msg(got[k] == want[k], "%s: word %d is 0x%08x, expected 0x%08x", what, k,
                      (unsigned)got[k], (unsigned)want[k]);
}

START_TEST(philox_known_answers)
{
    static const struct {
        uint32_t ctr[4], key[2], out[4];
    } kat[] = {
        {{0, 0, 0, 0}, {0, 0}, {0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u}},
        {{0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu},
         {0xffffffffu, 0xffffffffu},
         {0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu}},
        {{0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u},
         {0xa4093822u, 0x299f31d0u},
         {0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u}},
    };
    for (size_t t = 0; t < sizeof kat / sizeof kat[0]; ++t) {
        uint32_t out[4];
        px_philox4x32_10(kat[t].ctr, kat[t].key, out);
        same_words(out, kat[t].out, 4, "known-answer block");
    }
}
END_TEST

START_TEST(philox_streams)
{
    /* seed 0x0123456789abcdef, subsequence 7, offset 5: mid-block start, two block
       changes. */
    static const uint32_t want1[12] = {0x1ee17293u, 0x3ec6e16du, 0xc5949040u, 0x69dc405du,
                                       0x6f5e7b6au, 0xa027a73fu, 0x362598d3u, 0x34f71f1au,
                                       0xda821aa7u, 0x80e0ec8au, 0x3e2e9e6fu, 0x46c1418eu};
    px_philox g = px_philox_init(0x0123456789abcdefull, 7, 5);
    uint32_t got[12];
    for (int k = 0; k < 12; ++k) got[k] = px_rand_u32(&g);
    same_words(got, want1, 12, "stream (0x0123456789abcdef, 7, 5)");

    /* The largest subsequence and an offset of 2^64 - 3 outputs. */
    static const uint32_t want2[8] = {0x666f5de4u, 0xe7b91912u, 0x9feb750du, 0x667705adu,
                                      0xc3002fa6u, 0x0cecf629u, 0x03776a7fu, 0xd0e422a8u};
    g = px_philox_init(0xfeedfaceull, UINT64_MAX, UINT64_MAX - 2);
    for (int k = 0; k < 8; ++k) got[k] = px_rand_u32(&g);
    same_words(got, want2, 8, "stream (0xfeedface, 2^64 - 1, 2^64 - 3)");

    /* The counter's low 64 bits wrap into its third word. */
    px_philox c = {{1, 2}, {0xffffffffu, 0xffffffffu, 5, 0}, {0, 0, 0, 0}, 0};
    px_philox4x32_10(c.ctr, c.key, c.out);
    for (int k = 0; k < 4; ++k) (void)px_rand_u32(&c);
    static const uint32_t want3[4] = {0xaa8c7295u, 0x81534481u, 0x1899edf0u, 0xafbce5f9u};
    for (int k = 0; k < 4; ++k) got[k] = px_rand_u32(&c);
    same_words(got, want3, 4, "the block after counter 2^64 - 1 + 5 * 2^64");
    ck_assert_uint_eq(c.ctr[2], 6);

    /* px_rand_u64: the first output is the low half. */
    g = px_philox_init(0x0123456789abcdefull, 7, 5);
    const uint64_t w = px_rand_u64(&g);
    ck_assert_uint_eq(w, (uint64_t)want1[1] << 32 | want1[0]);

    /* px_rand_uniform_f64_at: the first double of that stream, from its first two outputs
       (the first as the high half), mid-block and across a block's end. */
    const uint64_t bits = ((uint64_t)want1[0] << 32 | want1[1]) >> 11;
    ck_assert(px_rand_uniform_f64_at(0x0123456789abcdefull, 7, 5) == (double)bits * 0x1p-53);
    const uint64_t bits2 = ((uint64_t)want1[2] << 32 | want1[3]) >> 11;
    ck_assert(px_rand_uniform_f64_at(0x0123456789abcdefull, 7, 7) == (double)bits2 * 0x1p-53);
}
END_TEST

/* A generator whose next outputs are the given words. */
static px_philox next_words(uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
    px_philox g = {{0, 0}, {0, 0, 0, 0}, {a, b, c, d}, 0};
    return g;
}

START_TEST(conversions)
{
    px_philox g = next_words(0, 0xffffffffu, 0xffffffffu, 0xffffffffu);
    ck_assert(px_rand_uniform_f32(&g) == 0.0f);
    ck_assert(px_rand_uniform_f32(&g) == 1.0f - 0x1p-24f);
    g = next_words(0, 0, 0xffffffffu, 0xffffffffu);
    ck_assert(px_rand_uniform_f64(&g) == 0.0);
    ck_assert(px_rand_uniform_f64(&g) == 1.0 - 0x1p-53);
    g = next_words(0x80000000u, 0, 0, 0);
    ck_assert(px_rand_uniform_f64(&g) == 0.5);

    /* Ranges: their bounds, and the degenerate ones. */
    g = px_philox_init(42, 0, 0);
    ck_assert_uint_eq(px_rand_range_u32(&g, 0), 0);
    ck_assert_uint_eq(px_rand_range_u32(&g, 1), 0);
    ck_assert_uint_eq(px_rand_range_u64(&g, 0), 0);
    ck_assert_int_eq(px_rand_range_i64(&g, 5, 5), 5);
    ck_assert_int_eq(px_rand_range_i64(&g, 5, -5), 5);
    bool high_seen = false, low_seen = false;
    for (int k = 0; k < 4096; ++k) {
        const uint32_t r = px_rand_range_u32(&g, 0xffffffffu);
        ck_assert_uint_lt(r, 0xffffffffu);
        const uint64_t q = px_rand_range_u64(&g, ((uint64_t)1 << 40) + 3);
        ck_assert_uint_lt(q, ((uint64_t)1 << 40) + 3);
        high_seen = high_seen || q >= (uint64_t)1 << 39;
        const int64_t s = px_rand_range_i64(&g, INT64_MIN, INT64_MAX);
        ck_assert_int_lt(s, INT64_MAX);
        low_seen = low_seen || s < 0;
        const int64_t t = px_rand_range_i64(&g, -3, 4);
        ck_assert(t >= -3 && t < 4);
    }
    ck_assert_msg(high_seen && low_seen, "64-bit ranges never reached their upper halves");

    /* n = 3 x 2^30: 2^32 mod n = 2^30 values are drawn again, so the draw that gives
       the rejected low word takes the next output instead. */
    g = next_words(0, 5, 0, 0); /* 0 * n has low word 0 < 2^30: rejected */
    const uint32_t n = 3u << 30;
    ck_assert_uint_eq(px_rand_range_u32(&g, n), (uint32_t)(((uint64_t)5 * n) >> 32));
    ck_assert_uint_eq(g.used, 2);
}
END_TEST

/* The distance from a to b in units in the last place of b. */
static double ulps(double a, double b)
{
    if (a == b) return 0;
    return fabs(a - b) / (nextafter(fabs(b), INFINITY) - fabs(b));
}

/* px__cossin_turns(t) against the C library's cos and sin at the same reduced angle: t is
   k / 4 + r exactly, x = 2 pi r is rounded once in both, and the quadrant k only swaps and
   negates; so this measures the series, in units in the last place. */
static double trig_ulps(double t, double c, double s)
{
    const int k = (int)(t * 4.0 + 0.5);
    const double x = (t - (double)k * 0.25) * 6.28318530717958647693;
    const double cx = cos(x), sx = sin(x);
    const double want_c[4] = {cx, -sx, -cx, sx}, want_s[4] = {sx, cx, -sx, -cx};
    return fmax(ulps(c, want_c[k & 3]), ulps(s, want_s[k & 3]));
}

START_TEST(normal_functions_accuracy)
{
    /* The log, cos and sin behind the normals, against the C library's over their whole
       domains: u in (0, 1] at every power of two and between them, t in [0, 1). */
    double worst_log = 0, worst_trig = 0;
    px_philox g = px_philox_init(7, 0, 0);
    for (int k = 0; k < 200000; ++k) {
        const int e = k % 54;
        const double u = k < 54 ? ldexp(1.0, -e) : ldexp(1.0 + px_rand_uniform_f64(&g), -e - 1);
        const double l = log(u), pl = px__log_unit(u);
        if (l != 0) worst_log = fmax(worst_log, ulps(pl, l));
        ck_assert_msg(l != 0 || pl == 0, "log(1) gave %a", pl);
        const double t = px_rand_uniform_f64(&g);
        double c, s;
        px__cossin_turns(t, &c, &s);
        worst_trig = fmax(worst_trig, trig_ulps(t, c, s));
    }
    ck_assert_msg(worst_log <= 2, "log: %.2f units in the last place from the C library's",
                  worst_log);
    ck_assert_msg(worst_trig <= 2, "cos/sin: %.2f units in the last place from the C library's",
                  worst_trig);
    /* Quadrant edges and the last t below 1. */
    const double edge[] = {0, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 1 - 0x1p-53};
    for (size_t k = 0; k < sizeof edge / sizeof edge[0]; ++k) {
        double c, s;
        px__cossin_turns(edge[k], &c, &s);
        ck_assert_msg(trig_ulps(edge[k], c, s) <= 2, "t = %a: cos %a sin %a", edge[k], c, s);
    }
}
END_TEST

static void *host_copy(px_view *v)
{
    px_view *h = tk_to_host(v);
    const px_view_info in = tk_info(h);
    void *out = malloc(in.bytes);
    ck_assert_ptr_nonnull(out);
    memcpy(out, in.data, in.bytes);
    TK_RELEASE(h);
    return out;
}

START_TEST(kernel_draws_match_host)
{
    const int64_t n = 4099;
    const px_space s = tk_space();
    px_view *raw = tk_view1("raw", s, PX_U32, n * RD_U32);
    px_view *u64 = tk_view1("u64", s, PX_U64, n), *f32 = tk_view1("f32", s, PX_F32, n);
    px_view *f64 = tk_view1("f64", s, PX_F64, n), *r32 = tk_view1("r32", s, PX_U32, n);
    px_view *r64 = tk_view1("r64", s, PX_U64, n), *ri64 = tk_view1("ri64", s, PX_I64, n);
    px_view *nrm = tk_view1("nrm", s, PX_F64, n * 3), *nrm32 = tk_view1("nrm32", s, PX_F32, n);
    rd_args a = {.seed = 0x5eed5eed12345678ull,
                 .offset = 3,
                 .range32 = 1000003u,
                 .range64 = ((uint64_t)1 << 47) + 12345,
                 .lo = -1000,
                 .hi = 1000000007};
    TK_OK(px_view_get_span(raw, &a.raw));
    TK_OK(px_view_get_span(u64, &a.u64));
    TK_OK(px_view_get_span(f32, &a.f32));
    TK_OK(px_view_get_span(f64, &a.f64));
    TK_OK(px_view_get_span(r32, &a.r32));
    TK_OK(px_view_get_span(r64, &a.r64));
    TK_OK(px_view_get_span(ri64, &a.ri64));
    TK_OK(px_view_get_span(nrm, &a.nrm));
    TK_OK(px_view_get_span(nrm32, &a.nrm32));
    TK_OK(px_parallel_for(tk_inst(), "rd_draw", px_range(0, n), PX_KERNEL(rd_draw), &a));
    TK_OK(px_instance_fence(tk_inst()));
    uint32_t *k_raw = host_copy(raw), *k_r32 = host_copy(r32);
    uint64_t *k_u64 = host_copy(u64), *k_r64 = host_copy(r64);
    float *k_f32 = host_copy(f32);
    double *k_f64 = host_copy(f64), sum = 0;
    int64_t *k_ri64 = host_copy(ri64);
    double *k_nrm = host_copy(nrm), nsum = 0, nsq = 0;
    float *k_nrm32 = host_copy(nrm32);
    for (int64_t i = 0; i < n; ++i) {
        const rd_draws d = rd_draws_of(&a, i);
        for (int k = 0; k < RD_U32; ++k)
            ck_assert_msg(k_raw[i * RD_U32 + k] == d.raw[k], "index %lld: raw output %d differs",
                          (long long)i, k);
        ck_assert_uint_eq(k_u64[i], d.u64);
        ck_assert_msg(memcmp(&k_f32[i], &d.f32, sizeof d.f32) == 0, "index %lld: f32 differs",
                      (long long)i);
        ck_assert_msg(memcmp(&k_f64[i], &d.f64, sizeof d.f64) == 0, "index %lld: f64 differs",
                      (long long)i);
        ck_assert_uint_eq(k_r32[i], d.r32);
        ck_assert_uint_eq(k_r64[i], d.r64);
        ck_assert_int_eq(k_ri64[i], d.ri64);
        ck_assert_msg(memcmp(&k_nrm[i * 3], d.nrm, sizeof d.nrm) == 0 &&
                          memcmp(&k_nrm32[i], &d.nrm32, sizeof d.nrm32) == 0,
                      "index %lld: a normal value differs", (long long)i);
        for (int k = 0; k < 3; ++k) nsum += d.nrm[k], nsq += d.nrm[k] * d.nrm[k];
        ck_assert(d.f32 >= 0.0f && d.f32 < 1.0f && d.f64 >= 0.0 && d.f64 < 1.0);
        ck_assert(d.r32 < a.range32 && d.r64 < a.range64 && d.ri64 >= a.lo && d.ri64 < a.hi);
        sum += d.f64;
    }
    /* The mean of n uniform values: 0.5, with a standard deviation of sqrt(1 / (12 n)). */
    const double mean = sum / (double)n, sd = sqrt(1.0 / (12.0 * (double)n));
    ck_assert_msg(fabs(mean - 0.5) < 6 * sd, "mean of %lld uniform doubles is %g", (long long)n,
                  mean);
    /* 3n standard normals: mean 0 (sd 1 / sqrt(3n)), variance 1 (sd sqrt(2 / 3n)). */
    const double m = 3.0 * (double)n, nmean = nsum / m, nvar = nsq / m - nmean * nmean;
    ck_assert_msg(fabs(nmean) < 6 / sqrt(m) && fabs(nvar - 1) < 6 * sqrt(2 / m),
                  "normals: mean %g, variance %g", nmean, nvar);
    free(k_raw), free(k_r32), free(k_u64), free(k_r64), free(k_f32), free(k_f64), free(k_ri64);
    free(k_nrm), free(k_nrm32);
    TK_RELEASE(raw, u64, f32, f64, r32, r64, ri64, nrm, nrm32);
}
END_TEST

START_TEST(range_counts_are_uniform)
{
    const int64_t n = 4096;
    px_view *counts = tk_view1("counts", tk_space(), PX_I64, n * RD_BINS);
    rd_hist_args a = {.seed = 2026};
    TK_OK(px_view_get_span(counts, &a.counts));
    TK_OK(px_parallel_for(tk_inst(), "rd_hist", px_range(0, n), PX_KERNEL(rd_hist), &a));
    TK_OK(px_instance_fence(tk_inst()));
    int64_t *c = host_copy(counts);
    int64_t bin[RD_BINS] = {0};
    for (int64_t i = 0; i < n * RD_BINS; ++i) bin[i % RD_BINS] += c[i];
    /* Each bin: a binomial count of N = n * RD_DRAWS draws with p = 1 / RD_BINS. */
    const double draws = (double)n * RD_DRAWS, p = 1.0 / RD_BINS;
    const double mean = draws * p, sd = sqrt(draws * p * (1 - p));
    for (int b = 0; b < RD_BINS; ++b)
        ck_assert_msg(fabs((double)bin[b] - mean) < 6 * sd,
                      "bin %d holds %lld of %.0f draws; expected %.0f +- %.0f", b,
                      (long long)bin[b], draws, mean, 6 * sd);
    free(c);
    TK_RELEASE(counts);
}
END_TEST

int main(void)
{
    TCase *tc = tk_case("random", "random");
    tcase_add_test(tc, philox_known_answers);
    tcase_add_test(tc, philox_streams);
    tcase_add_test(tc, conversions);
    tcase_add_test(tc, normal_functions_accuracy);
    tcase_add_test(tc, kernel_draws_match_host);
    tcase_add_test(tc, range_counts_are_uniform);
    return tk_run();
}
