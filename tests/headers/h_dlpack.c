/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* portex/dlpack.h (DLPack interop, opt-in) compiles on its own, and its declarations have
 * the DLPack ABI's layout (offsets of the 64-bit ABI, which every platform portex builds on
 * has). */
#include "portex/dlpack.h"

#include <stddef.h>

#define H_ABI(cond) _Static_assert(sizeof(void *) != 8 || (cond), #cond)
H_ABI(sizeof(DLDevice) == 8);
H_ABI(sizeof(DLDataType) == 4);
H_ABI(offsetof(DLTensor, data) == 0 && offsetof(DLTensor, device) == 8 &&
      offsetof(DLTensor, ndim) == 16);
H_ABI(offsetof(DLTensor, dtype) == 20 && offsetof(DLTensor, shape) == 24 &&
      offsetof(DLTensor, strides) == 32);
H_ABI(offsetof(DLTensor, byte_offset) == 40 && sizeof(DLTensor) == 48);
H_ABI(offsetof(DLManagedTensor, manager_ctx) == 48 && offsetof(DLManagedTensor, deleter) == 56);
H_ABI(sizeof(DLManagedTensor) == 64);
H_ABI(sizeof(DLPackVersion) == 8 && offsetof(DLManagedTensorVersioned, manager_ctx) == 8);
H_ABI(offsetof(DLManagedTensorVersioned, deleter) == 16 &&
      offsetof(DLManagedTensorVersioned, flags) == 24);
H_ABI(offsetof(DLManagedTensorVersioned, dl_tensor) == 32 &&
      sizeof(DLManagedTensorVersioned) == 80);
_Static_assert(kDLCPU == 1 && kDLCUDA == 2 && kDLCUDAHost == 3 && kDLCUDAManaged == 13,
               "device types");
_Static_assert(kDLInt == 0 && kDLUInt == 1 && kDLFloat == 2 && kDLBfloat == 4 && kDLBool == 6,
               "type codes");
_Static_assert(DLPACK_FLAG_BITMASK_READ_ONLY == 1 && DLPACK_FLAG_BITMASK_IS_COPIED == 2, "flags");

int px_header_test_dlpack(void);
int px_header_test_dlpack(void)
{
    px_status (*from)(px_view **, const char *, DLManagedTensor *) = px_view_from_dlpack;
    px_status (*from_v)(px_view **, const char *, DLManagedTensorVersioned *) =
        px_view_from_dlpack_versioned;
    px_status (*to)(px_view *, DLManagedTensor **) = px_view_to_dlpack;
    px_status (*to_v)(px_view *, DLManagedTensorVersioned **) = px_view_to_dlpack_versioned;
    return from && from_v && to && to_v ? 0 : 1;
}
