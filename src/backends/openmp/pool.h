/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: the OpenMP backend's pool. A queue is a set of thread places (the first and
 * how many in the binding order); work issued to it runs at once, on the calling thread
 * and the threads of an OpenMP team of that size, and has finished when the call
 * returns, as on the serial backend. A job (host/job.h) has a fixed number of parts, the
 * same whatever team OpenMP actually gives, so that results do not depend on it. The
 * kernel, copy, fill and sort hooks (pool.c) go into the table in backend.c. */
#ifndef PX_BACKENDS_OPENMP_POOL_H
#define PX_BACKENDS_OPENMP_POOL_H

#include "backends/backend.h"
#include "backends/host/job.h"
#include "backends/openmp/config.h"

struct px__queue {
    int nthreads;     /* the team's size */
    int first;        /* its first thread's place in the binding order */
    bool bind_caller; /* a partition: the calling thread takes place `first` too */
};

/* Runs job on q's team; the calling thread takes part. */
void px__omp_run(const px__queue *q, const px__host_job *job);

/* The team of the default instance, and of every instance px_instance_create makes: all
   px__omp_threads() threads from place 0, the calling thread not bound (partitions take
   shares of it). */
static inline px__queue px__omp_whole_team(void)
{
    return (px__queue){.nthreads = px__omp_threads(), .first = 0, .bind_caller = false};
}

px_status px__omp_launch(px__queue *q, const px__dispatch *d);
px_status px__omp_copy(px__queue *q, px__copy_op *op);
px_status px__omp_fill(px__queue *q, px__copy_op *op);
px_status px__omp_sort(px__queue *q, const px__sort_op *op);
px_status px__omp_prefix_sum(px__queue *q, const px__prefix_sum_op *op);
px_status px__omp_zero_host(void *ptr, size_t bytes, size_t elem_size);

#endif /* PX_BACKENDS_OPENMP_POOL_H */
