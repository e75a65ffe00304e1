/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernel file that the build always compiles as C, never as CUDA: its descriptors have no
 * CUDA entry, so dispatching them on a CUDA instance must return PX_ERR_NOT_COMPILED. Its
 * kernels may call host functions. */
#include <stdint.h>
#include <string.h>

#include "kernels.h"

PX_FOR(host_only_set, host_only_args, args, i) { PX_AT1(args->y, i) = args->v; }

PX_FOR(host_caller_probe, host_caller_args, args, i)
{
    px_span s;
    const bool refused = px_view_span(NULL, &s) == PX_ERR_INVALID_ARGUMENT;
    PX_AT1(args->named, i) = refused && strncmp(px_last_error(), "px_parallel_for: ", 17) == 0;
    PX_AT1(args->off_caller, i) = (uint64_t)(uintptr_t)px_last_error() != args->caller_error;
}
