/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The tables compiled in: execution backends and memory spaces. */
#include "backends/backends.h"

#include <stdatomic.h>

#include "px_config.h"
#include "backends/host/memory.h"
#include "backends/serial/backend.h"
#include "backends/services.h"
#if PX_HAVE_OPENMP
#include "backends/openmp/backend.h"
#endif
#if PX_HAVE_THREADS
#include "backends/threads/backend.h"
#endif
#if PX_HAVE_CUDA
#include "backends/cuda/backend.h"
#include "backends/cuda/memory/memory.h"
#include "backends/cuda/memory/pinned.h"
#endif

static const px__backend *const backends[PX_EXEC_COUNT] = {
    [PX_EXEC_SERIAL] = &px__backend_serial,
#if PX_HAVE_OPENMP
    [PX_EXEC_OPENMP] = &px__backend_openmp,
#endif
#if PX_HAVE_CUDA
    [PX_EXEC_CUDA] = &px__backend_cuda,
#endif
#if PX_HAVE_THREADS
    [PX_EXEC_THREADS] = &px__backend_threads,
#endif
};

/* The default execution space where none is named: the first here with a device. OpenMP
   before threads: where both are compiled in, OpenMP is the established one. */
static const px_exec_space auto_order[] = {PX_EXEC_CUDA, PX_EXEC_OPENMP, PX_EXEC_THREADS,
                                           PX_EXEC_SERIAL};
/* Host work no instance was named for, where the named default space has no threads of
   its own: the first of these compiled in. */
static const px_exec_space host_team_order[] = {PX_EXEC_OPENMP, PX_EXEC_THREADS, PX_EXEC_SERIAL};

/* The default execution space px_init was told of, PX_EXEC_COUNT when none was named. */
static atomic_int named_default = PX_EXEC_COUNT;

static const px__space_ops *const spaces[PX_SPACE_KIND_COUNT] = {
    [PX_SPACE_HOST] = &px__space_ops_host,
#if PX_HAVE_CUDA
    [PX_SPACE_HOST_PINNED] = &px__space_ops_cuda_pinned,
    [PX_SPACE_DEVICE] = &px__space_ops_cuda_device,
#endif
};

const px__backend *px__backend_get(px_exec_space exec)
{
    if ((int)exec < 0 || exec >= PX_EXEC_COUNT) return NULL;
    return backends[exec];
}

const px__space_ops *px__space_ops_get(px_space_kind kind)
{
    if ((int)kind < 0 || kind >= PX_SPACE_KIND_COUNT) return NULL;
    return spaces[kind];
}

px_exec_space px__backend_auto(void)
{
    for (size_t i = 0; i < sizeof auto_order / sizeof auto_order[0]; ++i) {
        const px__backend *be = backends[auto_order[i]];
        int n = 0;
        if (be && be->device_count(&n) == PX_OK && n > 0) return auto_order[i];
    }
    return PX_EXEC_SERIAL;
}

void px__backends_named_default(px_exec_space exec) { atomic_store(&named_default, (int)exec); }

const px__backend *px__backend_host_team(void)
{
    const int named = atomic_load(&named_default);
    if (named >= 0 && named < PX_EXEC_COUNT && backends[named] && backends[named]->runs_on_host &&
        backends[named]->zero_host)
        return backends[named];
    for (size_t i = 0; i < sizeof host_team_order / sizeof host_team_order[0]; ++i)
        if (backends[host_team_order[i]]) return backends[host_team_order[i]];
    return backends[PX_EXEC_SERIAL];
}

px_status px__backends_init(const px_init_options *opts)
{
    for (int e = 0; e < PX_EXEC_COUNT; ++e)
        if (backends[e] && backends[e]->init) PX__TRY(backends[e]->init(opts));
    return PX_OK;
}

void px__backends_finalize(void)
{
    for (int e = 0; e < PX_EXEC_COUNT; ++e)
        if (backends[e] && backends[e]->finalize) backends[e]->finalize();
}
