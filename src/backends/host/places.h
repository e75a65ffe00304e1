/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: where the threads of the host backends with teams (OpenMP, threads) run. The
 * places are the cores of the CPU set the process had at its first px_init (hardware
 * threads when a team has more threads than that set has cores), in hwloc's logical
 * order; a thread is bound to one with hwloc. The set is read once, at the first px_init,
 * because later reads would see the binding portex made itself. */
#ifndef PX_BACKENDS_HOST_PLACES_H
#define PX_BACKENDS_HOST_PLACES_H

#include <hwloc.h>
#include <stddef.h>
#include <stdio.h>

#include "portex/core.h"

typedef struct px__host_places {
    hwloc_topology_t topo;
    hwloc_bitmap_t *set; /* n CPU sets, one per place */
    int n;
    const char *kind; /* "core" or "hardware thread" */
    unsigned id;      /* a new one per px__host_places_find: what a thread is bound to */
} px__host_places;

/* The cores and hardware threads of the process's CPU set (0 when hwloc finds none); pus
   may be NULL. */
px_status px__host_cpu_count(hwloc_topology_t t, int *cores, int *pus);
/* The places for a team of `threads` threads; p->n is 0 when hwloc finds no cores. On
   failure (out of memory) p is left empty. */
px_status px__host_places_find(px__host_places *p, hwloc_topology_t t, int threads);
/* Frees p's sets; p is empty (n 0) after, and may be found again. */
void px__host_places_free(px__host_places *p);
/* Binds the calling thread to place `place` mod p->n (nothing when p is empty). A thread
   remembers where it is bound: binding it there again costs nothing. A refusal (a CPU set
   the process may no longer use) leaves the thread where it is. */
void px__host_places_bind(const px__host_places *p, int place);
/* The configuration report's line on binding to p: its places and the CPUs of the first
   and last ("0", "14-15"). */
void px__host_places_print(FILE *out, const px__host_places *p);

#endif /* PX_BACKENDS_HOST_PLACES_H */
