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

/* The part of a dispatch the calling thread runs now (0 to the job's parts - 1), -1 outside
   one: what px_scatter_add's copies are chosen by (portex/impl/abi.h, px__kabi_host_part).
   A part sets it while it runs and puts back what was there before, since a kernel may
   dispatch another on its own thread. */
int px__host_part(void);
int px__host_part_enter(int part); /* returns the part to put back */
void px__host_part_leave(int previous);

#endif /* PX_BACKENDS_HOST_LAUNCH_H */
