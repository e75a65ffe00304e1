/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Team kernels on the host backends: scratch per running thread, the league in shares. */
#include "backends/host/team.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "backends/services.h"

#define LINE 64
/* Chunks of a PX_TEAM_FOR's league per part: enough that uneven teams balance, few enough
   that handing them out (one atomic add each) costs nothing next to a chunk's teams. */
#define CHUNKS_PER_PART 64

px_status px__host_team_begin(px__host_team *t, const px__dispatch *d, int parts)
{
    memset(t, 0, sizeof *t);
    t->d = d;
    t->parts = parts < 1 ? 1 : parts;
    const px_kernel *k = d->kernel;
    /* The core checked each level against its limit (1 GiB at most): no sum overflows. */
    size_t slot = 0;
    for (int l = 0; l < 2; ++l) {
        t->bytes[l] = d->team.scratch_team[l] + d->team.scratch_thread[l];
        slot += (t->bytes[l] + LINE - 1) / LINE * LINE;
    }
    t->slot = slot;
    size_t total = 0;
    if (slot > 0) {
        if (px__mul_overflows(slot, (size_t)t->parts, &total))
            return px__error(PX_ERR_OVERFLOW, "the scratch of kernel '%s' overflows", k->name);
        t->scratch = px__aligned_alloc(LINE, total);
        if (t->scratch == NULL)
            return px__error(PX_ERR_OUT_OF_MEMORY,
                             "out of host memory for the scratch of kernel '%s': %zu bytes (%d "
                             "threads, %zu each)",
                             k->name, total, t->parts, slot);
    }
    /* A PX_TEAM_FOR on several threads: chunks handed out as threads finish. */
    atomic_init(&t->next, 0);
    if (k->kind != PX_KERNEL_REDUCE && t->parts > 1 &&
        d->team.league_size <= INT64_MAX / 2) { /* no wrap */
        const int64_t per = d->team.league_size / ((int64_t)t->parts * CHUNKS_PER_PART);
        t->chunk = per > 0 ? per : 1;
    }
    if (k->kind == PX_KERNEL_REDUCE) {
        t->stride = (k->value_size + LINE - 1) / LINE * LINE;
        t->partial = px__aligned_alloc(LINE, t->stride * (size_t)t->parts);
        if (t->partial == NULL) {
            free(t->scratch);
            t->scratch = NULL;
            return px__error(PX_ERR_OUT_OF_MEMORY,
                             "out of host memory for the %d partial results of kernel '%s'",
                             t->parts, k->name);
        }
    }
    return PX_OK;
}

void px__host_team_part(px__host_team *t, int part)
{
    const px__dispatch *d = t->d;
    const int64_t n = d->team.league_size;
    px__team_run run;
    memset(&run, 0, sizeof run);
    run.league_size = n;
    run.team_size = 1;
    run.vector_length = 1;
    run.rows = d->team_rows;
    unsigned char *mine = t->scratch ? t->scratch + (size_t)part * t->slot : NULL;
    for (int l = 0; l < 2; ++l) {
        run.scratch_team[l] = d->team.scratch_team[l];
        run.scratch_thread[l] = d->team.scratch_thread[l];
        run.scratch[l] = t->bytes[l] ? mine : NULL;
        if (mine) mine += (t->bytes[l] + LINE - 1) / LINE * LINE;
    }
    void *value = t->partial ? t->partial + (size_t)part * t->stride : NULL;
    if (t->chunk == 0) { /* a contiguous share of the league */
        const int64_t q = n / t->parts, r = n % t->parts;
        run.league_begin = part * q + (part < r ? part : r);
        run.league_end = run.league_begin + q + (part < r ? 1 : 0);
        ((px__host_league_fn)d->entry)(d->args, &run, value);
        return;
    }
    for (;;) { /* chunks, taken as this part finishes the last */
        run.league_begin = atomic_fetch_add_explicit(&t->next, t->chunk, memory_order_relaxed);
        if (run.league_begin >= n) return;
        run.league_end = n - run.league_begin > t->chunk ? run.league_begin + t->chunk : n;
        ((px__host_league_fn)d->entry)(d->args, &run, value);
    }
}

void px__host_team_end(px__host_team *t)
{
    const px__dispatch *d = t->d;
    const px_kernel *k = d->kernel;
    if (t->partial) {
        unsigned char *total = t->partial; /* part 0's, folded into in part order */
        for (int p = 1; p < t->parts; ++p) k->join(total, t->partial + (size_t)p * t->stride);
        memcpy(d->result, total, k->value_size);
    }
    free(t->partial);
    free(t->scratch);
    t->partial = NULL;
    t->scratch = NULL;
}
