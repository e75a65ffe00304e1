/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The overlap pipeline: an array processed in chunks over K partitioned instances, each
 * chunk copied host -> device, transformed, copied device -> host. Chunk c runs on
 * instance c % K, so while one instance computes, others copy in and out: with pinned
 * host memory the two copy directions and the kernels overlap. On the host backends each
 * instance (a share of the host's threads on OpenMP) is driven by a host thread of its
 * own, as their work runs inside the call that issues it. Used by the example
 * (examples/overlap.c) and the benchmark (bench/cuda/bench_overlap.c). Plain C. */
#ifndef OVERLAP_PIPELINE_H
#define OVERLAP_PIPELINE_H

#include <stdbool.h>
#include <stdio.h>

#include <portex.h>

#define OVERLAP_MAX_REPS 8

typedef struct overlap_config {
    px_exec_space exec;  /* CUDA, or a host backend (OpenMP, serial) where there is no GPU */
    px_space host_space; /* HOST_PINNED or HOST (pageable) */
    px_space work_space; /* DEVICE(n) on CUDA (the instances are GPU n's), HOST on the
                                host backends */
    int64_t n;           /* floats in the array */
    int chunks;
    int k;                /* instances (partitions of the default instance) */
    int repetitions;      /* 1 to OVERLAP_MAX_REPS */
    bool sm_partition;    /* CUDA green contexts instead of plain streams */
    bool no_stage_events; /* skip the per-stage timing events (the stage times stay 0): the
                                same work as a pipeline without instrumentation */
    FILE *timeline;       /* CSV of every stage of the last repetition, or NULL */
    const char *timeline_tag;
} overlap_config;

enum { OVERLAP_H2D, OVERLAP_COMPUTE, OVERLAP_D2H, OVERLAP_STAGES };

typedef struct overlap_result {
    double total_ms[OVERLAP_MAX_REPS]; /* wall time of each repetition, issue to fence */
    /* The last repetition's three stages, each summed over the chunks: the time with no
       overlap at all. */
    double stage_sum_ms;
    /* Medians over the repetitions (one repetition may be slowed by the first use of
       memory or by another process; a median is not): */
    double total_median_ms;
    double stage_median_ms[OVERLAP_STAGES];
    double stage_sum_median_ms;
    px_copy_path path[2]; /* H2D and D2H path (the same for every chunk) */
    bool paths_uniform;
    bool verified; /* every element of the output as expected */
} overlap_result;

extern const char *const overlap_stage_names[OVERLAP_STAGES];

/* Runs the pipeline; PX_OK or the first error (px_last_error says which). */
px_status overlap_run(const overlap_config *cfg, overlap_result *res);

#endif
