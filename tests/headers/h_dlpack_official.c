/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* portex/dlpack.h after the official dlpack.h: it declares nothing the official header
 * did. The official header is not a dependency of portex, so a stand-in with its macros
 * and type names comes first here (written for this test); a second definition of any
 * type would not compile. */
#include <stdint.h>

#define DLPACK_EXTERN_C
#define DLPACK_MAJOR_VERSION 1
#define DLPACK_MINOR_VERSION 0
#define DLPACK_FLAG_BITMASK_READ_ONLY (1UL << 0UL)
#define DLPACK_FLAG_BITMASK_IS_COPIED (1UL << 1UL)

typedef struct {
    uint32_t major, minor;
} DLPackVersion;
typedef enum { kDLCPU = 1, kDLCUDA = 2, kDLCUDAHost = 3, kDLCUDAManaged = 13 } DLDeviceType;
typedef struct {
    DLDeviceType device_type;
    int32_t device_id;
} DLDevice;
typedef enum { kDLInt = 0U, kDLUInt = 1U, kDLFloat = 2U } DLDataTypeCode;
typedef struct {
    uint8_t code, bits;
    uint16_t lanes;
} DLDataType;
typedef struct {
    void *data;
    DLDevice device;
    int32_t ndim;
    DLDataType dtype;
    int64_t *shape, *strides;
    uint64_t byte_offset;
} DLTensor;
typedef struct DLManagedTensor {
    DLTensor dl_tensor;
    void *manager_ctx;
    void (*deleter)(struct DLManagedTensor *self);
} DLManagedTensor;
typedef struct DLManagedTensorVersioned {
    DLPackVersion version;
    void *manager_ctx;
    void (*deleter)(struct DLManagedTensorVersioned *self);
    uint64_t flags;
    DLTensor dl_tensor;
} DLManagedTensorVersioned;

#include "portex/dlpack.h"

int px_header_test_dlpack_official(void);
int px_header_test_dlpack_official(void)
{
    px_status (*from_v)(px_view **, const char *, DLManagedTensorVersioned *) =
        px_view_from_dlpack_versioned;
    px_status (*to)(px_view *, DLManagedTensor **) = px_view_to_dlpack;
    return from_v && to && DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED == 4 ? 0 : 1;
}
