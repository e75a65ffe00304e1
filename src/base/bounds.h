/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: the first PX_AT* bounds violation a host kernel met (kernel files built with
 * PX_BOUNDS_CHECK), kept per thread. A backend that runs a kernel on threads of its own
 * moves their violations to the thread that dispatched it. */
#ifndef PX_BASE_BOUNDS_H
#define PX_BASE_BOUNDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { PX__BOUNDS_MSG = 160 };

/* Records index outside [0, extent) in dimension dim as this thread's violation, unless
   it has one already (PX_AT*: portex/impl/abi.h, px__kabi_bounds_violation). */
void px__bounds_violation(int dim, int64_t index, int64_t extent);
/* This thread's violation into msg (PX__BOUNDS_MSG bytes), forgotten here; false when
   there is none. */
bool px__bounds_take(char *msg);
/* Makes msg this thread's violation unless it has one already. */
void px__bounds_put(const char *msg);

#endif /* PX_BASE_BOUNDS_H */
