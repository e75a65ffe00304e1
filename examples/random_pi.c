/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* random_pi: pi by Monte Carlo with portex's counter-based random numbers (portex/random.h).
 * Each index draws its points from its own subsequence of one seed, so the count is the
 * same on every backend, bit for bit: the program checks it against the same draws made by
 * a plain C loop, and the estimate against pi. */
#include <math.h>

#include "example.h"
#include "random_pi_kernels.h"

static const double pi_digits = 3.14159265358979323846;

int main(void)
{
    const int64_t n = 1 << 16; /* indices, each drawing 64 points */
    const pi_args args = {.seed = 20261127, .points = 64};

    CHECK(px_init(NULL));
    example_backend be = example_default("random_pi");

    int64_t hits;
    CHECK(px_parallel_reduce(be.inst, "pi", px_range(0, n), PX_KERNEL(pi_hits), &args, &hits));

    int64_t expect = 0;
    for (int64_t i = 0; i < n; ++i) expect += pi_hits_of(&args, i);

    /* A hit is a Bernoulli draw with p = pi / 4: the estimate's standard deviation is
       4 sqrt(p (1 - p) / points). */
    const double points = (double)n * args.points, pi = 4.0 * (double)hits / points;
    const double p = pi_digits / 4, sd = 4.0 * sqrt(p * (1 - p) / points);
    const int ok = hits == expect && fabs(pi - pi_digits) < 6 * sd;
    printf("random_pi: %.0f points, pi ~ %.6f (error %.2g, %.1f standard deviations); the same "
           "draws in plain C: %s\n",
           points, pi, pi - pi_digits, fabs(pi - pi_digits) / sd,
           hits == expect ? "same count" : "DIFFERENT");
    CHECK(px_finalize());
    return ok ? 0 : 1;
}
