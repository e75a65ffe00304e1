/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernels of test_random (k_random.c): each index i draws from its own subsequence of one
 * seed, at an offset, and writes what it drew, so that the test can recompute every value
 * on the host with the same functions and compare bit for bit. Valid C11 and CUDA C++. */
#ifndef PX_TESTS_K_RANDOM_H
#define PX_TESTS_K_RANDOM_H

#include "portex/kernel.h"
#include "portex/random.h"
#include "portex/view.h"

/* What index i writes: RD_U32 raw outputs, then one of each conversion. */
enum { RD_U32 = 9 };

typedef struct rd_args {
    uint64_t seed, offset;
    uint32_t range32;  /* px_rand_range_u32's n */
    uint64_t range64;  /* px_rand_range_u64's n */
    int64_t lo, hi;    /* px_rand_range_i64's bounds */
    px_span_u32 raw;   /* n x RD_U32 */
    px_span_u64 u64;   /* n */
    px_span_f32 f32;   /* n */
    px_span_f64 f64;   /* n */
    px_span_u32 r32;   /* n */
    px_span_u64 r64;   /* n */
    px_span_i64 ri64;  /* n */
    px_span_f64 nrm;   /* n x 3: px_rand_normal2_f64's two, then px_rand_normal_f64's */
    px_span_f32 nrm32; /* n */
} rd_args;
PX_DECLARE_KERNEL(rd_draw);

/* What rd_draw writes at index i, computed where it is called (the test calls it on the
   host; the kernel on its backend). */
typedef struct rd_draws {
    uint32_t raw[RD_U32];
    uint64_t u64;
    float f32;
    double f64;
    uint32_t r32;
    uint64_t r64;
    int64_t ri64;
    double nrm[3];
    float nrm32;
} rd_draws;

PX_FUNCTION rd_draws rd_draws_of(const rd_args *a, int64_t i)
{
    rd_draws d;
    px_philox g = px_philox_init(a->seed, (uint64_t)i, a->offset);
    for (int k = 0; k < RD_U32; ++k) d.raw[k] = px_rand_u32(&g);
    d.u64 = px_rand_u64(&g);
    d.f32 = px_rand_uniform_f32(&g);
    d.f64 = px_rand_uniform_f64(&g);
    d.r32 = px_rand_range_u32(&g, a->range32);
    d.r64 = px_rand_range_u64(&g, a->range64);
    d.ri64 = px_rand_range_i64(&g, a->lo, a->hi);
    px_rand_normal2_f64(&g, d.nrm);
    d.nrm[2] = px_rand_normal_f64(&g);
    d.nrm32 = px_rand_normal_f32(&g);
    return d;
}

/* Counts of px_rand_range_u32(g, RD_BINS) over RD_DRAWS draws of subsequence i. */
enum { RD_BINS = 6, RD_DRAWS = 64 };
typedef struct rd_hist_args {
    uint64_t seed;
    px_span_i64 counts; /* n x RD_BINS */
} rd_hist_args;
PX_DECLARE_KERNEL(rd_hist);

#endif
