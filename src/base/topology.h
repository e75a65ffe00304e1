/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: the machine's topology, loaded with hwloc at px_init (unless the caller asked
 * to skip it), for the configuration report and for placing the library's host threads. */
#ifndef PX_BASE_TOPOLOGY_H
#define PX_BASE_TOPOLOGY_H

#include <stdio.h>

#include "portex/core.h"

struct hwloc_topology;

/* Loads it once. hwloc itself aborts the process when
   memory runs out while it loads (a limit of hwloc, documented in portex/core.h). */
px_status px__topology_load(void);
void px__topology_unload(void);
/* Cores of the machine, 0 when the topology is not loaded. */
int px__topology_cores(void);
/* One line: packages, NUMA nodes, cores, hardware threads. */
void px__topology_print(FILE *out);
/* The handle, for placing threads; NULL when not loaded. Valid until px_finalize, which
   unloads it after the backends have stopped their threads. */
struct hwloc_topology *px__topology_handle(void);

#endif /* PX_BASE_TOPOLOGY_H */
