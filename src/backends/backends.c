/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The tables compiled in: execution backends and memory spaces. */
#include "backends/backends.h"

#include "px_config.h"
#include "base/error.h"
#include "backends/host/host_memory.h"
#include "backends/serial/serial.h"
#if PX_HAVE_OPENMP
#include "backends/openmp/omp_backend.h"
#endif
#if PX_HAVE_CUDA
#include "backends/cuda/cuda_backend.h"
#include "backends/cuda/cuda_memory.h"
#include "backends/cuda/cuda_pinned.h"
#endif

static const px__backend *const backends[PX_EXEC_COUNT] = {
    [PX_EXEC_SERIAL] = &px__backend_serial,
#if PX_HAVE_OPENMP
    [PX_EXEC_OPENMP] = &px__backend_openmp,
#endif
#if PX_HAVE_CUDA
    [PX_EXEC_CUDA] = &px__backend_cuda,
#endif
};

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
