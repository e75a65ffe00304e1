/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The OpenMP backend's threads: how many, where they run, and running a job on a team.
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
#include "backends/openmp/omp_team.h"

#include <hwloc.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "backends/host/host_graph.h"
#include "base/bounds.h"
#include "base/error.h"
#include "base/topology.h"
#include "base/util.h"

/* More threads than this is a mistake in the option or the environment. */
#define OMP_MAX_THREADS 4096

typedef enum bind_mode { BIND_NONE, BIND_HWLOC, BIND_OPENMP } bind_mode;

static struct {
    int threads;
    const char *threads_from; /* where the count came from, for the report */
    bind_mode mode;
    const char *bind_why; /* BIND_NONE: why */
    hwloc_topology_t topo;
    hwloc_bitmap_t *places; /* BIND_HWLOC: one CPU set per place */
    int nplaces;
    const char *place_kind; /* "core" or "hardware thread" */
    unsigned generation;    /* a new one per px_init: places may differ */
} cfg;

/* The CPUs the process could run on when portex first looked (OS indices): later looks
   would see the binding portex made itself. */
#define OMP_MAX_CPUS 4096
static int first_cpus[OMP_MAX_CPUS];
static int nfirst_cpus = -1;

static _Thread_local unsigned bound_generation;
static _Thread_local int bound_place = -1;

/* ---- Configuration ------------------------------------------------------------------------ */

/* A positive thread count from the environment variable `name`: 0 when unset. */
static px_status env_threads(const char *name, int *out)
{
    const char *v = getenv(name);
    *out = 0;
    if (!v || !*v) return PX_OK;
    char *end = NULL;
    const long n = strtol(v, &end, 10);
    if (end == v || *end != '\0' || n < 1 || n > OMP_MAX_THREADS)
        return px__error(PX_ERR_INVALID_ARGUMENT,
                         "%s is '%s'; expected a thread count from 1 to %d", name, v,
                         OMP_MAX_THREADS);
    *out = (int)n;
    return PX_OK;
}

static bool env_set(const char *name)
{
    const char *v = getenv(name);
    return v && *v;
}

/* The CPU set the process may run on, as it was at the first px_init; NULL when memory
   runs out. */
static hwloc_bitmap_t process_cpus(hwloc_topology_t t)
{
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    if (!set) return NULL;
    if (nfirst_cpus < 0) {
        if (hwloc_get_cpubind(t, set, HWLOC_CPUBIND_PROCESS) != 0)
            hwloc_bitmap_copy(set, hwloc_topology_get_allowed_cpuset(t));
        int n = 0;
        for (int c = hwloc_bitmap_first(set); c >= 0 && n < OMP_MAX_CPUS;
             c = hwloc_bitmap_next(set, c))
            first_cpus[n++] = c;
        nfirst_cpus = n;
        return set;
    }
    for (int i = 0; i < nfirst_cpus; ++i) hwloc_bitmap_set(set, (unsigned)first_cpus[i]);
    return set;
}

/* The places: the cores (or hardware threads, when `threads` exceeds the cores) of the
   process's CPU set. */
static px_status find_places(hwloc_topology_t t, hwloc_const_bitmap_t set, int threads)
{
    const int ncores = hwloc_get_nbobjs_inside_cpuset_by_type(t, set, HWLOC_OBJ_CORE);
    const hwloc_obj_type_t type = ncores >= threads || ncores <= 0 ? HWLOC_OBJ_CORE : HWLOC_OBJ_PU;
    const int n = hwloc_get_nbobjs_inside_cpuset_by_type(t, set, type);
    px_status st = PX_OK;
    if (n > 0) {
        cfg.places = px__calloc((size_t)n, sizeof *cfg.places);
        if (!cfg.places)
            st = px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory for thread places");
    }
    for (int i = 0; st == PX_OK && i < n; ++i) {
        const hwloc_obj_t o = hwloc_get_obj_inside_cpuset_by_type(t, set, type, (unsigned)i);
        cfg.places[i] = o ? hwloc_bitmap_dup(o->cpuset) : NULL;
        if (!cfg.places[i])
            st = px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory for a CPU set");
        else
            hwloc_bitmap_and(cfg.places[i], cfg.places[i], set);
        cfg.nplaces = i + 1;
    }
    cfg.place_kind = type == HWLOC_OBJ_CORE ? "core" : "hardware thread";
    return st;
}

static void free_places(void)
{
    for (int i = 0; i < cfg.nplaces; ++i) hwloc_bitmap_free(cfg.places[i]);
    free(cfg.places);
    cfg.places = NULL;
    cfg.nplaces = 0;
}

px_status px__omp_config_init(const px_init_options *opts)
{
    free_places();
    cfg.generation++;
    cfg.topo = px__topology_handle();

    int n = opts ? opts->num_threads : 0;
    if (n < 0 || n > OMP_MAX_THREADS)
        return px__error(PX_ERR_INVALID_ARGUMENT,
                         "opts->num_threads is %d; expected 0 (choose) or 1 to %d", n,
                         OMP_MAX_THREADS);
    cfg.threads_from = "px_init_options.num_threads";
    if (n == 0) {
        PX__TRY(env_threads("PX_NUM_THREADS", &n));
        cfg.threads_from = "PX_NUM_THREADS";
    }
    const bool omp_places = env_set("OMP_PROC_BIND") || env_set("OMP_PLACES");
    if (n == 0 && (env_set("OMP_NUM_THREADS") || omp_places || !cfg.topo)) {
        /* OpenMP's count: it read OMP_NUM_THREADS, or the CPUs it found before binding. */
        n = omp_get_max_threads();
        cfg.threads_from = env_set("OMP_NUM_THREADS") ? "OMP_NUM_THREADS" : "OpenMP's default";
        if (n > OMP_MAX_THREADS)
            return px__error(PX_ERR_INVALID_ARGUMENT, "%s gives %d threads; portex takes 1 to %d",
                             cfg.threads_from, n, OMP_MAX_THREADS);
    }
    hwloc_bitmap_t set = cfg.topo ? process_cpus(cfg.topo) : NULL;
    if (cfg.topo && !set)
        return px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory for a CPU set");
    if (n == 0) {
        n = hwloc_get_nbobjs_inside_cpuset_by_type(cfg.topo, set, HWLOC_OBJ_CORE);
        if (n > OMP_MAX_THREADS) n = OMP_MAX_THREADS;
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
        st = find_places(cfg.topo, set, cfg.threads);
        if (st == PX_OK && cfg.nplaces > 0)
            cfg.mode = BIND_HWLOC;
        else if (st == PX_OK)
            cfg.bind_why = "hwloc found no cores";
    }
    hwloc_bitmap_free(set);
    if (st != PX_OK) free_places();
    return st;
}

void px__omp_config_finalize(void)
{
    free_places();
    cfg.topo = NULL;
    cfg.threads = 0;
    cfg.mode = BIND_NONE;
}

int px__omp_threads(void) { return cfg.threads; }

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
        char first[64] = "", last[64] = "";
        hwloc_bitmap_list_snprintf(first, sizeof first, cfg.places[0]);
        hwloc_bitmap_list_snprintf(last, sizeof last, cfg.places[cfg.nplaces - 1]);
        fprintf(out,
                "    binding: hwloc, team thread i > 0 on %s (first + i) mod %d (%d: PU %s ... %d: "
                "PU %s); the calling "
                "thread is not bound\n",
                cfg.place_kind, cfg.nplaces, 0, first, cfg.nplaces - 1, last);
        break;
    }
    case BIND_OPENMP:
        fprintf(out, "    binding: OpenMP places (OMP_PROC_BIND %s, %d places)\n",
                proc_bind_name(omp_get_proc_bind()), omp_get_num_places());
        break;
    case BIND_NONE: fprintf(out, "    binding: none (%s)\n", cfg.bind_why); break;
    }
}

/* ---- Running a job ----------------------------------------------------------------------- */

static void bind_to(int place)
{
    if (cfg.mode != BIND_HWLOC) return;
    place %= cfg.nplaces;
    if (bound_generation == cfg.generation && bound_place == place) return;
    /* A refusal (a CPU set the process may no longer use) leaves the thread where it is. */
    (void)hwloc_set_cpubind(cfg.topo, cfg.places[place], HWLOC_CPUBIND_THREAD);
    bound_generation = cfg.generation;
    bound_place = place;
}

static void run_pass(const px__omp_job *job, int pass, int tid, int team)
{
    for (int p = tid; p < job->nparts; p += team) job->pass[pass](job->ctx, p);
}

void px__omp_run(const px__queue *q, const px__omp_job *job)
{
    if (q->nthreads <= 1 || job->nparts <= 1) {
        if (q->bind_caller) bind_to(q->first);
        run_pass(job, 0, 0, 1);
        if (job->pass[1]) {
            job->between(job->ctx);
            run_pass(job, 1, 0, 1);
        }
        return;
    }
    /* What the other threads must see as the calling thread does: the graphs it runs
       (px_cond_set) and the public call whose work they do (the name its messages carry),
       and what they bring back: the first bounds violation. */
    const void *graphs = px__host_graph_context();
    const char *caller = px__caller();
    bool hit = false;
    char msg[PX__BOUNDS_MSG];
#pragma omp parallel num_threads(q->nthreads)
    {
        PX__ENTER_AS(caller);
        const int tid = omp_get_thread_num(), team = omp_get_num_threads();
        if (tid || q->bind_caller) bind_to(q->first + tid);
        const void *own = tid && graphs ? px__host_graph_adopt(graphs) : NULL;
        run_pass(job, 0, tid, team);
        if (job->pass[1]) {
#pragma omp barrier
#pragma omp single
            job->between(job->ctx);
            run_pass(job, 1, tid, team);
        }
        if (tid) {
            if (graphs) px__host_graph_adopt(own);
            char mine[PX__BOUNDS_MSG];
            if (px__bounds_take(mine)) {
#pragma omp critical(px_omp_bounds)
                if (!hit) {
                    hit = true;
                    memcpy(msg, mine, sizeof msg);
                }
            }
        }
    }
    if (hit) px__bounds_put(msg);
}
