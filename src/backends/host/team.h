/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: team kernels on the host backends. One thread runs a team (team_size and
 * vector_length 1 as the body sees them: the nested loops run in order). A reduction's
 * league is cut into `parts` contiguous shares, one per thread of the backend, each
 * folding into its own partial, joined in part order (the same bits run after run). A
 * PX_TEAM_FOR's league is handed out in chunks, about 64 per part, to the parts as they
 * finish: teams of uneven cost (the rows of a power-law matrix) balance. */
#ifndef PX_BACKENDS_HOST_TEAM_H
#define PX_BACKENDS_HOST_TEAM_H

#include <stdatomic.h>

#include "backends/backend.h"

typedef struct px__host_team {
    const px__dispatch *d;
    int parts;
    size_t bytes[2];        /* a team's scratch by level (one thread: team part + one thread's) */
    size_t slot;            /* a part's scratch (both levels) */
    unsigned char *scratch; /* parts * slot, or NULL */
    size_t stride;          /* between partials */
    unsigned char *partial; /* parts values (reductions), or NULL */
    int64_t chunk;          /* teams per chunk handed out; 0: contiguous shares */
    atomic_int_least64_t next; /* the first team not handed out yet */
} px__host_team;

/* Plans d over `parts` and allocates what its parts need: every level's scratch for one
   team per part (per_team + per_thread bytes each, rounded to 16), and a reduction's
   partials. PX_ERR_OUT_OF_MEMORY naming the kernel and the bytes when it cannot. */
px_status px__host_team_begin(px__host_team *t, const px__dispatch *d, int parts);
/* Runs part `part`'s share of the league (any thread; one call per part). */
void px__host_team_part(px__host_team *t, int part);
/* Joins the partials into d->result (reductions) and frees what begin allocated. */
void px__host_team_end(px__host_team *t);

#endif /* PX_BACKENDS_HOST_TEAM_H */
