/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* portex/team.h compiles on its own, first in its translation unit. */
#include "portex/team.h"

int px_header_test_team(void);
int px_header_test_team(void)
{
    const px_team_policy p = px_team_policy_scratch(px_teams(4, PX_AUTO, PX_AUTO), 0, 64, 16);
    return p.league_size == 4 && p.scratch_team[0] == 64 ? 0 : 1;
}
