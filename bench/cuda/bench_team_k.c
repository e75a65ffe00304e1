/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernel file (compiled as CUDA through a .cu copy): see bench_team_k.h. */
#include "bench_team_k.h"

PX_TEAM_FOR(bt_empty_team, bt_empty_args, a, team)
{
    (void)a;
    (void)team;
}
