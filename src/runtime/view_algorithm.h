/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: what the library's algorithms over views (sorts, prefix sums) share: the checks
 * of their views, and where they run: on the caller's instance, or (inst NULL) on the
 * default instance of the first view's space after all earlier work, waited for. */
#ifndef PX_RUNTIME_VIEW_ALGORITHM_H
#define PX_RUNTIME_VIEW_ALGORITHM_H

#include <stdbool.h>

#include "portex.h"
#include "runtime/instance.h"

/* A contiguous rank-1 view (`what` names it in messages). */
px_status px__algo_check_vector(const px_view *v, const char *what);
/* v is a contiguous rank-1 view of ref's extent in ref's space. */
px_status px__algo_check_beside(const px_view *v, const char *what, const px_view *ref,
                                const char *ref_what);
/* The memory of a and b overlaps. */
bool px__algo_overlap(const px_view *a, const px_view *b);

/* The views an algorithm reads or writes, as messages name them. */
typedef struct px__algo_call {
    const char *what; /* the operation, for messages: "a sort" (the caller is named already) */
    const px_view *const *views;
    const char *const *names;
    int nviews; /* views[0] is not NULL; the others may be */
} px__algo_call;

/* The instance c runs on (*inst, or NULL for the default instance of views[0]'s space,
   after every instance's earlier work: *wait is set), checked: not capturing, reaching
   every view. The caller then queues its work with the backend and calls
   px__algo_finish. */
px_status px__algo_begin(const px__algo_call *c, px_instance **inst, bool *wait);
/* Waits for inst when the call is the blocking form. */
px_status px__algo_finish(px_instance *inst, bool wait);

#endif /* PX_RUNTIME_VIEW_ALGORITHM_H */
