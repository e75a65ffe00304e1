/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The portex kernel of bench_team's own (the SpMV and stencil kernels are the examples'):
 * an empty team kernel, for dispatch cost. Valid C11 and CUDA C++. */
#ifndef BENCH_TEAM_K_H
#define BENCH_TEAM_K_H

#include <portex.h>

typedef struct bt_empty_args {
    int unused;
} bt_empty_args;
PX_DECLARE_KERNEL(bt_empty_team); /* does nothing, on every thread of every team */

#endif
