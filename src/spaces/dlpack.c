/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* DLPack interop (portex/dlpack.h): tensors of other libraries as views over their memory,
 * and views as tensors. No copy either way; the ownership rules are in docs/interop.md. */
#include "portex/dlpack.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/state.h"
#include "base/util.h"
#include "spaces/space.h"
#include "spaces/view.h"

/* ---- Names for messages ------------------------------------------------------------- */

static const char *device_name(int32_t type, char *buf, size_t n)
{
    static const char *const names[] = {
        [kDLCPU] = "kDLCPU",
        [kDLCUDA] = "kDLCUDA",
        [kDLCUDAHost] = "kDLCUDAHost",
        [kDLOpenCL] = "kDLOpenCL",
        [kDLVulkan] = "kDLVulkan",
        [kDLMetal] = "kDLMetal",
        [kDLVPI] = "kDLVPI",
        [kDLROCM] = "kDLROCM",
        [kDLROCMHost] = "kDLROCMHost",
        [kDLExtDev] = "kDLExtDev",
        [kDLCUDAManaged] = "kDLCUDAManaged",
        [kDLOneAPI] = "kDLOneAPI",
        [kDLWebGPU] = "kDLWebGPU",
        [kDLHexagon] = "kDLHexagon",
        [kDLMAIA] = "kDLMAIA",
        [kDLTrn] = "kDLTrn",
    };
    if (type >= 0 && (size_t)type < sizeof names / sizeof names[0] && names[type])
        return names[type];
    snprintf(buf, n, "device type %d", (int)type);
    return buf;
}

/* "float16", "complex64", "bool8", "float8_e4m3fn", "type code 200", with ", 4 lanes" for
   vectors. */
static const char *type_name(DLDataType t, char *buf, size_t n)
{
    static const char *const sized[] = {
        [kDLInt] = "int",       [kDLUInt] = "uint",       [kDLFloat] = "float",
        [kDLBfloat] = "bfloat", [kDLComplex] = "complex", [kDLBool] = "bool"};
    static const char *const named[] = {
        [kDLOpaqueHandle] = "opaque handle",    [kDLFloat8_e3m4] = "float8_e3m4",
        [kDLFloat8_e4m3] = "float8_e4m3",       [kDLFloat8_e4m3b11fnuz] = "float8_e4m3b11fnuz",
        [kDLFloat8_e4m3fn] = "float8_e4m3fn",   [kDLFloat8_e4m3fnuz] = "float8_e4m3fnuz",
        [kDLFloat8_e5m2] = "float8_e5m2",       [kDLFloat8_e5m2fnuz] = "float8_e5m2fnuz",
        [kDLFloat8_e8m0fnu] = "float8_e8m0fnu", [kDLFloat6_e2m3fn] = "float6_e2m3fn",
        [kDLFloat6_e3m2fn] = "float6_e3m2fn",   [kDLFloat4_e2m1fn] = "float4_e2m1fn",
    };
    int len;
    if (t.code < sizeof sized / sizeof sized[0] && sized[t.code])
        len = snprintf(buf, n, "%s%u", sized[t.code], (unsigned)t.bits);
    else if (t.code < sizeof named / sizeof named[0] && named[t.code])
        len = snprintf(buf, n, "%s of %u bits", named[t.code], (unsigned)t.bits);
    else
        len = snprintf(buf, n, "type code %u of %u bits", (unsigned)t.code, (unsigned)t.bits);
    if (t.lanes != 1 && len > 0 && (size_t)len < n)
        snprintf(buf + len, n - (size_t)len, ", %u lanes", (unsigned)t.lanes);
    return buf;
}

/* ---- Tensors as views ----------------------------------------------------------------- */

/* The px_dtype of a DLPack element type, or PX_DTYPE_COUNT. */
static px_dtype dtype_of(DLDataType t)
{
    if (t.lanes != 1) return PX_DTYPE_COUNT;
    switch (t.code) {
    case kDLInt: return t.bits == 32 ? PX_I32 : t.bits == 64 ? PX_I64 : PX_DTYPE_COUNT;
    case kDLUInt:
        return t.bits == 8 ? PX_U8 : t.bits == 32 ? PX_U32 : t.bits == 64 ? PX_U64 : PX_DTYPE_COUNT;
    case kDLFloat: return t.bits == 32 ? PX_F32 : t.bits == 64 ? PX_F64 : PX_DTYPE_COUNT;
    default: return PX_DTYPE_COUNT;
    }
}

/* What the last release of a lent tensor's memory calls. The deleter is its producer's
   code, which may call portex (a tensor portex exported comes back): those calls name
   themselves, not the call that released the memory. */
static void release_managed(void *ctx)
{
    DLManagedTensor *t = (DLManagedTensor *)ctx;
    const char *caller = px__caller_suspend();
    if (t->deleter) t->deleter(t);
    px__caller_resume(caller);
}

static void release_versioned(void *ctx)
{
    DLManagedTensorVersioned *t = (DLManagedTensorVersioned *)ctx;
    const char *caller = px__caller_suspend();
    if (t->deleter) t->deleter(t);
    px__caller_resume(caller);
}

/* Wraps the DLTensor's memory in a view whose last release calls release(ctx). */
static px_status wrap_tensor(px_view **out, const char *label, const DLTensor *t,
                             void (*release)(void *), void *ctx)
{
    PX__TRY(px__require_init());
    char dev_buf[32];
    const char *dev = device_name((int32_t)t->device.device_type, dev_buf, sizeof dev_buf);

    /* Shape and strides. */
    if (t->ndim < 0)
        return px__error(PX_ERR_INVALID_ARGUMENT, "tensor->dl_tensor.ndim is %d; expected >= 0",
                         (int)t->ndim);
    if (t->ndim > PX_MAX_RANK)
        return px__error(PX_ERR_UNSUPPORTED,
                         "the tensor has %d dimensions; portex views have at most %d", (int)t->ndim,
                         PX_MAX_RANK);
    if (t->ndim > 0 && !t->shape)
        return px__error(PX_ERR_INVALID_ARGUMENT, "tensor->dl_tensor.shape is NULL but ndim is %d",
                         (int)t->ndim);
    px_view_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.label = label;
    desc.rank = t->ndim;
    desc.layout = t->strides ? PX_LAYOUT_STRIDE : PX_LAYOUT_RIGHT;
    bool empty = false;
    for (int d = 0; d < t->ndim; ++d) {
        if (t->shape[d] < 0)
            return px__error(PX_ERR_INVALID_ARGUMENT,
                             "tensor->dl_tensor.shape[%d] is %lld; expected >= 0", d,
                             (long long)t->shape[d]);
        if (t->strides && t->strides[d] < 0)
            return px__error(
                PX_ERR_UNSUPPORTED,
                "tensor->dl_tensor.strides[%d] is %lld; portex views need strides >= 0 (copy "
                "the tensor, or flip it, first)",
                d, (long long)t->strides[d]);
        desc.extent[d] = t->shape[d];
        if (t->strides) desc.stride[d] = t->strides[d];
        if (t->shape[d] == 0) empty = true;
    }

    /* Element type. */
    desc.dtype = dtype_of(t->dtype);
    if (desc.dtype == PX_DTYPE_COUNT) {
        char tn[96];
        return px__error(
            PX_ERR_UNSUPPORTED,
            "the tensor's elements are %s (DLDataType code %u, bits %u, lanes %u); portex takes "
            "int32, int64, uint8, uint32, uint64, float32 and float64 with one lane",
            type_name(t->dtype, tn, sizeof tn), (unsigned)t->dtype.code, (unsigned)t->dtype.bits,
            (unsigned)t->dtype.lanes);
    }

    /* The farthest element fits (the messages of px__view_validate_shape say why not). */
    size_t es, bytes;
    int64_t stride[PX_MAX_RANK];
    PX__TRY(px__view_validate_shape(&desc, &es, stride, &bytes));
    if (desc.layout == PX_LAYOUT_STRIDE) {
        /* The compact layouts keep their name (and the spans that need them). */
        const px_layout compact = px__layout_of(desc.rank, desc.extent, desc.stride);
        if (compact != PX_LAYOUT_STRIDE) desc.layout = compact;
    }

    /* Memory space. */
    switch ((int32_t)t->device.device_type) {
    case kDLCPU: desc.space = px_host(); break;
    case kDLCUDAHost: desc.space = px_host_pinned(); break;
    case kDLCUDA:
        if (t->device.device_id < 0)
            return px__error(PX_ERR_INVALID_ARGUMENT,
                             "tensor->dl_tensor.device is kDLCUDA with device_id %d",
                             (int)t->device.device_id);
        desc.space = px_device(t->device.device_id);
        break;
    case kDLCUDAManaged:
        return px__error(
            PX_ERR_UNSUPPORTED,
            "the tensor is in CUDA managed memory (kDLCUDAManaged), which portex does not take: "
            "it has no managed space (copy the tensor to a kDLCUDA or kDLCPU one)");
    default:
        return px__error(
            PX_ERR_UNSUPPORTED,
            "the tensor is on %s; portex takes kDLCPU (HOST), kDLCUDAHost (HOST_PINNED) and "
            "kDLCUDA (DEVICE)",
            dev);
    }
    if ((t->device.device_type == kDLCPU || t->device.device_type == kDLCUDAHost) &&
        t->device.device_id != 0)
        return px__error(PX_ERR_INVALID_ARGUMENT,
                         "tensor->dl_tensor.device is %s with device_id %d; expected 0", dev,
                         (int)t->device.device_id);
    PX__TRY(px__space_check(desc.space, NULL));

    /* The first element: data + byte_offset, aligned for the element type, in the memory
       the device says. A tensor without elements needs no memory: its view has none. */
    void *data = NULL;
    if (!empty) {
        if (!t->data)
            return px__error(PX_ERR_INVALID_ARGUMENT,
                             "tensor->dl_tensor.data is NULL but the tensor has elements");
        const uintptr_t base = (uintptr_t)t->data;
        if (t->byte_offset > (uint64_t)(UINTPTR_MAX - base))
            return px__error(PX_ERR_OVERFLOW,
                             "tensor->dl_tensor.data %p + byte_offset %llu overflows", t->data,
                             (unsigned long long)t->byte_offset);
        data = (char *)t->data + t->byte_offset;
        if ((uintptr_t)data % es != 0)
            return px__error(PX_ERR_INVALID_ARGUMENT,
                             "the tensor's first element (data %p + byte_offset %llu) is not "
                             "aligned to %zu bytes, "
                             "as %zu-byte elements need",
                             t->data, (unsigned long long)t->byte_offset, es, es);
        const px_space real = px__pointer_space(data);
        const bool host_claimed = desc.space.kind != PX_SPACE_DEVICE,
                   host_real = real.kind != PX_SPACE_DEVICE;
        if (host_claimed != host_real || (!host_real && real.device != desc.space.device)) {
            if (host_real)
                return px__error(
                    PX_ERR_INVALID_ARGUMENT,
                    "the tensor is on kDLCUDA:%d but its data %p is not that GPU's memory (CUDA "
                    "says %s memory)",
                    (int)t->device.device_id, data, px_space_kind_string(real.kind));
            return px__error(PX_ERR_INVALID_ARGUMENT,
                             "the tensor is on %s:%d but its data %p is DEVICE(%d) memory", dev,
                             (int)t->device.device_id, data, real.device);
        }
    }
    return px__view_wrap_lent(out, &desc, data, release, ctx);
}

px_status px_view_from_dlpack(px_view **out, const char *label, DLManagedTensor *tensor)
{
    PX__ENTER;
    PX__ARG(out, "out must not be NULL");
    *out = NULL;
    PX__ARG(tensor, "tensor must not be NULL");
    return wrap_tensor(out, label, &tensor->dl_tensor, release_managed, tensor);
}

px_status px_view_from_dlpack_versioned(px_view **out, const char *label,
                                        DLManagedTensorVersioned *tensor)
{
    PX__ENTER;
    PX__ARG(out, "out must not be NULL");
    *out = NULL;
    PX__ARG(tensor, "tensor must not be NULL");
    /* Past `deleter`, another major version may have another layout: nothing more is read. */
    if (tensor->version.major != PX_DLPACK_MAJOR_VERSION)
        return PX__FAIL(
            PX_ERR_UNSUPPORTED,
            "the tensor has DLPack version %u.%u; portex reads major version %d (the tensor is "
            "still yours: call its deleter)",
            (unsigned)tensor->version.major, (unsigned)tensor->version.minor,
            PX_DLPACK_MAJOR_VERSION);
    if (tensor->flags & DLPACK_FLAG_BITMASK_READ_ONLY)
        return PX__FAIL(PX_ERR_UNSUPPORTED,
                        "the tensor is read-only (DLPACK_FLAG_BITMASK_READ_ONLY) and portex views "
                        "are writable: "
                        "export a writable tensor, or a copy");
    return wrap_tensor(out, label, &tensor->dl_tensor, release_versioned, tensor);
}

/* ---- Views as tensors ------------------------------------------------------------------- */

/* What an exported tensor holds: the view, and the shape and strides the DLTensor points
   to. Either tensor form comes first, so that manager_ctx is the block itself. */
typedef struct exported {
    union {
        DLManagedTensor managed;
        DLManagedTensorVersioned versioned;
    } t;
    px_view *view;
    int64_t shape[PX_MAX_RANK];
    int64_t strides[PX_MAX_RANK];
} exported;

static void export_release(exported *e)
{
    px__view_release(e->view);
    free(e);
}

/* The deleters are called by the tensor's consumer, outside any portex call: what goes
   wrong while the view's memory is freed is worded as px_view_release would word it. */
static void delete_managed(DLManagedTensor *self)
{
    PX__ENTER_AS("px_view_release");
    if (self) export_release((exported *)self->manager_ctx);
}

static void delete_versioned(DLManagedTensorVersioned *self)
{
    PX__ENTER_AS("px_view_release");
    if (self) export_release((exported *)self->manager_ctx);
}

/* A block describing `view`, holding one more reference to it: its tensor in the
   versioned form or the unversioned one, with the deleter of that form. */
static px_status export_view(px_view *view, bool versioned, exported **out)
{
    static const DLDataType types[PX_USER] = {
        [PX_U8] = {kDLUInt, 8, 1},    [PX_I32] = {kDLInt, 32, 1},  [PX_I64] = {kDLInt, 64, 1},
        [PX_U32] = {kDLUInt, 32, 1},  [PX_U64] = {kDLUInt, 64, 1}, [PX_F32] = {kDLFloat, 32, 1},
        [PX_F64] = {kDLFloat, 64, 1},
    };
    PX__TRY(px__view_check(view, "view"));
    if (view->dtype == PX_USER)
        return px__error(
            PX_ERR_UNSUPPORTED,
            "view '%s' holds PX_USER elements (%zu bytes each), which DLPack has no type for",
            view->label, view->elem_size);
    exported *e = px__calloc(1, sizeof *e);
    if (!e)
        return px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory for the tensor of view '%s'",
                         view->label);
    DLTensor *tensor = versioned ? &e->t.versioned.dl_tensor : &e->t.managed.dl_tensor;
    const px_space space = view->alloc->space;
    switch (space.kind) {
    case PX_SPACE_HOST: tensor->device.device_type = kDLCPU; break;
    case PX_SPACE_HOST_PINNED: tensor->device.device_type = kDLCUDAHost; break;
    case PX_SPACE_DEVICE:
    default:
        tensor->device.device_type = kDLCUDA;
        tensor->device.device_id = space.device;
        break;
    }
    for (int d = 0; d < view->rank; ++d) {
        e->shape[d] = view->extent[d];
        e->strides[d] = view->stride[d];
    }
    tensor->data = view->data;
    tensor->ndim = view->rank;
    tensor->dtype = types[view->dtype];
    tensor->shape = e->shape;
    tensor->strides = e->strides; /* always given, also for compact views */
    tensor->byte_offset = 0;
    /* The handle stays alive, and with it the memory: the deleter gives both back, and
       px_finalize names the view while a tensor still holds it. */
    atomic_fetch_add_explicit(&view->refs, 1, memory_order_relaxed);
    e->view = view;
    if (versioned) {
        e->t.versioned.version.major = PX_DLPACK_MAJOR_VERSION;
        e->t.versioned.version.minor = PX_DLPACK_MINOR_VERSION;
        e->t.versioned.manager_ctx = e;
        e->t.versioned.deleter = delete_versioned;
        e->t.versioned.flags = 0;
    } else {
        e->t.managed.manager_ctx = e;
        e->t.managed.deleter = delete_managed;
    }
    *out = e;
    return PX_OK;
}

px_status px_view_to_dlpack(px_view *view, DLManagedTensor **out)
{
    PX__ENTER;
    PX__ARG(out, "out must not be NULL");
    *out = NULL;
    exported *e;
    PX__TRY(export_view(view, false, &e));
    *out = &e->t.managed;
    return PX_OK;
}

px_status px_view_to_dlpack_versioned(px_view *view, DLManagedTensorVersioned **out)
{
    PX__ENTER;
    PX__ARG(out, "out must not be NULL");
    *out = NULL;
    exported *e;
    PX__TRY(export_view(view, true, &e));
    *out = &e->t.versioned;
    return PX_OK;
}
