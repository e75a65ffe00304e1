/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Team policies (portex/team.h) on the backend under test: every nested loop, nested
 * reductions and scans (built-in and custom joins), barriers, scratch of both levels at
 * their limits and past them, odd and automatic shapes, team reductions, graphs, captures
 * and partitions, a league of more than 2^31 teams.
 * Suites: team_for, team_reduce, team_scan, team_scratch, team_dispatch, team_graph,
 * team_large. Every expected value is computed here, on the host, in order: the backends
 * must agree with it (integers exactly, doubles within 1e-12 relative). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "common.h"
#include "k_team.h"
#include "kernels.h"

/* {league, team_size, vector_length}: odd sizes, automatic ones, whole warps of lanes. */
static const int64_t shapes[][3] = {
    {1, PX_AUTO, PX_AUTO}, {7, 3, 1},   {129, 5, 4}, {33, 7, 8},
    {17, 1, 32},           {64, 32, 1}, {5, 4, 2},   {40, PX_AUTO, 4},
    {9, 6, PX_AUTO},       {3, 33, 2},  {2, 128, 4},
};
#define NSHAPES ((int)(sizeof shapes / sizeof shapes[0]))

static px_team_policy shape_policy(int k)
{
    return px_teams(shapes[k][0], (int32_t)shapes[k][1], (int32_t)shapes[k][2]);
}

/* ---- helpers ------------------------------------------------------------------------------ */

static px_view *vi64(const char *label, int64_t n)
{
    return tk_view1(label, tk_space(), PX_I64, n > 0 ? n : 1);
}
static px_view *vf64(const char *label, int64_t n)
{
    return tk_view1(label, tk_space(), PX_F64, n > 0 ? n : 1);
}

static px_span_i64 si64(px_view *v)
{
    px_span_i64 s;
    TK_OK(px_view_span_i64(v, &s));
    return s;
}

static px_span_f64 sf64(px_view *v)
{
    px_span_f64 s;
    TK_OK(px_view_span_f64(v, &s));
    return s;
}

/* A view in tk_space() with n random int64 in [lo, hi]; *host gets the HOST copy. */
static px_view *rand_i64(uint64_t seed, int64_t n, int64_t lo, int64_t hi, px_view **host)
{
    tk_rng r = tk_rng_seed(seed);
    px_view *h = tk_view1("rand_i64", px_host(), PX_I64, n);
    int64_t *x = (int64_t *)tk_data(h);
    for (int64_t i = 0; i < n; ++i) x[i] = tk_int(&r, lo, hi);
    *host = h;
    return tk_on_space(h, "rand_i64_dev");
}

/* Element 0 of an I64 view of any space (the caller fenced). */
static int64_t first_i64(px_view *v)
{
    px_view *h = tk_to_host(v);
    const int64_t x = ((const int64_t *)tk_data(h))[0];
    TK_RELEASE(h);
    return x;
}

/* The sum of L rows of m elements of x (its first L m): what a team sum over them gives. */
static int64_t rows_sum(const px_view *hx, int64_t L, int64_t m)
{
    const int64_t *xs = (const int64_t *)tk_data(hx);
    int64_t sum = 0;
    for (int64_t r = 0; r < L; ++r)
        for (int64_t i = r * m; i < r * m + m; ++i) sum += xs[i];
    return sum;
}

static px_view *rand_f64(uint64_t seed, int64_t n, px_view **host)
{
    tk_rng r = tk_rng_seed(seed);
    px_view *h = tk_view1("rand_f64", px_host(), PX_F64, n);
    double *x = (double *)tk_data(h);
    for (int64_t i = 0; i < n; ++i) x[i] = tk_uniform(&r, -1.0, 1.0);
    *host = h;
    return tk_on_space(h, "rand_f64_dev");
}

/* The team shape a body saw: 1 x 1 on the host backends; on CUDA the policy's, or any
   valid shape where it was automatic. */
static void check_shape(const int64_t *s, const px_team_policy *p, int64_t r)
{
    TK_ASSERT(s[2] == p->league_size && s[3] == r, "team %lld saw league %lld, rank %lld",
              (long long)r, (long long)s[2], (long long)s[3]);
    if (!tk_is_cuda()) {
        TK_ASSERT(s[0] == 1 && s[1] == 1, "a host team runs as 1 x 1, saw %lld x %lld",
                  (long long)s[0], (long long)s[1]);
        return;
    }
    if (p->team_size)
        TK_ASSERT(s[0] == p->team_size, "team_size %lld, asked %d", (long long)s[0],
                  (int)p->team_size);
    if (p->vector_length)
        TK_ASSERT(s[1] == p->vector_length, "vector_length %lld, asked %d", (long long)s[1],
                  (int)p->vector_length);
    TK_ASSERT(s[0] >= 1 && s[1] >= 1 && s[1] <= 32 && (s[1] & (s[1] - 1)) == 0 &&
                  s[0] * s[1] <= 1024,
              "automatic shape %lld x %lld", (long long)s[0], (long long)s[1]);
}

/* ---- nested loops ------------------------------------------------------------------------------ */

static void run_nested(px_instance *in, px_team_policy p, int launches)
{
    const int64_t L = p.league_size, ib = 3, ni = 11, nj = 13, nk = 37;
    px_view *tv = vi64("tv", L * ni * nj), *w = vi64("w", L * nk), *shape = vi64("shape", L * 4);
    tk_nested_args a = {ib, ni, nj, nk, si64(tv), si64(w), si64(shape)};
    for (int k = 0; k < launches; ++k)
        TK_OK(px_parallel_for_team(in, "nested", p, PX_KERNEL(tk_team_nested), &a));
    TK_OK(px_instance_fence(in));
    px_view *htv = tk_to_host(tv), *hw = tk_to_host(w), *hs = tk_to_host(shape);
    const int64_t *t = (const int64_t *)tk_data(htv), *ww = (const int64_t *)tk_data(hw);
    const int64_t *s = (const int64_t *)tk_data(hs);
    for (int64_t r = 0; r < L; ++r) {
        for (int64_t i = 0; i < ni; ++i)
            for (int64_t j = 0; j < nj; ++j) {
                const int64_t want = launches * (1 + r * 1000003 + (ib + i) * 1009 + j);
                const int64_t got = t[(r * ni + i) * nj + j];
                TK_ASSERT(got == want, "team %lld: tv(%lld, %lld) = %lld, want %lld", (long long)r,
                          (long long)i, (long long)j, (long long)got, (long long)want);
            }
        for (int64_t k = 0; k < nk; ++k)
            TK_ASSERT(ww[r * nk + k] == launches * (1 + r * 7919 + k), "team %lld: w(%lld) = %lld",
                      (long long)r, (long long)k, (long long)ww[r * nk + k]);
        check_shape(s + r * 4, &p, r);
    }
    TK_RELEASE(tv, w, shape, htv, hw, hs);
}

START_TEST(team_nested_for) { run_nested(tk_inst(), shape_policy(_i), 1); }
END_TEST

/* An empty league runs nothing and succeeds. */
START_TEST(team_empty_league)
{
    px_view *tv = vi64("tv", 1);
    tk_nested_args a = {0, 5, 5, 5, si64(tv), si64(tv), si64(tv)};
    TK_OK(px_parallel_for_team(tk_inst(), "empty", px_teams(0, PX_AUTO, PX_AUTO),
                               PX_KERNEL(tk_team_nested), &a));
    TK_OK(px_instance_fence(tk_inst()));
    px_view *h = tk_to_host(tv);
    TK_ASSERT(((const int64_t *)tk_data(h))[0] == 0, "an empty league wrote");
    TK_RELEASE(tv, h);
}
END_TEST

/* ---- nested reductions ------------------------------------------------------------------------- */

START_TEST(team_nested_reduce)
{
    const px_team_policy p = shape_policy(_i);
    const int64_t L = p.league_size, n = 97, nrow = 9, ncol = 19;
    px_view *hx, *hy;
    px_view *x = rand_i64(5 + (uint64_t)_i, n, -1000, 1000, &hx),
            *y = rand_f64(7 + (uint64_t)_i, n, &hy);
    px_view *out = vi64("out", L * 8), *tvsum = vi64("tvsum", L * nrow), *dsum = vf64("dsum", L);
    px_view *tvstat = vi64("tvstat", L * nrow * 3);
    tk_nred_args a = {n,         nrow,        ncol,         si64(x),   sf64(y),
                      si64(out), si64(tvsum), si64(tvstat), sf64(dsum)};
    TK_OK(
        px_parallel_for_team(tk_inst(), "nested_reduce", p, PX_KERNEL(tk_team_nested_reduce), &a));
    TK_OK(px_instance_fence(tk_inst()));
    px_view *ho = tk_to_host(out), *ht = tk_to_host(tvsum), *hd = tk_to_host(dsum),
            *hts = tk_to_host(tvstat);
    const int64_t *tst = (const int64_t *)tk_data(hts);
    const int64_t *xs = (const int64_t *)tk_data(hx), *o = (const int64_t *)tk_data(ho);
    const int64_t *tv = (const int64_t *)tk_data(ht);
    const double *ys = (const double *)tk_data(hy), *d = (const double *)tk_data(hd);
    for (int64_t r = 0; r < L; ++r) {
        const int64_t len = (r * 37) % (n + 1);
        int64_t sum = 0, mx = INT64_MIN, loc = INT64_MAX, mn = INT64_MAX;
        double ds = 0, scale = 0;
        for (int64_t i = 0; i < len; ++i) {
            sum += xs[i];
            if (xs[i] > mx) mx = xs[i];
            if (xs[i] < mn) {
                mn = xs[i];
                loc = i;
            }
            ds += ys[i];
            scale += fabs(ys[i]);
        }
        const int64_t *e = o + r * 8;
        TK_ASSERT(e[0] == sum && e[1] == mx,
                  "team %lld: sum %lld (want %lld), max %lld (want %lld)", (long long)r,
                  (long long)e[0], (long long)sum, (long long)e[1], (long long)mx);
        TK_ASSERT(e[2] == sum && e[3] == len && e[4] == mx, "team %lld: stat {%lld, %lld, %lld}",
                  (long long)r, (long long)e[2], (long long)e[3], (long long)e[4]);
        TK_ASSERT(e[5] == loc, "team %lld: minloc %lld, want %lld", (long long)r, (long long)e[5],
                  (long long)loc);
        TK_ASSERT(e[6] == 1, "team %lld: threads disagree on the totals", (long long)r);
        TK_ASSERT(fabs(d[r] - ds) <= 1e-12 * (scale > 1 ? scale : 1),
                  "team %lld: double sum %.17g, want %.17g", (long long)r, d[r], ds);
        for (int64_t i = 0; i < nrow; ++i) {
            int64_t s = 0, vm = INT64_MIN;
            for (int64_t j = 0; j < ncol; ++j) {
                s += xs[(i * ncol + j) % n];
                if (xs[(i * ncol + j) % n] > vm) vm = xs[(i * ncol + j) % n];
            }
            TK_ASSERT(tv[r * nrow + i] == s, "team %lld row %lld: vector sum %lld, want %lld",
                      (long long)r, (long long)i, (long long)tv[r * nrow + i], (long long)s);
            const int64_t *vs = tst + (r * nrow + i) * 3;
            TK_ASSERT(vs[0] == s && vs[1] == ncol && vs[2] == vm,
                      "team %lld row %lld: vector stat {%lld, %lld, %lld}", (long long)r,
                      (long long)i, (long long)vs[0], (long long)vs[1], (long long)vs[2]);
        }
    }
    TK_RELEASE(x, y, hx, hy, out, tvsum, dsum, tvstat, ho, ht, hd, hts);
}
END_TEST

/* PX_TEAM_REDUCE with built-in and custom joins, into host memory and into a view. */
START_TEST(team_reduce_kernels)
{
    const px_team_policy p = shape_policy(_i);
    const int64_t L = p.league_size, m = 29;
    px_view *hx, *hy;
    px_view *x = rand_i64(11 + (uint64_t)_i, L * m, -100000, 100000, &hx);
    px_view *y = rand_f64(13 + (uint64_t)_i, 31, &hy);
    const int64_t *xs = (const int64_t *)tk_data(hx);
    const double *ys = (const double *)tk_data(hy);
    int64_t want = 0, mx = INT64_MIN;
    for (int64_t i = 0; i < L * m; ++i) {
        want += xs[i];
        if (xs[i] > mx) mx = xs[i];
    }
    tk_tsum_args a = {m, si64(x)};
    int64_t got = -1;
    TK_OK(px_parallel_reduce_team(tk_inst(), "sum", p, PX_KERNEL(tk_team_sum), &a, &got));
    TK_ASSERT(got == want, "team sum %lld, want %lld", (long long)got, (long long)want);

    tk_stat st = {0, 0, 0};
    TK_OK(px_parallel_reduce_team(tk_inst(), "stat", p, PX_KERNEL(tk_team_stat), &a, &st));
    TK_ASSERT(st.sum == want && st.count == L * m && st.max == mx, "stat {%lld, %lld, %lld}",
              (long long)st.sum, (long long)st.count, (long long)st.max);

    double ds = 0, scale = 0;
    for (int64_t r = 0; r < L; ++r) {
        ds += ys[r % 31];
        scale += fabs(ys[r % 31]);
    }
    tk_dsum_args b = {31, sf64(y)};
    double dgot = 0;
    TK_OK(px_parallel_reduce_team(tk_inst(), "dsum", p, PX_KERNEL(tk_team_dsum), &b, &dgot));
    TK_ASSERT(fabs(dgot - ds) <= 1e-12 * (scale > 1 ? scale : 1), "double sum %.17g, want %.17g",
              dgot, ds);

    px_view *res = vi64("res", 1);
    TK_OK(px_parallel_reduce_team_view(tk_inst(), "sum_view", p, PX_KERNEL(tk_team_sum), &a, res));
    TK_OK(px_instance_fence(tk_inst()));
    TK_ASSERT(first_i64(res) == want, "team sum into a view");
    TK_RELEASE(x, y, hx, hy, res);
}
END_TEST

/* An empty league gives the identity. */
START_TEST(team_reduce_empty)
{
    px_view *x = vi64("x", 1);
    tk_tsum_args a = {3, si64(x)};
    int64_t got = 42;
    TK_OK(px_parallel_reduce_team(tk_inst(), "empty", px_teams(0, 4, 2), PX_KERNEL(tk_team_sum), &a,
                                  &got));
    TK_ASSERT(got == 0, "empty league: %lld", (long long)got);
    tk_stat st = {1, 1, 1};
    TK_OK(px_parallel_reduce_team(tk_inst(), "empty", px_teams(0, PX_AUTO, PX_AUTO),
                                  PX_KERNEL(tk_team_stat), &a, &st));
    TK_ASSERT(st.sum == 0 && st.count == 0 && st.max == INT64_MIN,
              "empty league: the custom identity");
    TK_RELEASE(x);
}
END_TEST

/* ---- nested scans ------------------------------------------------------------------------------ */

START_TEST(team_nested_scan)
{
    const px_team_policy p = shape_policy(_i);
    const int64_t L = p.league_size, n = 61, nrow = 6, ncol = 23;
    px_view *hx;
    px_view *x = rand_i64(17 + (uint64_t)_i, n, 0, 1000, &hx);
    px_view *excl = vi64("excl", L * n), *incl = vi64("incl", L * n),
            *vex = vi64("vex", L * nrow * ncol);
    px_view *vtot = vi64("vtot", L * nrow * 2), *tot = vi64("tot", L * 6);
    px_view *aff = tk_view1("aff", tk_space(), PX_U64, L * n);
    px_view *vaff = tk_view1("vaff", tk_space(), PX_U64, L * nrow * ncol);
    px_span_u64 saff, svaff;
    TK_OK(px_view_span_u64(aff, &saff));
    TK_OK(px_view_span_u64(vaff, &svaff));
    tk_nscan_args a = {n,         nrow,       ncol,      si64(x), si64(excl), si64(incl),
                       si64(vex), si64(vtot), si64(tot), saff,    svaff};
    TK_OK(px_parallel_for_team(tk_inst(), "nested_scan", p, PX_KERNEL(tk_team_nested_scan), &a));
    TK_OK(px_instance_fence(tk_inst()));
    px_view *he = tk_to_host(excl), *hi = tk_to_host(incl), *hv = tk_to_host(vex),
            *hvt = tk_to_host(vtot);
    px_view *ht = tk_to_host(tot), *ha = tk_to_host(aff), *hva = tk_to_host(vaff);
    const uint64_t *vaf = (const uint64_t *)tk_data(hva);
    const int64_t *xs = (const int64_t *)tk_data(hx), *e = (const int64_t *)tk_data(he);
    const int64_t *in = (const int64_t *)tk_data(hi), *v = (const int64_t *)tk_data(hv);
    const int64_t *vt = (const int64_t *)tk_data(hvt), *t = (const int64_t *)tk_data(ht);
    const uint64_t *af = (const uint64_t *)tk_data(ha);
    for (int64_t r = 0; r < L; ++r) {
        const int64_t len = (r * 53) % (n + 1);
        int64_t run = 0;
        uint64_t fa = 1, fb = 0;
        for (int64_t i = 0; i < n; ++i) {
            if (i >= len) {
                TK_ASSERT(e[r * n + i] == 0 && in[r * n + i] == 0 && af[r * n + i] == 0,
                          "team %lld: index %lld past the range was written", (long long)r,
                          (long long)i);
                continue;
            }
            TK_ASSERT(e[r * n + i] == run, "team %lld: exclusive[%lld] = %lld, want %lld",
                      (long long)r, (long long)i, (long long)e[r * n + i], (long long)run);
            run += xs[i];
            TK_ASSERT(in[r * n + i] == run, "team %lld: inclusive[%lld] = %lld, want %lld",
                      (long long)r, (long long)i, (long long)in[r * n + i], (long long)run);
            const uint64_t a2 = (uint64_t)(2 * i + 3), b2 = (uint64_t)xs[i];
            fb = a2 * fb + b2;
            fa = a2 * fa;
            TK_ASSERT(af[r * n + i] == fa + fb, "team %lld: affine[%lld] = %llu, want %llu",
                      (long long)r, (long long)i, (unsigned long long)af[r * n + i],
                      (unsigned long long)(fa + fb));
        }
        TK_ASSERT(t[r * 6 + 0] == run && t[r * 6 + 1] == run && (uint64_t)t[r * 6 + 2] == fb,
                  "team %lld: totals %lld %lld %lld", (long long)r, (long long)t[r * 6 + 0],
                  (long long)t[r * 6 + 1], (long long)t[r * 6 + 2]);
        TK_ASSERT(t[r * 6 + 3] == 1, "team %lld: threads disagree on the scan totals",
                  (long long)r);
        uint64_t ga = 1, gb = 0;
        for (int64_t i = 0; i < len; ++i) {
            gb = (uint64_t)(i + 5) * gb + (uint64_t)xs[i];
            ga = (uint64_t)(i + 5) * ga;
        }
        TK_ASSERT((uint64_t)t[r * 6 + 4] == gb && (uint64_t)t[r * 6 + 5] == ga,
                  "team %lld: team-vector affine total (%llu, %llu), want (%llu, %llu)",
                  (long long)r, (unsigned long long)t[r * 6 + 5], (unsigned long long)t[r * 6 + 4],
                  (unsigned long long)ga, (unsigned long long)gb);
        for (int64_t th = 0; th < nrow; ++th) {
            int64_t s = 0;
            uint64_t va = 1, vb = 0;
            for (int64_t j = 0; j < ncol; ++j) {
                const int64_t got = v[(r * nrow + th) * ncol + j];
                TK_ASSERT(got == s, "team %lld row %lld: vector scan[%lld] = %lld, want %lld",
                          (long long)r, (long long)th, (long long)j, (long long)got, (long long)s);
                s += xs[(th + j) % n];
                vb = (uint64_t)(j + 2) * vb + (uint64_t)xs[(th + j) % n];
                va = (uint64_t)(j + 2) * va;
                TK_ASSERT(vaf[(r * nrow + th) * ncol + j] == va + vb,
                          "team %lld row %lld: vector affine[%lld]", (long long)r, (long long)th,
                          (long long)j);
            }
            TK_ASSERT(
                vt[(r * nrow + th) * 2] == s && (uint64_t)vt[(r * nrow + th) * 2 + 1] == va + vb,
                "team %lld row %lld: vector scan totals %lld, %lld", (long long)r, (long long)th,
                (long long)vt[(r * nrow + th) * 2], (long long)vt[(r * nrow + th) * 2 + 1]);
        }
    }
    TK_RELEASE(x, hx, excl, incl, vex, vtot, tot, aff, vaff, he, hi, hv, hvt, ht, ha, hva);
}
END_TEST

/* ---- barriers and scratch ---------------------------------------------------------------------- */

static void run_scratch(px_team_policy p, int level)
{
    const int64_t L = p.league_size, m = 41, tn = 9;
    p = px_team_policy_scratch(p, level, (size_t)m * 8, (size_t)tn * 8);
    px_view *hin;
    px_view *in = rand_i64(23 + (uint64_t)level, L * m, -5000, 5000, &hin);
    px_view *out = vi64("out", L * m), *thr = vi64("thr", L * m);
    tk_scratch_args a = {level, m, tn, si64(in), si64(out), si64(thr)};
    TK_OK(px_parallel_for_team(tk_inst(), "scratch", p, PX_KERNEL(tk_team_scratch), &a));
    TK_OK(px_instance_fence(tk_inst()));
    px_view *ho = tk_to_host(out), *hth = tk_to_host(thr);
    const int64_t *x = (const int64_t *)tk_data(hin), *o = (const int64_t *)tk_data(ho);
    const int64_t *th = (const int64_t *)tk_data(hth);
    for (int64_t r = 0; r < L; ++r)
        for (int64_t i = 0; i < m; ++i) {
            const int64_t want = x[r * m + m - 1 - i] * 3 + x[r * m + (i + 1) % m];
            TK_ASSERT(o[r * m + i] == want, "level %d team %lld: out[%lld] = %lld, want %lld",
                      level, (long long)r, (long long)i, (long long)o[r * m + i], (long long)want);
            TK_ASSERT(th[r * m + i] == tn * i + tn * (tn - 1) / 2,
                      "level %d team %lld: thread scratch sum %lld", level, (long long)r,
                      (long long)th[r * m + i]);
        }
    TK_RELEASE(in, hin, out, thr, ho, hth);
}

START_TEST(team_barrier_scratch)
{
    run_scratch(shape_policy(_i), 0);
    run_scratch(shape_policy(_i), 1);
}
END_TEST

/* Scratch of `bytes` per team at `level`, touched at every `step`-th byte and read back. */
static void touch(px_team_policy p, int level, int64_t bytes, int64_t step)
{
    const int64_t L = p.league_size;
    px_view *sum = vi64("sum", L), *sizes = vi64("sizes", 2 * L);
    tk_touch_args a = {level, bytes, step, si64(sum), si64(sizes)};
    TK_OK(px_parallel_for_team(tk_inst(), "touch", p, PX_KERNEL(tk_team_touch), &a));
    TK_OK(px_instance_fence(tk_inst()));
    px_view *hs = tk_to_host(sum), *hz = tk_to_host(sizes);
    const int64_t *s = (const int64_t *)tk_data(hs), *z = (const int64_t *)tk_data(hz);
    for (int64_t r = 0; r < L; ++r) {
        int64_t want = 0;
        for (int64_t k = 0; bytes > 0 && k < bytes / step + 1; ++k) {
            const int64_t pos = k * step < bytes - 1 ? k * step : bytes - 1;
            want += (pos * 7 + r) & 0xff;
        }
        TK_ASSERT(s[r] == want, "level %d, %lld bytes: team %lld read back %lld, want %lld", level,
                  (long long)bytes, (long long)r, (long long)s[r], (long long)want);
        TK_ASSERT((size_t)z[2 * r] == p.scratch_team[level] &&
                      (size_t)z[2 * r + 1] == p.scratch_thread[level],
                  "level %d: the team saw %lld + %lld bytes, asked %zu + %zu", level,
                  (long long)z[2 * r], (long long)z[2 * r + 1], p.scratch_team[level],
                  p.scratch_thread[level]);
    }
    TK_RELEASE(sum, sizes, hs, hz);
}

/* Each level at its limit works (every byte of level 0 written and read back; level 1
   every MiB, on every team), one 16-byte part past it is refused, naming the sizes. */
START_TEST(team_scratch_limits)
{
    const int level = _i;
    size_t limit = 0;
    TK_OK(px_team_scratch_max(tk_inst(), level, &limit));
    TK_ASSERT(limit >= 16 * 1024, "level %d: only %zu bytes", level, limit);
    if (level == 1) TK_ASSERT(limit == PX_TEAM_SCRATCH1_MAX, "level 1: %zu bytes", limit);
    if (level == 0 && !tk_is_cuda())
        TK_ASSERT(limit == PX_TEAM_SCRATCH0_HOST_MAX, "level 0: %zu bytes", limit);
    limit &= ~(size_t)15;
    const int64_t step = level == 0 ? 1 : (int64_t)1 << 20;
    touch(px_team_policy_scratch(px_teams(3, PX_AUTO, PX_AUTO), level, limit, 0), level,
          (int64_t)limit, step);
    touch(px_team_policy_scratch(px_teams(2, 4, 2), level, limit, 0), level, (int64_t)limit, step);
    /* Per-thread scratch up to the limit: a team of 2 (one thread on the host). */
    touch(px_team_policy_scratch(px_teams(2, 2, 1), level, 0, (limit / 2) & ~(size_t)15), level, 0,
          1);

    tk_touch_args a;
    memset(&a, 0, sizeof a);
    px_view *v = vi64("v", 8);
    a.sum = si64(v);
    a.sizes = si64(v);
    const size_t past[][2] = {{limit + 1, 0},
                              {limit + 16, 0},
                              {0, limit + 1},
                              {16, limit},
                              {SIZE_MAX, 0},
                              {0, SIZE_MAX},
                              {SIZE_MAX / 2, SIZE_MAX / 2}};
    for (size_t k = 0; k < sizeof past / sizeof past[0]; ++k) {
        const px_team_policy p =
            px_team_policy_scratch(px_teams(2, PX_AUTO, PX_AUTO), level, past[k][0], past[k][1]);
        TK_FAIL(px_parallel_for_team(tk_inst(), "past", p, PX_KERNEL(tk_team_touch), &a),
                PX_ERR_INVALID_ARGUMENT, "px_parallel_for_team");
        TK_ASSERT(tk_error_from("px_parallel_for_team"), "error from: %s", px_last_error());
        TK_ERROR_HAS(level == 0 ? "level-0 scratch" : "level-1 scratch");
        TK_ERROR_HAS("tk_team_touch");
    }
    /* A team of 4 needs 4 times its per-thread part on CUDA: refused there, one part on the host. */
    const px_team_policy four = px_team_policy_scratch(px_teams(1, 4, 1), level, 0, limit / 4 + 16);
    const px_status st =
        px_parallel_for_team(tk_inst(), "four", four, PX_KERNEL(tk_team_touch), &a);
    if (tk_is_cuda()) {
        TK_ASSERT(st == PX_ERR_INVALID_ARGUMENT, "4 threads past the limit: %s",
                  px_status_name(st));
    } else {
        TK_ASSERT(st == PX_OK, "one host thread within the limit: %s: %s", px_status_name(st),
                  px_last_error());
    }
    TK_OK(px_instance_fence(tk_inst()));
    TK_RELEASE(v);
}
END_TEST

/* ---- dispatch errors --------------------------------------------------------------------------- */

START_TEST(team_dispatch_errors)
{
    px_view *v = vi64("v", 8);
    tk_tsum_args a = {1, si64(v)};
    const px_team_policy ok = px_teams(4, PX_AUTO, PX_AUTO);
    const struct {
        px_team_policy p;
        const char *says;
    } bad[] = {
        {px_teams(4, 2, 3), "vector_length"},
        {px_teams(4, 2, 64), "vector_length"},
        {px_teams(4, 2, -1), "vector_length"},
        {px_teams(4, -1, 1), "team_size"},
        {px_teams(4, 2000, 1), "team_size"},
        {px_teams(4, 64, 32), "2048 threads"},
        {px_teams(-1, 1, 1), "league_size"},
        {px_team_policy_scratch(ok, 2, 16, 0), "level 2"},
        {px_team_policy_scratch(ok, -1, 16, 0), "levels are 0 and 1"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; ++k) {
        TK_FAIL(px_parallel_for_team(tk_inst(), "bad", bad[k].p, PX_KERNEL(tk_team_touch), &a),
                PX_ERR_INVALID_ARGUMENT, "px_parallel_for_team");
        TK_ERROR_HAS(bad[k].says);
        int64_t r;
        TK_FAIL(px_parallel_reduce_team(tk_inst(), "bad", bad[k].p, PX_KERNEL(tk_team_sum), &a, &r),
                PX_ERR_INVALID_ARGUMENT, "px_parallel_reduce_team");
        TK_ERROR_HAS(bad[k].says);
    }
    /* Kernels of the wrong kind, either way. */
    TK_FAIL(px_parallel_for_team(tk_inst(), NULL, ok, PX_KERNEL(tk_team_sum), &a),
            PX_ERR_INVALID_ARGUMENT, "px_parallel_for_team");
    TK_ERROR_HAS("PX_TEAM_REDUCE");
    int64_t r;
    TK_FAIL(px_parallel_reduce_team(tk_inst(), NULL, ok, PX_KERNEL(tk_team_touch), &a, &r),
            PX_ERR_INVALID_ARGUMENT, "px_parallel_reduce_team");
    TK_ERROR_HAS("PX_TEAM_FOR");
    axpy_args ax;
    memset(&ax, 0, sizeof ax);
    TK_FAIL(px_parallel_for_team(tk_inst(), NULL, ok, PX_KERNEL(axpy), &ax),
            PX_ERR_INVALID_ARGUMENT, "px_parallel_for_team");
    TK_ERROR_HAS("PX_FOR");
    TK_FAIL(px_parallel_for(tk_inst(), NULL, px_range(0, 4), PX_KERNEL(tk_team_touch), &a),
            PX_ERR_INVALID_ARGUMENT, "px_parallel_for");
    TK_ERROR_HAS("team kernel");
    TK_FAIL(px_parallel_reduce(tk_inst(), NULL, px_range(0, 4), PX_KERNEL(tk_team_sum), &a, &r),
            PX_ERR_INVALID_ARGUMENT, "px_parallel_reduce");
    TK_ERROR_HAS("px_parallel_reduce_team");
    /* NULLs. */
    TK_FAIL(px_parallel_for_team(NULL, NULL, ok, PX_KERNEL(tk_team_touch), &a),
            PX_ERR_INVALID_ARGUMENT, "px_parallel_for_team");
    TK_FAIL(px_parallel_for_team(tk_inst(), NULL, ok, NULL, &a), PX_ERR_INVALID_ARGUMENT,
            "px_parallel_for_team");
    TK_FAIL(px_parallel_for_team(tk_inst(), NULL, ok, PX_KERNEL(tk_team_touch), NULL),
            PX_ERR_INVALID_ARGUMENT, "px_parallel_for_team");
    TK_FAIL(px_parallel_reduce_team(tk_inst(), NULL, ok, PX_KERNEL(tk_team_sum), &a, NULL),
            PX_ERR_INVALID_ARGUMENT, "px_parallel_reduce_team");
    /* A result view of the wrong element size. */
    px_view *f = tk_view1("f32", tk_space(), PX_F32, 1);
    TK_FAIL(px_parallel_reduce_team_view(tk_inst(), NULL, ok, PX_KERNEL(tk_team_sum), &a, f),
            PX_ERR_INVALID_ARGUMENT, "px_parallel_reduce_team_view");
    /* A team kernel without the entry of this backend; one compiled against an older header. */
    ck_assert_int_eq(tk_entries_of(&px_kernel_tk_team_touch, tk_target(), PX__ENTRY_LEAGUE), 1);
    ck_assert_int_eq(tk_entries_of(&px_kernel_tk_team_touch, tk_target(), PX__ENTRY_RANGE), 0);
    px__kernel_entry rows[TK_MAX_ENTRIES];
    px_kernel k = tk_without_entries(px_kernel_tk_team_touch, rows);
    TK_FAIL(px_parallel_for_team(tk_inst(), NULL, ok, &k, &a), PX_ERR_NOT_COMPILED,
            "px_parallel_for_team");
    TK_ERROR_HAS("tk_team_touch");
    TK_ERROR_HAS(px_exec_space_string(tk_exec()));
    k = px_kernel_tk_team_touch;
    k.magic = 0x50584b33u;
    TK_FAIL(px_parallel_for_team(tk_inst(), NULL, ok, &k, &a), PX_ERR_INVALID_ARGUMENT,
            "px_parallel_for_team");
    TK_ERROR_HAS("recompile");
    size_t bytes;
    TK_FAIL(px_team_scratch_max(tk_inst(), 2, &bytes), PX_ERR_INVALID_ARGUMENT,
            "px_team_scratch_max");
    TK_FAIL(px_team_scratch_max(tk_inst(), 0, NULL), PX_ERR_INVALID_ARGUMENT,
            "px_team_scratch_max");
    TK_FAIL(px_team_scratch_max(NULL, 0, &bytes), PX_ERR_INVALID_ARGUMENT, "px_team_scratch_max");
    TK_RELEASE(v, f);
}
END_TEST

/* ---- instances, partitions, graphs ------------------------------------------------------------- */

START_TEST(team_instances_and_partitions)
{
    px_instance *in = tk_instance("team_instance");
    run_nested(in, px_teams(13, 3, 4), 2);
    px_instance *parts[2] = {NULL, NULL};
    TK_OK(px_partition(tk_inst(), 2, NULL, parts));
    const int64_t m = 17, L = 23;
    px_view *hx;
    px_view *x = rand_i64(31, L * m, -1000, 1000, &hx);
    int64_t want = 0;
    for (int64_t i = 0; i < L * m; ++i) want += ((const int64_t *)tk_data(hx))[i];
    px_view *res[2] = {vi64("r0", 1), vi64("r1", 1)};
    tk_tsum_args a = {m, si64(x)};
    for (int k = 0; k < 2; ++k)
        TK_OK(px_parallel_reduce_team_view(parts[k], "part",
                                           px_teams(L, k ? 5 : PX_AUTO, k ? 2 : PX_AUTO),
                                           PX_KERNEL(tk_team_sum), &a, res[k]));
    for (int k = 0; k < 2; ++k) {
        TK_OK(px_instance_fence(parts[k]));
        const int64_t got = first_i64(res[k]);
        TK_ASSERT(got == want, "partition %d: %lld, want %lld", k, (long long)got, (long long)want);
    }
    tk_destroy_all(parts, 2);
    tk_destroy_all(&in, 1);
    TK_RELEASE(x, hx, res[0], res[1]);
}
END_TEST

/* What the team graph tests run: the nested kernel over L teams of ni x nj and nk
   elements (tv, w, shape), and the team sum of x (L rows of m random values, their host
   copy hx) into res. */
typedef struct team_work {
    int64_t L, ni, nj, nk, m;
    px_view *tv, *w, *shape, *x, *hx, *res;
    tk_nested_args a;
    tk_tsum_args b;
} team_work;

static team_work team_work_make(int64_t L, int64_t ni, int64_t nj, int64_t nk, int64_t m,
                                uint64_t seed)
{
    team_work t = {.L = L, .ni = ni, .nj = nj, .nk = nk, .m = m};
    t.tv = vi64("tv", L * ni * nj);
    t.w = vi64("w", L * nk);
    t.shape = vi64("shape", L * 4);
    t.x = rand_i64(seed, L * m, -1000, 1000, &t.hx);
    t.res = vi64("res", 1);
    tk_nested_args a = {0, ni, nj, nk, si64(t.tv), si64(t.w), si64(t.shape)};
    tk_tsum_args b = {m, si64(t.x)};
    t.a = a;
    t.b = b;
    return t;
}

static void team_work_free(team_work *t) { TK_RELEASE(t->tv, t->w, t->shape, t->x, t->hx, t->res); }

/* After `launches` runs of the nested kernel, its output; the sum in res is `want`. */
static void team_work_check(const team_work *t, int launches, int64_t want, const char *when)
{
    px_view *htv = tk_to_host(t->tv), *hw = tk_to_host(t->w);
    const int64_t *tv = (const int64_t *)tk_data(htv), *w = (const int64_t *)tk_data(hw);
    const int64_t ni = t->ni, nj = t->nj, nk = t->nk;
    for (int64_t r = 0; r < t->L; ++r) {
        for (int64_t i = 0; i < ni; ++i)
            for (int64_t j = 0; j < nj; ++j)
                TK_ASSERT(tv[(r * ni + i) * nj + j] == launches * (1 + r * 1000003 + i * 1009 + j),
                          "%s: team %lld: tv(%lld, %lld) = %lld after %d launches", when,
                          (long long)r, (long long)i, (long long)j,
                          (long long)tv[(r * ni + i) * nj + j], launches);
        for (int64_t k = 0; k < nk; ++k)
            TK_ASSERT(w[r * nk + k] == launches * (1 + r * 7919 + k),
                      "%s: team %lld: w(%lld) after %d launches", when, (long long)r, (long long)k,
                      launches);
    }
    TK_RELEASE(htv, hw);
    const int64_t got = first_i64(t->res);
    TK_ASSERT(got == want, "%s: sum %lld, want %lld", when, (long long)got, (long long)want);
}

START_TEST(team_graph_explicit)
{
    team_work t = team_work_make(19, 7, 5, 29, 13, 37);
    const int64_t L = t.L, m = t.m;
    px_graph *g = NULL;
    TK_OK(px_graph_create(&g, tk_exec(), 0, "teams"));
    px_graph_node *n1 = NULL, *n2 = NULL;
    TK_OK(px_graph_add_for_team(g, NULL, 0, "nested", px_teams(L, 3, 2), PX_KERNEL(tk_team_nested),
                                &t.a, &n1));
    TK_OK(px_graph_add_reduce_team(g, &n1, 1, "sum", px_teams(L, PX_AUTO, PX_AUTO),
                                   PX_KERNEL(tk_team_sum), &t.b, t.res, &n2));
    /* Nodes are validated as dispatches are. */
    px_graph_node *bad = NULL;
    TK_FAIL(px_graph_add_for_team(g, NULL, 0, "bad", px_teams(L, 3, 5), PX_KERNEL(tk_team_nested),
                                  &t.a, &bad),
            PX_ERR_INVALID_ARGUMENT, "px_graph_add_for_team");
    TK_FAIL(
        px_graph_add_for(g, NULL, 0, "bad", px_range(0, L), PX_KERNEL(tk_team_nested), &t.a, &bad),
        PX_ERR_INVALID_ARGUMENT, "px_graph_add_for");
    TK_FAIL(px_graph_add_reduce_team(g, NULL, 0, "bad", px_teams(L, 1, 1), PX_KERNEL(tk_team_sum),
                                     &t.b, NULL, &bad),
            PX_ERR_INVALID_ARGUMENT, "px_graph_add_reduce_team");
    px_graph_exec *e = NULL;
    TK_OK(px_graph_instantiate(g, &e));
    for (int k = 0; k < 2; ++k) {
        TK_OK(px_graph_launch(e, tk_inst()));
        TK_OK(px_instance_fence(tk_inst()));
        team_work_check(&t, k + 1, rows_sum(t.hx, L, m), "graph launch");
    }
    /* New arguments for the team sum: rows of m - 1 elements (the first L (m - 1) of x). */
    tk_tsum_args b2 = {m - 1, si64(t.x)};
    TK_OK(px_graph_exec_set_args(e, n2, &b2));
    TK_OK(px_graph_launch(e, tk_inst()));
    TK_OK(px_instance_fence(tk_inst()));
    const int64_t want2 = rows_sum(t.hx, L, m - 1);
    team_work_check(&t, 3, want2, "after set_args");
    /* A team node takes a new team policy (checked), never a flat one. */
    TK_FAIL(px_graph_exec_set_policy(e, n1, px_range(0, L)), PX_ERR_INVALID_ARGUMENT,
            "px_graph_exec_set_policy");
    TK_ERROR_HAS("team kernel");
    TK_FAIL(px_graph_exec_set_team_policy(e, n1, px_teams(L, 3, 3)), PX_ERR_INVALID_ARGUMENT,
            "px_graph_exec_set_team_policy");
    TK_ERROR_HAS("vector_length");
    TK_OK(px_graph_exec_set_team_policy(e, n1,
                                        px_team_policy_scratch(px_teams(L, 2, 4), 0, 256, 32)));
    TK_OK(px_graph_exec_set_team_policy(e, n2, px_teams(L, 6, 1)));
    TK_OK(px_graph_launch(e, tk_inst()));
    TK_OK(px_instance_fence(tk_inst()));
    team_work_check(&t, 4, want2, "after set_team_policy");
    TK_OK(px_graph_exec_destroy(&e));
    TK_OK(px_graph_destroy(&g));
    team_work_free(&t);
}
END_TEST

START_TEST(team_graph_captured)
{
    team_work t = team_work_make(11, 4, 9, 17, 7, 41);
    const int64_t L = t.L;
    px_instance *in = tk_instance("capturing");
    TK_OK(px_graph_capture_begin(in, PX_CAPTURE_THREAD_LOCAL));
    TK_OK(px_parallel_for_team(in, "nested", px_team_policy_scratch(px_teams(L, 5, 4), 1, 1000, 24),
                               PX_KERNEL(tk_team_nested), &t.a));
    TK_OK(px_parallel_reduce_team_view(in, "sum", px_teams(L, PX_AUTO, 8), PX_KERNEL(tk_team_sum),
                                       &t.b, t.res));
    /* A result in host memory needs a wait: refused while capturing. */
    int64_t r;
    TK_FAIL2(
        px_parallel_reduce_team(in, "sum", px_teams(L, 1, 1), PX_KERNEL(tk_team_sum), &t.b, &r),
        PX_ERR_CAPTURING, PX_ERR_UNSUPPORTED, "px_parallel_reduce_team");
    px_graph *g = NULL;
    TK_OK(px_graph_capture_end(in, &g));
    px_graph_exec *e = NULL;
    TK_OK(px_graph_instantiate(g, &e));
    for (int k = 0; k < 3; ++k) TK_OK(px_graph_launch(e, in));
    TK_OK(px_instance_fence(in));
    team_work_check(&t, 3, rows_sum(t.hx, L, t.m), "captured");
    TK_OK(px_graph_exec_destroy(&e));
    TK_OK(px_graph_destroy(&g));
    tk_destroy_all(&in, 1);
    team_work_free(&t);
}
END_TEST

/* A captured graph of team kernels updates an executable graph of the same shape, whose
   team policies and arguments differ. */
static px_graph *capture_sum(px_instance *in, px_team_policy p, tk_tsum_args *b, px_view *res)
{
    TK_OK(px_graph_capture_begin(in, PX_CAPTURE_THREAD_LOCAL));
    TK_OK(px_parallel_reduce_team_view(in, "sum", p, PX_KERNEL(tk_team_sum), b, res));
    px_graph *g = NULL;
    TK_OK(px_graph_capture_end(in, &g));
    return g;
}

START_TEST(team_graph_update)
{
    const int64_t L = 21, m = 9;
    px_view *hx;
    px_view *x = rand_i64(43, L * m, -1000, 1000, &hx);
    px_view *res = vi64("res", 1);
    px_instance *in = tk_instance("updating");
    tk_tsum_args b = {m, si64(x)};
    px_graph *g1 = capture_sum(in, px_teams(L, 4, 2), &b, res);
    px_graph_exec *e = NULL;
    TK_OK(px_graph_instantiate(g1, &e));
    TK_OK(px_graph_launch(e, in));
    TK_OK(px_instance_fence(in));
    int64_t got = first_i64(res), want = rows_sum(hx, L, m);
    TK_ASSERT(got == want, "before the update: %lld, want %lld", (long long)got, (long long)want);

    tk_tsum_args b2 = {m - 2, si64(x)};
    px_graph *g2 = capture_sum(in, px_teams(L, PX_AUTO, 8), &b2, res);
    px_graph_update_report rep;
    memset(&rep, 0, sizeof rep);
    const px_status st = px_graph_exec_update(e, g2, &rep);
    if (st == PX_ERR_UNSUPPORTED && tk_is_cuda()) {
        /* CUDA may refuse a launch shape it cannot change in place; it says why. */
        TK_ASSERT(rep.reason[0] != '\0', "a refused update gives its reason");
    } else {
        TK_ASSERT(st == PX_OK, "update: %s: %s (node %d: %s)", px_status_name(st), px_last_error(),
                  rep.node, rep.reason);
        TK_OK(px_graph_launch(e, in));
        TK_OK(px_instance_fence(in));
        got = first_i64(res);
        want = rows_sum(hx, L, m - 2);
        TK_ASSERT(got == want, "after the update: %lld, want %lld", (long long)got,
                  (long long)want);
    }
    TK_OK(px_graph_exec_destroy(&e));
    TK_OK(px_graph_destroy(&g1));
    TK_OK(px_graph_destroy(&g2));
    tk_destroy_all(&in, 1);
    TK_RELEASE(x, hx, res);
}
END_TEST

/* ---- a league of more than 2^31 teams ---------------------------------------------------------- */

START_TEST(team_large_league)
{
    if (tk_under_valgrind()) TK_SKIP("2^31 teams under valgrind take hours");
    const int64_t L = ((int64_t)1 << 31) + 3;
    tk_count_args a = {0};
    int64_t got = 0;
    TK_OK(px_parallel_reduce_team(tk_inst(), "count", px_teams(L, PX_AUTO, PX_AUTO),
                                  PX_KERNEL(tk_team_count), &a, &got));
    const int64_t want = L / 2 * (L + 1) + (L % 2 ? (L + 1) / 2 : 0);
    TK_ASSERT(got == want, "sum of league ranks + 1 over %lld teams: %lld, want %lld", (long long)L,
              (long long)got, (long long)want);
}
END_TEST

/* A parallel_for over the same league: on CUDA more teams than a grid has blocks. Every
   team adds its rank + 1 to one of n slots; each slot's sum is known in closed form. */
START_TEST(team_large_league_for)
{
    if (tk_under_valgrind()) TK_SKIP("2^31 teams under valgrind take hours");
    const int64_t L = ((int64_t)1 << 31) + 3, n = 1021;
    px_view *slots = vi64("slots", n);
    tk_mark_args a = {n, si64(slots)};
    TK_OK(px_parallel_for_team(tk_inst(), "mark", px_teams(L, PX_AUTO, PX_AUTO),
                               PX_KERNEL(tk_team_mark), &a));
    TK_OK(px_instance_fence(tk_inst()));
    px_view *h = tk_to_host(slots);
    const int64_t *got = (const int64_t *)tk_data(h);
    for (int64_t s = 0; s < n; ++s) {
        /* Ranks s, s + n, ..., s + (c - 1) n: c of them, each adding rank + 1. */
        const int64_t c = (L - s + n - 1) / n;
        const int64_t want = c * (s + 1) + n * (c * (c - 1) / 2);
        TK_ASSERT(got[s] == want, "slot %lld of %lld teams: %lld, want %lld", (long long)s,
                  (long long)L, (long long)got[s], (long long)want);
    }
    TK_RELEASE(slots, h);
}
END_TEST

int main(void)
{
    TCase *tc = tk_case("team_for", "team_for");
    tcase_add_loop_test(tc, team_nested_for, 0, NSHAPES);
    TK_ADD(tc, team_empty_league);

    tc = tk_case("team_reduce", "team_reduce");
    tcase_add_loop_test(tc, team_nested_reduce, 0, NSHAPES);
    tcase_add_loop_test(tc, team_reduce_kernels, 0, NSHAPES);
    TK_ADD(tc, team_reduce_empty);

    tc = tk_case("team_scan", "team_scan");
    tcase_add_loop_test(tc, team_nested_scan, 0, NSHAPES);

    tc = tk_case("team_scratch", "team_scratch");
    tcase_add_loop_test(tc, team_barrier_scratch, 0, NSHAPES);
    tcase_add_loop_test(tc, team_scratch_limits, 0, 2);
    tcase_set_timeout(tc, 120);

    TK_ADD(tk_case("team_dispatch", "team_dispatch"), team_dispatch_errors);

    TK_ADD(tk_case("team_graph", "team_graph"), team_instances_and_partitions, team_graph_explicit,
           team_graph_captured, team_graph_update);

    tc = tk_case("team_large", "team_large");
    TK_ADD(tc, team_large_league, team_large_league_for);
    tcase_set_timeout(tc, 280);
    return tk_run();
}
