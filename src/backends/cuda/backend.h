/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: the CUDA backend's table, px__backend_cuda, the backend of PX_EXEC_CUDA
 * (instances are streams; events, launches, copies and fills on the device). Its memory
 * spaces' tables are in memory/memory.h (DEVICE) and memory/pinned.h (HOST_PINNED).
 * docs/cuda.md describes how they work. */
#ifndef PX_BACKENDS_CUDA_BACKEND_H
#define PX_BACKENDS_CUDA_BACKEND_H

#include "backends/backend.h"

extern const px__backend px__backend_cuda;

#endif /* PX_BACKENDS_CUDA_BACKEND_H */
