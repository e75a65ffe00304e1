/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Scratch blocks a graph owns: a reduction or scan node's partials and counter. They live
 * as long as the graph, so that every launch of every executable graph finds them. */
#include <stdlib.h>

#include "backends/cuda/check.h"
#include "backends/cuda/device.h"
#include "backends/cuda/memory/memory.h"
#include "backends/cuda/queue/track.h"
#include "backends/services.h"

px_status px__cuda_gmem_alloc(px__cuda_gmem *m, size_t bytes, void **out)
{
    *out = NULL;
    while (m->reuse_next < m->reuse_end) {
        const int i = m->reuse_next++;
        if (bytes <= m->blocks[i].bytes) {
            *out = m->blocks[i].ptr;
            return PX_OK;
        }
    }
    px__cuda_gmem_block *blocks = px__grow(m->blocks, m->n, &m->cap, 4, sizeof *blocks);
    if (blocks == NULL) return px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory for the graph");
    m->blocks = blocks;
    /* The pool's allocation waits for its own stream only; relaxed, since the caller
       may be capturing (the block is not part of what is captured). */
    const px_space dev = px_device(m->device);
    const enum cudaStreamCaptureMode saved = px__cuda_relax();
    void *p = NULL;
    px_status st = px__space_ops_cuda_device.alloc(dev, bytes, &p);
    if (st == PX_OK) st = px__space_ops_cuda_device.zero(dev, p, bytes);
    px__cuda_unrelax(saved);
    if (st != PX_OK) {
        if (p) px__space_ops_cuda_device.free(dev, p, bytes);
        return st;
    }
    px__memory_account_library(dev, bytes, true);
    m->blocks[m->n++] = (px__cuda_gmem_block){p, bytes};
    *out = p;
    return PX_OK;
}

void px__cuda_gmem_free(px__cuda_gmem *m)
{
    const px_space dev = px_device(m->device);
    for (int i = 0; i < m->n; ++i) {
        px__memory_account_library(dev, m->blocks[i].bytes, false);
        px__space_ops_cuda_device.free(dev, m->blocks[i].ptr, m->blocks[i].bytes);
    }
    free(m->blocks);
    m->blocks = NULL;
    m->n = m->cap = 0;
}
