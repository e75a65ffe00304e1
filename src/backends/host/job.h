/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: work for a team of host threads (the OpenMP and threads backends). A job is
 * cut into a fixed number of parts, as many as the team has threads, whatever number of
 * threads actually runs them: a reduction joins its parts' partials in part order and a
 * scan offsets each part by the parts before it, so results depend on the thread count
 * alone, never on which thread ran which part. A runner is what a backend hands the
 * shared code (launch.h, split.h) to run jobs on one of its teams. */
#ifndef PX_BACKENDS_HOST_JOB_H
#define PX_BACKENDS_HOST_JOB_H

#include <stdint.h>

typedef struct px__host_job {
    int nparts;
    /* Called once per part; pass[1], if set, runs after every part of pass[0] has (one
       barrier between the passes, nothing run on one thread alone). */
    void (*pass[2])(void *ctx, int part);
    void *ctx;
} px__host_job;

typedef struct px__host_runner {
    /* Runs every part of job on team; the calling thread takes part, and every part has
       finished when it returns. */
    void (*run)(void *team, const px__host_job *job);
    void *team;
    int nthreads; /* the team's size: the parts of every job cut for it */
} px__host_runner;

/* Part `part` of n over [0, count): [*lo, *hi), sizes differing by at most one, the
   larger ones first (OpenMP's schedule(static)). */
static inline void px__host_share(int64_t count, int part, int n, int64_t *lo, int64_t *hi)
{
    const int64_t q = count / n, r = count % n;
    *lo = part * q + (part < r ? part : r);
    *hi = *lo + q + (part < r ? 1 : 0);
}

#endif /* PX_BACKENDS_HOST_JOB_H */
