/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The threads backend's configuration: the thread count, the places threads are bound to
 * (the host backends' places, host/places.h: the cores of the process's CPU set at the
 * first px_init), and the spin before sleeping.
 *
 * Binding. Worker i of a team whose places start at `first` binds itself to place
 * first + i when it starts; the calling thread is the user's and is bound only when it
 * drives a partition (to the partition's first place), for the reasons the OpenMP backend
 * gives (docs/openmp.md, "Binding"): an unbound main thread keeps the threads it creates
 * later, and other processes' main threads, off one core; a partition's driver on another
 * partition's core slows both. */
#define _POSIX_C_SOURCE 200809L /* sysconf */
#include "backends/threads/config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends/host/places.h"
#include "backends/services.h"
#include "backends/threads/wait.h"

/* More threads than this is a mistake in the option or the environment. */
#define THR_MAX_THREADS 4096
/* A waiting thread polls this long before it sleeps: long enough that back-to-back
   dispatches (a solver's sweeps, a loop of small kernels) find the workers awake, short
   enough that an idle team gives its cores back within a fraction of a millisecond. */
#define SPIN_NS 200000

static struct {
    int threads;
    const char *threads_from; /* where the count came from, for the report */
    int cpus;                 /* hardware threads of the process, for the spin */
    bool bind;
    const char *bind_why; /* !bind: why */
    px__host_places places;
} cfg;

/* A positive thread count from the environment variable `name`: 0 when unset. */
static px_status env_threads(const char *name, int *out)
{
    const char *v = getenv(name);
    *out = 0;
    if (!v || !*v) return PX_OK;
    char *end = NULL;
    const long n = strtol(v, &end, 10);
    if (end == v || *end != '\0' || n < 1 || n > THR_MAX_THREADS)
        return px__error(PX_ERR_INVALID_ARGUMENT,
                         "%s is '%s'; expected a thread count from 1 to %d", name, v,
                         THR_MAX_THREADS);
    *out = (int)n;
    return PX_OK;
}

/* PX_THREADS_BIND: unset or "cores" binds, "none" does not; anything else is a mistake. */
static px_status env_bind(bool *bind)
{
    const char *v = getenv("PX_THREADS_BIND");
    *bind = true;
    if (!v || !*v || strcmp(v, "cores") == 0) return PX_OK;
    if (strcmp(v, "none") == 0) {
        *bind = false;
        return PX_OK;
    }
    return px__error(PX_ERR_INVALID_ARGUMENT,
                     "PX_THREADS_BIND is '%s'; expected \"cores\" (the default) or \"none\"", v);
}

px_status px__thr_config_init(const px_init_options *opts)
{
    px__host_places_free(&cfg.places);
    cfg.threads = 0;
    hwloc_topology_t topo = px__topology_handle();

    int n = opts ? opts->num_threads : 0;
    if (n < 0 || n > THR_MAX_THREADS)
        return px__error(PX_ERR_INVALID_ARGUMENT,
                         "opts->num_threads is %d; expected 0 (choose) or 1 to %d", n,
                         THR_MAX_THREADS);
    cfg.threads_from = "px_init_options.num_threads";
    if (n == 0) {
        PX__TRY(env_threads("PX_NUM_THREADS", &n));
        cfg.threads_from = "PX_NUM_THREADS";
    }
    bool bind;
    PX__TRY(env_bind(&bind));
    /* Read at every px_init that has a topology, so that the first one records the CPU set
       the process had before portex bound anything (host/places.h). */
    int cores = 0, pus = 0;
    if (topo) PX__TRY(px__host_cpu_count(topo, &cores, &pus));
    const long online = sysconf(_SC_NPROCESSORS_ONLN);
    cfg.cpus = pus > 0      ? pus
               : online > 0 ? (int)(online < THR_MAX_THREADS ? online : THR_MAX_THREADS)
                            : 1;
    if (n == 0) {
        n = cores > THR_MAX_THREADS ? THR_MAX_THREADS : cores;
        cfg.threads_from = "one per core";
        if (n <= 0) {
            n = cfg.cpus;
            cfg.threads_from = "one per online CPU (no topology)";
        }
    }

    cfg.bind = false;
    px_status st = PX_OK;
    if ((opts && opts->no_thread_binding) || !bind)
        cfg.bind_why = "not asked for";
    else if (!topo)
        cfg.bind_why = "the topology was not loaded (px_init_options.skip_topology)";
    else {
        st = px__host_places_find(&cfg.places, topo, n);
        cfg.bind = st == PX_OK && cfg.places.n > 0;
        if (st == PX_OK && !cfg.bind) cfg.bind_why = "hwloc found no cores";
    }
    if (st == PX_OK) cfg.threads = n;
    return st;
}

void px__thr_config_finalize(void)
{
    px__host_places_free(&cfg.places);
    cfg.threads = 0;
    cfg.bind = false;
}

int px__thr_threads(void) { return cfg.threads; }

void px__thr_bind(int place)
{
    if (cfg.bind) px__host_places_bind(&cfg.places, place);
}

int64_t px__thr_spin_ns(int nthreads) { return nthreads > cfg.cpus ? 0 : SPIN_NS; }

void px__thr_config_print(FILE *out)
{
    if (cfg.threads == 0) {
        fprintf(out, "    POSIX threads, threads and binding chosen at px_init\n");
        return;
    }
    fprintf(out,
            "    POSIX threads, %d threads (%s); a waiting thread spins %d us, then sleeps "
            "(%s)\n",
            cfg.threads, cfg.threads_from, SPIN_NS / 1000, px__thr_wait_kind());
    if (cfg.bind) {
        char first[64], last[64];
        px__host_places_ends(&cfg.places, first, last, sizeof first);
        fprintf(out,
                "    binding: hwloc, team thread i > 0 on %s (first + i) mod %d (%d: PU %s ... "
                "%d: PU %s); the calling thread is not bound\n",
                cfg.places.kind, cfg.places.n, 0, first, cfg.places.n - 1, last);
    } else {
        fprintf(out, "    binding: none (%s)\n", cfg.bind_why);
    }
}
