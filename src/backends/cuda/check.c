/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* CUDA errors to portex statuses: the checkpoint behind PX__CU (check.h). */
#include "backends/cuda/check.h"

/* Errors that come from a kernel (at its launch, or surfacing at a later call on the
   stream): they become PX_ERR_LAUNCH. Most of them are sticky and poison the context. */
static bool is_kernel_error(cudaError_t e)
{
    switch (e) {
    case cudaErrorLaunchFailure:
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchOutOfResources:
    case cudaErrorLaunchTimeout:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorHardwareStackError:
    case cudaErrorAssert:
    case cudaErrorInvalidConfiguration:
    case cudaErrorNoKernelImageForDevice:
    case cudaErrorInvalidDeviceFunction:
    case cudaErrorInvalidKernelImage:
    case cudaErrorCooperativeLaunchTooLarge: return true;
    default: return false;
    }
}

static bool is_device_error(cudaError_t e)
{
    switch (e) {
    case cudaErrorNoDevice:
    case cudaErrorInsufficientDriver:
    case cudaErrorInvalidDevice:
    case cudaErrorDevicesUnavailable:
    case cudaErrorSystemDriverMismatch:
    case cudaErrorCompatNotSupportedOnDevice: return true;
    default: return false;
    }
}

static px_status status_of(cudaError_t err, const px__cuda_ctx *ctx)
{
    if (err == cudaSuccess) return PX_OK;
    if (err == cudaErrorMemoryAllocation) return PX_ERR_OUT_OF_MEMORY;
    if (is_device_error(err)) return PX_ERR_NO_DEVICE;
    if (is_kernel_error(err) || (ctx != NULL && ctx->kernel != NULL)) return PX_ERR_LAUNCH;
    return PX_ERR_BACKEND;
}

static void space_name(px_space s, char *buf, size_t size)
{
    if (s.kind == PX_SPACE_DEVICE)
        snprintf(buf, size, "%s(%d)", px_space_kind_string(s.kind), s.device);
    else
        snprintf(buf, size, "%s", px_space_kind_string(s.kind));
}

px_status px__cuda_fail(cudaError_t err, const char *call, const px__cuda_ctx *ctx)
{
    /* Read and clear the pending error; a sticky one stays, nothing can clear it. */
    (void)cudaGetLastError();
    const px_status st = status_of(err, ctx);
    const char *name = cudaGetErrorName(err);
    const char *text = cudaGetErrorString(err);
    if (ctx != NULL && ctx->alloc) {
        char sp[48];
        space_name(ctx->space, sp, sizeof sp);
        return px__error(st, "%s: %s: %s (allocating %zu bytes in %s)", call, name, text,
                         ctx->bytes, sp);
    }
    if (ctx != NULL && ctx->kernel != NULL)
        return px__error(st, "kernel '%s': %s: %s: %s", ctx->kernel, call, name, text);
    return px__error(st, "%s: %s: %s", call, name, text);
}
