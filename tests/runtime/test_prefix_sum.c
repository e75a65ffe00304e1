/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Prefix sums of views (portex/prefix_sum.h) on the backend under test, against a sequential
 * sum made here in each type's adding type (unsigned for integers, so overflow wraps as the
 * header says). Floating-point inputs are small integers, whose sums are exact in any order,
 * so every backend must match bit for bit; one case with fractions checks a tolerance.
 * Every summable type, inclusive and exclusive, sizes around the host's part size, in
 * place, the order on the instance and the blocking form's after other instances, disjoint
 * parts of one allocation, and the refusals. Suite "prefix_sum". */
#include <math.h>
#include <stdlib.h>

#include "common.h"

static const px_dtype sum_types[] = {PX_I32, PX_I64, PX_U32, PX_U64, PX_F32, PX_F64};

/* Element i of type t at p, from the integer v. */
static void put(px_dtype t, void *p, int64_t i, int64_t v)
{
    switch (t) {
    case PX_I32: ((int32_t *)p)[i] = (int32_t)v; break;
    case PX_I64: ((int64_t *)p)[i] = v; break;
    case PX_U32: ((uint32_t *)p)[i] = (uint32_t)v; break;
    case PX_U64: ((uint64_t *)p)[i] = (uint64_t)v; break;
    case PX_F32: ((float *)p)[i] = (float)v; break;
    case PX_F64: ((double *)p)[i] = (double)v; break;
    default: ck_abort_msg("not a summable type");
    }
}

/* n values of type t: integers spread over the type's range (so that sums wrap), floats
   small integers (exact sums). */
static void *make_values(px_dtype t, int64_t n, uint64_t seed)
{
    void *p = malloc((size_t)(n > 0 ? n : 1) * px_dtype_size(t));
    ck_assert_ptr_nonnull(p);
    tk_rng r = tk_rng_seed(seed);
    for (int64_t i = 0; i < n; ++i) {
        const bool fp = t == PX_F32 || t == PX_F64;
        put(t, p, i, fp ? tk_int(&r, -8, 8) : (int64_t)tk_next(&r));
    }
    return p;
}

/* The prefix sums of in (n of type t) into out, sequentially. */
static void reference(px_dtype t, const void *in, void *out, int64_t n, bool exclusive)
{
#define REF(T, A)                         \
    do {                                  \
        const T *x = in;                  \
        T *y = out;                       \
        A s = 0;                          \
        for (int64_t i = 0; i < n; ++i) { \
            const A v = (A)x[i];          \
            if (!exclusive) s += v;       \
            y[i] = (T)s;                  \
            if (exclusive) s += v;        \
        }                                 \
    } while (0)
    switch (t) {
    case PX_I32: REF(int32_t, uint32_t); break;
    case PX_I64: REF(int64_t, uint64_t); break;
    case PX_U32: REF(uint32_t, uint32_t); break;
    case PX_U64: REF(uint64_t, uint64_t); break;
    case PX_F32: REF(float, float); break;
    case PX_F64: REF(double, double); break;
    default: ck_abort_msg("not a summable type");
    }
#undef REF
}

static px_view *upload(const char *label, px_dtype t, int64_t n, const void *data)
{
    px_view *h = tk_view1(label, px_host(), t, n);
    if (n > 0) memcpy(tk_data(h), data, (size_t)n * px_dtype_size(t));
    px_view *v = tk_on_space(h, label);
    TK_RELEASE(h);
    return v;
}

/* v (any space) holds the n elements of type t at want, bit for bit. */
static void expect(px_view *v, px_dtype t, int64_t n, const void *want, const char *what)
{
    px_view *h = tk_to_host(v);
    const size_t es = px_dtype_size(t);
    const unsigned char *got = tk_data(h);
    for (int64_t i = 0; i < n; ++i)
        if (memcmp(got + (size_t)i * es, (const unsigned char *)want + (size_t)i * es, es) != 0)
            ck_abort_msg("%s (%s, n %lld): element %lld differs", what, px_dtype_string(t),
                         (long long)n, (long long)i);
    TK_RELEASE(h);
}

/* Sizes around the host's part size (8192 elements) and the CUDA tile sizes. */
static const int64_t sizes[] = {1, 2, 7, 4095, 8192, 8193, 3 * 8192 + 5, 200003};

START_TEST(prefix_sum_every_type)
{
    const px_dtype t = sum_types[_i];
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; ++k) {
        const int64_t n = sizes[k];
        void *in = make_values(t, n, 100 + k);
        void *want = malloc((size_t)n * px_dtype_size(t));
        ck_assert_ptr_nonnull(want);
        px_view *vin = upload("in", t, n, in);
        px_view *out = tk_view1("out", tk_space(), t, n);
        for (int ex = 0; ex < 2; ++ex) {
            reference(t, in, want, n, ex == 1);
            TK_OK(px_prefix_sum(tk_inst(), out, vin, ex ? PX_PREFIX_SUM_EXCLUSIVE : 0));
            TK_OK(px_instance_fence(tk_inst()));
            expect(out, t, n, want, ex ? "exclusive sum" : "inclusive sum");
        }
        expect(vin, t, n, in, "the input, left as it was");
        TK_RELEASE(vin, out);
        free(in);
        free(want);
    }
}
END_TEST

START_TEST(prefix_sum_in_place)
{
    const int64_t n = 100000;
    for (int ex = 0; ex < 2; ++ex) {
        void *in = make_values(PX_I64, n, 7 + (uint64_t)ex);
        int64_t *want = malloc((size_t)n * sizeof *want);
        ck_assert_ptr_nonnull(want);
        reference(PX_I64, in, want, n, ex == 1);
        px_view *v = upload("v", PX_I64, n, in);
        TK_OK(px_prefix_sum(tk_inst(), v, v, ex ? PX_PREFIX_SUM_EXCLUSIVE : 0));
        TK_OK(px_instance_fence(tk_inst()));
        expect(v, PX_I64, n, want, "in place");
        TK_RELEASE(v);
        free(in);
        free(want);
    }
}
END_TEST

/* Fractions: the order of the additions is the backend's, so the sums agree to a tolerance
   (a few ulps of the running sum's magnitude per addition at most). */
START_TEST(prefix_sum_fractions)
{
    const int64_t n = 300001;
    double *in = malloc((size_t)n * sizeof *in), *want = malloc((size_t)n * sizeof *want);
    ck_assert(in && want);
    tk_rng r = tk_rng_seed(99);
    for (int64_t i = 0; i < n; ++i) in[i] = tk_uniform(&r, 0.0, 1.0);
    reference(PX_F64, in, want, n, false);
    px_view *vin = upload("in", PX_F64, n, in);
    px_view *out = tk_view1("out", tk_space(), PX_F64, n);
    TK_OK(px_prefix_sum(tk_inst(), out, vin, 0));
    TK_OK(px_instance_fence(tk_inst()));
    px_view *h = tk_to_host(out);
    const double *got = tk_data(h);
    for (int64_t i = 0; i < n; ++i)
        ck_assert_msg(fabs(got[i] - want[i]) <= 1e-9 * want[i], "element %lld: %.17g, want %.17g",
                      (long long)i, got[i], want[i]);
    TK_RELEASE(vin, out, h);
    free(in);
    free(want);
}
END_TEST

/* Ordered on its instance after a copy queued there (no fence between), and the blocking
   form after a copy queued on another instance; one allocation's disjoint halves are
   separate views. */
START_TEST(prefix_sum_in_order)
{
    const int64_t n = 100000;
    void *in = make_values(PX_I64, n, 31);
    int64_t *want = malloc((size_t)n * sizeof *want);
    ck_assert_ptr_nonnull(want);
    reference(PX_I64, in, want, n, false);
    px_view *h = tk_view1("host in", px_host(), PX_I64, n);
    memcpy(tk_data(h), in, (size_t)n * sizeof(int64_t));
    px_view *v = tk_view1("in", tk_space(), PX_I64, n); /* zeros until the copy lands */
    px_view *out = tk_view1("out", tk_space(), PX_I64, n);
    TK_OK(px_deep_copy_async(tk_inst(), v, h, NULL));
    TK_OK(px_prefix_sum(tk_inst(), out, v, 0));
    TK_OK(px_instance_fence(tk_inst()));
    expect(out, PX_I64, n, want, "after a copy queued on the instance");

    px_instance *other = NULL;
    const px_instance_desc d = {.exec = tk_exec(), .device = 0, .label = "other"};
    TK_OK(px_instance_create(&other, &d));
    px_view *v2 = tk_view1("in, again", tk_space(), PX_I64, n);
    TK_OK(px_deep_copy_async(other, v2, h, NULL));
    TK_OK(px_prefix_sum(NULL, out, v2, PX_PREFIX_SUM_EXCLUSIVE)); /* after every instance */
    reference(PX_I64, in, want, n, true);
    expect(out, PX_I64, n, want, "the blocking form after a copy on another instance");
    TK_OK(px_instance_destroy(&other));

    px_view *both = tk_view1("both", tk_space(), PX_I64, 2 * n);
    px_view *lo = tk_sub1(both, 0, n), *hi = tk_sub1(both, n, n);
    TK_OK(px_deep_copy(lo, h, NULL));
    TK_OK(px_prefix_sum(tk_inst(), hi, lo, 0)); /* apart: accepted */
    TK_OK(px_instance_fence(tk_inst()));
    reference(PX_I64, in, want, n, false);
    expect(hi, PX_I64, n, want, "from one half of an allocation into the other");
    TK_RELEASE(h, v, out, v2, lo, hi, both);
    free(in);
    free(want);
}
END_TEST

START_TEST(prefix_sum_empty_and_blocking)
{
    px_view *e = tk_view1("empty", tk_space(), PX_I32, 0);
    TK_OK(px_prefix_sum(tk_inst(), e, e, 0));
    TK_OK(px_prefix_sum(NULL, e, e, PX_PREFIX_SUM_EXCLUSIVE));
    const int64_t n = 50000;
    void *in = make_values(PX_U32, n, 5);
    uint32_t *want = malloc((size_t)n * sizeof *want);
    ck_assert_ptr_nonnull(want);
    reference(PX_U32, in, want, n, true);
    px_view *vin = upload("in", PX_U32, n, in);
    px_view *out = tk_view1("out", tk_space(), PX_U32, n);
    TK_OK(px_prefix_sum(NULL, out, vin, PX_PREFIX_SUM_EXCLUSIVE)); /* finished on return */
    expect(out, PX_U32, n, want, "the blocking form");
    TK_RELEASE(e, vin, out);
    free(in);
    free(want);
}
END_TEST

START_TEST(prefix_sum_refusals)
{
    const int64_t n = 16, ext2[2] = {4, 4};
    px_view *a = tk_view1("a", tk_space(), PX_I64, n);
    px_view *b = tk_view1("b", tk_space(), PX_I64, n);
    px_view *f = tk_view1("f", tk_space(), PX_F64, n);
    px_view *shorter = tk_view1("shorter", tk_space(), PX_I64, n - 1);
    px_view *bytes = tk_view1("bytes", tk_space(), PX_U8, n);
    px_view *two = tk_view("two", tk_space(), PX_I64, 2, ext2);
    px_view *lo = tk_sub1(a, 0, n - 1), *hi = tk_sub1(a, 1, n - 1);

    TK_FAIL(px_prefix_sum(tk_inst(), NULL, a, 0), PX_ERR_INVALID_ARGUMENT, "px_prefix_sum");
    TK_FAIL(px_prefix_sum(tk_inst(), a, NULL, 0), PX_ERR_INVALID_ARGUMENT, "px_prefix_sum");
    TK_FAIL(px_prefix_sum(tk_inst(), b, a, 2), PX_ERR_INVALID_ARGUMENT, "px_prefix_sum");
    TK_ERROR_HAS("flags");
    TK_FAIL(px_prefix_sum(tk_inst(), two, two, 0), PX_ERR_INVALID_ARGUMENT, "px_prefix_sum");
    TK_ERROR_HAS("rank-1");
    TK_FAIL(px_prefix_sum(tk_inst(), bytes, bytes, 0), PX_ERR_INVALID_ARGUMENT, "px_prefix_sum");
    TK_ERROR_HAS("i32, i64");
    TK_FAIL(px_prefix_sum(tk_inst(), f, a, 0), PX_ERR_INVALID_ARGUMENT, "px_prefix_sum");
    TK_ERROR_HAS("must match");
    TK_FAIL(px_prefix_sum(tk_inst(), shorter, a, 0), PX_ERR_INVALID_ARGUMENT, "px_prefix_sum");
    TK_ERROR_HAS("elements");
    TK_FAIL(px_prefix_sum(tk_inst(), hi, lo, 0), PX_ERR_INVALID_ARGUMENT, "px_prefix_sum");
    TK_ERROR_HAS("overlap");
    if (tk_is_cuda()) {
        px_view *h = tk_view1("host", px_host(), PX_I64, n);
        TK_FAIL(px_prefix_sum(tk_inst(), h, a, 0), PX_ERR_INVALID_ARGUMENT, "px_prefix_sum");
        TK_ERROR_HAS("share a space");
        TK_FAIL(px_prefix_sum(tk_inst(), h, h, 0), PX_ERR_INVALID_ARGUMENT, "px_prefix_sum");
        TK_ERROR_HAS("cannot reach");
        TK_RELEASE(h);
    }
    px_graph *g = NULL;
    TK_OK(px_graph_capture_begin(tk_inst(), PX_CAPTURE_THREAD_LOCAL));
    TK_FAIL(px_prefix_sum(tk_inst(), b, a, 0), PX_ERR_CAPTURING, "px_prefix_sum");
    TK_ERROR_HAS("a prefix sum is not allowed while instance");
    TK_OK(px_graph_capture_end(tk_inst(), &g));
    TK_OK(px_graph_destroy(&g));
    TK_RELEASE(a, b, f, shorter, bytes, two, lo, hi);
}
END_TEST

int main(void)
{
    TCase *tc = tk_case("prefix_sum", "prefix_sum");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, prefix_sum_every_type, 0,
                        (int)(sizeof sum_types / sizeof sum_types[0]));
    TK_ADD(tc, prefix_sum_in_place, prefix_sum_fractions, prefix_sum_in_order,
           prefix_sum_empty_and_blocking, prefix_sum_refusals);
    return tk_run();
}
