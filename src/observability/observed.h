/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: an instance as the observers see it: its lane in the timeline, its device id
 * for a Kokkos Tools library, the queue a tool's fence waits for and the timeline's events
 * go on. The runtime fills one in where it tells the observers of an operation
 * (px__instance_observed), so that observability/ never reads an instance. */
#ifndef PX_OBSERVABILITY_OBSERVED_H
#define PX_OBSERVABILITY_OBSERVED_H

#include <stdbool.h>
#include <stdint.h>

#include "backends/backend.h"

typedef struct px__observed {
    /* The instance's identity together with number (a new instance may take the address
       of a destroyed one); never read through. */
    const void *key;
    uint32_t number; /* 1, 2, ... in creation order: Kokkos Tools' instance id */
    const char *label;
    const px__backend *be;
    px_exec_space exec;
    int device;
    px__queue *queue;
    bool captured; /* being captured into a graph: its work runs later, as the graph */
} px__observed;

#endif /* PX_OBSERVABILITY_OBSERVED_H */
