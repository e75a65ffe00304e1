/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/** @file
 * portex — profiling: regions, sections, events and metadata for the observers portex
 * has on, and which they are (docs/tools.md).
 *
 * Observers, each chosen at px_init (px_init_options or the environment):
 * - a Kokkos Tools library (PX_TOOLS_LIBS or KOKKOS_TOOLS_LIBS): kokkos-tools'
 *   connectors, unmodified, or any library with the kokkosp_* entry points. It hears of
 *   every dispatch (with its label), copy, fill, fence, allocation, region, section,
 *   event and metadata, as Kokkos tells it; PX_TOOLS_ARGS or KOKKOS_TOOLS_ARGS go to its
 *   kokkosp_parse_args;
 * - NVTX (PX_NVTX=1, CUDA builds): ranges in a "portex" domain and named streams, for
 *   Nsight;
 * - the timeline (PX_TIMELINE=trace.json): every operation with its instance and times,
 *   written as a Chrome/Perfetto trace at the last px_finalize (scripts/plot/timeline_plot.py
 *   draws it).
 * With none on, these functions check their arguments and return: the cost is a call. */
#ifndef PORTEX_TOOLS_H
#define PORTEX_TOOLS_H

#include <stdbool.h>
#include <stdint.h>

#include "portex/core.h"
#include "portex/export.h"

PX_EXTERN_C_BEGIN

/** Opens a region named `name` on the calling thread (Kokkos' pushRegion, an NVTX range,
 * a span on the thread's lane of the timeline). Regions nest, per thread, within one
 * px_init ... last px_finalize: the last px_finalize forgets those left open on every
 * thread (the tool library is not told; it is finalised), so after the next px_init a
 * thread has none open. */
PX_API px_status px_region_push(const char *name);
/** Closes the calling thread's innermost region; PX_ERR_INVALID_ARGUMENT if it has none
 * (one left open at the last px_finalize is not there any more). */
PX_API px_status px_region_pop(void);

/** @{ */
/** A named section that can be started and stopped many times (Kokkos' profile sections);
 * *id names it in the calls below. */
PX_API px_status px_profile_section_create(const char *name, uint32_t *id);
PX_API px_status px_profile_section_start(uint32_t id);
PX_API px_status px_profile_section_stop(uint32_t id);
PX_API px_status px_profile_section_destroy(uint32_t id);
/** @} */

/** A point event (Kokkos' markEvent, an NVTX mark). */
PX_API px_status px_profile_event(const char *name);
/** A key and value about the run for the tool library (Kokkos' declareMetadata). */
PX_API px_status px_declare_metadata(const char *key, const char *value);

/** Which observers are on. */
typedef struct px_tools_info {
    const char *library;  /**< the Kokkos Tools library loaded, or NULL */
    bool library_fences;  /**< it asked for a fence after every operation (see docs/tools.md) */
    bool nvtx;            /**< NVTX ranges and names are on */
    const char *timeline; /**< the trace the timeline is written to, or NULL */
} px_tools_info;

/** Fills *out; the strings live until the last px_finalize. */
PX_API px_status px_tools_info_get(px_tools_info *out);

PX_EXTERN_C_END

#endif /* PORTEX_TOOLS_H */
