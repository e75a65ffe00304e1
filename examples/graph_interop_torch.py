#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""graph_interop_torch: PyTorch ops and a portex kernel in one CUDA graph, via ctypes.

    python3 graph_interop_torch.py path/to/libgraph_interop_torch.so [--replays N]

The library is built from examples/graph_interop_torch.c when portex is built with CUDA.
One step, all on PyTorch's current stream:

    x += 1               PyTorch (in place)
    y  = 3 x             PyTorch (out=)
    z  = 2 y + i         portex kernel, through the library, on the same stream
    w  = z + x           PyTorch (out=), reading what portex wrote

After step r, with x0 = i / 2: w = 7 (x0 + r) + i, exact in float64.

How: a portex capture on PyTorch's stream, replayed by portex. The script makes a stream
of its own PyTorch's current stream (``with torch.cuda.stream(s)``), hands
``torch.cuda.current_stream().cuda_stream`` to the library, which wraps it in a portex
instance (px_instance_from_cuda_stream) and calls px_graph_capture_begin on it. A portex
capture is CUDA stream capture of that stream, so it records everything issued on the
stream: PyTorch's kernels as well as portex's. px_graph_capture_end gives the graph,
which is instantiated once and replayed with px_graph_launch on the same stream.

Why not the other way round, inside a ``torch.cuda.graph``: px_graph_capture_begin
refuses a stream that someone else is already capturing (PX_ERR_CAPTURING), so a portex
capture cannot be opened inside PyTorch's. (A plain portex kernel launched there would
be recorded by PyTorch's capture, but this example shows what portex's graph API
supports.)

Rules while the portex capture is on, which PyTorch's own graph capture would otherwise
take care of:
  * PyTorch's default current stream is the legacy default stream (cuda_stream == 0):
    portex refuses to wrap it and CUDA cannot capture it. Use a stream of your own.
  * No allocation: PyTorch's caching allocator does not know that the graph goes on
    using the memory it handed out. Allocate every tensor before, use in-place ops and
    out= (elementwise ops here; reductions may need scratch from the allocator).
  * Nothing that waits for the GPU (.item(), .cpu(), printing a tensor).
  * Warm up first (one eager step): first launches load kernels, which has no place in
    a capture.
  * The tensors must outlive the graph: their addresses are in it.

Exit status: 0 when every replay matched, 1 on a mismatch or an error, 77 (skipped) when
PyTorch, CUDA or a GPU is missing, or portex was built without CUDA (no library given).
"""
import ctypes
import os
import sys


def skip(why):
    print(f"graph_interop_torch: skipped: {why}")
    sys.exit(77)


def main():
    args = sys.argv[1:]
    replays = 10
    if "--replays" in args:
        k = args.index("--replays")
        replays = int(args[k + 1])
        del args[k:k + 2]
    if not args:
        skip("no library given (portex was built without CUDA)")
    try:
        import torch
    except ImportError:
        skip("PyTorch is not installed")
    if not torch.cuda.is_available():
        skip("PyTorch sees no CUDA GPU")

    lib = ctypes.CDLL(os.path.abspath(args[0]))
    lib.gitorch_last_error.restype = ctypes.c_char_p
    lib.gitorch_open.argtypes = [ctypes.c_uint64, ctypes.POINTER(ctypes.c_void_p)]
    lib.gitorch_affine.argtypes = [ctypes.c_void_p, ctypes.c_double, ctypes.c_uint64,
                                   ctypes.c_uint64, ctypes.c_int64]
    lib.gitorch_capture_begin.argtypes = [ctypes.c_void_p, ctypes.c_int]
    lib.gitorch_capture_end.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_int)]
    lib.gitorch_replay.argtypes = [ctypes.c_void_p]
    lib.gitorch_close.argtypes = [ctypes.c_void_p]
    for fn in (lib.gitorch_open, lib.gitorch_affine, lib.gitorch_capture_begin,
               lib.gitorch_capture_end, lib.gitorch_replay, lib.gitorch_close):
        fn.restype = ctypes.c_int

    def check(status, what):
        if status != 0:
            msg = lib.gitorch_last_error().decode(errors="replace")
            print(f"graph_interop_torch: {what} failed (status {status}): {msg}")
            sys.exit(1)

    n = 1 << 20
    dev = torch.device("cuda", torch.cuda.current_device())
    i = torch.arange(n, dtype=torch.float64, device=dev)
    x0 = i / 2
    x = x0.clone()
    y = torch.empty_like(x)
    z = torch.empty_like(x)
    w = torch.empty_like(x)

    stream = torch.cuda.Stream(device=dev)
    stream.wait_stream(torch.cuda.current_stream())   # the tensors above are ready
    handle = ctypes.c_void_p()
    bad = 0
    with torch.cuda.stream(stream):
        s = torch.cuda.current_stream().cuda_stream    # the cudaStream_t, as an int
        check(lib.gitorch_open(s, ctypes.byref(handle)), "wrapping PyTorch's stream")

        def step():
            x.add_(1.0)
            torch.mul(x, 3.0, out=y)
            check(lib.gitorch_affine(handle, 2.0, y.data_ptr(), z.data_ptr(), n),
                  "portex kernel")
            torch.add(z, x, out=w)

        def expect(r):
            return 7.0 * (x0 + r) + i

        # Step 1, eagerly: the warm-up, checked like the replays.
        step()
        stream.synchronize()
        if not torch.equal(w, expect(1)):
            print("graph_interop_torch: eager step: MISMATCH")
            bad += 1

        # The same step, captured by portex on PyTorch's stream: nothing runs now.
        check(lib.gitorch_capture_begin(handle, 0), "px_graph_capture_begin")
        step()
        nodes = ctypes.c_int()
        check(lib.gitorch_capture_end(handle, ctypes.byref(nodes)), "px_graph_capture_end")

        for r in range(2, replays + 2):
            w.fill_(float("nan"))   # on the stream, before the replay
            check(lib.gitorch_replay(handle), "px_graph_launch")
            stream.synchronize()
            if not torch.equal(w, expect(r)):
                print(f"graph_interop_torch: replay {r - 1}: MISMATCH")
                bad += 1
        check(lib.gitorch_close(handle), "closing")
    print(f"graph_interop_torch: PyTorch {torch.__version__}, {replays} replays of "
          f"3 PyTorch ops + 1 portex kernel captured on PyTorch's stream "
          f"({nodes.value} operation(s) recorded by portex), n = {n}: "
          f"{'MISMATCH' if bad else 'OK'}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
