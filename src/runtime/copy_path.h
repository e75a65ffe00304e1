/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: how many copies and fills took each path (px_copy_path_counts). */
#ifndef PX_RUNTIME_COPY_PATH_H
#define PX_RUNTIME_COPY_PATH_H

#include "portex/copy.h"

void px__copy_count(px_copy_path path);
void px__copy_counts_reset(void);

#endif /* PX_RUNTIME_COPY_PATH_H */
