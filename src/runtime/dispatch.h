/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: validating a kernel dispatch, shared by instances and graphs. */
#ifndef PX_RUNTIME_DISPATCH_H
#define PX_RUNTIME_DISPATCH_H

#include "portex.h"
#include "backends/backend.h"

/* What a dispatch runs on, as messages name it: "<kind> '<name>'" ("instance 'a'",
   "graph 'g'"), formatted only when a refusal is reported. */
typedef struct px__target {
    const char *kind;
    const char *name;
} px__target;

/* d filled from a validated kernel, policy and args for backend be, which runs it on
   `target`. */
px_status px__dispatch_prepare(px__dispatch *d, const px__backend *be, px__target target,
                               const char *label, px_policy policy, const px_kernel *kernel,
                               const void *args, px_kernel_kind want);
/* As px__dispatch_prepare for a team kernel over `policy` (PX_TEAM_FOR: want FOR;
   PX_TEAM_REDUCE: want REDUCE), its scratch checked against be's limits on `device`. */
px_status px__dispatch_prepare_team(px__dispatch *d, const px__backend *be, int device,
                                    px__target target, const char *label, px_team_policy policy,
                                    const px_kernel *kernel, const void *args, px_kernel_kind want);
/* The most scratch bytes a team may have at `level` on be's `device`. */
px_status px__team_scratch_limit(const px__backend *be, int device, int level, size_t *bytes);
/* A reduction's result into element 0 of `result`, checked: contiguous, the value's size,
   memory that be's kernels on `device` can write. */
px_status px__dispatch_result_view(px__dispatch *d, const px__backend *be, int device,
                                   px__target target, px_view *result);
/* Backend be's work on `device` can write memory of space s: host memory from a host
   backend, and the backend's own memory (of that device, off the host). */
bool px__backend_writes(const px__backend *be, int device, px_space s);
/* The first PX_AT* bounds violation a host kernel met on this thread, as an error naming
   the dispatch (PX_BOUNDS_CHECK builds of kernel files); PX_OK when none. */
px_status px__take_bounds_violation(const char *label);

#endif /* PX_RUNTIME_DISPATCH_H */
