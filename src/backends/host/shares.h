/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: a team of host threads shared out among partitions (the OpenMP and threads
 * backends). */
#ifndef PX_BACKENDS_HOST_SHARES_H
#define PX_BACKENDS_HOST_SHARES_H

#include <stdbool.h>

#include "backends/backend.h"

/* share[i], the threads of partition i of n out of `total`: proportional to weights[i]
   (normalised to sum 1), at least one each, the largest remainders rounded up. They sum to
   total while total >= n; with more partitions than threads each has one. */
void px__host_shares(int total, int n, const double *weights, int *share);

/* A queue of `nthreads` threads whose places start `offset` places after its parent's
   first (parent: the parent queue). */
typedef px_status (*px__host_part_new)(px__queue *parent, int nthreads, int offset,
                                       px__queue **out);

/* The partition hook of such a backend over a parent team of `total` threads: child i is
   made by part_new with share i of the threads (px__host_shares), on the places after the
   shares before it (wrapping round the parent's). On failure every child made is gone
   again (queue_destroy, the backend's hook) and children[] is NULL, as it was on entry. */
px_status px__host_partition(px__queue *parent, int total, const px__partition_request *req,
                             px__host_part_new part_new,
                             px_status (*queue_destroy)(px__queue *q, bool *released),
                             px__queue **children);

#endif /* PX_BACKENDS_HOST_SHARES_H */
