/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: the OpenMP backend's kernel, copy and fill hooks (pool.c), for its table
 * in backend.c. */
#ifndef PX_BACKENDS_OPENMP_POOL_H
#define PX_BACKENDS_OPENMP_POOL_H

#include "backends/backend.h"

px_status px__omp_launch(px__queue *q, const px__dispatch *d);
px_status px__omp_copy(px__queue *q, px__copy_op *op);
px_status px__omp_fill(px__queue *q, px__copy_op *op);
px_status px__omp_zero_host(void *ptr, size_t bytes, size_t elem_size);

#endif /* PX_BACKENDS_OPENMP_POOL_H */
