/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: host copies and fills split among a team of host threads (split.c says
 * how), for the backends that have teams: OpenMP and threads. */
#ifndef PX_BACKENDS_HOST_SPLIT_H
#define PX_BACKENDS_HOST_SPLIT_H

#include <stdbool.h>

#include "backends/backend.h"
#include "backends/host/job.h"

/* A HOST_MEMCPY or HOST_STRIDED copy (fill false), or a HOST_FILL, on r's team; finished
   when it returns. */
void px__host_split(const px__host_runner *r, const px__copy_op *op, bool fill);
/* The copy and fill hooks of such a backend (`backend` its name for the messages): the
   above after checking that op's path is one of the host's, else PX_ERR_UNSUPPORTED. */
px_status px__host_split_copy(const px__host_runner *r, px__copy_op *op, const char *backend);
px_status px__host_split_fill(const px__host_runner *r, px__copy_op *op, const char *backend);
/* Zeroes `bytes` of new host memory (elements of elem_size bytes) on r's team, each thread
   the share of the elements a 1-D loop over them gives it (first touch). */
void px__host_split_zero(const px__host_runner *r, void *ptr, size_t bytes, size_t elem_size);

#endif /* PX_BACKENDS_HOST_SPLIT_H */
