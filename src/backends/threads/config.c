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
#include "backends/host/thread_count.h"
#include "backends/services.h"
#include "backends/threads/wait.h"

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

    int n = 0;
    PX__TRY(px__host_threads_asked(opts, &n, &cfg.threads_from));
    bool bind;
    PX__TRY(env_bind(&bind));
    /* Read at every px_init that has a topology, so that the first one records the CPU set
       the process had before portex bound anything (host/places.h). */
    int cores = 0, pus = 0;
    if (topo) PX__TRY(px__host_cpu_count(topo, &cores, &pus));
    const long online = sysconf(_SC_NPROCESSORS_ONLN);
    cfg.cpus = pus > 0      ? pus
               : online > 0 ? (int)(online < PX__HOST_MAX_THREADS ? online : PX__HOST_MAX_THREADS)
                            : 1;
    if (n == 0) {
        n = cores > PX__HOST_MAX_THREADS ? PX__HOST_MAX_THREADS : cores;
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
        px__host_places_print(out, &cfg.places);
    } else {
        fprintf(out, "    binding: none (%s)\n", cfg.bind_why);
    }
}
