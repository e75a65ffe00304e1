/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The public profiling calls (portex/tools.h): regions, sections, events, metadata, and
 * which observers are on. Each checks its arguments whether or not an observer is on, so
 * that a program's mistakes show without a tool too. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/state.h"
#include "base/util.h"
#include "observability/kokkos_tools.h"
#include "observability/nvtx.h"
#include "observability/profile.h"
#include "observability/tools_api.h"

/* ---- Regions: a stack per thread ----------------------------------------------------- */

/* The timeline keeps the spans of the innermost regions; deeper ones still reach the tool
   library and NVTX. */
#define REGION_SPANS 64

static _Thread_local int region_depth;
static _Thread_local px__tl_mark region_span[REGION_SPANS];

/* Regions live from a px_init to its last px_finalize, which forgets those left open on
   every thread by starting a new epoch: a thread's depth counts only in the epoch it was
   set in. So after the next px_init no thread can pop a region of the last run, and a
   tool library (loaded anew) never hears a pop without its push. */
static atomic_uint region_epoch;
static _Thread_local unsigned region_epoch_seen;

static void regions_of_this_run(void)
{
    const unsigned now = atomic_load_explicit(&region_epoch, memory_order_acquire);
    if (region_epoch_seen == now) return;
    region_epoch_seen = now;
    region_depth = 0;
}

void px__regions_forget(void) { atomic_fetch_add_explicit(&region_epoch, 1, memory_order_acq_rel); }

px_status px_region_push(const char *name)
{
    PX__ENTER;
    PX__ARG(name, "name must not be NULL");
    PX__TRY(px__require_init());
    regions_of_this_run();
    if (region_depth == INT32_MAX)
        return PX__FAIL(PX_ERR_OVERFLOW, "too many regions open on this thread");
    const unsigned on = px__prof_mask;
    if (on & PX__PROF_KOKKOS) px__kp_push_region(name);
    if (on & PX__PROF_NVTX) px__nvtx_push(PX__NVTX_REGION, name);
    if (region_depth < REGION_SPANS) {
        region_span[region_depth].rec = -1;
        if (on & PX__PROF_TIMELINE)
            px__timeline_begin(&region_span[region_depth], NULL, "region", name);
    }
    region_depth++;
    return PX_OK;
}

px_status px_region_pop(void)
{
    PX__ENTER;
    PX__TRY(px__require_init());
    regions_of_this_run();
    if (region_depth == 0)
        return PX__FAIL(PX_ERR_INVALID_ARGUMENT, "no region is open on this thread");
    region_depth--;
    const unsigned on = px__prof_mask;
    if (region_depth < REGION_SPANS && (on & PX__PROF_TIMELINE))
        px__timeline_end(&region_span[region_depth], NULL, PX_COPY_NONE, 0);
    if (on & PX__PROF_NVTX) px__nvtx_pop();
    if (on & PX__PROF_KOKKOS) px__kp_pop_region();
    return PX_OK;
}

/* ---- Sections: a table shared by every thread ----------------------------------------- */

typedef struct section {
    char *name;       /* NULL: a free slot */
    uint32_t tool_id; /* the tool library's id */
    bool running;
    px__tl_mark span;
} section;

static pthread_mutex_t sections_lock = PTHREAD_MUTEX_INITIALIZER;
static section *sections;
static uint32_t n_sections;

/* The section id names, locked, or an error (unlocked). */
static px_status section_get(uint32_t id, section **out)
{
    pthread_mutex_lock(&sections_lock);
    if (id == 0 || id > n_sections || !sections[id - 1].name) {
        pthread_mutex_unlock(&sections_lock);
        return px__error(PX_ERR_INVALID_ARGUMENT,
                         "%u is not a profile section (px_profile_section_create "
                         "gives one)",
                         id);
    }
    *out = &sections[id - 1];
    return PX_OK;
}

/* The section id names, locked, now running (or not); an error (unlocked) when it was so
   already. */
static px_status section_switch(uint32_t id, bool running, section **out)
{
    PX__TRY(section_get(id, out));
    if ((*out)->running == running) {
        pthread_mutex_unlock(&sections_lock);
        return px__error(PX_ERR_INVALID_ARGUMENT,
                         running ? "section %u is running already" : "section %u is not running",
                         id);
    }
    (*out)->running = running;
    return PX_OK;
}

px_status px_profile_section_create(const char *name, uint32_t *id)
{
    PX__ENTER;
    PX__ARG(id, "id must not be NULL");
    *id = 0;
    PX__ARG(name, "name must not be NULL");
    PX__TRY(px__require_init());
    char *copy = px__strdup(name);
    if (!copy) return PX__FAIL(PX_ERR_OUT_OF_MEMORY, "out of host memory for the section's name");
    pthread_mutex_lock(&sections_lock);
    uint32_t slot = 0;
    while (slot < n_sections && sections[slot].name) slot++;
    if (slot == n_sections) {
        section *grown = n_sections < UINT32_MAX / 2
                             ? px__realloc(sections, (n_sections * 2 + 8) * sizeof *grown)
                             : NULL;
        if (!grown) {
            pthread_mutex_unlock(&sections_lock);
            free(copy);
            return PX__FAIL(PX_ERR_OUT_OF_MEMORY, "out of host memory for the section table");
        }
        memset(grown + n_sections, 0, (n_sections + 8) * sizeof *grown);
        sections = grown;
        n_sections = n_sections * 2 + 8;
    }
    section *s = &sections[slot];
    s->name = copy;
    s->running = false;
    s->span.rec = -1;
    s->tool_id = 0;
    pthread_mutex_unlock(&sections_lock);
    /* The library is called unlocked; it writes its id into the slot this call owns. */
    uint32_t tool_id = 0;
    if (px__prof_mask & PX__PROF_KOKKOS) px__kp_create_section(name, &tool_id);
    pthread_mutex_lock(&sections_lock);
    sections[slot].tool_id = tool_id;
    pthread_mutex_unlock(&sections_lock);
    *id = slot + 1;
    return PX_OK;
}

px_status px_profile_section_start(uint32_t id)
{
    PX__ENTER;
    section *s = NULL;
    PX__TRY(section_switch(id, true, &s));
    const uint32_t tool_id = s->tool_id;
    px__tl_mark span = {-1};
    char *name = px__strdup(s->name);
    pthread_mutex_unlock(&sections_lock);
    const unsigned on = px__prof_mask;
    if (on & PX__PROF_KOKKOS) px__kp_start_section(tool_id);
    if ((on & PX__PROF_TIMELINE) && name) px__timeline_begin(&span, NULL, "section", name);
    free(name);
    pthread_mutex_lock(&sections_lock);
    sections[id - 1].span = span;
    pthread_mutex_unlock(&sections_lock);
    return PX_OK;
}

px_status px_profile_section_stop(uint32_t id)
{
    PX__ENTER;
    section *s = NULL;
    PX__TRY(section_switch(id, false, &s));
    const uint32_t tool_id = s->tool_id;
    px__tl_mark span = s->span;
    pthread_mutex_unlock(&sections_lock);
    const unsigned on = px__prof_mask;
    if (on & PX__PROF_TIMELINE) px__timeline_end(&span, NULL, PX_COPY_NONE, 0);
    if (on & PX__PROF_KOKKOS) px__kp_stop_section(tool_id);
    return PX_OK;
}

px_status px_profile_section_destroy(uint32_t id)
{
    PX__ENTER;
    section *s = NULL;
    PX__TRY(section_get(id, &s));
    const uint32_t tool_id = s->tool_id;
    free(s->name);
    memset(s, 0, sizeof *s);
    pthread_mutex_unlock(&sections_lock);
    if (px__prof_mask & PX__PROF_KOKKOS) px__kp_destroy_section(tool_id);
    return PX_OK;
}

/* The last px_finalize: sections the program left are forgotten (the ids go with portex). */
void px__sections_forget(void)
{
    pthread_mutex_lock(&sections_lock);
    for (uint32_t i = 0; i < n_sections; ++i) free(sections[i].name);
    free(sections);
    sections = NULL;
    n_sections = 0;
    pthread_mutex_unlock(&sections_lock);
}

/* ---- Events, metadata, what is on ------------------------------------------------------ */

px_status px_profile_event(const char *name)
{
    PX__ENTER;
    PX__ARG(name, "name must not be NULL");
    PX__TRY(px__require_init());
    const unsigned on = px__prof_mask;
    if (on & PX__PROF_KOKKOS) px__kp_event(name);
    if (on & PX__PROF_NVTX) px__nvtx_mark(name);
    if (on & PX__PROF_TIMELINE) {
        px__tl_mark m;
        px__timeline_begin(&m, NULL, "event", name);
        px__timeline_end(&m, NULL, PX_COPY_NONE, 0);
    }
    return PX_OK;
}

px_status px_declare_metadata(const char *key, const char *value)
{
    PX__ENTER;
    PX__ARG(key && value, "key and value must not be NULL");
    PX__TRY(px__require_init());
    if (px__prof_mask & PX__PROF_KOKKOS) px__kp_metadata(key, value);
    return PX_OK;
}

px_status px_tools_info_get(px_tools_info *out)
{
    PX__ENTER;
    PX__ARG(out, "out must not be NULL");
    PX__TRY(px__require_init());
    const unsigned on = px__prof_mask;
    out->library = (on & PX__PROF_KOKKOS) ? px__kp_library() : NULL;
    out->library_fences = (on & PX__PROF_KOKKOS) && px__kp_wants_fences();
    out->nvtx = (on & PX__PROF_NVTX) != 0;
    out->timeline = px__timeline_path();
    return PX_OK;
}
