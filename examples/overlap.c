/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* overlap: the flagship. An array is processed in chunks over K partitioned instances:
 * each chunk is copied host -> device, transformed by a kernel, copied device -> host.
 * With pinned host memory, copies in both directions and kernels of different chunks run
 * at the same time; with pageable memory portex stages the copies through its own pinned
 * buffers. Prints the time (the median of the repetitions), the overlap achieved and the
 * path deep_copy chose for every copy stage, and checks every element. Without a GPU the
 * same pipeline runs on the host backend: its copies are host memory copies and its
 * stages share the same cores, so it shows the pipeline's structure and no overlap.
 *
 *   overlap [--n FLOATS] [--chunks C] [--k K] [--reps R] [--sm-partition]
 *           [--timeline FILE.csv] [--quick] */
#include <stdlib.h>
#include <string.h>

#include "example.h"
#include "overlap_pipeline.h"

typedef struct options {
    int64_t n;
    int chunks, k, reps;
    bool sm_partition, quick;
    const char *timeline;
} options;

static options parse(int argc, char **argv, bool gpu)
{
    options o = {.n = gpu ? (int64_t)1 << 28 : (int64_t)1 << 22, .chunks = 32, .k = 0, .reps = 3};
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : "";
        if (!strcmp(a, "--n"))
            o.n = atoll(v), ++i;
        else if (!strcmp(a, "--chunks"))
            o.chunks = atoi(v), ++i;
        else if (!strcmp(a, "--k"))
            o.k = atoi(v), ++i;
        else if (!strcmp(a, "--reps"))
            o.reps = atoi(v), ++i;
        else if (!strcmp(a, "--timeline"))
            o.timeline = v, ++i;
        else if (!strcmp(a, "--sm-partition"))
            o.sm_partition = true;
        else if (!strcmp(a, "--quick"))
            o.quick = true;
        else {
            fprintf(stderr,
                    "usage: %s [--n FLOATS] [--chunks C] [--k K] [--reps R] "
                    "[--sm-partition] [--timeline FILE.csv] [--quick]\n",
                    argv[0]);
            exit(2);
        }
    }
    if (o.quick) o.n = (int64_t)1 << 20, o.reps = 2;
    if (o.n < 1 || o.chunks < 1 || o.chunks > o.n || o.k < 0 || o.reps < 1 ||
        o.reps > OVERLAP_MAX_REPS) {
        fprintf(stderr, "overlap: bad arguments\n");
        exit(2);
    }
    return o;
}

static bool run_row(const char *memory, px_space host, const example_backend *be, const options *o,
                    int k, FILE *timeline)
{
    char tag[32];
    snprintf(tag, sizeof tag, "%s-k%d", memory, k);
    const bool gpu = be->exec == PX_EXEC_CUDA;
    overlap_config cfg = {
        .exec = be->exec,
        .host_space = host,
        .work_space = be->space,
        .n = o->n,
        .chunks = o->chunks,
        .k = k,
        .repetitions = o->reps,
        .sm_partition = o->sm_partition,
        .timeline = timeline,
        .timeline_tag = tag,
    };
    overlap_result r;
    CHECK(overlap_run(&cfg, &r));
    const double total = r.total_median_ms;
    const double gbs = 2.0 * (double)o->n * sizeof(float) / (total * 1e6);
    printf("%-9s %2d %9.2f %8.2f %8.2f %8.2f", memory, k, total, r.stage_median_ms[OVERLAP_H2D],
           r.stage_median_ms[OVERLAP_COMPUTE], r.stage_median_ms[OVERLAP_D2H]);
    if (gpu) printf(" %8.2f %7.2fx", r.stage_sum_median_ms, r.stage_sum_median_ms / total);
    printf(" %7.1f  %-12s %-12s %s\n", gbs, px_copy_path_string(r.path[0]),
           px_copy_path_string(r.path[1]), r.verified && r.paths_uniform ? "OK" : "MISMATCH");
    return r.verified && r.paths_uniform;
}

int main(int argc, char **argv)
{
    CHECK(px_init(NULL));
    example_backend be = example_default("overlap");
    bool gpu = be.exec == PX_EXEC_CUDA;
    options o = parse(argc, argv, gpu);
    const double mib = (double)o.n * sizeof(float) / (1 << 20);
    if (gpu)
        printf("overlap: %.0f MiB of floats in %d chunks, chunk c on instance c %% K (%s of the "
               "GPU)\n",
               mib, o.chunks, o.sm_partition ? "SM partitions" : "streams");
    else
        printf("overlap: no GPU in use, so this run shows the pipeline's structure on the host: "
               "%.0f MiB of "
               "floats\nin %d chunks, chunk c on instance c %% K, each instance driven by a host "
               "thread of its "
               "own.\nIts copies are host memory copies, made by the cores that run its kernels: "
               "there is no overlap\nof copies and kernels to measure here. On a GPU the table "
               "adds it.\n",
               mib, o.chunks);

    FILE *timeline = NULL;
    if (o.timeline) {
        timeline = fopen(o.timeline, "w");
        if (!timeline) {
            perror(o.timeline);
            return 1;
        }
        fprintf(timeline, "run,chunk,instance,stage,start_ms,end_ms\n");
    }

    printf("\n%-9s %2s %9s %8s %8s %8s", "memory", "K", "total ms", "H2D ms", "comp ms", "D2H ms");
    if (gpu) printf(" %8s %8s", "sum ms", "overlap");
    printf(" %7s  %-12s %-12s %s\n", "GB/s", "H2D path", "D2H path", "check");
    bool ok = true;
    const int ks[] = {1, 2, 4, 8};
    for (int i = 0; i < 4; ++i) {
        int k = o.k ? o.k : ks[i];
        /* Without a GPU there is only host memory: one set of rows. */
        ok &= run_row(gpu ? "pinned" : "host", gpu ? px_host_pinned() : px_host(), &be, &o, k,
                      timeline);
        if (o.k) break;
    }
    if (gpu) ok &= run_row("pageable", px_host(), &be, &o, o.k ? o.k : 4, timeline);

    printf(
        "\nEach figure is the median of %d repetitions. total: issue to fence; H2D/comp/D2H: each "
        "stage\nsummed over the chunks; GB/s: both directions over total.\n",
        o.reps);
    if (gpu)
        printf(
            "overlap = sum / total, sum the three stages: 1.0x is none, 3.0x is all three busy all "
            "the time.\n");
    if (timeline) fclose(timeline);
    CHECK(px_finalize());
    printf("overlap: %s\n", ok ? "all output verified" : "MISMATCH");
    return ok ? 0 : 1;
}
