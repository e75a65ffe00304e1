#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""dlpack_torch: PyTorch tensors as portex views, and a portex view as a PyTorch tensor,
through DLPack: no copies, portex's kernels on PyTorch's current stream.

    python3 dlpack_torch.py path/to/libdlpack_torch.so

The library is built from examples/dlpack_torch.c when portex is built with CUDA. For
PyTorch's current stream, then for a stream of its own made current with
``torch.cuda.stream(s)``:

  1. PyTorch to portex. ``torch.utils.dlpack.to_dlpack(t)`` gives a PyCapsule named
     "dltensor" holding a ``DLManagedTensor *``. The script takes the pointer out
     (``PyCapsule_GetPointer``) and renames the capsule "used_dltensor", as the DLPack
     protocol asks of a consumer: the capsule then no longer calls the tensor's deleter
     when it goes, portex does (once, when its last view of the memory is released). The
     library wraps the tensors with ``px_view_from_dlpack`` and runs y = a x + y over them
     on the stream (``px_instance_from_cuda_stream`` over
     ``torch.cuda.current_stream().cuda_stream``), with x a slice (every other column) and
     y a transpose: strided views, no copy. Where this PyTorch offers versioned tensors
     (``t.__dlpack__(stream=..., max_version=(1, 0))``, a capsule named
     "dltensor_versioned"), the same through ``px_view_from_dlpack_versioned``.
  2. portex to PyTorch. The library allocates a column-major float64 view on the GPU,
     fills it with z(i, j) = 1000 i + j on the stream and exports it with
     ``px_view_to_dlpack``; the script puts the pointer in a new PyCapsule named
     "dltensor" (``PyCapsule_New``) whose destructor calls the tensor's deleter only if
     nobody consumed it, and ``torch.utils.dlpack.from_dlpack`` makes a tensor of it.
     When that tensor goes, PyTorch calls the deleter, which releases portex's view:
     closing portex (``px_finalize``) succeeds only then.

Every result is compared with PyTorch's own. Ordering: portex's work is queued on the
stream PyTorch uses for the tensors, so PyTorch's work before and after it is ordered
with it, and nothing here synchronises. A tensor used on another stream needs the
streams ordered by the caller (events), as for any two CUDA streams (docs/interop.md).

Exit status: 0 when everything matched, 1 on a mismatch or an error, 77 (skipped) when
PyTorch, CUDA or a GPU is missing, or portex was built without CUDA (no library given).
"""
import contextlib
import ctypes
import os
import sys

# Capsule names. PyCapsule_SetName keeps the pointer it is given, not a copy: these
# objects live as long as the module, longer than any capsule renamed with them.
DLTENSOR = b"dltensor"
USED_DLTENSOR = b"used_dltensor"
DLTENSOR_VERSIONED = b"dltensor_versioned"
USED_DLTENSOR_VERSIONED = b"used_dltensor_versioned"

# The CPython capsule API. Capsules that are alive are passed as py_object; the
# destructor below gets a capsule being destroyed as a raw PyObject * (c_void_p), which
# must not be turned into a new reference.
_api = ctypes.pythonapi
_api.PyCapsule_IsValid.argtypes = [ctypes.py_object, ctypes.c_char_p]
_api.PyCapsule_IsValid.restype = ctypes.c_int
_api.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_api.PyCapsule_GetPointer.restype = ctypes.c_void_p
_api.PyCapsule_SetName.argtypes = [ctypes.py_object, ctypes.c_char_p]
_api.PyCapsule_SetName.restype = ctypes.c_int
_api.PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
_api.PyCapsule_New.restype = ctypes.py_object
_raw_is_valid = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_char_p)(("PyCapsule_IsValid", _api))
_raw_get_pointer = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p)(("PyCapsule_GetPointer", _api))


def skip(why):
    print(f"dlpack_torch: skipped: {why}")
    sys.exit(77)


def take_capsule(capsule, name=DLTENSOR, used=USED_DLTENSOR):
    """The DLManagedTensor(Versioned) * of an unconsumed capsule, which is marked consumed:
    from now on the tensor is the library's (dlt_axpy takes it whatever happens)."""
    if not _api.PyCapsule_IsValid(capsule, name):
        raise ValueError(f"not an unconsumed {name.decode()} capsule")
    ptr = _api.PyCapsule_GetPointer(capsule, name)
    _api.PyCapsule_SetName(capsule, used)
    return ptr


def main():
    args = sys.argv[1:]
    if not args:
        skip("no library given (portex was built without CUDA)")
    try:
        import torch
        import torch.utils.dlpack
    except ImportError:
        skip("PyTorch is not installed")
    if not torch.cuda.is_available():
        skip("PyTorch sees no CUDA GPU")

    lib = ctypes.CDLL(os.path.abspath(args[0]))
    lib.dlt_last_error.restype = ctypes.c_char_p
    lib.dlt_open.argtypes = [ctypes.c_uint64, ctypes.POINTER(ctypes.c_void_p)]
    lib.dlt_axpy.argtypes = [ctypes.c_void_p, ctypes.c_float] + [ctypes.c_void_p] * 4
    lib.dlt_iota.argtypes = [ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64, ctypes.POINTER(ctypes.c_void_p)]
    lib.dlt_close.argtypes = [ctypes.c_void_p]
    for fn in (lib.dlt_open, lib.dlt_axpy, lib.dlt_iota, lib.dlt_close):
        fn.restype = ctypes.c_int
    # Called from a capsule's destructor: keeps the GIL (PYFUNCTYPE), as such code must.
    tensor_delete = ctypes.PYFUNCTYPE(None, ctypes.c_void_p)(("dlt_tensor_delete", lib))

    @ctypes.CFUNCTYPE(None, ctypes.c_void_p)
    def capsule_destructor(capsule):
        # Still named "dltensor": nobody consumed the tensor, so its deleter is ours to call.
        if _raw_is_valid(capsule, DLTENSOR):
            tensor_delete(_raw_get_pointer(capsule, DLTENSOR))

    def check(status, what):
        if status != 0:
            msg = lib.dlt_last_error().decode(errors="replace")
            print(f"dlpack_torch: {what} failed (status {status}): {msg}")
            sys.exit(1)

    def stream_arg(stream):
        # The __dlpack__ protocol's name of a CUDA stream: 1 is the legacy default stream.
        return stream.cuda_stream or 1

    dev = torch.device("cuda", torch.cuda.current_device())
    rows, cols = 300, 200
    bad = 0
    versioned_runs = 0
    for where, side in (("the current stream", None), ("a stream of its own", torch.cuda.Stream(device=dev))):
        if side is not None:
            side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side) if side is not None else contextlib.nullcontext():
            stream = torch.cuda.current_stream()
            handle = ctypes.c_void_p()
            check(lib.dlt_open(stream.cuda_stream, ctypes.byref(handle)), f"wrapping {where}")

            # 1. PyTorch's tensors in a portex kernel: x every other column, y a transpose.
            big_x = (torch.arange(rows * 2 * cols, dtype=torch.float32, device=dev) % 1000).reshape(rows, 2 * cols)
            x = big_x[:, ::2]                                   # strides (2 cols, 2)
            y = (torch.arange(cols * rows, dtype=torch.float32, device=dev) % 777).reshape(cols, rows).t()
            y0 = y.clone()                                      # strides of y: (1, rows)
            check(lib.dlt_axpy(handle, 2.0, take_capsule(torch.utils.dlpack.to_dlpack(x)), None,
                               take_capsule(torch.utils.dlpack.to_dlpack(y)), None), "dlt_axpy")
            if not torch.equal(y, 2 * x + y0):
                print(f"dlpack_torch: y = 2 x + y on {where}: MISMATCH")
                bad += 1

            # The same with versioned tensors, where this PyTorch makes them: y back to y0.
            try:
                cx = x.__dlpack__(stream=stream_arg(stream), max_version=(1, 0))
                cy = y.__dlpack__(stream=stream_arg(stream), max_version=(1, 0))
            except TypeError:
                cx = cy = None
            if cx is not None and _api.PyCapsule_IsValid(cx, DLTENSOR_VERSIONED):
                versioned_runs += 1
                check(lib.dlt_axpy(handle, -2.0, None, take_capsule(cx, DLTENSOR_VERSIONED, USED_DLTENSOR_VERSIONED),
                                   None, take_capsule(cy, DLTENSOR_VERSIONED, USED_DLTENSOR_VERSIONED)),
                      "dlt_axpy (versioned)")
                if not torch.equal(y, y0):
                    print(f"dlpack_torch: y = -2 x + y (versioned tensors) on {where}: MISMATCH")
                    bad += 1
            del cx, cy

            # 2. portex's view as a PyTorch tensor.
            ptr = ctypes.c_void_p()
            check(lib.dlt_iota(handle, rows, cols, ctypes.byref(ptr)), "dlt_iota")
            capsule = _api.PyCapsule_New(ptr, DLTENSOR, ctypes.cast(capsule_destructor, ctypes.c_void_p))
            z = torch.utils.dlpack.from_dlpack(capsule)
            del capsule                                         # consumed: its destructor does nothing
            i = torch.arange(rows, dtype=torch.float64, device=dev)[:, None]
            j = torch.arange(cols, dtype=torch.float64, device=dev)[None, :]
            if z.device != dev or z.dtype != torch.float64 or z.shape != (rows, cols) or z.stride() != (1, rows):
                print(f"dlpack_torch: portex's view as a tensor on {where}: device {z.device}, dtype {z.dtype}, "
                      f"shape {tuple(z.shape)}, strides {z.stride()}: MISMATCH")
                bad += 1
            elif not torch.equal(z, 1000 * i + j):
                print(f"dlpack_torch: z = 1000 i + j from portex on {where}: MISMATCH")
                bad += 1
            del z                                               # PyTorch calls the deleter: the view goes
            check(lib.dlt_close(handle), "closing portex (px_finalize)")
    torch.cuda.synchronize()
    print(f"dlpack_torch: PyTorch {torch.__version__}, {rows} x {cols}: y = a x + y over PyTorch's strided "
          f"tensors in portex ({2 + versioned_runs} runs, {versioned_runs} of them with versioned tensors) and "
          f"portex's column-major view in PyTorch, on PyTorch's current stream and on a stream of its own: "
          f"{'MISMATCH' if bad else 'OK'}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
