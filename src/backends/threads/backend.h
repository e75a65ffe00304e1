/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: the threads backend (PX_EXEC_THREADS): kernels on the host's cores, on pools of
 * POSIX threads of portex's own, for toolchains without OpenMP. */
#ifndef PX_BACKENDS_THREADS_BACKEND_H
#define PX_BACKENDS_THREADS_BACKEND_H

#include "backends/backend.h"

extern const px__backend px__backend_threads;

#endif /* PX_BACKENDS_THREADS_BACKEND_H */
