/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernels of test_mpi (k_mpi.c: valid C11 and CUDA C++). */
#ifndef TK_K_MPI_H
#define TK_K_MPI_H

#include "portex.h"

typedef struct mpi_scale_args {
    px_span_f64_1d x;
    double a;
} mpi_scale_args;

PX_DECLARE_KERNEL(mpi_scale); /* x[i] *= a */

#endif
