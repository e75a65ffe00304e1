/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Helpers of the suites that call CUDA's runtime themselves (programs built with CUDA only,
 * or their parts under TK_HAVE_CUDA). */
#ifndef PX_TESTS_COMMON_CUDA_H
#define PX_TESTS_COMMON_CUDA_H

#include <cuda_runtime_api.h>

#include "common.h"
#include "portex/cuda.h"

/* expr (a cudaError_t) must be cudaSuccess. */
#define CU_OK(expr)                                                                  \
    do {                                                                             \
        cudaError_t cu_e_ = (expr);                                                  \
        TK_ASSERT(cu_e_ == cudaSuccess, "%s: %s", #expr, cudaGetErrorString(cu_e_)); \
    } while (0)

#endif /* PX_TESTS_COMMON_CUDA_H */
