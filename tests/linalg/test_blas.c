/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* BLAS-1 and GEMV of libportex_linalg (portex/linalg.h) on the backend under test, against
 * plain C references made here from the same inputs (rounded to the element type first),
 * summed with compensation so that they are exact to an ulp or so. Sums are checked against
 * a bound on their rounding error, a tolerance times the sum of the magnitudes of their
 * terms, which covers any order of additions; element by element results against a few of
 * their ulps. Every function, f32 and f64, lengths from 0 to 100003, the scalars 0, 1 and
 * -2.5 (beta = 0 over NaN), nrm2 at the ends of the exponent range, GEMV in both layouts and
 * both ops, subviews, a captured graph. Suites "blas" and "blas_errors" (each refusal,
 * named by the call). */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "common.h"
#include "portex/linalg.h"

/* The element types, for the loop tests: _i indexes this. */
static const px_dtype types[] = {PX_F64, PX_F32};
#define NTYPES ((int)(sizeof types / sizeof types[0]))

static const int64_t lengths[] = {0, 1, 7, 1000, 100003};
#define NLENGTHS (sizeof lengths / sizeof lengths[0])

/* The scalars every call is tried with; 0.3 is not a float, so f32 calls round it. */
static const double scalars[] = {0, 1, -2.5, 0.3};
#define NSCALARS (sizeof scalars / sizeof scalars[0])

/* v as the element type t holds it. */
static double as_type(px_dtype t, double v) { return t == PX_F32 ? (double)(float)v : v; }

/* The rounding error allowed of a result of type t made from n terms, relative to the sum
   of their magnitudes: f64 1e-12; f32 1e-5, growing with the square root of the length
   beyond 100 terms (the usual growth of a float sum's error). */
static double tol(px_dtype t, int64_t n)
{
    return t == PX_F64 ? 1e-12 : 1e-5 * fmax(1.0, sqrt((double)n / 100.0));
}

/* |got - want| <= bound, NaN failing; `what` and i say where. */
static void expect_near(const char *what, px_dtype t, int64_t i, double got, double want,
                        double bound)
{
    if (!(fabs(got - want) <= bound))
        ck_abort_msg("%s (%s), element %lld: %.17g, want %.17g (within %.3g)", what,
                     px_dtype_string(t), (long long)i, got, want, bound);
}

/* malloc'ed n doubles (at least one), asserting success. */
static double *doubles(int64_t n)
{
    double *p = malloc((size_t)(n > 0 ? n : 1) * sizeof *p);
    ck_assert_ptr_nonnull(p);
    return p;
}

/* n values in [-1, 1) from `seed`, rounded to t. */
static double *randoms(px_dtype t, int64_t n, uint64_t seed)
{
    double *p = doubles(n);
    tk_rng r = tk_rng_seed(seed);
    for (int64_t i = 0; i < n; ++i) p[i] = as_type(t, tk_uniform(&r, -1.0, 1.0));
    return p;
}

static double *filled(int64_t n, double value)
{
    double *p = doubles(n);
    for (int64_t i = 0; i < n; ++i) p[i] = value;
    return p;
}

/* Element i of a host view of t at info's data, counted in LAYOUT_RIGHT order. */
static void put(const px_view_info *in, int64_t i, double v)
{
    unsigned char *p = tk_elem(in, i);
    if (in->dtype == PX_F32) {
        const float f = (float)v;
        memcpy(p, &f, sizeof f);
    } else {
        memcpy(p, &v, sizeof v);
    }
}

static double get(const px_view_info *in, int64_t i)
{
    const unsigned char *p = tk_elem(in, i);
    if (in->dtype == PX_F32) {
        float f;
        memcpy(&f, p, sizeof f);
        return f;
    }
    double d;
    memcpy(&d, p, sizeof d);
    return d;
}

/* A view of t in tk_space() of `layout`, rank 1 or 2, holding vals (LAYOUT_RIGHT order). */
static px_view *upload_ex(px_dtype t, px_layout layout, int rank, const int64_t *ext,
                          const double *vals)
{
    px_view *h = tk_view_ex("host", px_host(), t, 0, layout, rank, ext, 0);
    const px_view_info in = tk_info(h);
    for (int64_t i = 0; i < in.size; ++i) put(&in, i, vals[i]);
    px_view *v = tk_on_space(h, "v");
    TK_RELEASE(h);
    return v;
}

static px_view *upload(px_dtype t, int64_t n, const double *vals)
{
    return upload_ex(t, PX_LAYOUT_RIGHT, 1, &n, vals);
}

/* The elements of a view of any space and rank, in LAYOUT_RIGHT order (malloc'ed). */
static double *download(px_view *v)
{
    px_view *h = tk_to_host(v);
    const px_view_info in = tk_info(h);
    double *p = doubles(in.size);
    for (int64_t i = 0; i < in.size; ++i) p[i] = get(&in, i);
    TK_RELEASE(h);
    return p;
}

/* Element 0 of a view, read back. */
static double first_of(px_view *v)
{
    double *p = download(v);
    const double d = p[0];
    free(p);
    return d;
}

/* A sum that carries its own rounding error (Neumaier's compensated summation), and each
   product's too (fma): the references are exact to about an ulp of their total whatever
   the number of terms. Not long double, which valgrind runs as double. */
typedef struct exact_sum {
    double s, c;
} exact_sum;

static void add(exact_sum *a, double v)
{
    const double t = a->s + v;
    a->c += fabs(a->s) >= fabs(v) ? (a->s - t) + v : (v - t) + a->s;
    a->s = t;
}

static void add_product(exact_sum *a, double x, double y)
{
    const double p = x * y;
    add(a, p);
    add(a, fma(x, y, -p));
}

static double total(const exact_sum *a) { return a->s + a->c; }

/* ---- axpy, axpby, scal -------------------------------------------------------------------- */

/* want = a * x + b * y as the header says: a zero coefficient's term is dropped (y's NaN for
   b = 0; x's for a = 0, since axpy with a = 0 leaves y alone and axpby does as BLAS
   implementations do). The bound: 2 ulps of the terms' magnitudes. */
static void expect_combination(const char *what, px_dtype t, int64_t n, double a, const double *x,
                               double b, const double *y0, const double *got)
{
    const double ulp = t == PX_F64 ? DBL_EPSILON : FLT_EPSILON;
    a = as_type(t, a);
    b = as_type(t, b);
    for (int64_t i = 0; i < n; ++i) {
        const double ax = a == 0 ? 0 : a * x[i], by = b == 0 ? 0 : b * y0[i];
        expect_near(what, t, i, got[i], ax + by, 2 * ulp * (fabs(ax) + fabs(by)));
    }
}

START_TEST(blas_axpy)
{
    const px_dtype t = types[_i];
    for (size_t k = 0; k < NLENGTHS; ++k) {
        const int64_t n = lengths[k];
        double *x = randoms(t, n, 1 + k), *y = randoms(t, n, 100 + k);
        px_view *vx = upload(t, n, x);
        for (size_t s = 0; s < NSCALARS; ++s) {
            px_view *vy = upload(t, n, y);
            TK_OK(px_blas_axpy(tk_inst(), scalars[s], vx, vy));
            TK_OK(px_instance_fence(tk_inst()));
            double *got = download(vy);
            expect_combination("axpy", t, n, scalars[s], x, 1, y, got);
            free(got);
            TK_RELEASE(vy);
        }
        double *x_after = download(vx);
        for (int64_t i = 0; i < n; ++i)
            expect_near("axpy's x, unchanged", t, i, x_after[i], x[i], 0);
        free(x_after);
        TK_RELEASE(vx);
        free(x);
        free(y);
    }
}
END_TEST

START_TEST(blas_axpby)
{
    const px_dtype t = types[_i];
    for (size_t k = 0; k < NLENGTHS; ++k) {
        const int64_t n = lengths[k];
        double *x = randoms(t, n, 3 + k), *y = randoms(t, n, 300 + k);
        double *nan = filled(n, NAN);
        px_view *vx = upload(t, n, x), *vnan = upload(t, n, nan);
        for (size_t sa = 0; sa < NSCALARS; ++sa) {
            for (size_t sb = 0; sb < NSCALARS; ++sb) {
                const double a = scalars[sa], b = scalars[sb];
                /* b = 0 over a y of NaN: its old values must not show. */
                const double *y0 = b == 0 ? nan : y;
                px_view *vy = upload(t, n, y0);
                TK_OK(px_blas_axpby(tk_inst(), a, vx, b, vy));
                TK_OK(px_instance_fence(tk_inst()));
                double *got = download(vy);
                expect_combination("axpby", t, n, a, x, b, y0, got);
                free(got);
                TK_RELEASE(vy);
            }
        }
        /* a = 0 drops x, NaN included: y = b * y, and 0 for b = 0. */
        for (int zero_b = 0; zero_b < 2; ++zero_b) {
            const double b = zero_b ? 0 : -2.5;
            px_view *vy = upload(t, n, y);
            TK_OK(px_blas_axpby(tk_inst(), 0, vnan, b, vy));
            TK_OK(px_instance_fence(tk_inst()));
            double *got = download(vy);
            expect_combination("axpby, a = 0 over an x of NaN", t, n, 0, nan, b, y, got);
            free(got);
            TK_RELEASE(vy);
        }
        TK_RELEASE(vx, vnan);
        free(x);
        free(y);
        free(nan);
    }
}
END_TEST

START_TEST(blas_scal)
{
    const px_dtype t = types[_i];
    for (size_t k = 0; k < NLENGTHS; ++k) {
        const int64_t n = lengths[k];
        double *x = randoms(t, n, 5 + k);
        for (size_t s = 0; s < NSCALARS; ++s) {
            px_view *vx = upload(t, n, x);
            TK_OK(px_blas_scal(tk_inst(), scalars[s], vx));
            TK_OK(px_instance_fence(tk_inst()));
            double *got = download(vx);
            const double a = as_type(t, scalars[s]);
            for (int64_t i = 0; i < n; ++i)
                expect_near("scal", t, i, got[i], as_type(t, a * x[i]), 0);
            free(got);
            TK_RELEASE(vx);
        }
        free(x);
    }
    /* A plain product, as reference BLAS's scal: 0 times NaN or infinity is NaN. */
    const double odd[3] = {NAN, INFINITY, 2};
    px_view *v = upload(t, 3, odd);
    TK_OK(px_blas_scal(tk_inst(), 0, v));
    TK_OK(px_instance_fence(tk_inst()));
    double *got = download(v);
    TK_ASSERT(isnan(got[0]) && isnan(got[1]) && got[2] == 0, "0 * {NaN, inf, 2} gave %g %g %g",
              got[0], got[1], got[2]);
    free(got);
    TK_RELEASE(v);
}
END_TEST

/* ---- dot ------------------------------------------------------------------------------------- */

/* x . y, and the sum of the terms' magnitudes (the error bound's scale). */
static double ref_dot(const double *x, const double *y, int64_t n, double *magnitude)
{
    exact_sum s = {0, 0};
    double m = 0;
    for (int64_t i = 0; i < n; ++i) {
        add_product(&s, x[i], y[i]);
        m += fabs(x[i] * y[i]);
    }
    *magnitude = m;
    return total(&s);
}

START_TEST(blas_dot)
{
    const px_dtype t = types[_i];
    for (size_t k = 0; k < NLENGTHS; ++k) {
        const int64_t n = lengths[k];
        double *x = randoms(t, n, 7 + k), *y = randoms(t, n, 700 + k);
        px_view *vx = upload(t, n, x), *vy = upload(t, n, y);
        const double garbage[3] = {42, 43, 44};
        px_view *res = upload(t, 3, garbage);
        double mag, mag_xx;
        const double want = ref_dot(x, y, n, &mag), want_xx = ref_dot(x, x, n, &mag_xx);

        double got = NAN;
        TK_OK(px_blas_dot(tk_inst(), vx, vy, &got));
        expect_near("dot", t, n, got, want, tol(t, n) * mag);
        TK_OK(px_blas_dot(tk_inst(), vx, vx, &got)); /* one view as both vectors */
        expect_near("dot of x with itself", t, n, got, want_xx, tol(t, n) * mag_xx);

        TK_OK(px_blas_dot_view(tk_inst(), vx, vy, res));
        TK_OK(px_instance_fence(tk_inst()));
        double *r = download(res);
        expect_near("dot_view", t, n, r[0], want, tol(t, n) * mag);
        TK_ASSERT(r[1] == 43 && r[2] == 44, "dot_view wrote past element 0: %g %g", r[1], r[2]);
        free(r);
        TK_RELEASE(vx, vy, res);
        free(x);
        free(y);
    }
}
END_TEST

/* ---- nrm2 ------------------------------------------------------------------------------------ */

/* ||x|| with care: the values scaled by the largest magnitude (exact for powers of two,
   within an ulp otherwise), their squares summed exactly. */
static double ref_nrm2(const double *x, int64_t n)
{
    double big = 0;
    for (int64_t i = 0; i < n; ++i) big = fmax(big, fabs(x[i]));
    if (big == 0) return 0;
    exact_sum s = {0, 0};
    for (int64_t i = 0; i < n; ++i) add_product(&s, x[i] / big, x[i] / big);
    return big * sqrt(total(&s));
}

/* Both forms of nrm2 of x (n values of t) against the reference, within rel * want. */
static void check_nrm2(const char *what, px_dtype t, const double *x, int64_t n, double rel)
{
    const double want = ref_nrm2(x, n);
    px_view *vx = upload(t, n, x);
    const double garbage = 42;
    px_view *res = upload(t, 1, &garbage);
    double got = NAN;
    TK_OK(px_blas_nrm2(tk_inst(), vx, &got));
    expect_near(what, t, n, got, want, rel * want);
    TK_OK(px_blas_nrm2_view(tk_inst(), vx, res));
    TK_OK(px_instance_fence(tk_inst()));
    expect_near(what, t, n, first_of(res), want, rel * want);
    TK_RELEASE(vx, res);
}

START_TEST(blas_nrm2)
{
    const px_dtype t = types[_i];
    for (size_t k = 0; k < NLENGTHS; ++k) {
        double *x = randoms(t, lengths[k], 9 + k);
        check_nrm2("nrm2", t, x, lengths[k], tol(t, lengths[k]));
        free(x);
    }
}
END_TEST

/* n values of magnitude `scale` times [0.5, 1), random signs, rounded to t; with `scale2`
   not 0, every other one of that magnitude instead, and with scale3 every third. */
static double *magnitudes(px_dtype t, int64_t n, double scale, double scale2, double scale3,
                          uint64_t seed)
{
    double *p = doubles(n);
    tk_rng r = tk_rng_seed(seed);
    for (int64_t i = 0; i < n; ++i) {
        double s = scale;
        if (scale2 != 0 && i % 2 == 1) s = scale2;
        if (scale3 != 0 && i % 3 == 2) s = scale3;
        const double v = s * tk_uniform(&r, 0.5, 1.0);
        p[i] = as_type(t, tk_next(&r) & 1 ? -v : v);
    }
    return p;
}

/* Values whose squares overflow or underflow the element type, alone and mixed: a naive sum
   of squares gives infinity, 0, or loses the small ones next to medium ones. f64 within
   1e-14 of the reference up to 1000 values, the bound growing as the square root of the
   length beyond (a long sum of squares rounds: 8e-15 at 100003 values on the serial
   backend); f32 within its usual tolerance. */
START_TEST(blas_nrm2_extremes)
{
    const px_dtype t = types[_i];
    const bool f64 = t == PX_F64;
    const double huge = f64 ? 1e300 : 1e30, tiny = f64 ? 1e-300 : 1e-30;
    /* Just below and above Blue's small threshold (2^-511 ~ 1.5e-154; 2^-63 ~ 1.1e-19):
       both sums count, and combine from their square roots. */
    const double below = f64 ? 1e-155 : 1e-20, above = f64 ? 3e-154 : 3e-19;
    /* And around the big one (2^486 ~ 2.5e146; 2^52 ~ 4.5e15): medium values join the big
       sum scaled down. */
    const double under = f64 ? 1e146 : 1e15, over = f64 ? 1e147 : 1e16;
    static const int64_t ns[] = {1, 7, 1000, 100003};
    for (size_t k = 0; k < sizeof ns / sizeof ns[0]; ++k) {
        const int64_t n = ns[k];
        const double rel = f64 ? 1e-14 * fmax(1.0, sqrt((double)n / 1000.0)) : tol(t, n);
        const struct {
            const char *what;
            double s1, s2, s3;
        } cases[] = {
            {"nrm2 of huge values", huge, 0, 0},
            {"nrm2 of tiny values", tiny, 0, 0},
            {"nrm2 of huge, medium and tiny values", huge, 1, tiny},
            {"nrm2 of tiny and medium values", tiny, 1, 0},
            {"nrm2 around the small threshold", below, above, 0},
            {"nrm2 around the big threshold", under, over, 0},
        };
        for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
            double *x = magnitudes(t, n, cases[c].s1, cases[c].s2, cases[c].s3, 11 * k + c);
            check_nrm2(cases[c].what, t, x, n, rel);
            free(x);
        }
    }
}
END_TEST

/* Both forms of nrm2 of x, a view of t: the host one, and the view one read back. */
static void nrm2_both(px_view *x, px_dtype t, double *host, double *view)
{
    const double garbage = 42;
    px_view *res = upload(t, 1, &garbage);
    TK_OK(px_blas_nrm2(tk_inst(), x, host));
    TK_OK(px_blas_nrm2_view(tk_inst(), x, res));
    TK_OK(px_instance_fence(tk_inst()));
    *view = first_of(res);
    TK_RELEASE(res);
}

/* NaN and infinity come through both forms, near and far from each other in a long vector;
   an empty vector's norm is 0; the f32 norm beyond FLT_MAX comes back whole as a double
   (the view form, a float, is infinity). */
/* 2^25 floats of 4e15: each square (1.6e31) is a medium value of Blue's, and their sum
   (5.4e38) is past FLT_MAX: the norm (2.32e19) must come back finite and right from both
   forms. 128 MiB: not under valgrind. */
START_TEST(blas_nrm2_f32_sum_past_flt_max)
{
    if (tk_under_valgrind()) TK_SKIP("128 MiB of floats take too long under valgrind");
    const int64_t n = INT64_C(1) << 25;
    px_view *x = tk_view1("x", tk_space(), PX_F32, n);
    const float value = 4e15f;
    TK_OK(px_fill(x, &value, NULL));
    double host, view;
    nrm2_both(x, PX_F32, &host, &view);
    const double want = 4e15 * sqrt((double)n);
    TK_ASSERT(fabs(host - want) <= 1e-5 * want && fabs(view - want) <= 1e-5 * want,
              "nrm2 of 2^25 x 4e15f gave %g and %g, want %g", host, view, want);
    TK_RELEASE(x);
}
END_TEST

START_TEST(blas_nrm2_special)
{
    const int64_t n = 100003;
    double *v = filled(n, 1), host, view;
    v[3] = 1e300;
    v[n / 2] = NAN;
    px_view *x = upload(PX_F64, n, v);
    nrm2_both(x, PX_F64, &host, &view);
    TK_ASSERT(isnan(host) && isnan(view), "nrm2 with a NaN gave %g and %g", host, view);
    TK_RELEASE(x);
    v[n / 2] = 1;
    v[n - 1] = INFINITY;
    v[5] = -INFINITY;
    x = upload(PX_F64, n, v);
    nrm2_both(x, PX_F64, &host, &view);
    TK_ASSERT(isinf(host) && host > 0 && isinf(view) && view > 0,
              "nrm2 with infinities gave %g and %g", host, view);
    TK_RELEASE(x);
    free(v);

    px_view *e = tk_view1("empty", tk_space(), PX_F32, 0);
    nrm2_both(e, PX_F32, &host, &view);
    TK_ASSERT(host == 0 && view == 0, "nrm2 of nothing gave %g and %g", host, view);
    double dot = 1;
    TK_OK(px_blas_dot(tk_inst(), e, e, &dot));
    TK_ASSERT(dot == 0, "dot of nothing gave %g", dot);
    TK_RELEASE(e);

    const double two[2] = {3e38, 3e38};
    px_view *f = upload(PX_F32, 2, two);
    nrm2_both(f, PX_F32, &host, &view);
    const double want = (double)3e38f * sqrt(2.0);
    expect_near("f32 nrm2 beyond FLT_MAX", PX_F32, 0, host, want, 1e-6 * want);
    TK_ASSERT(isinf(view), "f32 nrm2_view beyond FLT_MAX gave %g", view);
    TK_RELEASE(f);
}
END_TEST

/* ---- gemv ------------------------------------------------------------------------------------ */

/* alpha * op(A) x + beta * y0 (A: m x n, LAYOUT_RIGHT order in `a`), checked element by
   element against the bound on the sum's error: tol times the magnitudes of alpha's terms
   and beta's (which a kernel may add first). */
static void expect_gemv(const char *what, px_dtype t, px_blas_op op, int64_t m, int64_t n,
                        double alpha, const double *a, const double *x, double beta,
                        const double *y0, const double *got)
{
    const int64_t rows = op == PX_BLAS_N ? m : n, cols = op == PX_BLAS_N ? n : m;
    alpha = as_type(t, alpha);
    beta = as_type(t, beta);
    for (int64_t r = 0; r < rows; ++r) {
        exact_sum s = {0, 0};
        double mag = 0;
        for (int64_t c = 0; c < cols; ++c) {
            const double arc = op == PX_BLAS_N ? a[r * n + c] : a[c * n + r];
            add_product(&s, arc, x[c]);
            mag += fabs(arc * x[c]);
        }
        const double by = beta == 0 ? 0 : beta * y0[r];
        const double want = alpha * total(&s) + by;
        const double bound = tol(t, cols) * (fabs(alpha) * mag + fabs(by));
        expect_near(what, t, r, got[r], want, bound);
    }
}

/* One GEMV of an m x n A of `layout` in every (alpha, beta) pair that matters, y of NaN
   wherever beta is 0. */
static void check_gemv(px_dtype t, px_layout layout, px_blas_op op, int64_t m, int64_t n,
                       uint64_t seed)
{
    static const double pairs[][2] = {{1, 0},    {-2.5, 1}, {0, -2.5}, {1, -2.5},
                                      {-2.5, 0}, {0, 0},    {0.3, 1},  {0, 1}};
    const int64_t ext[2] = {m, n};
    const int64_t nx = op == PX_BLAS_N ? n : m, ny = op == PX_BLAS_N ? m : n;
    double *a = randoms(t, m * n, seed), *x = randoms(t, nx, seed + 1);
    double *y = randoms(t, ny, seed + 2), *nan = filled(ny, NAN);
    px_view *va = upload_ex(t, layout, 2, ext, a), *vx = upload(t, nx, x);
    char what[128];
    snprintf(what, sizeof what, "gemv %s, %s, %lld x %lld",
             layout == PX_LAYOUT_LEFT ? "LEFT" : "RIGHT", op == PX_BLAS_N ? "N" : "T", (long long)m,
             (long long)n);
    for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; ++p) {
        const double alpha = pairs[p][0], beta = pairs[p][1];
        const double *y0 = beta == 0 ? nan : y;
        px_view *vy = upload(t, ny, y0);
        TK_OK(px_blas_gemv(tk_inst(), op, alpha, va, vx, beta, vy));
        TK_OK(px_instance_fence(tk_inst()));
        double *got = download(vy);
        expect_gemv(what, t, op, m, n, alpha, a, x, beta, y0, got);
        free(got);
        TK_RELEASE(vy);
    }
    TK_RELEASE(va, vx);
    free(a);
    free(x);
    free(y);
    free(nan);
}

START_TEST(blas_gemv)
{
    const px_dtype t = types[_i];
    /* Short and long rows and columns, for each kernel's shapes of teams and blocks. */
    static const int64_t shapes[][2] = {{0, 5},    {5, 0},    {1, 1},      {7, 13},  {300, 257},
                                        {3, 5000}, {5000, 3}, {130, 1030}, {2, 1000}};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s)
        for (int layout = 0; layout < 2; ++layout)
            for (int op = 0; op < 2; ++op)
                check_gemv(t, layout ? PX_LAYOUT_LEFT : PX_LAYOUT_RIGHT, op ? PX_BLAS_T : PX_BLAS_N,
                           shapes[s][0], shapes[s][1], 13 * s);
}
END_TEST

/* Subviews: A a block of whole rows of a RIGHT matrix (still RIGHT) and of whole columns of
   a LEFT one (still LEFT), x and y parts of one vector; the rest is left alone. */
START_TEST(blas_gemv_subviews)
{
    const px_dtype t = types[_i];
    const int64_t m = 37, n = 29, big_ext[2][2] = {{m + 5, n}, {m, n + 4}};
    for (int left = 0; left < 2; ++left) {
        const int64_t *ext = big_ext[left];
        double *all = randoms(t, ext[0] * ext[1], 21 + left);
        px_view *big = upload_ex(t, left ? PX_LAYOUT_LEFT : PX_LAYOUT_RIGHT, 2, ext, all);
        px_view *va = left ? tk_sub2(big, 0, m, 3, 3 + n) : tk_sub2(big, 2, 2 + m, 0, n);
        const px_view_info ai = tk_info(va);
        TK_ASSERT(ai.layout == (left ? PX_LAYOUT_LEFT : PX_LAYOUT_RIGHT), "the block has layout %s",
                  px_layout_string(ai.layout));
        double *a = download(va);
        for (int op = 0; op < 2; ++op) {
            const px_blas_op o = op ? PX_BLAS_T : PX_BLAS_N;
            const int64_t nx = op ? m : n, ny = op ? n : m, nv = nx + ny + 3;
            double *v = randoms(t, nv, 31 + op);
            px_view *vv = upload(t, nv, v);
            px_view *vx = tk_sub1(vv, 0, nx), *vy = tk_sub1(vv, nx + 1, ny);
            TK_OK(px_blas_gemv(tk_inst(), o, -2.5, va, vx, 0.3, vy));
            TK_OK(px_instance_fence(tk_inst()));
            double *got = download(vv);
            expect_gemv("gemv of subviews", t, o, m, n, -2.5, a, v, 0.3, v + nx + 1, got + nx + 1);
            for (int64_t i = 0; i < nv; ++i)
                if (i < nx + 1 || i >= nx + 1 + ny)
                    expect_near("gemv of subviews, outside y", t, i, got[i], v[i], 0);
            free(got);
            free(v);
            TK_RELEASE(vx, vy, vv);
        }
        double *after = download(big);
        for (int64_t i = 0; i < ext[0] * ext[1]; ++i)
            expect_near("gemv's matrix, unchanged", t, i, after[i], all[i], 0);
        free(after);
        free(a);
        free(all);
        TK_RELEASE(va, big);
    }
}
END_TEST

/* Two halves of one allocation are distinct vectors. */
START_TEST(blas_halves)
{
    const px_dtype t = types[_i];
    const int64_t n = 1000;
    double *v = randoms(t, 2 * n, 41);
    px_view *all = upload(t, 2 * n, v);
    px_view *lo = tk_sub1(all, 0, n), *hi = tk_sub1(all, n, n);
    TK_OK(px_blas_axpy(tk_inst(), -2.5, lo, hi));
    TK_OK(px_instance_fence(tk_inst()));
    double *got = download(all);
    expect_combination("axpy between halves", t, n, -2.5, v, 1, v + n, got + n);
    for (int64_t i = 0; i < n; ++i) expect_near("axpy's x half", t, i, got[i], v[i], 0);
    free(got);
    free(v);
    TK_RELEASE(lo, hi, all);
}
END_TEST

/* Every asynchronous call recorded into a graph and the graph launched twice: the second
   launch reads what the first wrote. nrm2_view's scratch, released during the capture,
   lives on with the graph. */
START_TEST(blas_graph)
{
    const px_dtype t = types[_i];
    const int64_t n = 1000, m = 7, k = 13, ext[2] = {m, k};
    double *x = randoms(t, n, 51), *y = randoms(t, n, 52);
    double *a = randoms(t, m * k, 53), *gx = randoms(t, k, 54);
    double *nan = filled(m, NAN);
    px_view *vx = upload(t, n, x), *vy = upload(t, n, y),
            *va = upload_ex(t, PX_LAYOUT_RIGHT, 2, ext, a);
    px_view *vgx = upload(t, k, gx), *vgy = upload(t, m, nan);
    px_view *dot = tk_view1("dot", tk_space(), t, 1), *nrm = tk_view1("nrm", tk_space(), t, 1);
    px_graph *g = NULL;
    px_graph_exec *ge = NULL;
    TK_OK(px_graph_capture_begin(tk_inst(), PX_CAPTURE_THREAD_LOCAL));
    TK_OK(px_blas_axpy(tk_inst(), -2.5, vx, vy));
    TK_OK(px_blas_scal(tk_inst(), 0.3, vx));
    TK_OK(px_blas_dot_view(tk_inst(), vx, vy, dot));
    TK_OK(px_blas_nrm2_view(tk_inst(), vy, nrm));
    TK_OK(px_blas_gemv(tk_inst(), PX_BLAS_N, 1, va, vgx, 0, vgy));
    TK_OK(px_graph_capture_end(tk_inst(), &g));
    TK_OK(px_graph_instantiate(g, &ge));
    TK_OK(px_graph_destroy(&g));

    /* Each launch from what the last one left: x exactly (a product, rounded once), y as
       downloaded. */
    double *prev_x = doubles(n), *prev_y = doubles(n);
    memcpy(prev_x, x, (size_t)n * sizeof *x);
    memcpy(prev_y, y, (size_t)n * sizeof *y);
    for (int launch = 0; launch < 2; ++launch) {
        TK_OK(px_graph_launch(ge, tk_inst()));
        TK_OK(px_instance_fence(tk_inst()));
        double *gy = download(vy);
        expect_combination("graph: axpy", t, n, -2.5, prev_x, 1, prev_y, gy);
        for (int64_t i = 0; i < n; ++i) prev_x[i] = as_type(t, as_type(t, 0.3) * prev_x[i]);
        double mag;
        const double want_dot = ref_dot(prev_x, gy, n, &mag);
        expect_near("graph: dot_view", t, n, first_of(dot), want_dot, tol(t, n) * mag);
        const double want_nrm = ref_nrm2(gy, n);
        expect_near("graph: nrm2_view", t, n, first_of(nrm), want_nrm, tol(t, n) * want_nrm);
        double *got = download(vgy);
        expect_gemv("graph: gemv", t, PX_BLAS_N, m, k, 1, a, gx, 0, nan, got);
        free(got);
        memcpy(prev_y, gy, (size_t)n * sizeof *gy);
        free(gy);
    }
    TK_OK(px_graph_exec_destroy(&ge));
    TK_RELEASE(vx, vy, va, vgx, vgy, dot, nrm);
    free(x);
    free(y);
    free(a);
    free(gx);
    free(nan);
    free(prev_x);
    free(prev_y);
}
END_TEST

/* ---- Refusals ------------------------------------------------------------------------------- */

/* expr fails with `want`, and the last error is the call's own ("func: ..."). */
#define REFUSED(expr, want, func)                                                                \
    do {                                                                                         \
        TK_FAIL(expr, want, func);                                                               \
        TK_ASSERT(tk_error_from(func), "last error '%s' does not come from %s", px_last_error(), \
                  func);                                                                         \
    } while (0)

/* Each call refuses a NULL instance and NULL views or results. */
START_TEST(blas_errors_null)
{
    const px_status bad = PX_ERR_INVALID_ARGUMENT;
    const int64_t ext[2] = {3, 3};
    px_view *x = tk_view1("x", tk_space(), PX_F64, 3), *y = tk_view1("y", tk_space(), PX_F64, 3);
    px_view *r = tk_view1("r", tk_space(), PX_F64, 1),
            *A = tk_view("A", tk_space(), PX_F64, 2, ext);
    px_instance *i = tk_inst();
    double d;
    REFUSED(px_blas_axpy(NULL, 1, x, y), bad, "px_blas_axpy");
    REFUSED(px_blas_axpy(i, 1, NULL, y), bad, "px_blas_axpy");
    REFUSED(px_blas_axpy(i, 1, x, NULL), bad, "px_blas_axpy");
    REFUSED(px_blas_axpby(NULL, 1, x, 1, y), bad, "px_blas_axpby");
    REFUSED(px_blas_axpby(i, 1, NULL, 1, y), bad, "px_blas_axpby");
    REFUSED(px_blas_axpby(i, 1, x, 1, NULL), bad, "px_blas_axpby");
    REFUSED(px_blas_scal(NULL, 1, x), bad, "px_blas_scal");
    REFUSED(px_blas_scal(i, 1, NULL), bad, "px_blas_scal");
    REFUSED(px_blas_dot(NULL, x, y, &d), bad, "px_blas_dot");
    REFUSED(px_blas_dot(i, NULL, y, &d), bad, "px_blas_dot");
    REFUSED(px_blas_dot(i, x, NULL, &d), bad, "px_blas_dot");
    REFUSED(px_blas_dot(i, x, y, NULL), bad, "px_blas_dot");
    REFUSED(px_blas_dot_view(NULL, x, y, r), bad, "px_blas_dot_view");
    REFUSED(px_blas_dot_view(i, NULL, y, r), bad, "px_blas_dot_view");
    REFUSED(px_blas_dot_view(i, x, y, NULL), bad, "px_blas_dot_view");
    REFUSED(px_blas_nrm2(NULL, x, &d), bad, "px_blas_nrm2");
    REFUSED(px_blas_nrm2(i, NULL, &d), bad, "px_blas_nrm2");
    REFUSED(px_blas_nrm2(i, x, NULL), bad, "px_blas_nrm2");
    REFUSED(px_blas_nrm2_view(NULL, x, r), bad, "px_blas_nrm2_view");
    REFUSED(px_blas_nrm2_view(i, NULL, r), bad, "px_blas_nrm2_view");
    REFUSED(px_blas_nrm2_view(i, x, NULL), bad, "px_blas_nrm2_view");
    REFUSED(px_blas_gemv(NULL, PX_BLAS_N, 1, A, x, 0, y), bad, "px_blas_gemv");
    REFUSED(px_blas_gemv(i, PX_BLAS_N, 1, NULL, x, 0, y), bad, "px_blas_gemv");
    REFUSED(px_blas_gemv(i, PX_BLAS_N, 1, A, NULL, 0, y), bad, "px_blas_gemv");
    REFUSED(px_blas_gemv(i, PX_BLAS_N, 1, A, x, 0, NULL), bad, "px_blas_gemv");
    TK_RELEASE(x, y, r, A);
}
END_TEST

/* Vectors that are not 1-D contiguous f32 or f64 views of one type and length. */
START_TEST(blas_errors_vectors)
{
    const int64_t ext[2] = {4, 5};
    px_view *x = tk_view1("x", tk_space(), PX_F64, 4), *y = tk_view1("y", tk_space(), PX_F64, 4);
    px_view *shorter = tk_view1("shorter", tk_space(), PX_F64, 3);
    px_view *f = tk_view1("f", tk_space(), PX_F32, 4),
            *ints = tk_view1("ints", tk_space(), PX_I32, 4);
    px_view *two = tk_view("two", tk_space(), PX_F64, 2, ext);
    const px_slice col[2] = {px_slice_all(), px_slice_index(1)};
    px_view *strided = NULL;
    TK_OK(px_view_subview(&strided, two, col, 2)); /* 4 elements, 5 apart */
    px_instance *i = tk_inst();
    double d;

    REFUSED(px_blas_axpy(i, 1, two, y), PX_ERR_INVALID_ARGUMENT, "px_blas_axpy");
    TK_ERROR_HAS("rank 2");
    REFUSED(px_blas_scal(i, 1, ints), PX_ERR_TYPE_MISMATCH, "px_blas_scal");
    REFUSED(px_blas_nrm2(i, ints, &d), PX_ERR_TYPE_MISMATCH, "px_blas_nrm2");
    REFUSED(px_blas_axpby(i, 1, x, 1, f), PX_ERR_TYPE_MISMATCH, "px_blas_axpby");
    REFUSED(px_blas_dot(i, f, y, &d), PX_ERR_TYPE_MISMATCH, "px_blas_dot");
    REFUSED(px_blas_axpy(i, 1, x, shorter), PX_ERR_EXTENTS_MISMATCH, "px_blas_axpy");
    REFUSED(px_blas_axpby(i, 1, shorter, 1, y), PX_ERR_EXTENTS_MISMATCH, "px_blas_axpby");
    REFUSED(px_blas_dot(i, x, shorter, &d), PX_ERR_EXTENTS_MISMATCH, "px_blas_dot");
    REFUSED(px_blas_axpy(i, 1, strided, y), PX_ERR_INVALID_ARGUMENT, "px_blas_axpy");
    TK_ERROR_HAS("not contiguous");
    REFUSED(px_blas_nrm2_view(i, strided, y), PX_ERR_INVALID_ARGUMENT, "px_blas_nrm2_view");
    REFUSED(px_blas_dot_view(i, x, strided, y), PX_ERR_INVALID_ARGUMENT, "px_blas_dot_view");
    if (tk_is_cuda()) { /* host memory that a GPU's kernels do not reach */
        px_view *h = tk_view1("host", px_host(), PX_F64, 4);
        REFUSED(px_blas_axpy(i, 1, h, y), PX_ERR_INVALID_ARGUMENT, "px_blas_axpy");
        TK_ERROR_HAS("do not reach");
        REFUSED(px_blas_dot_view(i, x, y, h), PX_ERR_INVALID_ARGUMENT, "px_blas_dot_view");
        TK_RELEASE(h);
    }
    TK_RELEASE(x, y, shorter, f, ints, two, strided);
}
END_TEST

/* Vectors written that share memory with another argument. */
START_TEST(blas_errors_alias)
{
    px_view *x = tk_view1("x", tk_space(), PX_F64, 10);
    px_view *lo = tk_sub1(x, 0, 6), *hi = tk_sub1(x, 4, 6);
    px_instance *i = tk_inst();
    REFUSED(px_blas_axpy(i, 1, x, x), PX_ERR_INVALID_ARGUMENT, "px_blas_axpy");
    TK_ERROR_HAS("share memory");
    REFUSED(px_blas_axpby(i, 1, x, 2, x), PX_ERR_INVALID_ARGUMENT, "px_blas_axpby");
    REFUSED(px_blas_axpy(i, 1, lo, hi), PX_ERR_INVALID_ARGUMENT, "px_blas_axpy");
    TK_RELEASE(x, lo, hi);
}
END_TEST

/* Result views of the wrong type, empty, not contiguous. */
START_TEST(blas_errors_result)
{
    const int64_t ext[2] = {3, 2};
    px_view *x = tk_view1("x", tk_space(), PX_F64, 3);
    px_view *r32 = tk_view1("r32", tk_space(), PX_F32, 1),
            *ri = tk_view1("ri", tk_space(), PX_I64, 1);
    px_view *none = tk_view1("none", tk_space(), PX_F64, 0);
    px_view *two = tk_view("two", tk_space(), PX_F64, 2, ext);
    const px_slice col[2] = {px_slice_all(), px_slice_range(1, 2)};
    px_view *strided = NULL;
    TK_OK(px_view_subview(&strided, two, col, 2)); /* 3 x 1, rows 2 apart: rank 2, strided */
    px_instance *i = tk_inst();
    REFUSED(px_blas_dot_view(i, x, x, r32), PX_ERR_TYPE_MISMATCH, "px_blas_dot_view");
    REFUSED(px_blas_dot_view(i, x, x, ri), PX_ERR_TYPE_MISMATCH, "px_blas_dot_view");
    REFUSED(px_blas_nrm2_view(i, x, r32), PX_ERR_TYPE_MISMATCH, "px_blas_nrm2_view");
    REFUSED(px_blas_nrm2_view(i, x, none), PX_ERR_INVALID_ARGUMENT, "px_blas_nrm2_view");
    REFUSED(px_blas_dot_view(i, x, x, none), PX_ERR_INVALID_ARGUMENT, "px_blas_dot_view");
    TK_ERROR_HAS("at least one element");
    REFUSED(px_blas_nrm2_view(i, x, strided), PX_ERR_INVALID_ARGUMENT, "px_blas_nrm2_view");
    TK_ERROR_HAS("contiguous");
    TK_RELEASE(x, r32, ri, none, two, strided);
}
END_TEST

/* Scalars past FLT_MAX for f32 views; the same for f64 views is fine. */
START_TEST(blas_errors_scalars)
{
    const int64_t ext[2] = {2, 2};
    px_view *x = tk_view1("x", tk_space(), PX_F32, 2), *y = tk_view1("y", tk_space(), PX_F32, 2);
    px_view *A = tk_view("A", tk_space(), PX_F32, 2, ext);
    px_view *x64 = tk_view1("x64", tk_space(), PX_F64, 2),
            *y64 = tk_view1("y64", tk_space(), PX_F64, 2);
    px_instance *i = tk_inst();
    const double big = 1e39;
    REFUSED(px_blas_axpy(i, big, x, y), PX_ERR_INVALID_ARGUMENT, "px_blas_axpy");
    TK_ERROR_HAS("does not fit f32");
    REFUSED(px_blas_axpby(i, 1, x, -big, y), PX_ERR_INVALID_ARGUMENT, "px_blas_axpby");
    REFUSED(px_blas_scal(i, big, x), PX_ERR_INVALID_ARGUMENT, "px_blas_scal");
    REFUSED(px_blas_gemv(i, PX_BLAS_N, big, A, x, 0, y), PX_ERR_INVALID_ARGUMENT, "px_blas_gemv");
    REFUSED(px_blas_gemv(i, PX_BLAS_N, 1, A, x, big, y), PX_ERR_INVALID_ARGUMENT, "px_blas_gemv");
    TK_OK(px_blas_axpy(i, big, x64, y64));
    TK_OK(px_blas_axpy(i, INFINITY, x, y)); /* not finite: taken as it is */
    TK_OK(px_instance_fence(i));
    TK_RELEASE(x, y, A, x64, y64);
}
END_TEST

/* GEMV's own: the matrix's rank, type and layout, op, the lengths op(A) asks for, and
   vectors that share memory with A or each other. */
START_TEST(blas_errors_gemv)
{
    const int64_t ext[2] = {4, 6}, big_ext[2] = {4, 8};
    px_view *A = tk_view("A", tk_space(), PX_F64, 2, ext);
    px_view *Ai = tk_view("Ai", tk_space(), PX_I64, 2, ext);
    px_view *Af = tk_view("Af", tk_space(), PX_F32, 2, ext);
    px_view *big = tk_view("big", tk_space(), PX_F64, 2, big_ext);
    px_view *cols = tk_sub2(big, 0, 4, 1, 7); /* 4 x 6, rows 8 apart: strided */
    px_view *x6 = tk_view1("x6", tk_space(), PX_F64, 6),
            *y4 = tk_view1("y4", tk_space(), PX_F64, 4);
    px_view *x4 = tk_view1("x4", tk_space(), PX_F64, 4),
            *y6 = tk_view1("y6", tk_space(), PX_F64, 6);
    const px_slice row[2] = {px_slice_index(1), px_slice_all()};
    px_view *row1 = NULL;
    TK_OK(px_view_subview(&row1, A, row, 2)); /* 6 elements of A itself */
    px_view *v = tk_view1("v", tk_space(), PX_F64, 8);
    px_view *in_v = tk_sub1(v, 0, 4), *out_v = tk_sub1(v, 2, 6); /* overlapping */
    px_instance *i = tk_inst();
    const char *g = "px_blas_gemv";

    TK_OK(px_blas_gemv(i, PX_BLAS_N, 1, A, x6, 0, y4));
    TK_OK(px_blas_gemv(i, PX_BLAS_T, 1, A, x4, 0, y6));
    REFUSED(px_blas_gemv(i, PX_BLAS_N, 1, x6, x6, 0, y4), PX_ERR_INVALID_ARGUMENT, g);
    TK_ERROR_HAS("rank 1");
    REFUSED(px_blas_gemv(i, PX_BLAS_N, 1, Ai, x6, 0, y4), PX_ERR_TYPE_MISMATCH, g);
    REFUSED(px_blas_gemv(i, PX_BLAS_N, 1, Af, x6, 0, y4), PX_ERR_TYPE_MISMATCH, g);
    REFUSED(px_blas_gemv(i, PX_BLAS_N, 1, cols, x6, 0, y4), PX_ERR_INVALID_ARGUMENT, g);
    TK_ERROR_HAS("layout stride");
    REFUSED(px_blas_gemv(i, (px_blas_op)7, 1, A, x6, 0, y4), PX_ERR_INVALID_ARGUMENT, g);
    REFUSED(px_blas_gemv(i, PX_BLAS_N, 1, A, x4, 0, y4), PX_ERR_EXTENTS_MISMATCH, g);
    REFUSED(px_blas_gemv(i, PX_BLAS_N, 1, A, x6, 0, y6), PX_ERR_EXTENTS_MISMATCH, g);
    REFUSED(px_blas_gemv(i, PX_BLAS_T, 1, A, x6, 0, y4), PX_ERR_EXTENTS_MISMATCH, g);
    TK_ERROR_HAS("op(A) is 6 x 4");
    REFUSED(px_blas_gemv(i, PX_BLAS_N, 1, A, row1, 0, y4), PX_ERR_INVALID_ARGUMENT, g);
    TK_ERROR_HAS("share memory");
    REFUSED(px_blas_gemv(i, PX_BLAS_T, 1, A, x4, 0, row1), PX_ERR_INVALID_ARGUMENT, g);
    REFUSED(px_blas_gemv(i, PX_BLAS_T, 1, A, in_v, 0, out_v), PX_ERR_INVALID_ARGUMENT, g);
    TK_OK(px_instance_fence(i));
    TK_RELEASE(A, Ai, Af, big, cols, x6, y4, x4, y6, row1, v, in_v, out_v);
}
END_TEST

/* A failure inside portex is named by the call too: a result in host memory cannot be
   waited for while the instance is being captured. */
START_TEST(blas_errors_capturing)
{
    px_view *x = tk_view1("x", tk_space(), PX_F64, 8);
    px_graph *g = NULL;
    double d;
    TK_OK(px_graph_capture_begin(tk_inst(), PX_CAPTURE_THREAD_LOCAL));
    REFUSED(px_blas_dot(tk_inst(), x, x, &d), PX_ERR_CAPTURING, "px_blas_dot");
    REFUSED(px_blas_nrm2(tk_inst(), x, &d), PX_ERR_CAPTURING, "px_blas_nrm2");
    TK_OK(px_graph_capture_end(tk_inst(), &g));
    TK_OK(px_graph_destroy(&g));
    TK_RELEASE(x);
}
END_TEST

int main(void)
{
    TCase *tc = tk_case("blas", "blas");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, blas_axpy, 0, NTYPES);
    tcase_add_loop_test(tc, blas_axpby, 0, NTYPES);
    tcase_add_loop_test(tc, blas_scal, 0, NTYPES);
    tcase_add_loop_test(tc, blas_dot, 0, NTYPES);
    tcase_add_loop_test(tc, blas_nrm2, 0, NTYPES);
    tcase_add_loop_test(tc, blas_nrm2_extremes, 0, NTYPES);
    tcase_add_loop_test(tc, blas_gemv, 0, NTYPES);
    tcase_add_loop_test(tc, blas_gemv_subviews, 0, NTYPES);
    tcase_add_loop_test(tc, blas_halves, 0, NTYPES);
    tcase_add_loop_test(tc, blas_graph, 0, NTYPES);
    TK_ADD(tc, blas_nrm2_special, blas_nrm2_f32_sum_past_flt_max);

    TCase *te = tk_case("blas_errors", "blas_errors");
    TK_ADD(te, blas_errors_null, blas_errors_vectors, blas_errors_alias, blas_errors_result,
           blas_errors_scalars, blas_errors_gemv, blas_errors_capturing);
    return tk_run();
}
