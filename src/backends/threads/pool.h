/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: a pool of the threads backend, the team of threads a queue's work runs on:
 * the thread that dispatches and worker threads of its own, which run the parts of jobs
 * (host/job.h) with it. pool.c says how the work is handed off. */
#ifndef PX_BACKENDS_THREADS_POOL_H
#define PX_BACKENDS_THREADS_POOL_H

#include <stdbool.h>

#include "backends/host/job.h"
#include "portex/core.h"

typedef struct px__thr_pool px__thr_pool;

/* A team of nthreads threads whose places start at `first`: the dispatching thread and
   nthreads - 1 workers, started by the first job that needs them. bind_caller: the
   dispatching thread is bound to place `first` (a partition's). Fails only when memory
   runs out (PX_ERR_OUT_OF_MEMORY). */
px_status px__thr_pool_create(int nthreads, int first, bool bind_caller, px__thr_pool **out);
/* Stops and joins the workers and frees the team (NULL: nothing). No job may be running on
   it. */
void px__thr_pool_destroy(px__thr_pool *t);
int px__thr_pool_size(const px__thr_pool *t);
int px__thr_pool_first(const px__thr_pool *t);

/* Runs every part of job, on the calling thread and the team's workers, and returns when
   all have finished. When the team is running another job (a dispatch from another host
   thread, or from inside a kernel on the team), or has no workers (one thread, or none
   could be started), the calling thread runs every part itself, in order: the parts, and
   so the results, are the same. */
void px__thr_pool_run(px__thr_pool *t, const px__host_job *job);

#endif /* PX_BACKENDS_THREADS_POOL_H */
