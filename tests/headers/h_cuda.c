/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* portex/cuda.h (CUDA interop, opt-in) compiles on its own as C. */
#include "portex/cuda.h"

int px_header_test_cuda(void);
int px_header_test_cuda(void)
{
    px_status (*wrap)(px_instance **, cudaStream_t, const char *) = px_instance_from_cuda_stream;
    px_status (*get)(const px_instance *, cudaStream_t *) = px_instance_cuda_stream;
    return wrap != 0 && get != 0 ? 0 : 1;
}
