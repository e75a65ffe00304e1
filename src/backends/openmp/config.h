/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: the OpenMP backend's configuration, chosen at px_init: how many threads the
 * default instance has, and where its threads run (the binding). */
#ifndef PX_BACKENDS_OPENMP_CONFIG_H
#define PX_BACKENDS_OPENMP_CONFIG_H

#include <stdio.h>

#include "portex/core.h"

/* The configuration px_init chooses (portex/core.h): threads and binding. */
px_status px__omp_config_init(const px_init_options *opts);
void px__omp_config_finalize(void);
/* Threads of the default instance. */
int px__omp_threads(void);
/* Binds the calling thread to place `place` of the binding order, when portex binds
   (hwloc places); nothing otherwise. */
void px__omp_bind(int place);
/* Partitions may be used from inside an OpenMP parallel region: nested teams allowed. */
void px__omp_allow_nesting(void);
void px__omp_config_print(FILE *out);

#endif /* PX_BACKENDS_OPENMP_CONFIG_H */
