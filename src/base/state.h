/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: whether portex is initialised (between the first px_init and the last
 * px_finalize), which every public function that creates something checks. */
#ifndef PX_BASE_STATE_H
#define PX_BASE_STATE_H

#include <stdbool.h>

#include "portex/core.h"

bool px__initialized(void);
void px__set_initialized(bool on);
/* PX_OK, or PX_ERR_NOT_INITIALIZED. */
px_status px__require_init(void);

#endif /* PX_BASE_STATE_H */
