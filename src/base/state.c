/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Whether portex is initialised; see state.h. */
#include "base/state.h"

#include <stdatomic.h>

#include "base/error.h"

static atomic_bool initialized;

bool px__initialized(void) { return atomic_load_explicit(&initialized, memory_order_acquire); }

void px__set_initialized(bool on) { atomic_store_explicit(&initialized, on, memory_order_release); }

px_status px__require_init(void)
{
    if (px__initialized()) return PX_OK;
    return px__error(PX_ERR_NOT_INITIALIZED, "portex is not initialized; call px_init first");
}
