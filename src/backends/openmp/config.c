/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The OpenMP backend's configuration: how many threads, and where they run (pool.c runs
 * the work on them).
 *
 * Binding. Unless told otherwise, each thread OpenMP adds to a team binds itself with
 * hwloc to the core of its place (places are the cores of the process's CPU set, in
 * hwloc's logical order; hardware threads when there are more threads than cores), so that
 * a partition keeps to its own cores and data stays near the threads that touched it
 * first. The calling thread, thread 0, is the user's and is not bound on the default
 * instance: threads it creates later would inherit the binding, and processes sharing a
 * machine (tests, MPI ranks without binding) would all pile their main threads onto one
 * core. A partition's calling thread is bound to the partition's first place: partitions
 * are driven by threads of their own, and an unbound driver that lands on a core of
 * another partition slows both teams at every barrier. When the user set
 * OMP_PROC_BIND or OMP_PLACES, OpenMP places the threads instead. A thread remembers its
 * place, so binding costs one system call the first time only. */
#include "backends/openmp/config.h"

#include <hwloc.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "backends/host/places.h"
#include "backends/host/thread_count.h"
#include "backends/services.h"

typedef enum bind_mode { BIND_NONE, BIND_HWLOC, BIND_OPENMP } bind_mode;

static struct {
    int threads;
    const char *threads_from; /* where the count came from, for the report */
    bind_mode mode;
    const char *bind_why; /* BIND_NONE: why */
    hwloc_topology_t topo;
    px__host_places places; /* BIND_HWLOC */
} cfg;

/* ---- Configuration ------------------------------------------------------------------------ */

static bool env_set(const char *name)
{
    const char *v = getenv(name);
    return v && *v;
}

px_status px__omp_config_init(const px_init_options *opts)
{
    px__host_places_free(&cfg.places);
    cfg.topo = px__topology_handle();

    int n = 0;
    PX__TRY(px__host_threads_asked(opts, &n, &cfg.threads_from));
    /* Read at every px_init that has a topology, so that the first one records the CPU set
       the process had before portex bound anything (host/places.h). */
    int cores = 0;
    if (cfg.topo) PX__TRY(px__host_cpu_count(cfg.topo, &cores, NULL));
    const bool omp_places = env_set("OMP_PROC_BIND") || env_set("OMP_PLACES");
    if (n == 0 && (env_set("OMP_NUM_THREADS") || omp_places || !cfg.topo)) {
        /* OpenMP's count: it read OMP_NUM_THREADS, or the CPUs it found before binding. */
        n = omp_get_max_threads();
        cfg.threads_from = env_set("OMP_NUM_THREADS") ? "OMP_NUM_THREADS" : "OpenMP's default";
        if (n > PX__HOST_MAX_THREADS)
            return px__error(PX_ERR_INVALID_ARGUMENT, "%s gives %d threads; portex takes 1 to %d",
                             cfg.threads_from, n, PX__HOST_MAX_THREADS);
    }
    if (n == 0) {
        n = cores > PX__HOST_MAX_THREADS ? PX__HOST_MAX_THREADS : cores;
        cfg.threads_from = "one per core";
        if (n <= 0) {
            n = omp_get_max_threads();
            cfg.threads_from = "OpenMP's default";
        }
    }
    cfg.threads = n < 1 ? 1 : n;

    const char *bind = getenv("PX_OPENMP_BIND");
    px_status st = PX_OK;
    cfg.mode = BIND_NONE;
    if ((opts && opts->no_thread_binding) || (bind && strcmp(bind, "none") == 0))
        cfg.bind_why = "not asked for";
    else if (omp_places)
        cfg.mode = BIND_OPENMP;
    else if (!cfg.topo)
        cfg.bind_why = "the topology was not loaded (px_init_options.skip_topology)";
    else {
        st = px__host_places_find(&cfg.places, cfg.topo, cfg.threads);
        if (st == PX_OK && cfg.places.n > 0)
            cfg.mode = BIND_HWLOC;
        else if (st == PX_OK)
            cfg.bind_why = "hwloc found no cores";
    }
    return st;
}

void px__omp_config_finalize(void)
{
    px__host_places_free(&cfg.places);
    cfg.topo = NULL;
    cfg.threads = 0;
    cfg.mode = BIND_NONE;
}

int px__omp_threads(void) { return cfg.threads; }

void px__omp_bind(int place)
{
    if (cfg.mode == BIND_HWLOC) px__host_places_bind(&cfg.places, place);
}

void px__omp_allow_nesting(void)
{
    if (omp_get_max_active_levels() < 2) omp_set_max_active_levels(2);
}

static const char *proc_bind_name(omp_proc_bind_t b)
{
    switch (b) {
    case omp_proc_bind_false: return "false";
    case omp_proc_bind_true: return "true";
    case omp_proc_bind_primary: return "primary";
    case omp_proc_bind_close: return "close";
    case omp_proc_bind_spread: return "spread";
    }
    return "unknown";
}

void px__omp_config_print(FILE *out)
{
    if (cfg.threads == 0) {
        fprintf(out, "    OpenMP %d, threads and binding chosen at px_init\n", _OPENMP);
        return;
    }
    fprintf(out, "    OpenMP %d, %d threads (%s), nested levels allowed: %d\n", _OPENMP,
            cfg.threads, cfg.threads_from, omp_get_max_active_levels());
    switch (cfg.mode) {
    case BIND_HWLOC: {
        px__host_places_print(out, &cfg.places);
        break;
    }
    case BIND_OPENMP:
        fprintf(out, "    binding: OpenMP places (OMP_PROC_BIND %s, %d places)\n",
                proc_bind_name(omp_get_proc_bind()), omp_get_num_places());
        break;
    case BIND_NONE: fprintf(out, "    binding: none (%s)\n", cfg.bind_why); break;
    }
}
