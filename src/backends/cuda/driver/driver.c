/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The driver API through the runtime, and the CUresult checkpoint; see driver/driver.h. */
#include "backends/cuda/driver/driver.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "backends/services.h"

bool px__cuda_driver_symbol(const char *symbol, unsigned int version, void *slot, size_t slot_size,
                            char *why, size_t why_size)
{
    void *fn = NULL;
    enum cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
    const cudaError_t e =
        cudaGetDriverEntryPointByVersion(symbol, &fn, version, cudaEnableDefault, &q);
    if (e != cudaSuccess || q != cudaDriverEntryPointSuccess || fn == NULL) {
        (void)cudaGetLastError();
        snprintf(why, why_size, "the driver has no %s (version %u.%u): %s", symbol, version / 1000,
                 version % 1000 / 10,
                 e != cudaSuccess                               ? cudaGetErrorName(e)
                 : q == cudaDriverEntryPointVersionNotSufficent ? "version not sufficient"
                                                                : "symbol not found");
        return false;
    }
    /* A data pointer to a function pointer: same size on every platform CUDA runs on;
       memcpy keeps ISO C's object/function pointer rule. */
    if (slot_size != sizeof fn) {
        snprintf(why, why_size, "%s: unexpected function pointer size", symbol);
        return false;
    }
    memcpy(slot, &fn, sizeof fn);
    return true;
}

static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static CUresult (*g_error_name)(CUresult, const char **);
static CUresult (*g_error_string)(CUresult, const char **);

static void names_load(void)
{
    char why[160];
    if (!px__cuda_driver_symbol("cuGetErrorName", 6000, &g_error_name, sizeof g_error_name, why,
                                sizeof why))
        g_error_name = NULL;
    if (!px__cuda_driver_symbol("cuGetErrorString", 6000, &g_error_string, sizeof g_error_string,
                                why, sizeof why))
        g_error_string = NULL;
}

static px_status cu_status(CUresult r)
{
    switch (r) {
    case CUDA_SUCCESS: return PX_OK;
    case CUDA_ERROR_OUT_OF_MEMORY: return PX_ERR_OUT_OF_MEMORY;
    case CUDA_ERROR_NO_DEVICE:
    case CUDA_ERROR_INVALID_DEVICE:
    case CUDA_ERROR_SYSTEM_DRIVER_MISMATCH:
    case CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE: return PX_ERR_NO_DEVICE;
    case CUDA_ERROR_NOT_SUPPORTED:
    case CUDA_ERROR_INVALID_RESOURCE_TYPE:
    case CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION: return PX_ERR_UNSUPPORTED;
    case CUDA_ERROR_LAUNCH_FAILED:
    case CUDA_ERROR_ILLEGAL_ADDRESS:
    case CUDA_ERROR_ILLEGAL_INSTRUCTION:
    case CUDA_ERROR_MISALIGNED_ADDRESS:
    case CUDA_ERROR_INVALID_ADDRESS_SPACE:
    case CUDA_ERROR_INVALID_PC:
    case CUDA_ERROR_HARDWARE_STACK_ERROR:
    case CUDA_ERROR_ASSERT:
    case CUDA_ERROR_LAUNCH_TIMEOUT: return PX_ERR_LAUNCH;
    default: return PX_ERR_BACKEND;
    }
}

px_status px__cu_fail(CUresult res, const char *call)
{
    pthread_once(&g_once, names_load);
    const char *name = NULL, *text = NULL;
    if (g_error_name == NULL || g_error_name(res, &name) != CUDA_SUCCESS) name = NULL;
    if (g_error_string == NULL || g_error_string(res, &text) != CUDA_SUCCESS) text = NULL;
    const px_status st = cu_status(res);
    if (name == NULL)
        return px__error(st, "%s: CUresult %d%s%s", call, (int)res, text ? ": " : "",
                         text ? text : "");
    return px__error(st, "%s: %s: %s", call, name, text ? text : "no description");
}

static pthread_once_t g_calls_once = PTHREAD_ONCE_INIT;
static px__cuda_driver_calls g_calls;

/* CUDA_KERNEL_NODE_PARAMS is the 12.0 layout (_v2): the versions asked for match it. */
static void calls_load(void)
{
    char why[160];
    if (!px__cuda_driver_symbol("cuLaunchKernel", 4000, &g_calls.launch, sizeof g_calls.launch, why,
                                sizeof why))
        g_calls.launch = NULL;
    if (!px__cuda_driver_symbol("cuGraphKernelNodeGetParams", 12000, &g_calls.kernel_node_get,
                                sizeof g_calls.kernel_node_get, why, sizeof why))
        g_calls.kernel_node_get = NULL;
    if (!px__cuda_driver_symbol("cuGraphExecKernelNodeSetParams", 12000,
                                &g_calls.exec_kernel_node_set, sizeof g_calls.exec_kernel_node_set,
                                why, sizeof why))
        g_calls.exec_kernel_node_set = NULL;
}

const px__cuda_driver_calls *px__cuda_driver_calls_get(void)
{
    pthread_once(&g_calls_once, calls_load);
    return &g_calls;
}
