/* Index spaces past 2^31 elements: 64-bit indices in parallel_for, reduce and scan. On a
 * GPU with the memory for it (2 GiB of bytes and 16 GiB of prefix sums) the range is
 * 2^31 + 4099 elements; elsewhere, and where the memory is not there, a range of 2^20 + 7
 * runs the same body. */
#include <stdio.h>

#include "common.h"
#include "k_large.h"

/* sum over i < n of (7 i + 3) mod 256: 7 is odd, so every 256 consecutive i take every
   residue once. */
static uint64_t expected_sum(int64_t n)
{
    uint64_t s = (uint64_t)(n / 256) * (255u * 256u / 2u);
    for (int64_t i = n / 256 * 256; i < n; ++i) s += (uint64_t)((7 * i + 3) & 0xff);
    return s;
}

static px_view *try_view(const char *label, px_dtype dt, int64_t n)
{
    px_view *v = NULL;
    px_view_desc d = {.label = label, .space = tk_space(), .dtype = dt, .rank = 1,
                      .extent = {n}, .flags = PX_VIEW_NO_INIT};
    px_status st = px_view_create(&v, &d);
    if (st == PX_ERR_OUT_OF_MEMORY) return NULL;
    TK_OK(st);
    return v;
}

START_TEST(past_2_31)
{
    int64_t n = tk_is_cuda() ? ((int64_t)1 << 31) + 4099 : ((int64_t)1 << 20) + 7;
    px_view *x = try_view("x", PX_U8, n), *out = x ? try_view("out", PX_I64, n) : NULL;
    if (!out) {
        if (x) px_view_release(&x);
        printf("note: no room for %lld elements; running 2^20 + 7\n", (long long)n);
        n = ((int64_t)1 << 20) + 7;
        x = try_view("x", PX_U8, n);
        out = try_view("out", PX_I64, n);
        ck_assert(x && out);
    }
    large_args a;
    TK_OK(px_view_span_u8(x, &a.x));
    TK_OK(px_view_span_i64(out, &a.out));
    TK_OK(px_parallel_for(tk_inst(), NULL, px_range(0, n), PX_KERNEL(large_fill), &a));

    uint64_t sum = 0;
    TK_OK(px_parallel_reduce(tk_inst(), NULL, px_range(0, n), PX_KERNEL(large_sum), &a, &sum));
    ck_assert_uint_eq(sum, expected_sum(n));

    int64_t total = -1;
    TK_OK(px_parallel_scan(tk_inst(), NULL, px_range(0, n), PX_KERNEL(large_scan), &a, &total));
    ck_assert_int_eq(total, (int64_t)expected_sum(n));

    int64_t bad = -1;
    TK_OK(px_parallel_reduce(tk_inst(), NULL, px_range(0, n - 1), PX_KERNEL(large_check), &a, &bad));
    ck_assert_int_eq(bad, 0);

    /* The last prefix, read back: the scan's end, past 2^31 on the GPU. */
    px_slice last = px_slice_range(n - 1, n);
    px_view *tail = NULL, *host = NULL;
    TK_OK(px_view_subview(&tail, out, &last, 1));
    TK_OK(px_view_create_mirror(&host, px_host(), tail));
    TK_OK(px_deep_copy(host, tail, NULL));
    const int64_t *t = tk_data(host);
    ck_assert_int_eq(t[0] + ((7 * (n - 1) + 3) & 0xff), total);
    printf("past_2_31: %lld elements, sum %llu\n", (long long)n, (unsigned long long)sum);

    px_view_release(&host);
    px_view_release(&tail);
    px_view_release(&out);
    px_view_release(&x);
}
END_TEST

static Suite *large_suite(void)
{
    Suite *s = suite_create("large");
    TCase *tc = tk_tcase("large");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, past_2_31);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    const tk_suite_fn suites[] = {large_suite};
    return tk_main(suites, 1);
}
