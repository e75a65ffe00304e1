/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/** @file
 * portex — dispatching kernels on an instance.
 *
 * `label` names the dispatch in errors and traces; NULL uses the kernel's name.
 * `args` points to the kernel's argument struct; it is copied, so it may change as soon
 * as the call returns. Dispatch is asynchronous on GPU instances: the call returns once
 * the work is queued; fence the instance (or record an event) before reading results on
 * the host. A kernel that was not compiled for the instance's backend returns
 * PX_ERR_NOT_COMPILED with both names. A kernel of another kind (a reduce kernel handed to
 * px_parallel_for, ...) does not compile where its kind is in sight (PX_KERNEL in
 * portex/kernel.h; docs/kernels.md), and is refused with PX_ERR_INVALID_ARGUMENT, naming
 * both kinds, where it is not. */
#ifndef PORTEX_PARALLEL_H
#define PORTEX_PARALLEL_H

#include "portex/core.h"
#include "portex/instance.h"
#include "portex/kernel.h"
#include "portex/policy.h"
#include "portex/view.h"

PX_EXTERN_C_BEGIN

/** A PX_FOR or PX_FOR_2D to PX_FOR_6D kernel; the policy's rank must match the kernel's. */
PX_API px_status px_parallel_for(px_instance *inst, const char *label, px_policy policy,
                                 const px_kernel *kernel, const void *args);

/** A PX_REDUCE* kernel into `result`, host memory of the kernel's value type. Waits for
 * this instance only (its earlier work and the reduction), no other. An empty range
 * gives the join's identity. */
PX_API px_status px_parallel_reduce(px_instance *inst, const char *label, px_policy policy,
                                    const px_kernel *kernel, const void *args, void *result);

/** As px_parallel_reduce, into element 0 of `result`, a contiguous view with at least one
 * element of the value's size, in memory the instance can write (DEVICE of its GPU or
 * HOST_PINNED for CUDA; HOST for serial and OpenMP). Stays asynchronous. */
PX_API px_status px_parallel_reduce_view(px_instance *inst, const char *label, px_policy policy,
                                         const px_kernel *kernel, const void *args,
                                         px_view *result);

/** A PX_SCAN kernel over a 1-D range. `total` (host memory of the value type, or NULL)
 * receives the reduction of all contributions; when given, the call waits for this
 * instance, else it stays asynchronous. */
PX_API px_status px_parallel_scan(px_instance *inst, const char *label, px_policy policy,
                                  const px_kernel *kernel, const void *args, void *total);

PX_EXTERN_C_END

/** @cond PX_INTERNAL */
/* Each dispatch under a macro of its own name that checks the kernel's kind at compile time
   where PX_KERNEL's type says it (portex/kernel.h, PX_KERNEL), then calls the function (a
   function-like macro does not expand in its own expansion; `(px_parallel_for)(...)` and
   `&px_parallel_for` name the function itself). The arguments before the kernel hold no
   unparenthesized comma; those after it may (__VA_ARGS__: a compound literal). The
   library's own sources define the functions: no macro there. */
#ifndef PX_BUILDING_LIBRARY
#define px_parallel_for(inst, label, policy, kernel, ...) \
    px_parallel_for(inst, label, policy,                  \
                    PX__KERNEL_EXPECT(kernel, #kernel, "px_parallel_for", FOR), __VA_ARGS__)
#define px_parallel_reduce(inst, label, policy, kernel, ...)                             \
    px_parallel_reduce(inst, label, policy,                                              \
                       PX__KERNEL_EXPECT(kernel, #kernel, "px_parallel_reduce", REDUCE), \
                       __VA_ARGS__)
#define px_parallel_reduce_view(inst, label, policy, kernel, ...)                                  \
    px_parallel_reduce_view(inst, label, policy,                                                   \
                            PX__KERNEL_EXPECT(kernel, #kernel, "px_parallel_reduce_view", REDUCE), \
                            __VA_ARGS__)
#define px_parallel_scan(inst, label, policy, kernel, ...) \
    px_parallel_scan(inst, label, policy,                  \
                     PX__KERNEL_EXPECT(kernel, #kernel, "px_parallel_scan", SCAN), __VA_ARGS__)
#endif
/** @endcond */

#endif /* PORTEX_PARALLEL_H */
