/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: the hooks of px__backend_cuda, one file per concept, gathered into the table
 * in backend.c. */
#ifndef PX_BACKENDS_CUDA_HOOKS_H
#define PX_BACKENDS_CUDA_HOOKS_H

#include <stdbool.h>
#include <stdio.h>

#include "backends/backend.h"

/* queue/queue.c */
px_status px__cuda_queue_create(const px__queue_desc *desc, px__queue **out);
px_status px__cuda_queue_wrap(const px__queue_desc *desc, void *native, px__queue **out);
px_status px__cuda_queue_destroy(px__queue *q, bool *released);
px_status px__cuda_fence(px__queue *q);
px_status px__cuda_fence_all(void);

/* event.c */
px_status px__cuda_event_create(int device, unsigned flags, void **out);
void px__cuda_event_destroy(void *ev);
px_status px__cuda_event_record(void *ev, px__queue *q);
px_status px__cuda_event_wait(px__queue *q, void *ev);
px_status px__cuda_event_query(void *ev, bool *done);
px_status px__cuda_event_synchronize(void *ev);
px_status px__cuda_event_elapsed(void *start, void *end, float *ms);

/* launch.c */
px_status px__cuda_launch(px__queue *q, const px__dispatch *d);
px_status px__cuda_team_scratch_max(int device, int level, size_t *bytes);

/* copy/copy.c */
px_status px__cuda_copy_path(const px__copy_op *op, px_copy_path *path);
px_status px__cuda_copy(px__queue *q, px__copy_op *op);
px_status px__cuda_fill(px__queue *q, px__copy_op *op);

/* prefix_sum/prefix_sum.c */
px_status px__cuda_prefix_sum(px__queue *q, const px__prefix_sum_op *op);
/* sort/sort.c */
px_status px__cuda_sort(px__queue *q, const px__sort_op *op);

/* partition.c */
px_status px__cuda_partition(px__queue *parent, const px__partition_request *req,
                             const px__queue_desc *descs, px__queue **children);
px_status px__cuda_sm_count(px__queue *q, int *count);
px_status px__cuda_concurrency(px__queue *q, int *count);

/* config.c */
px_status px__cuda_print_configuration(FILE *out);

#endif /* PX_BACKENDS_CUDA_HOOKS_H */
