/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: memory spaces as the layers above see them. */
#ifndef PX_SPACES_SPACE_H
#define PX_SPACES_SPACE_H

#include <stdbool.h>

#include "portex.h"
#include "backends/backend.h"

/* Validates space (kind in range, device ordinal in range, its backend compiled in, the
   space available here); on success *ops is its table (ops may be NULL). */
px_status px__space_check(px_space space, const px__space_ops **ops);

/* The same space: kind and device ordinal. */
static inline bool px__space_same(px_space a, px_space b)
{
    return a.kind == b.kind && a.device == b.device;
}

/* The space ptr's memory belongs to (px_pointer_space without the argument checks). */
px_space px__pointer_space(const void *ptr);

#endif /* PX_SPACES_SPACE_H */
