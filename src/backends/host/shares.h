/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: a team of host threads shared out among partitions (the OpenMP and threads
 * backends). */
#ifndef PX_BACKENDS_HOST_SHARES_H
#define PX_BACKENDS_HOST_SHARES_H

/* share[i], the threads of partition i of n out of `total`: proportional to weights[i]
   (normalised to sum 1), at least one each, the largest remainders rounded up. They sum to
   total while total >= n; with more partitions than threads each has one. */
void px__host_shares(int total, int n, const double *weights, int *share);

#endif /* PX_BACKENDS_HOST_SHARES_H */
