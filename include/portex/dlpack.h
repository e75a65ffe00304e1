/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/** @file
 * portex — DLPack interop, opt-in (not included by portex.h; no CUDA needed): hand views
 * to PyTorch, CuPy, JAX, NumPy and other DLPack libraries, and take their tensors as views,
 * without copying. docs/interop.md has the mapping tables, the ownership rules and a
 * Python example.
 *
 * The DLPack ABI (version 1) is declared here, so that no other header is needed. A
 * program that also includes the official `dlpack/dlpack.h` includes it before this
 * header: this header then uses its declarations and declares none of its own (the two
 * would clash the other way round). */
#ifndef PORTEX_DLPACK_H
#define PORTEX_DLPACK_H

#include <stddef.h>
#include <stdint.h>

#include "portex/view.h"

/* ---- The DLPack ABI ---------------------------------------------------------------- */

/** The DLPack major version these declarations follow, written into
 * DLManagedTensorVersioned.version by px_view_to_dlpack_versioned. */
#define PX_DLPACK_MAJOR_VERSION 1
/** The DLPack minor version these declarations follow (see PX_DLPACK_MAJOR_VERSION). */
#define PX_DLPACK_MINOR_VERSION 1

/* The official header is there when its include guard or one of its macros is (0.x
 * headers define DLPACK_VERSION, 1.x headers DLPACK_MAJOR_VERSION, all DLPACK_EXTERN_C). */
#if defined(DLPACK_DLPACK_H_) || defined(DLPACK_EXTERN_C) || defined(DLPACK_VERSION) || \
    defined(DLPACK_MAJOR_VERSION)
#define PX__DLPACK_OFFICIAL 1
#else
#define PX__DLPACK_OFFICIAL 0
#endif

PX_EXTERN_C_BEGIN

#if !PX__DLPACK_OFFICIAL
/** Where a tensor's memory is (DLDevice.device_type). C++ gives the enum the 32-bit type
 * the ABI has. */
#ifdef __cplusplus
typedef enum : int32_t {
#else
typedef enum {
#endif
    kDLCPU = 1,       /**< host memory: HOST */
    kDLCUDA = 2,      /**< memory of a CUDA GPU, device_id its ordinal: DEVICE(device_id) */
    kDLCUDAHost = 3,  /**< page-locked host memory (cudaMallocHost, cudaHostAlloc): HOST_PINNED */
    kDLOpenCL = 4,    /**< OpenCL (not taken by portex) */
    kDLVulkan = 7,    /**< Vulkan (not taken) */
    kDLMetal = 8,     /**< Metal (not taken) */
    kDLVPI = 9,       /**< Verilog simulator (not taken) */
    kDLROCM = 10,     /**< AMD GPU (not taken) */
    kDLROCMHost = 11, /**< page-locked host memory of ROCm (not taken) */
    kDLExtDev = 12,   /**< reserved for extensions (not taken) */
    kDLCUDAManaged =
        13, /**< CUDA managed memory, cudaMallocManaged (not taken: portex has no managed space) */
    kDLOneAPI = 14,  /**< oneAPI unified shared memory (not taken) */
    kDLWebGPU = 15,  /**< WebGPU (not taken) */
    kDLHexagon = 16, /**< Qualcomm Hexagon DSP (not taken) */
    kDLMAIA = 17,    /**< Microsoft MAIA (not taken) */
    kDLTrn = 18      /**< AWS Trainium (not taken) */
} DLDeviceType;

/** A tensor's device. */
typedef struct {
    DLDeviceType device_type; /**< the kind of memory */
    int32_t device_id;        /**< the device's ordinal; 0 for host, pinned and managed memory */
} DLDevice;

/** Type codes of DLDataType.code. */
typedef enum {
    kDLInt = 0U,                /**< signed integer (portex: 32 and 64 bits) */
    kDLUInt = 1U,               /**< unsigned integer (portex: 8, 32 and 64 bits) */
    kDLFloat = 2U,              /**< IEEE floating point (portex: 32 and 64 bits) */
    kDLOpaqueHandle = 3U,       /**< opaque handle (not taken) */
    kDLBfloat = 4U,             /**< bfloat16 (not taken) */
    kDLComplex = 5U,            /**< complex, two floats per element (not taken) */
    kDLBool = 6U,               /**< boolean, 8 bits (not taken) */
    kDLFloat8_e3m4 = 7U,        /**< 8-bit float (not taken) */
    kDLFloat8_e4m3 = 8U,        /**< 8-bit float (not taken) */
    kDLFloat8_e4m3b11fnuz = 9U, /**< 8-bit float (not taken) */
    kDLFloat8_e4m3fn = 10U,     /**< 8-bit float (not taken) */
    kDLFloat8_e4m3fnuz = 11U,   /**< 8-bit float (not taken) */
    kDLFloat8_e5m2 = 12U,       /**< 8-bit float (not taken) */
    kDLFloat8_e5m2fnuz = 13U,   /**< 8-bit float (not taken) */
    kDLFloat8_e8m0fnu = 14U,    /**< 8-bit float (not taken) */
    kDLFloat6_e2m3fn = 15U,     /**< 6-bit float (not taken) */
    kDLFloat6_e3m2fn = 16U,     /**< 6-bit float (not taken) */
    kDLFloat4_e2m1fn = 17U      /**< 4-bit float (not taken) */
} DLDataTypeCode;

/** An element type. */
typedef struct {
    uint8_t code;   /**< a DLDataTypeCode */
    uint8_t bits;   /**< the width of one lane in bits */
    uint16_t lanes; /**< lanes per element: 1 for scalars (the only count portex takes) */
} DLDataType;

/** A tensor's description; it owns nothing. Element (i0, ..., in) is at
 * (char *)data + byte_offset + (i0 * strides[0] + ... + in * strides[n]) * bits / 8. */
typedef struct {
    void *data;           /**< the memory (a device address for kDLCUDA) */
    DLDevice device;      /**< where the memory is */
    int32_t ndim;         /**< the number of dimensions */
    DLDataType dtype;     /**< the element type */
    int64_t *shape;       /**< ndim extents */
    int64_t *strides;     /**< ndim strides in elements; NULL: row-major and compact */
    uint64_t byte_offset; /**< bytes from data to the first element */
} DLTensor;

/** A tensor lent by its producer, unversioned (what torch.utils.dlpack.to_dlpack gives):
 * the consumer calls deleter(self) once when it no longer needs the memory. */
typedef struct DLManagedTensor {
    DLTensor dl_tensor; /**< the tensor */
    void *manager_ctx;  /**< the producer's */
    /** Called once by the consumer; NULL: nothing to call. */
    void (*deleter)(struct DLManagedTensor *self);
} DLManagedTensor;
#endif /* !PX__DLPACK_OFFICIAL */

/* The versioned form came with DLPack 1.0: declared here unless a 1.x official header
 * already did (a 0.x header has the types above only). */
#if !PX__DLPACK_OFFICIAL || !defined(DLPACK_MAJOR_VERSION)
/** A DLPack version. */
typedef struct {
    uint32_t major; /**< another major version: another layout after `deleter` */
    uint32_t minor; /**< a later minor version adds enumeration values only */
} DLPackVersion;

/** A tensor lent by its producer, versioned (DLPack 1.x): the same contract as
 * DLManagedTensor, with a version (checked before anything past `deleter` is read) and
 * flags. */
typedef struct DLManagedTensorVersioned {
    DLPackVersion version; /**< the layout of what follows `deleter` */
    void *manager_ctx;     /**< the producer's */
    /** Called once by the consumer; NULL: nothing to call. */
    void (*deleter)(struct DLManagedTensorVersioned *self);
    uint64_t flags;     /**< DLPACK_FLAG_BITMASK_* */
    DLTensor dl_tensor; /**< the tensor */
} DLManagedTensorVersioned;
#endif

#ifndef DLPACK_FLAG_BITMASK_READ_ONLY
/** DLManagedTensorVersioned.flags: the consumer must not write the memory. */
#define DLPACK_FLAG_BITMASK_READ_ONLY (UINT64_C(1) << 0)
#endif
#ifndef DLPACK_FLAG_BITMASK_IS_COPIED
/** DLManagedTensorVersioned.flags: the tensor is a copy the consumer alone uses. */
#define DLPACK_FLAG_BITMASK_IS_COPIED (UINT64_C(1) << 1)
#endif
#ifndef DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED
/** DLManagedTensorVersioned.flags: elements narrower than a byte are padded to one. */
#define DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED (UINT64_C(1) << 2)
#endif

/* ---- Tensors as views ---------------------------------------------------------------- */

/** A view over the tensor's memory, without copying. On success portex owns `tensor`: it
 * calls tensor->deleter(tensor) exactly once, when the last reference to the memory goes
 * (the view, its subviews and mirror views, copies still in flight, graphs naming it), on
 * the thread that drops it (any thread), without waiting for work still queued on it; it
 * never frees, pins, registers, prefetches or initialises the memory itself. On failure
 * nothing is taken: the deleter is not called, and the tensor is still the caller's.
 *
 * The view:
 *  - space: kDLCPU is HOST, kDLCUDAHost HOST_PINNED (as for px_view_wrap, a HOST or
 *    HOST_PINNED view takes what the memory really is), kDLCUDA DEVICE(device_id), whose
 *    memory must be that GPU's. Any other device (kDLCUDAManaged included) is
 *    PX_ERR_UNSUPPORTED.
 *  - dtype: int32, int64, uint8, uint32, uint64, float32 and float64 with one lane;
 *    anything else (bool, int8, int16, uint16, float16, bfloat16, complex, float8, vector
 *    lanes) is PX_ERR_UNSUPPORTED.
 *  - rank ndim (0 to PX_MAX_RANK), extents shape, strides in elements (NULL: row-major,
 *    compact); negative strides are PX_ERR_UNSUPPORTED. The layout is LAYOUT_RIGHT or
 *    LAYOUT_LEFT where the strides are those of a compact layout, else LAYOUT_STRIDE.
 *  - data: tensor data + byte_offset, which must be aligned to the element's size; it may
 *    be NULL only when the tensor has no element.
 *  - label: copied; NULL means "". px_view_info_get says managed = false.
 * Kernels may read and write the memory: the caller orders portex's work with the
 * producer's (docs/interop.md). */
PX_API px_status px_view_from_dlpack(px_view **out, const char *label, DLManagedTensor *tensor);

/** The same for a versioned tensor. Also refused, with PX_ERR_UNSUPPORTED: a major version
 * other than 1 (the deleter is left to the caller, who may call it: its place is the same
 * in every version), and a read-only tensor (DLPACK_FLAG_BITMASK_READ_ONLY: portex views
 * are writable, so portex does not take memory it may not write). Other flags are
 * accepted. */
PX_API px_status px_view_from_dlpack_versioned(px_view **out, const char *label,
                                               DLManagedTensorVersioned *tensor);

/* ---- Views as tensors ---------------------------------------------------------------- */

/** A new DLManagedTensor describing `view` (one more reference to it, which the tensor's
 * deleter drops: call it exactly once, from any thread, before the last px_finalize, which
 * otherwise refuses and names the view). HOST is kDLCPU, HOST_PINNED kDLCUDAHost,
 * DEVICE(n) kDLCUDA with device_id n; dtype, shape and strides are the view's (every
 * layout and subview, strides always given), data the view's first element and
 * byte_offset 0. A PX_USER view is PX_ERR_UNSUPPORTED (DLPack has no type for it). The
 * memory stays portex's: the consumer must not free it. On failure *out is NULL. */
PX_API px_status px_view_to_dlpack(px_view *view, DLManagedTensor **out);

/** The same as a versioned tensor: version PX_DLPACK_MAJOR_VERSION.PX_DLPACK_MINOR_VERSION,
 * flags 0 (writable, not a copy). */
PX_API px_status px_view_to_dlpack_versioned(px_view *view, DLManagedTensorVersioned **out);

PX_EXTERN_C_END

#endif /* PORTEX_DLPACK_H */
