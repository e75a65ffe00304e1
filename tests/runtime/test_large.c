/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* 64-bit indices in parallel_for, reduce and scan: suite "large" runs 2^20 + 7 elements on
 * every backend; suite "large_2_31" (CUDA) runs 2^31 + 4099 where the GPU has the memory
 * (2 GiB of bytes and 16 GiB of prefix sums), and skips where it has not. */
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

/* A view in the backend's space, or NULL (and the error cleared) where the memory is not
   there. */
static px_view *try_view(const char *label, px_dtype dt, int64_t n)
{
    px_view *v = NULL;
    px_view_desc d = {.label = label,
                      .space = tk_space(),
                      .dtype = dt,
                      .rank = 1,
                      .extent = {n},
                      .flags = PX_VIEW_NO_INIT};
    px_status st = px_view_create(&v, &d);
    if (st == PX_ERR_OUT_OF_MEMORY) {
        px_clear_error();
        return NULL;
    }
    TK_OK(st);
    return v;
}

/* Fill, sum, scan and check over n elements of x (u8) and out (i64). */
static void run_large(px_view *x, px_view *out, int64_t n)
{
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
    TK_OK(
        px_parallel_reduce(tk_inst(), NULL, px_range(0, n - 1), PX_KERNEL(large_check), &a, &bad));
    ck_assert_int_eq(bad, 0);

    /* The last prefix, read back: the scan's end (past 2^31 in large_2_31). */
    px_view *tail = tk_sub1(out, n - 1, 1);
    px_view *host = tk_to_host(tail);
    const int64_t *t = tk_data(host);
    ck_assert_int_eq(t[0] + ((7 * (n - 1) + 3) & 0xff), total);
    printf("%lld elements, sum %llu\n", (long long)n, (unsigned long long)sum);
    TK_RELEASE(host, tail);
}

/* 2^20 + 7 elements: the same body on every backend. */
START_TEST(large_1m)
{
    const int64_t n = ((int64_t)1 << 20) + 7;
    px_view *x = tk_view1("x", tk_space(), PX_U8, n), *out = tk_view1("out", tk_space(), PX_I64, n);
    run_large(x, out, n);
    TK_RELEASE(x, out);
}
END_TEST

/* 2^31 + 4099 elements on a GPU with the memory for them. */
START_TEST(past_2_31)
{
    const int64_t n = ((int64_t)1 << 31) + 4099;
    px_view *x = try_view("x", PX_U8, n), *out = x ? try_view("out", PX_I64, n) : NULL;
    if (!out) {
        TK_RELEASE(x);
        TK_SKIP("no room for %lld elements of 1 and 8 bytes on the device", (long long)n);
    }
    run_large(x, out, n);
    TK_RELEASE(x, out);
}
END_TEST

int main(void)
{
    TK_ADD(tk_case("large", "large"), large_1m);
    TCase *tc = tk_case("large_2_31", "large_2_31");
    tcase_set_timeout(tc, 120);
    TK_ADD(tc, past_2_31);
    tk_require("large_2_31", tk_need_cuda);
    return tk_run();
}
