/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: what a backend may use of base/, and its one door there: backends include this,
 * never a header of base/ themselves (tests/check_layers.py refuses any other include of
 * base/ from backends/, and a call into a part of base/ this does not name).
 *
 *   error.h     errors, and the name of the public call they are reported under (a
 *               backend's threads enter it with PX__ENTER_AS)
 *   util.h      the library's own allocations, with the fault injection tests arm
 *   memstats.h  the memory a backend holds for itself (px__memory_account_library; the
 *               views' memory is counted by the spaces)
 *   limits.h    the devices an execution space may have
 *   topology.h  the machine's topology, for placing a backend's threads
 *   bounds.h    a kernel's bounds violation, carried from the thread that met it
 *
 * The library's state, its live objects and the core's handles are not here: a backend
 * learns what it needs from what the core hands it (backend.h). */
#ifndef PX_BACKENDS_SERVICES_H
#define PX_BACKENDS_SERVICES_H

#include "base/bounds.h"
#include "base/error.h"
#include "base/limits.h"
#include "base/memstats.h"
#include "base/topology.h"
#include "base/util.h"

#endif /* PX_BACKENDS_SERVICES_H */
