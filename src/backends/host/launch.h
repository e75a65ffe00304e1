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

#endif /* PX_BACKENDS_HOST_LAUNCH_H */
