/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Thread places for the host backends with teams: the process's CPU set as it was at the
 * first px_init, cut into cores (or hardware threads), and binding to them. */
#include "backends/host/places.h"

#include <stdatomic.h>
#include <stdlib.h>

#include "backends/services.h"

/* The CPUs the process could run on when portex first looked (OS indices): later looks
   would see the binding portex made itself. Written at px_init only (serialised). */
#define MAX_CPUS 4096
static int first_cpus[MAX_CPUS];
static int nfirst_cpus = -1;

static atomic_uint next_id;
static _Thread_local unsigned bound_id;
static _Thread_local int bound_place = -1;

/* The CPU set the process may run on, as it was at the first px_init; NULL when memory
   runs out. */
static hwloc_bitmap_t process_cpus(hwloc_topology_t t)
{
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    if (!set) return NULL;
    if (nfirst_cpus < 0) {
        if (hwloc_get_cpubind(t, set, HWLOC_CPUBIND_PROCESS) != 0)
            hwloc_bitmap_copy(set, hwloc_topology_get_allowed_cpuset(t));
        int n = 0;
        for (int c = hwloc_bitmap_first(set); c >= 0 && n < MAX_CPUS; c = hwloc_bitmap_next(set, c))
            first_cpus[n++] = c;
        nfirst_cpus = n;
        return set;
    }
    for (int i = 0; i < nfirst_cpus; ++i) hwloc_bitmap_set(set, (unsigned)first_cpus[i]);
    return set;
}

px_status px__host_cpu_count(hwloc_topology_t t, int *cores, int *pus)
{
    hwloc_bitmap_t set = process_cpus(t);
    if (!set) return px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory for a CPU set");
    const int n = hwloc_get_nbobjs_inside_cpuset_by_type(t, set, HWLOC_OBJ_CORE);
    *cores = n > 0 ? n : 0;
    if (pus) {
        const int u = hwloc_get_nbobjs_inside_cpuset_by_type(t, set, HWLOC_OBJ_PU);
        *pus = u > 0 ? u : 0;
    }
    hwloc_bitmap_free(set);
    return PX_OK;
}

px_status px__host_places_find(px__host_places *p, hwloc_topology_t t, int threads)
{
    *p = (px__host_places){.topo = t, .kind = "core"};
    hwloc_bitmap_t set = process_cpus(t);
    if (!set) return px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory for a CPU set");
    const int ncores = hwloc_get_nbobjs_inside_cpuset_by_type(t, set, HWLOC_OBJ_CORE);
    const hwloc_obj_type_t type = ncores >= threads || ncores <= 0 ? HWLOC_OBJ_CORE : HWLOC_OBJ_PU;
    const int n = hwloc_get_nbobjs_inside_cpuset_by_type(t, set, type);
    px_status st = PX_OK;
    if (n > 0) {
        p->set = px__calloc((size_t)n, sizeof *p->set);
        if (!p->set) st = px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory for thread places");
    }
    for (int i = 0; st == PX_OK && i < n; ++i) {
        const hwloc_obj_t o = hwloc_get_obj_inside_cpuset_by_type(t, set, type, (unsigned)i);
        p->set[i] = o ? hwloc_bitmap_dup(o->cpuset) : NULL;
        if (!p->set[i])
            st = px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory for a CPU set");
        else
            hwloc_bitmap_and(p->set[i], p->set[i], set);
        p->n = i + 1;
    }
    hwloc_bitmap_free(set);
    p->kind = type == HWLOC_OBJ_CORE ? "core" : "hardware thread";
    /* 0 is what no thread is bound to. */
    p->id = atomic_fetch_add(&next_id, 1) + 1;
    if (st != PX_OK) px__host_places_free(p);
    return st;
}

void px__host_places_free(px__host_places *p)
{
    for (int i = 0; i < p->n; ++i) hwloc_bitmap_free(p->set[i]);
    free(p->set);
    p->set = NULL;
    p->n = 0;
}

void px__host_places_bind(const px__host_places *p, int place)
{
    if (p->n == 0) return;
    place %= p->n;
    if (bound_id == p->id && bound_place == place) return;
    (void)hwloc_set_cpubind(p->topo, p->set[place], HWLOC_CPUBIND_THREAD);
    bound_id = p->id;
    bound_place = place;
}

void px__host_places_print(FILE *out, const px__host_places *p)
{
    char first[64] = "", last[64] = "";
    if (p->n > 0) {
        hwloc_bitmap_list_snprintf(first, sizeof first, p->set[0]);
        hwloc_bitmap_list_snprintf(last, sizeof last, p->set[p->n - 1]);
    }
    fprintf(out,
            "    binding: hwloc, team thread i > 0 on %s (first + i) mod %d (%d: PU %s ... %d: PU "
            "%s); the calling thread is not bound\n",
            p->kind, p->n, 0, first, p->n - 1, last);
}
