/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: the one place core's entry points tell the observers what they do: a Kokkos
 * Tools library (observability/kokkos_tools.h), NVTX (observability/nvtx.h) and the timeline
 * (observability/timeline.h). Call sites test px__prof_on() first, so that with no observer on the
 * cost is one load and a branch. Nothing here makes the user's call fail, except the
 * fence a Kokkos Tools library asked for after each operation (its error is the
 * operation's: the work failed). */
#ifndef PX_OBSERVABILITY_PROFILE_H
#define PX_OBSERVABILITY_PROFILE_H

#include <stdbool.h>
#include <stdint.h>

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
    bool live; /* begun while observers were on and the instance not captured */
} px__prof;

/* px_init: the observers the options and the environment ask for (px_init_options). */
px_status px__profile_init(const px_init_options *opts);
/* The last px_finalize, after the work is done: writes the timeline, finalises the tool
   library; the timeline's write error, if any. */
px_status px__profile_finalize(void);

void px__prof_kernel_begin(px__prof *p, px_instance *inst, px_kernel_kind kind, const char *label);
px_status px__prof_kernel_end(px__prof *p, px_instance *inst, px_kernel_kind kind,
                              const char *label);
/* A copy, or a fill (src NULL, value its value). */
void px__prof_copy_begin(px__prof *p, px_instance *inst, const px_view *dst, const px_view *src,
                         const void *value, px_copy_path path);
px_status px__prof_copy_end(px__prof *p, px_instance *inst, const px_view *dst, px_copy_path path);
/* A fence of inst, or of every instance (inst NULL); name says whose. */
void px__prof_fence_begin(px__prof *p, px_instance *inst, const char *name);
void px__prof_fence_end(px__prof *p);
void px__prof_graph_begin(px__prof *p, px_instance *inst, const char *label);
void px__prof_graph_end(px__prof *p, px_instance *inst);

#endif /* PX_OBSERVABILITY_PROFILE_H */
