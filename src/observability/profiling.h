/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: which observers of portex's operations are on. Read on every dispatch, copy
 * and fence, so that with none on the cost is one load and a branch. Written only while
 * px_init and px_finalize hold their lock, before and after any other use. */
#ifndef PX_OBSERVABILITY_PROFILING_H
#define PX_OBSERVABILITY_PROFILING_H

enum {
    PX__PROF_KOKKOS = 1u,   /* a Kokkos Tools library (observability/kokkos_tools.c) */
    PX__PROF_NVTX = 2u,     /* NVTX ranges (observability/nvtx.c) */
    PX__PROF_TIMELINE = 4u, /* the timeline (observability/timeline.c) */
};

extern unsigned px__prof_mask;

#endif /* PX_OBSERVABILITY_PROFILING_H */
