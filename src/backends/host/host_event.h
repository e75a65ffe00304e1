/* Internal: events of the host backends, whose work has finished when the call that
 * issued it returns: an event is complete once recorded and holds the time it was. */
#ifndef PX_BACKENDS_HOST_EVENT_H
#define PX_BACKENDS_HOST_EVENT_H

#include "backends/backend.h"

px_status px__host_event_create(int device, unsigned flags, void **out, const char *func);
void px__host_event_destroy(void *ev);
px_status px__host_event_record(void *ev, px__queue *q, const char *func);
px_status px__host_event_wait(px__queue *q, void *ev, const char *func);
px_status px__host_event_query(void *ev, bool *done, const char *func);
px_status px__host_event_synchronize(void *ev, const char *func);
px_status px__host_event_elapsed(void *start, void *end, float *ms, const char *func);

#endif /* PX_BACKENDS_HOST_EVENT_H */
