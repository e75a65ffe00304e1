/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: the host backends' prefix sum (portex/prefix_sum.h), on the calling thread or
 * cut into parts among a team's threads (job.h); prefix_sum.c says how. */
#ifndef PX_BACKENDS_HOST_PREFIX_SUM_H
#define PX_BACKENDS_HOST_PREFIX_SUM_H

#include "backends/backend.h"
#include "backends/host/job.h"

/* Runs op on r's team (r NULL or of one thread: on the calling thread); finished when it
   returns. Allocates nothing. */
px_status px__host_prefix_sum(const px__host_runner *r, const px__prefix_sum_op *op);

#endif /* PX_BACKENDS_HOST_PREFIX_SUM_H */
