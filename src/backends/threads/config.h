/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: the threads backend's configuration, chosen at px_init: how many threads the
 * default instance has, where they run, and how long a waiting thread spins. */
#ifndef PX_BACKENDS_THREADS_CONFIG_H
#define PX_BACKENDS_THREADS_CONFIG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "portex/core.h"

/* px_init: the thread count (px_init_options.num_threads, else PX_NUM_THREADS, else one per
   core of the process's CPU set), the binding (hwloc places unless
   px_init_options.no_thread_binding, PX_THREADS_BIND=none or no topology) and the spin. A
   bad count or PX_THREADS_BIND value fails, naming it. */
px_status px__thr_config_init(const px_init_options *opts);
void px__thr_config_finalize(void);

/* Threads of the default instance (0 before px_init). */
int px__thr_threads(void);
/* Binds the calling thread to place `place` (mod the places); nothing without binding. */
void px__thr_bind(int place);
/* How long a thread that waits for a hand-off polls before it sleeps, in nanoseconds: 0
   when a team of `nthreads` threads has more threads than the process has CPUs (a poller
   would hold a CPU the thread it waits for needs). */
int64_t px__thr_spin_ns(int nthreads);
void px__thr_config_print(FILE *out);

#endif /* PX_BACKENDS_THREADS_CONFIG_H */
