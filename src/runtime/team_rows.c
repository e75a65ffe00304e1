/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Leagues shaped by the library over rows of uneven length (px_team_rows, portex/team.h).
 *
 * The offsets are read back once; the row lengths decide the shape:
 *   - host backends run a team on one thread, so nothing waits on a long row but the thread
 *     that has it: teams of about ROWS_HOST_ENTRIES entries' worth of rows (the league's
 *     chunks then balance uneven rows, docs/openmp.md), no long rows;
 *   - a GPU runs a row on the lanes of one thread of a warp-wide team: the lane count is
 *     the power of two (1 to 32) that minimises a model of the warp steps the league takes
 *     (below), and rows past LONG_STEPS lane steps get a team of their own each, first in
 *     the league, so that the longest work starts first.
 * The model counts, for each warp of the short part, its longest row in lane steps, plus a
 * fixed cost per warp and the shuffle steps of the lanes' fold; a long row costs the fixed
 * cost and its steps over 256 lanes for each warp of its team that has entries to load,
 * plus the team's fold. It sees what the measurements in
 * docs/results/history.md ("Rows") showed: few lanes for short uniform rows (idle lanes and
 * folds cost more than they share), more lanes where rows of very different lengths share
 * a warp (the warp waits for its longest row), lanes enough that a warp's rows do not
 * spread over more memory than the cache keeps for it. */
#include "runtime/team_rows.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "portex/copy.h"
#include "portex/instance.h"
#include "runtime/instance.h"
#include "spaces/view.h"

#define ROWS_MAGIC 0x50585257u /* "PXRW" */

/* Host backends: rows a team holds about this many entries (at least one row). */
#define ROWS_HOST_ENTRIES 256
/* GPU: threads x lanes of a team (a block of 256: full occupancy on every recent GPU). */
#define GPU_TEAM_THREADS 256
/* GPU: a row of more than this many lane steps is long. */
#define LONG_STEPS 32
/* GPU: lane counts tried, 1 to 32. */
#define LANE_CHOICES 6
/* GPU model, in lane steps: a warp's fixed cost (offsets, the result's store), a shuffle
   step of a fold, a long row's team fold (its barrier and slots). Fitted to the lane sweep
   of bench/cuda/bench_team on an H200 (docs/results/history.md, "Rows"). */
#define WARP_FIXED 1.0
#define FOLD_STEP 0.25
#define TEAM_FOLD 8.0
/* GPU: the entries (about 12 bytes each: an index and a double) a warp's short rows may
   span on average before they stop sharing the cache well; fewer lanes than keep within
   it are not tried. */
#define WARP_ENTRIES 256

struct px_team_rows {
    uint32_t magic;
    const px__backend *be;
    int device;
    px_view *offsets;      /* retained */
    px_view *long_rows;    /* device backends: the long rows' indices */
    px__team_rows_run run; /* what the kernels read (a CUDA launch: a copy in its parameters) */
    px_team_rows_info info;
};

typedef struct rows_shape {
    int32_t lanes;
    int64_t per_team;
    int64_t long_after; /* -1: none */
    int64_t nlong;
} rows_shape;

static int64_t row_len(const int64_t *off, int64_t r) { return off[r + 1] - off[r]; }

/* The model of the top of the file for every lane count at once, in one pass over the rows:
   cost[j], long[j] and the short rows' entries and count for 2^j lanes. */
static void gpu_costs(const int64_t *off, int64_t n, double cost[LANE_CHOICES],
                      int64_t nlong[LANE_CHOICES], int64_t short_rows[LANE_CHOICES],
                      int64_t short_entries[LANE_CHOICES])
{
    const int team_warps = GPU_TEAM_THREADS / 32;
    int64_t steps[LANE_CHOICES] = {0};
    for (int j = 0; j < LANE_CHOICES; ++j) {
        cost[j] = 0.0;
        nlong[j] = short_rows[j] = short_entries[j] = 0;
    }
    for (int64_t r = 0; r < n; ++r) {
        const int64_t len = row_len(off, r);
        for (int j = 0; j < LANE_CHOICES; ++j) {
            const int64_t lanes = (int64_t)1 << j;
            if (len > LONG_STEPS * lanes) {
                /* A team of its own: the warps with entries to load, its steps, its fold. */
                const int64_t busy = (len + 31) / 32 < team_warps ? (len + 31) / 32 : team_warps;
                ++nlong[j];
                cost[j] +=
                    (double)busy *
                        (WARP_FIXED + (double)((len + GPU_TEAM_THREADS - 1) / GPU_TEAM_THREADS)) +
                    TEAM_FOLD;
            } else {
                const int64_t s = (len + lanes - 1) / lanes;
                if (s > steps[j]) steps[j] = s;
                ++short_rows[j];
                short_entries[j] += len;
            }
            /* The warp of 32 / lanes rows ends here: it takes its longest row's steps. */
            if ((r + 1) % (32 / lanes) == 0 || r + 1 == n) {
                cost[j] += WARP_FIXED + (double)steps[j] + FOLD_STEP * j;
                steps[j] = 0;
            }
        }
    }
}

static rows_shape choose_gpu(const int64_t *off, int64_t n)
{
    double cost[LANE_CHOICES];
    int64_t nlong[LANE_CHOICES], short_rows[LANE_CHOICES], short_entries[LANE_CHOICES];
    gpu_costs(off, n, cost, nlong, short_rows, short_entries);
    int best = LANE_CHOICES - 1;
    for (int j = LANE_CHOICES - 1; j >= 0; --j) {
        /* 32 / lanes rows of the short rows' mean length within WARP_ENTRIES. */
        const int64_t lanes = (int64_t)1 << j;
        const bool fits = short_entries[j] * (32 / lanes) <= (int64_t)WARP_ENTRIES * short_rows[j];
        if (fits && cost[j] <= cost[best]) best = j;
    }
    const int32_t lanes = (int32_t)1 << best;
    return (rows_shape){lanes, GPU_TEAM_THREADS / lanes,
                        nlong[best] > 0 ? (int64_t)LONG_STEPS * lanes : -1, nlong[best]};
}

static rows_shape choose_host(const int64_t *off, int64_t n)
{
    const int64_t entries = off[n] - off[0];
    int64_t per = entries > 0 ? ROWS_HOST_ENTRIES * n / entries : ROWS_HOST_ENTRIES;
    if (per < 1) per = 1;
    if (per > 4096) per = 4096;
    return (rows_shape){1, per, -1, 0};
}

/* The offsets as int64_t on the host, read back in inst's order; checks they never fall. */
static px_status read_offsets(px_instance *inst, px_view *offsets, const px_view_info *vi,
                              int64_t **out)
{
    const int64_t count = vi->extent[0];
    int64_t *off = malloc((size_t)count * sizeof *off);
    if (!off)
        return px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory for %lld offsets",
                         (long long)count);
    px_view *h = NULL;
    px_status st = px_view_create_mirror_view(&h, px_host(), offsets);
    if (st == PX_OK && h != offsets) st = px_deep_copy_async(inst, h, offsets, NULL);
    if (st == PX_OK) st = px_instance_fence(inst);
    if (st == PX_OK) {
        px_view_info hi;
        st = px_view_info_get(h, &hi);
        for (int64_t i = 0; st == PX_OK && i < count; ++i)
            off[i] =
                vi->dtype == PX_I64 ? ((const int64_t *)hi.data)[i] : ((const int32_t *)hi.data)[i];
    }
    if (h) px_view_release(&h);
    for (int64_t i = 0; st == PX_OK && i + 1 < count; ++i)
        if (off[i + 1] < off[i])
            st = px__error(PX_ERR_INVALID_ARGUMENT,
                           "offsets fall at row %lld (%lld, then %lld); a row's entries are "
                           "[offsets[r], offsets[r + 1]), nondecreasing",
                           (long long)i, (long long)off[i], (long long)off[i + 1]);
    if (st != PX_OK) {
        free(off);
        return st;
    }
    *out = off;
    return PX_OK;
}

/* The long rows' indices, in device memory of inst's device; run.long_rows points there.
   (The record itself travels in each launch's parameters.) */
static px_status upload_long_rows(px_instance *inst, px_team_rows *t, const int64_t *off, int64_t n)
{
    const int64_t count = t->info.long_rows > 0 ? t->info.long_rows : 1;
    px_view *h = NULL;
    px_status st = px_view_create_1d(&h, "px_team_rows long rows", px_host(), PX_I64, count);
    if (st == PX_OK)
        st = px_view_create_1d(&t->long_rows, "px_team_rows long rows", px_device(inst->device),
                               PX_I64, count);
    px_view_info hi, di;
    if (st == PX_OK) st = px_view_info_get(h, &hi);
    if (st == PX_OK) st = px_view_info_get(t->long_rows, &di);
    if (st == PX_OK) {
        int64_t *longs = hi.data, k = 0;
        for (int64_t r = 0; r < n && t->info.long_after >= 0; ++r)
            if (row_len(off, r) > t->info.long_after) longs[k++] = r;
        st = px_deep_copy_async(inst, t->long_rows, h, NULL);
    }
    if (st == PX_OK) st = px_instance_fence(inst);
    if (h) px_view_release(&h);
    if (st == PX_OK) t->run.long_rows = di.data;
    return st;
}

static px_status check_offsets(const px_instance *inst, const px_view_info *vi)
{
    PX__ARG(vi->rank == 1, "offsets has rank %d; expected a rank-1 view", vi->rank);
    PX__ARG(vi->dtype == PX_I32 || vi->dtype == PX_I64,
            "offsets holds %s; expected int32 (i32) or int64 (i64) offsets",
            px_dtype_string(vi->dtype));
    PX__ARG(vi->extent[0] >= 1, "offsets has no element; rows + 1 offsets are needed");
    PX__ARG(vi->stride[0] == 1, "offsets has stride %lld; expected consecutive elements",
            (long long)vi->stride[0]);
    const bool device = vi->space.kind == PX_SPACE_DEVICE;
    if (inst->be->runs_on_host)
        PX__ARG(!device, "offsets is in device memory; instance '%s' (%s) runs kernels on the host",
                inst->label, px_exec_space_string(inst->exec));
    else
        PX__ARG(vi->space.kind == PX_SPACE_HOST_PINNED ||
                    (device && vi->space.device == inst->device),
                "offsets is in %s memory%s; kernels of instance '%s' (%s, device %d) read "
                "device memory of their device or pinned host memory",
                px_space_kind_string(vi->space.kind), device ? " of another device" : "",
                inst->label, px_exec_space_string(inst->exec), inst->device);
    return PX_OK;
}

px_status px_team_rows_create(px_instance *inst, px_view *offsets, px_team_rows **rows)
{
    PX__ENTER;
    PX__ARG(rows, "rows must not be NULL");
    *rows = NULL;
    PX__TRY(px__instance_check(inst));
    PX__TRY(px__view_check(offsets, "offsets"));
    px_view_info vi;
    PX__TRY(px_view_info_get(offsets, &vi));
    PX__TRY(check_offsets(inst, &vi));

    int64_t *off = NULL;
    PX__TRY(read_offsets(inst, offsets, &vi, &off));
    const int64_t n = vi.extent[0] - 1;
    px_team_rows *t = calloc(1, sizeof *t);
    if (!t) {
        free(off);
        return px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory");
    }
    t->magic = ROWS_MAGIC;
    t->be = inst->be;
    t->device = inst->device;
    const rows_shape s = inst->be->runs_on_host ? choose_host(off, n) : choose_gpu(off, n);
    px_team_rows_info *in = &t->info;
    in->rows = n;
    in->entries = off[n] - off[0];
    for (int64_t r = 0; r < n; ++r)
        if (row_len(off, r) > in->max_entries) in->max_entries = row_len(off, r);
    in->vector_length = s.lanes;
    in->team_size = inst->be->runs_on_host ? 1 : GPU_TEAM_THREADS / s.lanes;
    in->rows_per_team = s.per_team;
    in->long_rows = s.nlong;
    in->long_after = s.long_after;
    in->league_size = s.nlong + (n + s.per_team - 1) / s.per_team;
    t->run = (px__team_rows_run){.offsets = vi.data,
                                 .long_rows = NULL,
                                 .nrows = n,
                                 .per_team = s.per_team,
                                 .long_after = s.long_after >= 0 ? s.long_after : INT64_MAX,
                                 .nlong = s.nlong,
                                 .offsets_i64 = vi.dtype == PX_I64};
    px_status st = px_view_retain(offsets);
    if (st == PX_OK) t->offsets = offsets;
    if (st == PX_OK && !inst->be->runs_on_host) st = upload_long_rows(inst, t, off, n);
    free(off);
    if (st != PX_OK) {
        px_team_rows_release(&t);
        return st;
    }
    *rows = t;
    return PX_OK;
}

static px_status check_rows(const px_team_rows *rows)
{
    PX__ARG(rows, "rows must not be NULL");
    PX__ARG(rows->magic == ROWS_MAGIC, "rows is not a live px_team_rows (released, or not one)");
    return PX_OK;
}

px_status px_team_rows_info_get(const px_team_rows *rows, px_team_rows_info *info)
{
    PX__ENTER;
    PX__TRY(check_rows(rows));
    PX__ARG(info, "info must not be NULL");
    *info = rows->info;
    return PX_OK;
}

px_status px_team_rows_release(px_team_rows **rows)
{
    PX__ENTER;
    if (!rows || !*rows) return PX_OK;
    px_team_rows *t = *rows;
    PX__TRY(check_rows(t));
    t->magic = 0;
    if (t->long_rows) px_view_release(&t->long_rows);
    if (t->offsets) px_view_release(&t->offsets);
    free(t);
    *rows = NULL;
    return PX_OK;
}

px_status px__team_rows_policy(px_team_policy *p, const px__backend *be, int device,
                               const void **run)
{
    const px_team_rows *rows = p->rows;
    PX__TRY(check_rows(rows));
    PX__ARG(rows->be == be && rows->device == device,
            "the policy's rows were made for %s device %d; this dispatch runs on %s device %d "
            "(make them with px_team_rows_create on an instance of the dispatch's kind)",
            px_exec_space_string(rows->be->exec), rows->device, px_exec_space_string(be->exec),
            device);
    p->league_size = rows->info.league_size;
    p->team_size = rows->info.team_size;
    p->vector_length = rows->info.vector_length;
    *run = &rows->run;
    return PX_OK;
}
