/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: the backends and memory spaces compiled into this build. */
#ifndef PX_BACKENDS_BACKENDS_H
#define PX_BACKENDS_BACKENDS_H

#include "backends/backend.h"

/* NULL when the execution space is out of range or not compiled in. */
const px__backend *px__backend_get(px_exec_space exec);
/* NULL when the kind is out of range or its backend is not compiled in. */
const px__space_ops *px__space_ops_get(px_space_kind kind);
/* Every compiled-in backend's init hook (the first px_init); stops at the first refusal. */
px_status px__backends_init(const px_init_options *opts);
/* Every compiled-in backend's finalize hook (the last px_finalize). */
void px__backends_finalize(void);

#endif /* PX_BACKENDS_BACKENDS_H */
