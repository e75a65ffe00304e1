/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The machine's topology, loaded once at px_init with hwloc: packages, NUMA nodes, cores
 * and hardware threads. Later work places host threads and staging buffers with it. */
#include <hwloc.h>
#include <pthread.h>
#include <stdbool.h>

#include "base/topology.h"

#include "base/error.h"

typedef struct px__topology_summary {
    bool loaded;
    int packages;
    int numa_nodes;
    int cores;
    int pus;
} px__topology_summary;

static pthread_mutex_t topo_lock = PTHREAD_MUTEX_INITIALIZER;
static hwloc_topology_t topology;
static px__topology_summary summary;

px_status px__topology_load(void)
{
    pthread_mutex_lock(&topo_lock);
    px_status st = PX_OK;
    if (!topology) {
        hwloc_topology_t t;
        if (hwloc_topology_init(&t) != 0) {
            st = px__error(PX_ERR_SYSTEM, "hwloc_topology_init failed");
        } else if (hwloc_topology_load(t) != 0) {
            hwloc_topology_destroy(t);
            st = px__error(PX_ERR_SYSTEM, "hwloc_topology_load failed");
        } else {
            topology = t;
            summary.packages = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PACKAGE);
            summary.numa_nodes = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_NUMANODE);
            summary.cores = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_CORE);
            summary.pus = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PU);
            summary.loaded = true;
        }
    }
    pthread_mutex_unlock(&topo_lock);
    return st;
}

void px__topology_unload(void)
{
    pthread_mutex_lock(&topo_lock);
    if (topology) hwloc_topology_destroy(topology);
    topology = NULL;
    summary = (px__topology_summary){0};
    pthread_mutex_unlock(&topo_lock);
}

static px__topology_summary topology_summary(void)
{
    pthread_mutex_lock(&topo_lock);
    px__topology_summary s = summary;
    pthread_mutex_unlock(&topo_lock);
    return s;
}

/* The handle itself, for placing threads (the CUDA staging workers, near their GPU); NULL
   before px_init or with skip_topology. Valid until px_finalize unloads it, which happens
   after the backends have stopped their threads. */
struct hwloc_topology *px__topology_handle(void)
{
    pthread_mutex_lock(&topo_lock);
    hwloc_topology_t t = topology;
    pthread_mutex_unlock(&topo_lock);
    return t;
}

int px__topology_cores(void)
{
    const px__topology_summary s = topology_summary();
    return s.loaded ? s.cores : 0;
}

void px__topology_print(FILE *out)
{
    px__topology_summary s = topology_summary();
    if (!s.loaded) {
        fprintf(out, "  topology: not loaded (px_init not called)\n");
        return;
    }
    fprintf(out, "  topology: %d package(s), %d NUMA node(s), %d core(s), %d hardware thread(s)\n",
            s.packages, s.numa_nodes, s.cores, s.pus);
}
