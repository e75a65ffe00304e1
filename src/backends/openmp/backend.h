/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: the OpenMP backend (PX_EXEC_OPENMP): kernels on the host's cores. */
#ifndef PX_BACKENDS_OPENMP_BACKEND_H
#define PX_BACKENDS_OPENMP_BACKEND_H

#include "backends/backend.h"

extern const px__backend px__backend_openmp;

#endif /* PX_BACKENDS_OPENMP_BACKEND_H */
