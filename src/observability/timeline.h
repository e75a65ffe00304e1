/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: the timeline. With PX_TIMELINE=<path> (or px_init_options.timeline) every
 * dispatch, copy, fill, fence, graph launch and region is recorded: its instance, label,
 * kind, copy path and bytes, and its start and end, from events on the instance's queue
 * for backends whose work runs off the host (CUDA) and from the host's clock for those
 * whose work runs in the call (serial, OpenMP). At the last px_finalize the records are
 * written as a Chrome/Perfetto trace (JSON, chrome://tracing or ui.perfetto.dev), one
 * lane per instance and one per host thread for regions; scripts/plot/timeline_plot.py draws it.
 *
 * The trace: {"traceEvents": [...], "displayTimeUnit": "ms", "otherData": {...}}. One
 * complete event ("ph": "X") per record: name the label, cat the kind, ts and dur in
 * microseconds since the earliest record, pid 1, tid the lane, args {"instance" (or
 * "thread" on a host thread's lane), "space" ("cuda:0", "openmp", "serial", "host"),
 * "path" (copies and fills), "bytes" (when not 0)}; metadata events name the process
 * ("portex") and each lane, and order the lanes: host threads first, then instances in
 * creation order. otherData: portex_version, clock, origin_ns (the earliest record on
 * CLOCK_MONOTONIC), records, dropped, unresolved, max_records.
 *
 * Bounded: at most PX_TIMELINE_MAX records (default 1,000,000; more are counted, not
 * kept), and at most a fixed number of GPU events pending at once (older records are
 * resolved as their events complete). observability/timeline.c says what it allocates. */
#ifndef PX_OBSERVABILITY_TIMELINE_H
#define PX_OBSERVABILITY_TIMELINE_H

#include <stdint.h>

#include "observability/observed.h"
#include "portex.h"

/* Starts recording into memory; the trace goes to `path` at px__timeline_finish. The file
   is opened (created or emptied) now, so that a path that cannot be written fails here
   (PX_ERR_SYSTEM, with the system's reason) rather than after the run; PX_TIMELINE_MAX is
   read now (not a count: PX_ERR_INVALID_ARGUMENT). Sets PX__PROF_TIMELINE in
   px__prof_mask, which px__timeline_finish clears. PX_ERR_BUSY while recording already.
   Called with px_init's lock held. */
px_status px__timeline_start(const char *path);
/* Resolves every record (the work has finished: px_finalize fenced it), writes the trace
   and frees everything; an error writing the file is returned (PX_ERR_SYSTEM), the records
   go anyway. PX_OK, doing nothing, when not recording. Called with px_finalize's lock
   held, before the backends' finalize (their events are destroyed here). */
px_status px__timeline_finish(void);
/* The path being recorded to (valid until px__timeline_finish), or NULL. */
const char *px__timeline_path(void);

/* One operation being recorded: begin before it is issued, end after, with the same
   instance (`on`). on NULL: a span of the calling host thread (a region, a fence), timed by
   the host's clock. Work on an instance being captured runs later, as a graph: it is not
   recorded. kind and label are copied. Any thread may call these at any time while
   recording; they never fail, never print and leave the thread's last error as it was.
   m->rec is -1 when nothing is recorded (the timeline off or full, or an event that could
   not be made or recorded: counted as dropped); end with rec -1 does nothing, and sets
   it to -1. */
typedef struct px__tl_mark {
    int64_t rec;
} px__tl_mark;
void px__timeline_begin(px__tl_mark *m, const px__observed *on, const char *kind,
                        const char *label);
void px__timeline_end(px__tl_mark *m, const px__observed *on, px_copy_path path, uint64_t bytes);

#endif /* PX_OBSERVABILITY_TIMELINE_H */
