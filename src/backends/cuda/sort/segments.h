/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: the CUDA backend's segmented sorts (segments.c), for sort.c. */
#ifndef PX_BACKENDS_CUDA_SORT_SEGMENTS_H
#define PX_BACKENDS_CUDA_SORT_SEGMENTS_H

#include "backends/backend.h"
#include "backends/cuda/queue/track.h"

/* op (op->segments > 0, op->n > 0; in place: keys_in == keys_out and values_in ==
   values_out, as px_sort_segments gives them) queued on q's stream, q's device current. */
px_status px__cuda_sort_segments(px__cuda_queue *q, const px__sort_op *op);

#endif /* PX_BACKENDS_CUDA_SORT_SEGMENTS_H */
