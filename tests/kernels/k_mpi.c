/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernel file of test_mpi (valid C11 and CUDA C++): work ordered after a receive. */
#include "k_mpi.h"

PX_FOR(mpi_scale, mpi_scale_args, s, i) { PX_AT1(s->x, i) *= s->a; }
