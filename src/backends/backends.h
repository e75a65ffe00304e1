/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: the backends and memory spaces compiled into this build. */
#ifndef PX_BACKENDS_BACKENDS_H
#define PX_BACKENDS_BACKENDS_H

#include "backends/backend.h"

/* NULL when the execution space is out of range or not compiled in. */
const px__backend *px__backend_get(px_exec_space exec);
/* NULL when the kind is out of range or its backend is not compiled in. */
const px__space_ops *px__space_ops_get(px_space_kind kind);
/* The default execution space where none is named: the first compiled in with a device
   here among CUDA, OpenMP, threads, serial (asks CUDA for its device count). */
px_exec_space px__backend_auto(void);
/* The execution space px_init was told to use by default (px_init_options.default_exec,
   PX_DEFAULT_EXEC, or chosen there for a device asked for), or PX_EXEC_COUNT: none. */
void px__backends_named_default(px_exec_space exec);
/* The backend whose threads run host work that no instance was named for (the zero-fill of
   new host memory, blocking host copies and fills): the named default execution space's
   when its kernels run on the host on threads of its own (zero_host), else OpenMP's, else
   the threads backend's, else serial's. */
const px__backend *px__backend_host_team(void);
/* Every compiled-in backend's init hook (the first px_init); stops at the first refusal. */
px_status px__backends_init(const px_init_options *opts);
/* Every compiled-in backend's finalize hook (the last px_finalize). */
void px__backends_finalize(void);

#endif /* PX_BACKENDS_BACKENDS_H */
