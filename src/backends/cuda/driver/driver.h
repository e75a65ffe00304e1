/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: the CUDA driver API without linking libcuda. Entry points are looked up at
 * run time through the runtime (cudaGetDriverEntryPointByVersion): libcuda.so.1 comes
 * with the NVIDIA driver, so a library linked against it would not even load on a
 * machine without one, where portex must still run on the serial backend. Also the
 * checkpoint that turns a CUresult into a portex status, beside PX__CU for the runtime. */
#ifndef PX_BACKENDS_CUDA_DRIVER_DRIVER_H
#define PX_BACKENDS_CUDA_DRIVER_DRIVER_H

#include <stdbool.h>
#include <stddef.h>

#include <cuda.h>

#include "backends/backend.h"

/* Stores driver function `symbol` (of at least `version`, e.g. 12000 for 12.0) at `slot`
   (the address of a function pointer of `slot_size` bytes); false with the reason in
   `why` when the driver has none. Leaves no CUDA error pending. */
bool px__cuda_driver_symbol(const char *symbol, unsigned int version, void *slot, size_t slot_size,
                            char *why, size_t why_size);

/* The driver calls on the paths that run per launch or per update, found once: each
   skips the runtime's work between it and the driver (finding the kernel of a host stub:
   about 0.1-0.2 us a call on the H200 machine). A NULL member: the driver has none, and
   callers use the runtime's call instead. */
typedef struct px__cuda_driver_calls {
    /* cuLaunchKernel (the CUDA launch templates call it with the kernel's CUkernel) */
    CUresult (*launch)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                       unsigned, CUstream, void **, void **);
    CUresult (*kernel_node_get)(CUgraphNode, CUDA_KERNEL_NODE_PARAMS *);
    CUresult (*exec_kernel_node_set)(CUgraphExec, CUgraphNode, const CUDA_KERNEL_NODE_PARAMS *);
} px__cuda_driver_calls;

const px__cuda_driver_calls *px__cuda_driver_calls_get(void);

/* Records the failure of driver call `call` ("func: call: CUDA_ERROR_X: description",
   func the public function called) and returns the status it maps to:
   PX_ERR_OUT_OF_MEMORY, PX_ERR_NO_DEVICE, PX_ERR_UNSUPPORTED (not supported, a resource
   configuration the device refuses), PX_ERR_LAUNCH (a kernel fault) or PX_ERR_BACKEND. */
px_status px__cu_fail(CUresult res, const char *call);

static inline px_status px__cu_check(CUresult res, const char *call)
{
    return res == CUDA_SUCCESS ? PX_OK : px__cu_fail(res, call);
}

#endif /* PX_BACKENDS_CUDA_DRIVER_DRIVER_H */
