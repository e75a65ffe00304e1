/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: copies between GPUs, and reaching memory of a GPU other than the instance's.
 *
 * Peer access is enabled once per pair of devices, both ways, where
 * cudaDeviceCanAccessPeer says the hardware allows it (portex's pools grant their peers
 * access on their own, device.c; enabling peer access covers memory the caller
 * allocated with cudaMalloc and wrapped). A copy between two GPUs is ordered after the
 * work queued so far on every live portex queue of both devices (events, no host wait),
 * so that a copy issued on one GPU's instance never reads data a kernel on the other GPU
 * is still writing. */
#ifndef PX_BACKENDS_CUDA_COPY_PEER_H
#define PX_BACKENDS_CUDA_COPY_PEER_H

#include <stdbool.h>

#include "backends/cuda/queue/track.h"

/* Whether kernels and copies on device `a` reach device `b`'s memory directly (true for
   a == b). The first ask for (a, b) tries to enable a's access to b (that way only); never fails
   and leaves no CUDA error pending; the caller's current device is kept. During a stream
   capture pass `probe` false: only what is already known is answered (enabling peer
   access is not something to do while a graph is being recorded). */
bool px__cuda_peer_access(int a, int b, bool probe);

/* The address at which device q->device reaches one side of a copy or fill: its own
   memory, a peer's (peer access needed: PX_ERR_UNSUPPORTED otherwise, with a message
   that says how to copy instead), or mapped pinned memory. Called with q->device
   current. */
px_status px__cuda_reach(const px__cuda_queue *q, const px__copy_side *side, bool capturing,
                         const char *what, void **out);

/* Path CUDA_PEER: op->bytes from DEVICE(src) to DEVICE(dst) on q's stream, after the
   pending work of both devices. Called with q->device current. */
px_status px__cuda_copy_peer(px__cuda_queue *q, const px__copy_op *op);

#endif /* PX_BACKENDS_CUDA_COPY_PEER_H */
