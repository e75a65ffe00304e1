/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: what the last px_finalize clears of the public profiling calls' state. */
#ifndef PX_OBSERVABILITY_TOOLS_API_H
#define PX_OBSERVABILITY_TOOLS_API_H

/* Forgets every profile section (their ids go with portex). */
void px__sections_forget(void);
/* Forgets the regions every thread left open: after the next px_init none is open. */
void px__regions_forget(void);

#endif /* PX_OBSERVABILITY_TOOLS_API_H */
