/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: copies and fills the CPU does itself, on host-accessible memory (HOST and
 * HOST_PINNED): the HOST_* paths every backend runs, and the host half of staged copies. */
#ifndef PX_BACKENDS_HOST_COPY_H
#define PX_BACKENDS_HOST_COPY_H

#include "backends/backend.h"

/* HOST_MEMCPY (op->flat) or HOST_STRIDED; the two sides do not overlap (the planner
   routes overlapping copies through a temporary). */
void px__host_copy(const px__copy_op *op);
/* HOST_FILL: every element of op->dst becomes *op->value. */
void px__host_fill(const px__copy_op *op);

/* The dimensions of a side ordered by increasing stride (the innermost first; ties keep
   their order). */
void px__dims_by_stride(int rank, const int64_t *stride, int order[PX_MAX_RANK]);

#endif /* PX_BACKENDS_HOST_COPY_H */
