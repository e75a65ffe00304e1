/* Internal: graphs for the backends whose kernels run on the host (serial): nodes run in
 * the order they were added, on the launching thread, through the backend's own hooks. */
#ifndef PX_BACKENDS_HOST_GRAPH_H
#define PX_BACKENDS_HOST_GRAPH_H

#include "backends/backend.h"

extern const px__graph_ops px__host_graph_ops;

#endif /* PX_BACKENDS_HOST_GRAPH_H */
