/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* bench_partition: does an SM partition (a CUDA green context, px_partition_ex with
 * sm_partition) keep a short kernel's latency while a long kernel fills the rest of the
 * GPU? And what happens with plain streams, where both share every SM?
 *
 *   bench_partition [--quick] [--check]
 *
 * Two instances per configuration: "small" runs a short kernel (one wave of spinning
 * threads on 16 SMs' worth of threads, about 20 us), "big" a long kernel that keeps every
 * SM it may use busy for 20 ms (--quick) or 50 ms, in waves of 100 us blocks.
 *
 *   idle     the short kernel alone: launch, then fence its instance (host wall time)
 *   loaded   the same while the long kernel runs (measured only when the long kernel has
 *            not finished before the short one is launched)
 *
 * Configurations:
 *   SM partitions            small = 16 SMs, big = the rest (green contexts)
 *   streams                  two plain streams, same priority: the short kernel's blocks
 *                            wait behind the long kernel's
 *   streams, short high prio the short kernel's stream has the highest priority: its
 *                            blocks go first as the long kernel's blocks retire
 *
 * Medians. Target: SM partitions loaded <= 1.5 x idle. --check exits 1 when it is missed.
 * Exits 77 without a GPU (and with --check when SM partitions are not available). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, nanosleep */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cuda_runtime_api.h>

#include "bench_partition_kernels.h"
#include "bench_util.h"

#define SMALL_SMS 16 /* the small partition asked for */
#define TARGET_RATIO 1.5

typedef struct params {
    int64_t short_ns; /* per thread of the short kernel */
    int64_t long_ns;  /* per thread of the long kernel: one wave */
    int64_t long_waves;
    int idle_reps;
    int loaded_reps;   /* samples wanted */
    int max_long_runs; /* long kernels launched at most, per configuration */
} params;

typedef struct config {
    const char *name;
    px_instance *small, *big;
    int small_sm, big_sm; /* px_instance_sm_count */
    bool available;
    char why[256];
} config;

typedef struct result {
    double idle_us, loaded_us; /* medians */
    int samples, long_runs;
} result;

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec * 1e-3;
}

static void sleep_us(long us)
{
    struct timespec t = {us / 1000000, (us % 1000000) * 1000};
    nanosleep(&t, NULL);
}

static px_view *sink_view(void)
{
    px_view_desc d;
    memset(&d, 0, sizeof d);
    d.label = "sink";
    d.space = px_device(0);
    d.dtype = PX_I32;
    d.rank = 1;
    d.extent[0] = 1;
    px_view *v = NULL;
    CHECK(px_view_create(&v, &d));
    return v;
}

/* Launch and fence: the host's view of one short kernel, in microseconds. */
static double short_once(px_instance *small, const bp_spin_args *a, int64_t n)
{
    const double t0 = now_us();
    CHECK(px_parallel_for(small, "short", px_range(0, n), PX_KERNEL(bp_spin), a));
    CHECK(px_instance_fence(small));
    return now_us() - t0;
}

static result measure(const config *c, const params *p, int64_t short_n, int threads_per_sm,
                      px_view *sink_short, px_view *sink_long)
{
    result r;
    memset(&r, 0, sizeof r);
    bp_spin_args sa, la;
    sa.ns = p->short_ns;
    la.ns = p->long_ns;
    CHECK(px_view_span_i32(sink_short, &sa.sink));
    CHECK(px_view_span_i32(sink_long, &la.sink));
    /* The long kernel fills every SM the big instance may use, long_waves times over. */
    const int64_t long_n = (int64_t)c->big_sm * threads_per_sm * p->long_waves;

    /* Warm-up: first launches load the kernel and size its blocks. */
    for (int w = 0; w < 3; ++w) (void)short_once(c->small, &sa, short_n);
    bp_spin_args warm = la;
    warm.ns = 1000;
    CHECK(px_parallel_for(c->big, "long", px_range(0, long_n / p->long_waves), PX_KERNEL(bp_spin),
                          &warm));
    CHECK(px_instance_fence(c->big));

    double *t =
        malloc((size_t)(p->idle_reps > p->loaded_reps ? p->idle_reps : p->loaded_reps) * sizeof *t);
    if (t == NULL) exit(2);
    for (int i = 0; i < p->idle_reps; ++i) t[i] = short_once(c->small, &sa, short_n);
    r.idle_us = median(t, p->idle_reps);

    px_event *done_ev = NULL;
    CHECK(px_event_create(&done_ev, c->big, 0));
    int s = 0;
    while (s < p->loaded_reps && r.long_runs < p->max_long_runs) {
        CHECK(px_parallel_for(c->big, "long", px_range(0, long_n), PX_KERNEL(bp_spin), &la));
        CHECK(px_event_record(done_ev, c->big));
        r.long_runs++;
        sleep_us(1000); /* the long kernel is resident by now */
        for (;;) {
            bool done = false;
            CHECK(px_event_query(done_ev, &done));
            if (done || s >= p->loaded_reps) break;
            t[s++] = short_once(c->small, &sa, short_n);
        }
        CHECK(px_instance_fence(c->big));
    }
    CHECK(px_event_destroy(&done_ev));
    r.samples = s;
    r.loaded_us = median(t, s);
    free(t);
    return r;
}

static void make_config(config *c, const char *name, px_instance *parent, int n_total,
                        bool sm_partition, bool short_high_priority)
{
    memset(c, 0, sizeof *c);
    c->name = name;
    px_instance *parts[2] = {NULL, NULL};
    double w[2] = {SMALL_SMS, (double)(n_total - SMALL_SMS)};
    int prio[2] = {-1000, 0}; /* clamped to the device's highest priority */
    px_partition_options o;
    memset(&o, 0, sizeof o);
    o.sm_partition = sm_partition;
    o.priorities = short_high_priority ? prio : NULL;
    const px_status st = px_partition_ex(parent, 2, n_total > SMALL_SMS ? w : NULL, &o, parts);
    if (st != PX_OK) {
        snprintf(c->why, sizeof c->why, "%s: %s", px_status_name(st), px_last_error());
        return;
    }
    c->small = parts[0];
    c->big = parts[1];
    CHECK(px_instance_sm_count(c->small, &c->small_sm));
    CHECK(px_instance_sm_count(c->big, &c->big_sm));
    c->available = true;
}

int main(int argc, char **argv)
{
    bool quick = false, check = false;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--quick") == 0)
            quick = true;
        else if (strcmp(argv[i], "--check") == 0)
            check = true;
        else {
            fprintf(stderr, "usage: %s [--quick] [--check]\n", argv[0]);
            return 2;
        }
    }
    CHECK(px_init(NULL));
    if (px_exec_space_check(PX_EXEC_CUDA) != PX_OK) {
        fprintf(stderr, "skip: no CUDA device here: %s\n", px_last_error());
        (void)px_finalize();
        return 77;
    }
    params p;
    p.short_ns = 20000;
    p.long_ns = 100000;
    p.long_waves = quick ? 200 : 500;
    p.idle_reps = quick ? 31 : 201;
    p.loaded_reps = quick ? 31 : 201;
    p.max_long_runs = quick ? 9 : 41;

    px_instance *parent = NULL;
    CHECK(px_instance_default(PX_EXEC_CUDA, 0, &parent));
    int total_sm = 0, threads_per_sm = 0;
    CHECK(px_instance_sm_count(parent, &total_sm));
    struct cudaDeviceProp prop;
    if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess ||
        cudaDeviceGetAttribute(&threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, 0) !=
            cudaSuccess) {
        fprintf(stderr, "cudaGetDeviceProperties failed\n");
        return 2;
    }

    enum { NCONF = 3 };
    config conf[NCONF];
    make_config(&conf[0], "SM partitions", parent, total_sm, true, false);
    make_config(&conf[1], "streams", parent, total_sm, false, false);
    make_config(&conf[2], "streams, short high prio", parent, total_sm, false, true);
    /* The short kernel: one wave of the small partition (or of 16 SMs without one). */
    const int small_sm = conf[0].available ? conf[0].small_sm : SMALL_SMS;
    const int64_t short_n = (int64_t)small_sm * threads_per_sm;

    printf("bench_partition%s: %s, %d SMs, %d threads per SM\n", quick ? " --quick" : "", prop.name,
           total_sm, threads_per_sm);
    printf("short kernel: %lld threads x %.0f us on the small instance; long kernel: %lld waves x "
           "%.0f us "
           "on the big one (%.0f ms)\n\n",
           (long long)short_n, (double)p.short_ns * 1e-3, (long long)p.long_waves,
           (double)p.long_ns * 1e-3, (double)(p.long_waves * p.long_ns) * 1e-6);

    px_view *sink_short = sink_view(), *sink_long = sink_view();
    printf("%-26s %9s %9s %11s %11s %8s %8s\n", "configuration", "small SM", "big SM", "idle us",
           "loaded us", "ratio", "samples");
    result res[NCONF];
    for (int i = 0; i < NCONF; ++i) {
        if (!conf[i].available) {
            printf("%-26s not available: %s\n", conf[i].name, conf[i].why);
            continue;
        }
        res[i] = measure(&conf[i], &p, short_n, threads_per_sm, sink_short, sink_long);
        printf("%-26s %9d %9d %11.1f %11.1f %7.2fx %8d\n", conf[i].name, conf[i].small_sm,
               conf[i].big_sm, res[i].idle_us, res[i].loaded_us, res[i].loaded_us / res[i].idle_us,
               res[i].samples);
        fflush(stdout);
    }

    int rc = 0;
    printf("\n");
    if (conf[0].available) {
        const double ratio = res[0].loaded_us / res[0].idle_us;
        const bool met = res[0].samples > 0 && ratio <= TARGET_RATIO;
        printf("target: SM partitions loaded/idle %.2f <= %.2f: %s\n", ratio, TARGET_RATIO,
               met ? "met" : "MISSED");
        if (check && !met) rc = 1;
    } else {
        printf("target: not measured (no SM partitions here)\n");
        if (check) rc = 77;
    }

    px_view_release(&sink_short);
    px_view_release(&sink_long);
    for (int i = 0; i < NCONF; ++i) {
        if (conf[i].small) CHECK(px_instance_destroy(&conf[i].small));
        if (conf[i].big) CHECK(px_instance_destroy(&conf[i].big));
    }
    CHECK(px_finalize());
    return rc;
}
