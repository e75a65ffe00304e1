/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Index ranges next to INT64_MAX and INT64_MIN: parallel_for, reduce and scan over 1-D to
 * 6-D ranges (scan: 1-D) whose indices end at INT64_MAX or start at INT64_MIN, with and without tiles
 * (tiles larger than the range too), in both iteration orders; every index must be
 * visited once and no other. Policies whose extent (end - begin) does not fit in int64_t
 * are refused. Suite "limits". */
#include "common.h"
#include "k_limits.h"

enum { AT_MAX, AT_MIN };

/* Where each dimension's range lies, for ranks 1 to 6. */
static const int placements[][6] = {{AT_MAX, AT_MAX, AT_MAX, AT_MAX, AT_MAX, AT_MAX},
                                    {AT_MIN, AT_MIN, AT_MIN, AT_MIN, AT_MIN, AT_MIN},
                                    {AT_MIN, AT_MAX, AT_MIN, AT_MAX, AT_MIN, AT_MAX},
                                    {AT_MAX, AT_MIN, AT_MAX, AT_MIN, AT_MAX, AT_MIN}};
#define NPLACE ((int)(sizeof placements / sizeof placements[0]))
static const int64_t tiles[] = {0, 1, 4, INT64_MAX};
#define NTILES ((int)(sizeof tiles / sizeof tiles[0]))

typedef struct lim_case {
    int rank;
    px_policy policy;
    lim_args args;
    int64_t total; /* elements in the range */
    px_view *hits, *bad, *out;
} lim_case;

/* Case _i: rank, placement, tile, iteration order. Extents 2 x 3 x 5 x 2 x 2 x 3 (a tile
   of 4 is larger than the first dimension), 7 for 1-D. */
static lim_case make_case(int i)
{
    lim_case c;
    memset(&c, 0, sizeof c);
    const int it = i % 2, tile = (i / 2) % NTILES, place = (i / 2 / NTILES) % NPLACE;
    c.rank = 1 + i / (2 * NTILES * NPLACE);
    const int64_t ext[6] = {c.rank == 1 ? 7 : 2, 3, 5, 2, 2, 3};
    int64_t b[6] = {0, 0, 0, 0, 0, 0}, e[6] = {1, 1, 1, 1, 1, 1};
    c.total = 1;
    for (int d = 0; d < 6; ++d) {
        c.args.n[d] = 1;
        if (d >= c.rank) continue;
        b[d] = placements[place][d] == AT_MAX ? INT64_MAX - ext[d] : INT64_MIN;
        e[d] = b[d] + ext[d];
        c.args.begin[d] = b[d];
        c.args.n[d] = ext[d];
        c.total *= ext[d];
    }
    c.policy = px_policy_iterate(px_mdrange(c.rank, b, e), it ? PX_ITERATE_LEFT : PX_ITERATE_RIGHT);
    for (int d = 0; d < c.rank; ++d) c.policy = px_policy_tile_dim(c.policy, d, tiles[tile]);
    c.hits = tk_view1("hits", tk_space(), PX_I32, c.total);
    c.bad = tk_view1("bad", tk_space(), PX_I32, 1);
    c.out = tk_view1("out", tk_space(), PX_I64, c.total);
    TK_OK(px_view_get_span(c.hits, &c.args.hits));
    TK_OK(px_view_get_span(c.bad, &c.args.bad));
    TK_OK(px_view_get_span(c.out, &c.args.out));
    return c;
}

static void free_case(lim_case *c)
{
    px_view_release(&c->hits);
    px_view_release(&c->bad);
    px_view_release(&c->out);
}

static int32_t bad_flag(lim_case *c)
{
    px_view *h = tk_to_host(c->bad);
    const int32_t v = ((const int32_t *)tk_data(h))[0];
    px_view_release(&h);
    return v;
}

START_TEST(limits_for)
{
    lim_case c = make_case(_i);
    const px_kernel *k[6] = {PX_KERNEL(lim_for1), PX_KERNEL(lim_for2), PX_KERNEL(lim_for3),
                             PX_KERNEL(lim_for4), PX_KERNEL(lim_for5), PX_KERNEL(lim_for6)};
    TK_OK(px_parallel_for(tk_inst(), NULL, c.policy, k[c.rank - 1], &c.args));
    TK_OK(px_instance_fence(tk_inst()));
    ck_assert_int_eq(bad_flag(&c), 0);
    px_view *h = tk_to_host(c.hits);
    const int32_t *hits = (const int32_t *)tk_data(h);
    for (int64_t o = 0; o < c.total; ++o)
        TK_ASSERT(hits[o] == 1, "case %d (rank %d): offset %lld visited %d times", _i, c.rank,
                  (long long)o, hits[o]);
    px_view_release(&h);
    free_case(&c);
}
END_TEST

START_TEST(limits_reduce)
{
    lim_case c = make_case(_i);
    const px_kernel *k[6] = {PX_KERNEL(lim_red1), PX_KERNEL(lim_red2), PX_KERNEL(lim_red3),
                             PX_KERNEL(lim_red4), PX_KERNEL(lim_red5), PX_KERNEL(lim_red6)};
    lim_seen seen;
    memset(&seen, 0x5a, sizeof seen);
    TK_OK(px_parallel_reduce(tk_inst(), NULL, c.policy, k[c.rank - 1], &c.args, &seen));
    uint64_t want = 0;
    for (int64_t o = 0; o < c.total; ++o) want += lim_hash((uint64_t)o);
    TK_ASSERT(seen.bad == 0 && seen.count == c.total && seen.hash_sum == want,
              "case %d (rank %d): %lld indices outside the range, %lld inside (want %lld), "
              "hash sum %llu (want %llu)",
              _i, c.rank, (long long)seen.bad, (long long)seen.count, (long long)c.total,
              (unsigned long long)seen.hash_sum, (unsigned long long)want);
    free_case(&c);
}
END_TEST

START_TEST(limits_scan)
{
    lim_case c = make_case(_i); /* 1-D cases only */
    int64_t total = -1;
    TK_OK(px_parallel_scan(tk_inst(), NULL, c.policy, PX_KERNEL(lim_scan), &c.args, &total));
    ck_assert_int_eq(total, c.total);
    ck_assert_int_eq(bad_flag(&c), 0);
    px_view *h = tk_to_host(c.out);
    const int64_t *out = (const int64_t *)tk_data(h);
    for (int64_t o = 0; o < c.total; ++o)
        TK_ASSERT(out[o] == o, "case %d: out[%lld] = %lld", _i, (long long)o, (long long)out[o]);
    px_view_release(&h);
    free_case(&c);
}
END_TEST

/* An extent past INT64_MAX, in any dimension, is refused by every dispatch before it runs. */
START_TEST(limits_extent_overflow)
{
    int64_t one = 1;
    px_view *bad = tk_view1("bad", tk_space(), PX_I32, one);
    lim_args a;
    memset(&a, 0, sizeof a);
    TK_OK(px_view_get_span(bad, &a.bad));
    const int64_t lo[2] = {INT64_MIN / 2, INT64_MIN}, hi[2] = {INT64_MAX, 0};
    for (int r = 0; r < 2; ++r) {
        const px_policy ps[3] = {px_range(lo[r], hi[r]), px_mdrange2(0, 1, lo[r], hi[r]),
                                 px_mdrange3(0, 1, 0, 1, lo[r], hi[r])};
        const px_kernel *fk[3] = {PX_KERNEL(lim_for1), PX_KERNEL(lim_for2), PX_KERNEL(lim_for3)};
        const px_kernel *rk[3] = {PX_KERNEL(lim_red1), PX_KERNEL(lim_red2), PX_KERNEL(lim_red3)};
        for (int d = 0; d < 3; ++d) {
            lim_seen seen;
            TK_FAIL(px_parallel_for(tk_inst(), NULL, ps[d], fk[d], &a), PX_ERR_INVALID_ARGUMENT,
                    "px_parallel_for");
            TK_ERROR_HAS("extent");
            TK_FAIL(px_parallel_reduce(tk_inst(), NULL, ps[d], rk[d], &a, &seen),
                    PX_ERR_INVALID_ARGUMENT, "px_parallel_reduce");
            TK_ERROR_HAS(d == 0 ? "dimension 0" : d == 1 ? "dimension 1" : "dimension 2");
        }
        int64_t total;
        TK_FAIL(px_parallel_scan(tk_inst(), NULL, ps[0], PX_KERNEL(lim_scan), &a, &total),
                PX_ERR_INVALID_ARGUMENT, "px_parallel_scan");
    }
    /* Empty ranges at either end run (nothing). */
    TK_OK(
        px_parallel_for(tk_inst(), NULL, px_range(INT64_MAX, INT64_MAX), PX_KERNEL(lim_for1), &a));
    TK_OK(
        px_parallel_for(tk_inst(), NULL, px_range(INT64_MIN, INT64_MIN), PX_KERNEL(lim_for1), &a));
    TK_OK(px_instance_fence(tk_inst()));
    px_view_release(&bad);
}
END_TEST

static Suite *limits_suite(void)
{
    Suite *s = suite_create("limits");
    TCase *tc = tk_tcase("limits");
    const int per_rank = 2 * NTILES * NPLACE;
    tcase_add_loop_test(tc, limits_for, 0, 6 * per_rank);
    tcase_add_loop_test(tc, limits_reduce, 0, 6 * per_rank);
    tcase_add_loop_test(tc, limits_scan, 0, per_rank);
    tcase_add_test(tc, limits_extent_overflow);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    const tk_suite_fn suites[] = {limits_suite};
    return tk_main(suites, 1);
}
