/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: what the host backends share because their work has finished when the call
 * that issued it returns: one device, fences with nothing to wait for, and events that
 * are complete once recorded and hold the time they were. */
#ifndef PX_BACKENDS_HOST_EVENT_H
#define PX_BACKENDS_HOST_EVENT_H

#include "backends/backend.h"

px_status px__host_device_count(int *count);
px_status px__host_fence(px__queue *q);
px_status px__host_fence_all(void);

px_status px__host_event_create(int device, unsigned flags, void **out);
void px__host_event_destroy(void *ev);
px_status px__host_event_record(void *ev, px__queue *q);
px_status px__host_event_wait(px__queue *q, void *ev);
px_status px__host_event_query(void *ev, bool *done);
px_status px__host_event_synchronize(void *ev);
px_status px__host_event_elapsed(void *start, void *end, float *ms);

#endif /* PX_BACKENDS_HOST_EVENT_H */
