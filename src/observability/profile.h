/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: the one place the entry points of runtime/ and graphs/ tell the observers what
 * they do: a Kokkos Tools library (kokkos_tools.h), NVTX (nvtx.h) and the timeline
 * (timeline.h). Call sites test px__prof_on() first, so that with no observer on the cost
 * is one load and a branch. Nothing here makes the user's call fail, except the
 * fence a Kokkos Tools library asked for after each operation (its error is the
 * operation's: the work failed). */
#ifndef PX_OBSERVABILITY_PROFILE_H
#define PX_OBSERVABILITY_PROFILE_H

#include <stdbool.h>
#include <stdint.h>

#include "observability/observed.h"
#include "observability/profiling.h"
#include "observability/timeline.h"
#include "portex.h"

/* Unlikely: the dispatch path is laid out for no observer. */
#if defined(__GNUC__)
static inline bool px__prof_on(void) { return __builtin_expect(px__prof_mask != 0, 0); }
#else
static inline bool px__prof_on(void) { return px__prof_mask != 0; }
#endif

/* One operation between its begin and its end. */
typedef struct px__prof {
    uint64_t kp; /* the Kokkos Tools library's id */
    px__tl_mark tl;
    bool live;         /* begun while observers were on and the instance not captured */
    const char *label; /* a copy's or fill's destination, which the fence after it names */
    uint64_t bytes;    /* a copy's or fill's */
} px__prof;

/* px_init: the observers the options and the environment ask for (px_init_options).
   fence_all is the runtime's fence of every instance, told to no observer: what a Kokkos
   Tools library's own fence requests run. */
px_status px__profile_init(const px_init_options *opts, px_status (*fence_all)(void));
/* The last px_finalize, after the work is done: writes the timeline, finalises the tool
   library; the timeline's write error, if any. */
px_status px__profile_finalize(void);

/* Each begin and end is told the instance the operation runs on as the observers see it
   (px__instance_observed), the same for both. */
void px__prof_kernel_begin(px__prof *p, const px__observed *on, px_kernel_kind kind,
                           const char *label);
px_status px__prof_kernel_end(px__prof *p, const px__observed *on, px_kernel_kind kind,
                              const char *label);

/* One side of a copy or fill: the view's label, its first element, its space. */
typedef struct px__prof_side {
    const char *label;
    const void *data;
    px_space space;
} px__prof_side;
/* A copy of `bytes` bytes, or a fill (src NULL, value its value). */
void px__prof_copy_begin(px__prof *p, const px__observed *on, const px__prof_side *dst,
                         const px__prof_side *src, const void *value, uint64_t bytes,
                         px_copy_path path);
px_status px__prof_copy_end(px__prof *p, const px__observed *on, px_copy_path path);
/* A fence of an instance, or of every instance (on NULL); name says whose. */
void px__prof_fence_begin(px__prof *p, const px__observed *on, const char *name);
void px__prof_fence_end(px__prof *p);
void px__prof_graph_begin(px__prof *p, const px__observed *on, const char *label);
void px__prof_graph_end(px__prof *p, const px__observed *on);

#endif /* PX_OBSERVABILITY_PROFILE_H */
