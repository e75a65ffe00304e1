/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: kernel dispatches cut into parts for a team of host threads (launch.c
 * says how), for the backends that have teams: OpenMP and threads. */
#ifndef PX_BACKENDS_HOST_LAUNCH_H
#define PX_BACKENDS_HOST_LAUNCH_H

#include "backends/backend.h"
#include "backends/host/job.h"

/* Runs d on r's team and returns once it has finished (a reduction's or scan's result
   written). Fails only when memory for partials or team scratch runs out. */
px_status px__host_launch(const px__host_runner *r, const px__dispatch *d);

/* A 1-D PX_FOR over px_range(begin, end) exactly (no tile, the default order, nothing set
   in another dimension), cut into nparts parts: all a thread of the team needs to run its
   part, few enough words for a backend to hand its team by value. */
typedef struct px__host_for1 {
    px__host_range_fn entry;
    const void *args;
    int64_t begin, end;
    int nparts;
} px__host_for1;

/* d as a px__host_for1 of nparts parts when it is one (false otherwise: a team kernel, a
   reduction or scan, 2-D and up, a tiled or otherwise set policy); px__host_launch runs
   every dispatch, these included. Inline, so that f stays in registers: written to memory
   field by field and read back whole, it stalled the dispatch. */
static inline bool px__host_for1_of(const px__dispatch *d, int nparts, px__host_for1 *f)
{
    const px_kernel *k = d->kernel;
    const px_policy *p = &d->policy;
    if (k->team || k->kind != PX_KERNEL_FOR || p->rank != 1 || p->tile[0] != 0 ||
        p->iterate != PX_ITERATE_RIGHT)
        return false;
    /* px_range's other dimensions: the sub-policies px_range makes are then each part's. */
    for (int j = 1; j < PX_POLICY_MAX_RANK; ++j)
        if ((p->begin[j] | p->tile[j]) != 0 || p->end[j] != 1) return false;
    f->entry = (px__host_range_fn)d->entry;
    f->args = d->args;
    f->begin = p->begin[0];
    f->end = p->end[0];
    f->nparts = nparts;
    return true;
}
/* Part `part` of f on the calling thread: the same sub-policy px__host_launch gives it. */
void px__host_for1_part(const px__host_for1 *f, int part);

/* The part of a dispatch the calling thread runs now (0 to the job's parts - 1), -1 outside
   one: what px_scatter_add's copies are chosen by (portex/impl/abi.h, px__kabi_host_part).
   A part sets it while it runs and puts back what was there before, since a kernel may
   dispatch another on its own thread. */
int px__host_part(void);
int px__host_part_enter(int part); /* returns the part to put back */
void px__host_part_leave(int previous);

#endif /* PX_BACKENDS_HOST_LAUNCH_H */
