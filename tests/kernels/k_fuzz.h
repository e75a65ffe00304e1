/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernels of test_fuzz: each visits its index space and folds a hash of every index it is
 * given, so that an index visited twice, or missed, changes the result. Always compiled
 * as C (the fuzz test runs on the serial backend). */
#ifndef PX_TESTS_K_FUZZ_H
#define PX_TESTS_K_FUZZ_H

#include "portex/kernel.h"

/* The for-kernels count their calls and sum the hashes through these pointers; the scan
   counts its final calls and sums the running values it is shown there. */
typedef struct fz_args {
    uint64_t *calls;
    uint64_t *sum;
} fz_args;

PX_FUNCTION uint64_t fz_mix(uint64_t x) /* splitmix64's finaliser */
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* The hash of index (i, j, k); unused dimensions are 0. */
PX_FUNCTION uint64_t fz_hash(int64_t i, int64_t j, int64_t k)
{
    return fz_mix((uint64_t)i + fz_mix((uint64_t)j + fz_mix((uint64_t)k)));
}

PX_DECLARE_KERNEL(fz_for1);
PX_DECLARE_KERNEL(fz_for2);
PX_DECLARE_KERNEL(fz_for3);
PX_DECLARE_KERNEL(fz_reduce1); /* uint64_t sum of the hashes */
PX_DECLARE_KERNEL(fz_reduce2);
PX_DECLARE_KERNEL(fz_reduce3);
PX_DECLARE_KERNEL(fz_scan); /* exclusive running sums of the hashes; total: their sum */

#endif /* PX_TESTS_K_FUZZ_H */
