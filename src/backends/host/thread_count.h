/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: the thread count the user asks the host backends with teams (OpenMP, threads)
 * for, read the same way by both. */
#ifndef PX_BACKENDS_HOST_THREAD_COUNT_H
#define PX_BACKENDS_HOST_THREAD_COUNT_H

#include "portex/core.h"

/* More threads than this is a mistake in the option or the environment. */
#define PX__HOST_MAX_THREADS 4096

/* The count asked for: px_init_options.num_threads (opts may be NULL), else PX_NUM_THREADS;
   *n is 0 when neither says (the backend chooses). *from names where the count came from,
   for the configuration report. A count out of 0 (choose) to PX__HOST_MAX_THREADS fails,
   naming the option or the variable. */
px_status px__host_threads_asked(const px_init_options *opts, int *n, const char **from);

#endif /* PX_BACKENDS_HOST_THREAD_COUNT_H */
