/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: the host backends' sort (portex/sort.h), a stable radix sort on the calling
 * thread or cut into parts among a team's threads (job.h); sort.c says how. */
#ifndef PX_BACKENDS_HOST_SORT_H
#define PX_BACKENDS_HOST_SORT_H

#include "backends/backend.h"
#include "backends/host/job.h"

/* Runs op on r's team (r NULL or of one thread: on the calling thread); finished when it
   returns. Segment offsets out of order or out of [0, n]: PX_ERR_INVALID_ARGUMENT, nothing
   sorted. No room for the temporary buffers: PX_ERR_OUT_OF_MEMORY, nothing sorted. */
px_status px__host_sort(const px__host_runner *r, const px__sort_op *op);

#endif /* PX_BACKENDS_HOST_SORT_H */
