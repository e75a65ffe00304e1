/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/** @file
 * portex — CUDA interop, opt-in: the only public header that includes CUDA's.
 * Share one queue with other CUDA libraries (cuBLAS, PyTorch, CuPy): wrap their stream
 * in an instance, or hand portex's stream to them. */
#ifndef PORTEX_CUDA_H
#define PORTEX_CUDA_H

#include <cuda_runtime_api.h>

#include "portex/instance.h"

PX_EXTERN_C_BEGIN

/** An instance over a stream the caller owns and keeps alive longer than the instance.
 * The device is the stream's. Destroying the instance waits for portex's work on it and
 * never destroys the stream.
 *
 * Default streams are accepted (PyTorch hands out its default stream, which is the
 * legacy one), with the ordering CUDA gives them; the device is then the current one:
 *  - the legacy default stream (0 or cudaStreamLegacy; px_instance_cuda_stream gives
 *    cudaStreamLegacy back for both): work on the instance runs after
 *    the work queued before on every blocking stream of the device and before the work
 *    queued after on them. portex's own instances use non-blocking streams, so they are
 *    not ordered with it: order them with events, as with any two instances. A fence or
 *    destroy of the instance waits for those blocking streams too.
 *  - cudaStreamPerThread: each host thread's own default stream; use such an instance
 *    from the thread that wrapped it.
 * Neither can be captured into a graph (px_graph_capture_begin: PX_ERR_UNSUPPORTED);
 * capture on a stream made with cudaStreamCreate. */
PX_API px_status px_instance_from_cuda_stream(px_instance **out, cudaStream_t stream,
                                              const char *label);

/** The stream of a CUDA instance (owned by portex unless the instance wraps the caller's). */
PX_API px_status px_instance_cuda_stream(const px_instance *inst, cudaStream_t *out);

PX_EXTERN_C_END

#endif /* PORTEX_CUDA_H */
