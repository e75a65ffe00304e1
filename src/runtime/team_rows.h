/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: leagues shaped by px_team_rows (portex/team.h), as team dispatch uses them. */
#ifndef PX_RUNTIME_TEAM_ROWS_H
#define PX_RUNTIME_TEAM_ROWS_H

#include "backends/backend.h"
#include "portex/team.h"

/* p's league and team shape from p->rows (which must be non-NULL) for a dispatch on `be`
   and `device`: league size, team size and vector length replaced, scratch kept. *run gets
   the record the kernels read (host memory, as long as the rows live). Refuses rows made for another backend or device. */
px_status px__team_rows_policy(px_team_policy *p, const px__backend *be, int device,
                               const void **run);

#endif
