/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: the timeline's records (observability/timeline.c keeps them) and the Chrome
 * trace JSON written from them at the last px_finalize (timeline_trace.c). */
#ifndef PX_OBSERVABILITY_TIMELINE_TRACE_H
#define PX_OBSERVABILITY_TIMELINE_TRACE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Records per chunk (a power of two). */
#define PX__TL_CHUNK_SHIFT 12
#define PX__TL_CHUNK ((int64_t)1 << PX__TL_CHUNK_SHIFT)
/* A record's state. */
enum {
    PX__TL_FREE = 0,  /* reserved, being begun */
    PX__TL_OPEN_HOST, /* t0 set, waiting for end */
    PX__TL_OPEN_GPU,  /* both events made, the first recorded, waiting for end */
    PX__TL_PENDING,   /* both events recorded, in the queue of records to resolve */
    PX__TL_DONE,      /* t0 and t1 known */
    PX__TL_DROPPED,   /* an event could not be made or recorded (counted in dropped) */
    PX__TL_UNRESOLVED /* its events could not be read, or end never came */
};

typedef struct px__tl_rec {
    union {
        struct {
            int64_t t0, t1;
        } t; /* DONE: host clock, ns */
        struct {
            void *ev0, *ev1;
        } ev; /* OPEN_GPU, PENDING */
    } u;
    uint64_t bytes;
    uint32_t label, kind; /* interned strings */
    int32_t lane;
    int16_t dev;  /* GPU records: the device entry, exec * PX__MAX_DEVICES + device */
    uint8_t path; /* px_copy_path; PX_COPY_NONE: not a copy */
    uint8_t state;
} px__tl_rec;
_Static_assert(sizeof(px__tl_rec) <= 40,
               "a record is 40 bytes (the memory timeline.c's comment promises)");

typedef struct px__tl_lane {
    char *name;      /* "solver (cuda:0)", "host thread 2" */
    char *instance;  /* the instance's label; NULL for a host thread */
    char *space;     /* "cuda:0", "openmp", "serial"; "host" for a host thread */
    const void *key; /* the instance's (px__observed); NULL for a host thread */
    uint32_t number; /* the instance's creation number: its identity, and its order */
    bool host;
} px__tl_lane;

/* Record i of a table of chunks of PX__TL_CHUNK records. */
static inline px__tl_rec *px__tl_rec_at(px__tl_rec *const *chunks, int64_t i)
{
    return &chunks[i >> PX__TL_CHUNK_SHIFT][i & (PX__TL_CHUNK - 1)];
}

/* What the trace is written from: the records (n, in chunks), the interned strings their
   label and kind index, the lanes, and the counts the trace reports. */
typedef struct px__tl_trace {
    px__tl_rec *const *chunks;
    int64_t n;
    char *const *str;
    const px__tl_lane *lanes;
    int nlanes;
    uint64_t written, dropped, unresolved;
    int64_t max;
} px__tl_trace;

/* Writes t's DONE records to f as a Chrome trace (errors: ferror(f)). */
void px__timeline_write(FILE *f, const px__tl_trace *t);

#endif /* PX_OBSERVABILITY_TIMELINE_TRACE_H */
