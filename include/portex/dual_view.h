/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/** @file
 * portex — dual views (Kokkos' DualView): a view and its mirror in another memory space,
 * with a record of which side was modified last, so that a sync copies only when the side
 * asked for is out of date, and says which way it copied.
 * @code
 *   px_dual_view *dv;
 *   px_dual_view_create(&dv, device_view, px_host());   // + a host mirror (no copy yet)
 *   px_view *h;
 *   px_dual_view_get(dv, px_host(), &h);                 // the host side (borrowed)
 *   ... fill h on the host ...
 *   px_dual_view_modify(dv, h);                          // h is now the newer side
 *   px_dual_view_sync(dv, device_view, inst, NULL);      // copies host -> device on inst
 *   px_dual_view_sync(dv, device_view, inst, NULL);      // up to date: copies nothing
 * @endcode
 * A side is named by its view (px_dual_view_get gives the side in a space). When both sides
 * are one view (the other space is the view's own: a host-only build), modify and sync
 * never copy. Modifying one side while the other holds changes not synced is refused: one
 * side's changes would be lost. The dual view holds a reference to each side; its views
 * outlive it if the program holds references of its own. Not thread-safe: one thread at a
 * time per dual view. */
#ifndef PORTEX_DUAL_VIEW_H
#define PORTEX_DUAL_VIEW_H

#include <stdbool.h>

#include "portex/copy.h"
#include "portex/export.h"
#include "portex/instance.h"
#include "portex/view.h"

PX_EXTERN_C_BEGIN

/** A dual view (opaque). */
typedef struct px_dual_view px_dual_view;

/** What px_dual_view_sync did. */
typedef struct px_dual_sync {
    bool copied;       /**< false: the side was up to date */
    px_space from;     /**< the space copied from (when copied) */
    px_space to;       /**< the space copied to (when copied) */
    px_copy_path path; /**< the copy's path (when copied) */
} px_dual_sync;

/** A dual view of `view` (one more reference) and a mirror of it in `other`
 * (px_view_create_mirror_view: `view` itself when it already lives there). The contents are
 * not copied; both sides count as in sync until one is modified. */
PX_API px_status px_dual_view_create(px_dual_view **out, px_view *view, px_space other);
/** A dual view of two views of the same element type and extents (one more reference to
 * each), in any spaces, the same one included; in sync to begin with. */
PX_API px_status px_dual_view_wrap(px_dual_view **out, px_view *a, px_view *b);
/** Drops the dual view's references to its sides and frees it; sets *dv to NULL. */
PX_API px_status px_dual_view_destroy(px_dual_view **dv);

/** The side that lives in `space` (the first given, when both do): a borrowed reference,
 * valid while the dual view lives. PX_ERR_INVALID_ARGUMENT when neither lives there. */
PX_API px_status px_dual_view_get(const px_dual_view *dv, px_space space, px_view **out);
/** Marks `side` as modified: the other side is now out of date. Refused when the other
 * side was modified and not synced since. */
PX_API px_status px_dual_view_modify(px_dual_view *dv, const px_view *side);
/** Whether `side` is out of date (the other side was modified since they were last in
 * sync). */
PX_API px_status px_dual_view_need_sync(const px_dual_view *dv, const px_view *side, bool *out);
/** Brings `side` up to date: copies the other side into it when that one was modified
 * since, else nothing. With an instance, the copy is ordered on it (px_deep_copy_async);
 * with NULL it is finished on return (px_deep_copy). `done` (may be NULL) says what it did.
 * After it both sides are in sync. */
PX_API px_status px_dual_view_sync(px_dual_view *dv, const px_view *side, px_instance *inst,
                                   px_dual_sync *done);

PX_EXTERN_C_END

#endif /* PORTEX_DUAL_VIEW_H */
