/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* dlpack_torch: the C side of dlpack_torch.py, built as the shared library
 * libdlpack_torch.so (CUDA builds only) and called through ctypes.
 *
 * Python hands over PyTorch's current stream as an integer
 * (torch.cuda.current_stream().cuda_stream) and tensors as DLPack tensors (the pointer a
 * PyCapsule from torch.utils.dlpack.to_dlpack holds). This file wraps the stream in a
 * portex instance, takes the tensors as portex views without copying
 * (px_view_from_dlpack), runs portex kernels over them on that stream, and hands a view
 * portex allocated to PyTorch (px_view_to_dlpack). Every function returns a px_status
 * (0: PX_OK); dlt_last_error() says what went wrong. docs/interop.md explains the rules. */
#include <stdint.h>
#include <stdlib.h>

#include <portex/cuda.h>
#include <portex/dlpack.h>

#include "dlpack_torch_kernels.h"
#include "torch_stream.h"

#if defined(__GNUC__)
#define DLT_API __attribute__((visibility("default")))
#else
#define DLT_API
#endif

/* One wrapped stream. */
typedef struct dlt {
    px_instance *inst;
} dlt;

DLT_API const char *dlt_last_error(void);
DLT_API int dlt_open(uint64_t stream, dlt **out);
DLT_API int dlt_axpy(dlt *h, float a, DLManagedTensor *x, DLManagedTensorVersioned *xv,
                     DLManagedTensor *y, DLManagedTensorVersioned *yv);
DLT_API int dlt_iota(dlt *h, int64_t rows, int64_t cols, DLManagedTensor **out);
DLT_API int dlt_close(dlt *h);
DLT_API void dlt_tensor_delete(DLManagedTensor *t);

/* The example's own complaint, where portex has none to say. */
static _Thread_local const char *dlt_message;

const char *dlt_last_error(void) { return dlt_message ? dlt_message : px_last_error(); }

/* portex on, and an instance over `stream` (a cudaStream_t as an integer; 0 is the legacy
 * default stream, PyTorch's usual current stream). */
int dlt_open(uint64_t stream, dlt **out)
{
    dlt_message = NULL;
    *out = NULL;
    dlt *h = calloc(1, sizeof *h);
    if (!h) return PX_ERR_OUT_OF_MEMORY;
    const px_status st = torch_stream_instance(stream, &h->inst);
    if (st != PX_OK) {
        free(h);
        return st;
    }
    *out = h;
    return PX_OK;
}

/* A view over a tensor given in one of its two forms (the other NULL). The tensor is taken
 * whatever happens: where portex refuses it, its deleter is called here, so that the
 * caller, who renamed the capsule, has nothing left to do. */
static px_status take(px_view **out, const char *label, DLManagedTensor *t,
                      DLManagedTensorVersioned *tv)
{
    px_status st;
    if (tv) {
        st = px_view_from_dlpack_versioned(out, label, tv);
        if (st != PX_OK && tv->deleter) tv->deleter(tv);
    } else {
        st = px_view_from_dlpack(out, label, t);
        if (st != PX_OK && t && t->deleter) t->deleter(t);
    }
    return st;
}

/* y = a x + y over two 2-D float32 CUDA tensors of the same shape and any strides, queued
 * on the instance's stream. Takes both tensors (x or xv, y or yv). The views are released
 * before the kernel has run: that gives the tensors back to PyTorch (their deleters run
 * now), which is safe because PyTorch's Python tensors still hold the memory and its
 * allocator reuses memory in the order of the stream the kernel is on. */
int dlt_axpy(dlt *h, float a, DLManagedTensor *x, DLManagedTensorVersioned *xv, DLManagedTensor *y,
             DLManagedTensorVersioned *yv)
{
    dlt_message = NULL;
    px_view *xw = NULL, *yw = NULL;
    px_status st = take(&xw, "torch x", x, xv);
    px_status sty = take(&yw, "torch y", y, yv);
    if (st == PX_OK) st = sty;
    dlt_axpy_args args = {a, {0}, {0}};
    px_view_info xi, yi;
    if (st == PX_OK) st = px_view_info_get(xw, &xi);
    if (st == PX_OK) st = px_view_info_get(yw, &yi);
    if (st == PX_OK && (xi.rank != 2 || yi.rank != 2 || xi.extent[0] != yi.extent[0] ||
                        xi.extent[1] != yi.extent[1])) {
        dlt_message = "dlt_axpy: x and y must be 2-D tensors of the same shape";
        st = PX_ERR_INVALID_ARGUMENT;
    }
    if (st == PX_OK) st = px_view_get_span(xw, &args.x); /* float32 is checked here */
    if (st == PX_OK) st = px_view_get_span(yw, &args.y);
    if (st == PX_OK)
        st = px_parallel_for(h->inst, "y = a x + y", px_mdrange2(0, yi.extent[0], 0, yi.extent[1]),
                             PX_KERNEL(dlt_axpy), &args);
    if (xw) px_view_release(&xw);
    if (yw) px_view_release(&yw);
    return st;
}

/* A new rows x cols float64 view of portex's on the stream's GPU, column-major
 * (LAYOUT_LEFT), filled on the stream with z(i, j) = 1000 i + j, as a DLPack tensor for
 * PyTorch. The tensor holds the view: its deleter (PyTorch calls it when its tensor goes)
 * releases it, and px_finalize refuses while it lives. */
int dlt_iota(dlt *h, int64_t rows, int64_t cols, DLManagedTensor **out)
{
    dlt_message = NULL;
    *out = NULL;
    int dev = 0;
    px_status st = px_instance_device(h->inst, &dev);
    if (st != PX_OK) return st;
    px_view_desc desc = {.label = "portex z",
                         .space = px_device(dev),
                         .dtype = PX_F64,
                         .rank = 2,
                         .extent = {rows, cols},
                         .layout = PX_LAYOUT_LEFT,
                         .flags = PX_VIEW_NO_INIT};
    px_view *z = NULL;
    st = px_view_create(&z, &desc);
    dlt_iota_args args = {{0}};
    if (st == PX_OK) st = px_view_get_span(z, &args.z);
    if (st == PX_OK)
        st = px_parallel_for(h->inst, "z = 1000 i + j", px_mdrange2(0, rows, 0, cols),
                             PX_KERNEL(dlt_iota), &args);
    if (st == PX_OK) st = px_view_to_dlpack(z, out);
    if (z) px_view_release(&z); /* the tensor keeps it */
    return st;
}

/* Waits for portex's work, frees the instance (never the stream) and drops portex: refused
 * (PX_ERR_BUSY) while a tensor dlt_iota made is still alive. */
int dlt_close(dlt *h)
{
    dlt_message = NULL;
    if (!h) return PX_OK;
    px_status st = px_instance_destroy(&h->inst), s;
    free(h);
    if ((s = px_finalize()) != PX_OK && st == PX_OK) st = s;
    return st;
}

/* Calls the deleter of a tensor nobody took (a capsule's destructor, where PyTorch did not
 * consume the capsule dlt_iota's tensor went into). */
void dlt_tensor_delete(DLManagedTensor *t)
{
    if (t && t->deleter) t->deleter(t);
}
