/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* bench_random: filling an array with uniform doubles on the OpenMP backend, in one process:
 *
 *   portex          PX_FOR over n / 2 indices, two doubles each from portex's Philox4x32-10
 *                   (px_philox_init at block i, px_rand_uniform_f64 twice)
 *   plain Philox    the same draws in a plain `omp parallel for` (what the dispatch costs)
 *   plain xoshiro   a plain `omp parallel for` over per-thread xoshiro256+ streams (one
 *                   jump of 2^128 apart each), the fast host generator a program would write
 *                   itself: the price of a counter-based generator that gives every backend
 *                   the same numbers, against one that gives none of that
 *
 *   bench_random [--quick] [--reps N]
 *
 * Times are per double, medians of N rounds (default 11; 3 with --quick) in which each
 * variant runs once, the first rotating. Exit status: 0; 1 when portex's values differ from
 * the plain Philox loop's; 2 on an error. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <omp.h>
#include <stdint.h>

#include "bench_random_kernels.h"
#include "bench_util.h"

typedef struct ctx {
    px_instance *inst;
    int64_t n; /* doubles */
    double *x, *y;
    px_view *vx;
    uint64_t seed;
    int threads;
} ctx;

BENCH_NOINLINE static void plain_philox(uint64_t seed, int64_t pairs, double *restrict y)
{
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < pairs; ++i) br_fill_pair(seed, i, &y[2 * i], &y[2 * i + 1]);
}

/* xoshiro256+ (Blackman and Vigna): its top 53 bits make a double in [0, 1). */
typedef struct xo {
    uint64_t s[4];
} xo;

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t xo_next(xo *r)
{
    const uint64_t out = r->s[0] + r->s[3], t = r->s[1] << 17;
    r->s[2] ^= r->s[0];
    r->s[3] ^= r->s[1];
    r->s[1] ^= r->s[2];
    r->s[0] ^= r->s[3];
    r->s[2] ^= t;
    r->s[3] = rotl(r->s[3], 45);
    return out;
}

/* Advances r by 2^128 draws (the generator's published jump polynomial). */
static void xo_jump(xo *r)
{
    static const uint64_t jump[4] = {0x180ec6d33cfd0abaull, 0xd5a61266f0c9392cull,
                                     0xa9582618e03fc9aaull, 0x39abdc4529b1661cull};
    uint64_t s[4] = {0, 0, 0, 0};
    for (int w = 0; w < 4; ++w)
        for (int b = 0; b < 64; ++b) {
            if (jump[w] & (uint64_t)1 << b)
                for (int k = 0; k < 4; ++k) s[k] ^= r->s[k];
            (void)xo_next(r);
        }
    for (int k = 0; k < 4; ++k) r->s[k] = s[k];
}

BENCH_NOINLINE static void plain_xoshiro(uint64_t seed, int64_t n, double *restrict y)
{
#pragma omp parallel
    {
        const int t = omp_get_thread_num(), nt = omp_get_num_threads();
        xo r = {{seed, 0x9e3779b97f4a7c15ull, 0xbf58476d1ce4e5b9ull, 0x94d049bb133111ebull}};
        for (int k = 0; k <= t; ++k) xo_jump(&r);
        const int64_t lo = n * t / nt, hi = n * (t + 1) / nt;
        for (int64_t i = lo; i < hi; ++i) y[i] = (double)(xo_next(&r) >> 11) * 0x1p-53;
    }
}

static double sample(int v, void *p)
{
    ctx *c = p;
    const double t0 = now_ms();
    if (v == 0) {
        br_fill_args a = {.seed = c->seed};
        CHECK(px_view_get_span(c->vx, &a.x));
        CHECK(px_parallel_for(c->inst, "fill", px_range(0, c->n / 2), PX_KERNEL(br_fill), &a));
        CHECK(px_instance_fence(c->inst));
    } else if (v == 1) {
        plain_philox(c->seed, c->n / 2, c->y);
    } else {
        plain_xoshiro(c->seed, c->n, c->y);
    }
    return (now_ms() - t0) * 1e6 / (double)c->n; /* ns per double */
}

int main(int argc, char **argv)
{
    int reps = 11;
    const bool quick = bench_options(argc, argv, &reps);
    if (quick) reps = 3;
    CHECK(px_init(NULL));
    if (px_exec_space_check(PX_EXEC_OPENMP) != PX_OK) {
        printf("bench_random: no OpenMP backend (%s): skipped\n", px_last_error());
        CHECK(px_finalize());
        return 77;
    }
    ctx c = {.n = (int64_t)1 << (quick ? 22 : 26), .seed = 20261127};
    CHECK(px_instance_default(PX_EXEC_OPENMP, 0, &c.inst));
    c.threads = omp_get_max_threads();
    c.x = malloc((size_t)c.n * sizeof *c.x);
    c.y = malloc((size_t)c.n * sizeof *c.y);
    if (!c.x || !c.y) return 2;
    c.vx = bench_host_wrap("x", PX_F64, 1, c.n, 0, c.x);

    /* portex's values are the plain loop's, bit for bit. */
    (void)sample(0, &c);
    (void)sample(1, &c);
    if (memcmp(c.x, c.y, (size_t)c.n * sizeof *c.x) != 0) {
        printf("bench_random: portex's doubles differ from the plain Philox loop's\n");
        return 1;
    }
    double med[3];
    if (bench_rotate(3, 1, reps, sample, &c, med) != 0) return 2;
    printf("bench_random: %lld uniform doubles, OpenMP, %d threads; %s\n", (long long)c.n,
           c.threads, BENCH_BUILD);
    printf("| variant                         | ns per double | portex / it |\n");
    printf("|---------------------------------|--------------:|------------:|\n");
    printf("| portex PX_FOR, Philox4x32-10    | %13.3f |             |\n", med[0]);
    printf("| plain OpenMP, the same Philox   | %13.3f | %11.3f |\n", med[1], med[0] / med[1]);
    printf("| plain OpenMP, xoshiro256+       | %13.3f | %11.3f |\n", med[2], med[0] / med[2]);
    CHECK(px_view_release(&c.vx));
    free(c.x);
    free(c.y);
    CHECK(px_finalize());
    return 0;
}
