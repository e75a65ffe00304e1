/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernels of test_limits: index ranges that end next to INT64_MAX or start at INT64_MIN.
 * Every kernel maps its index back to an offset in the range with unsigned arithmetic (no
 * overflow, whatever index it is given) and records what it saw. Valid C11 and CUDA C++. */
#ifndef PX_TESTS_K_LIMITS_H
#define PX_TESTS_K_LIMITS_H

#include "portex/kernel.h"
#include "portex/view.h"

typedef struct lim_args {
    int64_t begin[6];    /* the policy's begin (0 for the dimensions it does not have) */
    int64_t n[6];        /* its extents (1 for the dimensions it does not have) */
    px_span_i32_1d hits; /* hits(offset) += 1, offset row-major: ((o0 * n1 + o1) * n2 ...) */
    px_span_i32_1d bad;  /* bad(0) = 1: an index outside the range was visited */
    px_span_i64_1d out;  /* scans: out(offset) = the exclusive count before it */
} lim_args;

PX_DECLARE_KERNEL(lim_for1);
PX_DECLARE_KERNEL(lim_for2);
PX_DECLARE_KERNEL(lim_for3);
PX_DECLARE_KERNEL(lim_for4);
PX_DECLARE_KERNEL(lim_for5);
PX_DECLARE_KERNEL(lim_for6);

/* What a reduction saw: a sum of a hash of every offset visited (mod 2^64: a missed or a
   repeated offset changes it), the count, and how many indices were outside the range. */
typedef struct lim_seen {
    uint64_t hash_sum;
    int64_t count;
    int64_t bad;
} lim_seen;
PX_DECLARE_KERNEL(lim_red1);
PX_DECLARE_KERNEL(lim_red2);
PX_DECLARE_KERNEL(lim_red3);
PX_DECLARE_KERNEL(lim_red4);
PX_DECLARE_KERNEL(lim_red5);
PX_DECLARE_KERNEL(lim_red6);

PX_DECLARE_KERNEL(lim_scan); /* exclusive count: out(o) = o; total = n */

/* The hash the reductions sum, for the test's reference. */
PX_FUNCTION uint64_t lim_hash(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

#endif /* PX_TESTS_K_LIMITS_H */
