/* Internal: what hwloc found at px_init. */
#ifndef PX_CORE_TOPOLOGY_H
#define PX_CORE_TOPOLOGY_H

#include <stdbool.h>

typedef struct px__topology_summary {
    bool loaded;
    int packages;
    int numa_nodes;
    int cores;
    int pus;
} px__topology_summary;

px__topology_summary px__topology_get_summary(void);

#endif /* PX_CORE_TOPOLOGY_H */
