/* Internal: the timeline. With PX_TIMELINE=<path> (or px_init_options.timeline) every
 * dispatch, copy, fill, fence, graph launch and region is recorded: its instance, label,
 * kind, copy path and bytes, and its start and end, from events on the instance's queue
 * for backends whose work runs off the host (CUDA) and from the host's clock for those
 * whose work runs in the call (serial, OpenMP). At the last px_finalize the records are
 * written as a Chrome/Perfetto trace (JSON, chrome://tracing or ui.perfetto.dev), one
 * lane per instance and one per host thread for regions; tools/timeline_plot.py draws it.
 *
 * Bounded: at most PX_TIMELINE_MAX records (default 1,000,000; more are counted, not
 * kept), and at most a fixed number of GPU events pending at once (older records are
 * resolved as their events complete). */
#ifndef PX_CORE_TIMELINE_H
#define PX_CORE_TIMELINE_H

#include <stdint.h>

#include "portex.h"

/* Starts recording into memory; the trace goes to `path` at px__timeline_finish. */
px_status px__timeline_start(const char *path, const char *func);
/* Resolves every record (the work has finished: px_finalize fenced it), writes the trace
   and frees everything; an error writing the file is returned, the records go anyway. */
px_status px__timeline_finish(const char *func);
/* The path being recorded to, or NULL. */
const char *px__timeline_path(void);

/* One operation being recorded: begin before it is issued, end after. inst NULL: a span
   of the calling host thread (a region, a fence of every instance). A record whose begin
   found the timeline full, or failed to record an event, is dropped at end. */
typedef struct px__tl_mark { int64_t rec; } px__tl_mark;
void px__timeline_begin(px__tl_mark *m, px_instance *inst, const char *kind, const char *label);
void px__timeline_end(px__tl_mark *m, px_instance *inst, px_copy_path path, uint64_t bytes);

#endif /* PX_CORE_TIMELINE_H */
