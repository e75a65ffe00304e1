/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: the one checkpoint where CUDA errors become portex statuses.
 *
 *   PX__CU(cudaStreamSynchronize(s))          -> px_status (PX_OK or the error)
 *   PX__CU_TRY(cudaEventRecord(e, s));         returns the error from the caller
 *   PX__CU_AT(cudaMallocAsync(...), &ctx)      with what the call was doing
 *
 * A failure records "func: call: cudaErrorName: description" (plus the context), func the
 * public function the user called (base/error.h), as the thread's last error and clears
 * the runtime's pending error, so that the caller's next CUDA call does not inherit it
 * (sticky errors, which poison the context, stay). */
#ifndef PX_BACKENDS_CUDA_CHECK_H
#define PX_BACKENDS_CUDA_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include <cuda_runtime_api.h>

#include "backends/backend.h"
#include "backends/services.h"

/* What a failing call was doing, for the status and the message. */
typedef struct px__cuda_ctx {
    const char *kernel; /* a launch (or work queued after it): PX_ERR_LAUNCH, named */
    bool alloc;         /* an allocation: PX_ERR_OUT_OF_MEMORY when memory ran out */
    px_space space;     /* alloc only */
    size_t bytes;       /* alloc only */
} px__cuda_ctx;

/* Records the failure of `call`; returns the status it maps to. */
px_status px__cuda_fail(cudaError_t err, const char *call, const px__cuda_ctx *ctx);

static inline px_status px__cuda_check(cudaError_t err, const char *call, const px__cuda_ctx *ctx)
{
    return err == cudaSuccess ? PX_OK : px__cuda_fail(err, call, ctx);
}

#define PX__CU_AT(call, ctx) px__cuda_check((call), #call, (ctx))
#define PX__CU(call) PX__CU_AT(call, NULL)
#define PX__CU_TRY(call)                            \
    do {                                            \
        px_status px__cu_st_ = PX__CU(call);        \
        if (px__cu_st_ != PX_OK) return px__cu_st_; \
    } while (0)

/* Contexts for PX__CU_AT. */
static inline px__cuda_ctx px__cuda_ctx_alloc(px_space space, size_t bytes)
{
    px__cuda_ctx c = {NULL, true, space, bytes};
    return c;
}

static inline px__cuda_ctx px__cuda_ctx_kernel(const char *label)
{
    px__cuda_ctx c = {label ? label : "?", false, {PX_SPACE_DEVICE, 0}, 0};
    return c;
}

#endif /* PX_BACKENDS_CUDA_CHECK_H */
