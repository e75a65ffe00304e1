/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* portex — the families of device code a kernel file compiles, in one list (not API).
 *
 * A family, or target, is one kind of code a kernel is compiled to, which one or more
 * backends run: host code (serial, OpenMP, threads), CUDA code (the CUDA backend). Each has
 * a folder of its own, portex/impl/<family>/, as each backend has in src/backends/, whose
 * family.h gives:
 *   - the function type of each entry kind it makes (portex/impl/abi.h);
 *   - PX__<F>_CODE(SHAPE, name, Args, R, T, op): its code for a kernel of SHAPE (FOR,
 *     REDUCE or SCAN; TEAM_FOR or TEAM_REDUCE once portex/team.h is in) that calls the
 *     body px__body_<name> (portex/impl/define.h gives its parameters); nothing where the
 *     family's compiler is not the one compiling the file (CUDA code outside nvcc);
 *   - PX__<F>_ROWS(SHAPE, name): that code's rows of the descriptor's entry table,
 *     `{PX__TARGET_<F>, PX__ENTRY_<KIND>, (px__entry_fn)fn},` each;
 *   - for the compiler pass it compiles, with portex/team.h, the team-level primitives of
 *     portex/impl/nested.h, where it has its own.
 * A backend says which family it runs in its table (src/backends/backend.h: target), and
 * dispatch runs the entry of the kind it needs for that target, or refuses the kernel as
 * not compiled for the backend.
 *
 * A new family adds its row to PX__FAMILIES (its name and a number never used before:
 * descriptors keep it) and its include below; neither portex/kernel.h nor the library's
 * core names a family.
 *
 * This file is read twice: by portex/kernel.h, and by portex/team.h once its types are
 * declared (PX__TEAM_DECLARED), when each family adds the part of team kernels. Device
 * families come before the host family, which gives the team-level primitives that none
 * gave for this compile (a team of one thread). */
#ifndef PORTEX_IMPL_TARGETS_H
#define PORTEX_IMPL_TARGETS_H

/* X(NAME, number, a) for each family. */
#define PX__FAMILIES(X, a) \
    X(HOST, 1, a)          \
    X(CUDA, 2, a)

#define PX__TARGET_ENUM(F, n, a) PX__TARGET_##F = n,
/* A px__kernel_entry's target, a backend's. */
typedef enum px__kernel_target {
    PX__TARGET_NONE = 0,
    PX__FAMILIES(PX__TARGET_ENUM, ~)
} px__kernel_target;

/* Every family's code for kernel `name` of SHAPE, and the rows of its entries. */
#define PX__FAMILY_CODE(F, n, a) PX__##F##_CODE a
#define PX__FAMILY_ROWS(F, n, a) PX__##F##_ROWS a
#define PX__FAMILIES_CODE(SHAPE, name, Args, R, T, op) \
    PX__FAMILIES(PX__FAMILY_CODE, (SHAPE, name, Args, R, T, op))
#define PX__FAMILIES_ROWS(SHAPE, name) PX__FAMILIES(PX__FAMILY_ROWS, (SHAPE, name))

#endif /* PORTEX_IMPL_TARGETS_H */

/* The families' own headers (outside the guard: read again for team kernels). */
#include "portex/impl/cuda/family.h"
#include "portex/impl/host/family.h"
