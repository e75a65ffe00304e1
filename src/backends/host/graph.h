/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: graphs for the backends whose kernels run on the host (serial, OpenMP): nodes
 * run in the order they were added, from the launching thread, through the backend's own
 * hooks. */
#ifndef PX_BACKENDS_HOST_GRAPH_H
#define PX_BACKENDS_HOST_GRAPH_H

#include "backends/backend.h"

extern const px__graph_ops px__host_graph_ops;

/* The executable graphs running on this thread (where px_cond_set looks), for a backend
   that runs a kernel on threads of its own: each of them adopts the dispatching thread's
   context for the kernel and restores what adopt returned after it. */
const void *px__host_graph_context(void);
const void *px__host_graph_adopt(const void *ctx);
/* px_cond_set from a kernel running on the host (portex/impl/abi.h, px__kabi_cond_set). */
void px__host_graph_cond_set(uint64_t handle, unsigned value);

#endif /* PX_BACKENDS_HOST_GRAPH_H */
