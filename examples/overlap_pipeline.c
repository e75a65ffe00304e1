/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The overlap pipeline (see overlap_pipeline.h). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "overlap_kernels.h"
#include "overlap_pipeline.h"

const char *const overlap_stage_names[OVERLAP_STAGES] = {"H2D", "compute", "D2H"};

#define TRY(call)                   \
    do {                            \
        st = (call);                \
        if (st != PX_OK) goto done; \
    } while (0)

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

/* Everything the pipeline allocates, so that one function frees it whatever happened. */
typedef struct pipeline {
    px_instance *parent;
    px_instance **part;                /* k */
    px_view *in, *out;                 /* the whole array, in host_space */
    px_view **slot;                    /* k work buffers of the largest chunk, in work_space */
    px_view **in_c, **out_c, **slot_c; /* per chunk: subviews */
    px_event **ev;      /* per chunk: before H2D, after H2D, after compute, after D2H */
    px_event *origin;   /* recorded first: the timeline's zero */
    px_copy_path *path; /* per chunk: H2D and D2H path */
} pipeline;

static void pipeline_free(pipeline *p, const overlap_config *cfg)
{
    for (int c = 0; c < cfg->chunks; ++c) {
        if (p->in_c && p->in_c[c]) px_view_release(&p->in_c[c]);
        if (p->out_c && p->out_c[c]) px_view_release(&p->out_c[c]);
        if (p->slot_c && p->slot_c[c]) px_view_release(&p->slot_c[c]);
        for (int s = 0; p->ev && s < 4; ++s)
            if (p->ev[4 * c + s]) px_event_destroy(&p->ev[4 * c + s]);
    }
    for (int i = 0; i < cfg->k; ++i) {
        if (p->slot && p->slot[i]) px_view_release(&p->slot[i]);
        if (p->part && p->part[i]) px_instance_destroy(&p->part[i]);
    }
    if (p->origin) px_event_destroy(&p->origin);
    if (p->in) px_view_release(&p->in);
    if (p->out) px_view_release(&p->out);
    free(p->part);
    free(p->slot);
    free(p->in_c);
    free(p->out_c);
    free(p->slot_c);
    free(p->ev);
    free(p->path);
}

/* Every view is written before it is read: no zero-fill. */
static px_status view_1d(px_view **v, const char *label, px_space space, int64_t n)
{
    return px_view_create_1d_ex(v, label, space, PX_F32, n, PX_VIEW_NO_INIT);
}

static int by_value(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The median of n values (n >= 1; the mean of the middle two when n is even). */
static double median(const double *v, int n)
{
    double s[OVERLAP_MAX_REPS];
    memcpy(s, v, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, by_value);
    return n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
}

/* Each stage summed over the chunks of the repetition just run (from its events), and,
   for the last one, its timeline. */
static px_status stage_times(pipeline *p, const overlap_config *cfg, double stage[OVERLAP_STAGES],
                             FILE *timeline)
{
    px_status st = PX_OK;
    for (int s = 0; s < OVERLAP_STAGES; ++s) stage[s] = 0.0;
    for (int c = 0; c < cfg->chunks; ++c) {
        float ms[4];
        for (int s = 0; s < 4; ++s) TRY(px_event_elapsed_ms(p->origin, p->ev[4 * c + s], &ms[s]));
        for (int s = 0; s < OVERLAP_STAGES; ++s) {
            stage[s] += ms[s + 1] - ms[s];
            if (timeline)
                fprintf(timeline, "%s,%d,%d,%s,%.4f,%.4f\n", cfg->timeline_tag, c, c % cfg->k,
                        overlap_stage_names[s], ms[s], ms[s + 1]);
        }
    }
done:
    return st;
}

static float input_value(int64_t i) { return (float)((i * 2654435761u) % 1000003u) * 1e-3f + 0.5f; }

/* Chunk c on its instance: copy in, scale, copy out, with events around the stages. */
static px_status issue_chunk(pipeline *p, const overlap_config *cfg, int c)
{
    px_status st = PX_OK;
    px_instance *inst = p->part[c % cfg->k];
    px_event **e = &p->ev[4 * c];
    const bool ev = !cfg->no_stage_events;
    overlap_args args = {.a = 2.0f, .b = 1.0f};
    px_view_info info;
    if (ev) TRY(px_event_record(e[0], inst));
    TRY(px_deep_copy_async(inst, p->slot_c[c], p->in_c[c], &p->path[2 * c]));
    if (ev) TRY(px_event_record(e[1], inst));
    TRY(px_view_get_span(p->slot_c[c], &args.x));
    TRY(px_view_info_get(p->slot_c[c], &info));
    TRY(px_parallel_for(inst, "overlap_scale", px_range(0, info.extent[0]),
                        PX_KERNEL(overlap_scale), &args));
    if (ev) TRY(px_event_record(e[2], inst));
    TRY(px_deep_copy_async(inst, p->out_c[c], p->slot_c[c], &p->path[2 * c + 1]));
    if (ev) TRY(px_event_record(e[3], inst));
done:
    return st;
}

/* One instance's chunks, in order, from one host thread. */
typedef struct lane {
    pipeline *p;
    const overlap_config *cfg;
    int i;
    px_status st;
    char why[256];
} lane;

static void *run_lane(void *arg)
{
    lane *l = arg;
    l->st = PX_OK;
    for (int c = l->i; c < l->cfg->chunks && l->st == PX_OK; c += l->cfg->k)
        l->st = issue_chunk(l->p, l->cfg, c);
    if (l->st != PX_OK) snprintf(l->why, sizeof l->why, "%s", px_last_error());
    return NULL;
}

/* Every chunk. A GPU's instances are queues that return at once: one host thread issues
   all chunks and they overlap on the GPU. The host backends' instances do their work in
   the call, so each instance gets a host thread of its own; their stages overlap between
   instances, on each partition's own cores. */
static px_status issue_all(pipeline *p, const overlap_config *cfg)
{
    if (cfg->exec == PX_EXEC_CUDA) {
        for (int c = 0; c < cfg->chunks; ++c) {
            const px_status st = issue_chunk(p, cfg, c);
            if (st != PX_OK) return st;
        }
        return PX_OK;
    }
    lane *lanes = calloc((size_t)cfg->k, sizeof *lanes);
    pthread_t *th = calloc((size_t)cfg->k, sizeof *th);
    px_status st = lanes && th ? PX_OK : PX_ERR_OUT_OF_MEMORY;
    int started = 0;
    for (; st == PX_OK && started < cfg->k; ++started) {
        lanes[started] = (lane){.p = p, .cfg = cfg, .i = started};
        if (pthread_create(&th[started], NULL, run_lane, &lanes[started]) != 0) st = PX_ERR_SYSTEM;
    }
    if (st != PX_OK) started--; /* the one that failed did not start */
    for (int i = 0; i < started; ++i) {
        pthread_join(th[i], NULL);
        if (st == PX_OK && lanes[i].st != PX_OK) {
            st = lanes[i].st;
            fprintf(stderr, "overlap: instance %d: %s\n", i, lanes[i].why);
        }
    }
    free(lanes);
    free(th);
    return st;
}

px_status overlap_run(const overlap_config *cfg, overlap_result *res)
{
    px_status st = PX_OK;
    pipeline p;
    memset(&p, 0, sizeof p);
    memset(res, 0, sizeof *res);
    const int k = cfg->k, chunks = cfg->chunks;
    const int64_t n = cfg->n;
    const int reps = cfg->repetitions < 1                  ? 1
                     : cfg->repetitions > OVERLAP_MAX_REPS ? OVERLAP_MAX_REPS
                                                           : cfg->repetitions;
    p.part = calloc((size_t)k, sizeof *p.part);
    p.slot = calloc((size_t)k, sizeof *p.slot);
    p.in_c = calloc((size_t)chunks, sizeof *p.in_c);
    p.out_c = calloc((size_t)chunks, sizeof *p.out_c);
    p.slot_c = calloc((size_t)chunks, sizeof *p.slot_c);
    p.ev = calloc((size_t)chunks * 4, sizeof *p.ev);
    p.path = calloc((size_t)chunks * 2, sizeof *p.path);
    if (!p.part || !p.slot || !p.in_c || !p.out_c || !p.slot_c || !p.ev || !p.path) {
        st = PX_ERR_OUT_OF_MEMORY;
        goto done;
    }

    /* K instances carved out of the default instance of the device that holds work_space. */
    TRY(px_instance_default(cfg->exec,
                            cfg->work_space.kind == PX_SPACE_DEVICE ? cfg->work_space.device : 0,
                            &p.parent));
    px_partition_options popt = {.sm_partition = cfg->sm_partition};
    TRY(px_partition_ex(p.parent, k, NULL, &popt, p.part));

    TRY(view_1d(&p.in, "overlap in", cfg->host_space, n));
    TRY(view_1d(&p.out, "overlap out", cfg->host_space, n));
    const int64_t chunk_max = (n + chunks - 1) / chunks;
    for (int i = 0; i < k; ++i)
        TRY(view_1d(&p.slot[i], "overlap slot", cfg->work_space, chunk_max));
    for (int c = 0; c < chunks; ++c) {
        int64_t b = n * c / chunks, e = n * (c + 1) / chunks;
        px_slice whole = px_slice_range(b, e), head = px_slice_range(0, e - b);
        TRY(px_view_subview(&p.in_c[c], p.in, &whole, 1));
        TRY(px_view_subview(&p.out_c[c], p.out, &whole, 1));
        TRY(px_view_subview(&p.slot_c[c], p.slot[c % k], &head, 1));
        for (int s = 0; s < 4; ++s)
            TRY(px_event_create(&p.ev[4 * c + s], p.part[c % k], PX_EVENT_TIMING));
    }
    TRY(px_event_create(&p.origin, p.part[0], PX_EVENT_TIMING));

    px_view_info info;
    TRY(px_view_info_get(p.in, &info));
    float *in = info.data;
    for (int64_t i = 0; i < n; ++i) in[i] = input_value(i);

    double stage[OVERLAP_STAGES][OVERLAP_MAX_REPS], stage_sum[OVERLAP_MAX_REPS];
    for (int r = 0; r < reps; ++r) {
        TRY(px_view_info_get(p.out, &info));
        memset(info.data, 0xff, (size_t)n * sizeof(float)); /* poison: NaN everywhere */
        TRY(px_fence_all());
        double t0 = now_ms();
        TRY(px_event_record(p.origin, p.part[0]));
        TRY(issue_all(&p, cfg));
        TRY(px_fence_all());
        res->total_ms[r] = now_ms() - t0;
        /* Stage times, from the events, outside the timed part. */
        double one[OVERLAP_STAGES] = {0.0, 0.0, 0.0};
        if (!cfg->no_stage_events)
            TRY(stage_times(&p, cfg, one, r == reps - 1 ? cfg->timeline : NULL));
        stage_sum[r] = 0.0;
        for (int s = 0; s < OVERLAP_STAGES; ++s) {
            stage[s][r] = one[s];
            stage_sum[r] += one[s];
        }
    }
    res->stage_sum_ms = stage_sum[reps - 1];
    res->total_median_ms = median(res->total_ms, reps);
    for (int s = 0; s < OVERLAP_STAGES; ++s) res->stage_median_ms[s] = median(stage[s], reps);
    res->stage_sum_median_ms = median(stage_sum, reps);
    res->paths_uniform = true;
    res->path[0] = p.path[0];
    res->path[1] = p.path[1];
    for (int c = 1; c < chunks; ++c)
        if (p.path[2 * c] != res->path[0] || p.path[2 * c + 1] != res->path[1])
            res->paths_uniform = false;

    TRY(px_view_info_get(p.out, &info));
    const float *out = info.data;
    res->verified = true;
    for (int64_t i = 0; i < n && res->verified; ++i)
        res->verified = out[i] == 2.0f * input_value(i) + 1.0f;

done:
    pipeline_free(&p, cfg);
    return st;
}
