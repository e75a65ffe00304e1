/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Stream capture of an instance into a portex graph: CUDA records everything issued on the
 * instance's stream, portex's work and other libraries' alike. While it lasts, reductions
 * and scans on the queue take scratch the graph keeps (no allocation nodes), so that a
 * captured graph can be a child of an explicit graph and be instantiated more than once. */
#include "backends/cuda/graph/graph.h"

#include <stdlib.h>

#include "backends/cuda/check.h"
#include "backends/cuda/device.h"

static enum cudaStreamCaptureMode mode_of(int mode)
{
    switch (mode) {
    case 1: return cudaStreamCaptureModeGlobal;
    case 2: return cudaStreamCaptureModeRelaxed;
    default: return cudaStreamCaptureModeThreadLocal;
    }
}

px_status px__cuda_capture_begin(px__queue *queue, int mode, px__bgraph **out)
{
    px__cuda_queue *q = px__cuda_queue_of(queue);
    *out = NULL;
    const char *dflt = px__cuda_default_stream_name(q->stream);
    if (dflt != NULL)
        return px__error(
            PX_ERR_UNSUPPORTED,
            "instance '%s' wraps %s, which CUDA cannot capture; capture on a stream made with "
            "cudaStreamCreate",
            q->label, dflt);
    if (px__cuda_capturing(q->stream))
        return px__error(
            PX_ERR_CAPTURING,
            "the stream of instance '%s' is being captured already (by another library?); captures "
            "do not nest",
            q->label);
    px__bgraph *g = NULL;
    PX__TRY(px__cuda_graph_create(NULL, q->device, &g));
    /* The graph to come is CUDA's: the empty one made for it goes. */
    int saved;
    px_status st = px__cuda_enter(q->device, &saved);
    if (st == PX_OK) {
        (void)cudaGraphDestroy(g->graph);
        g->graph = NULL;
        g->native = true;
        st = PX__CU(cudaStreamBeginCapture(q->stream, mode_of(mode)));
        px__cuda_leave(saved);
    }
    if (st != PX_OK) {
        px__cuda_graph_destroy(g);
        return st;
    }
    q->gmem = &g->mem;
    *out = g;
    return PX_OK;
}

px_status px__cuda_capture_end(px__queue *queue, px__bgraph *g)
{
    px__cuda_queue *q = px__cuda_queue_of(queue);
    q->gmem = NULL;
    /* The capture ends whatever happens here: a stream left capturing would record
       everything issued on it later. */
    int saved;
    const px_status entered = px__cuda_enter(q->device, &saved);
    cudaGraph_t graph = NULL;
    const cudaError_t err = cudaStreamEndCapture(q->stream, &graph);
    if (entered != PX_OK) {
        if (graph) (void)cudaGraphDestroy(graph);
        (void)cudaGetLastError();
        return entered;
    }
    px_status st = PX_OK;
    if (err != cudaSuccess || graph == NULL) {
        (void)cudaGetLastError();
        if (graph) (void)cudaGraphDestroy(graph);
        st = px__error(PX_ERR_CAPTURING,
                       "CUDA ended the capture of instance '%s' without a graph (%s: %s): an "
                       "operation during the "
                       "capture could not be captured, e.g. one that touched the legacy default "
                       "stream or waited "
                       "(cudaErrorStreamCaptureImplicit, 906) or joined work of another stream; "
                       "the instance is "
                       "usable again",
                       q->label, cudaGetErrorName(err), cudaGetErrorString(err));
    } else {
        g->graph = graph;
    }
    px__cuda_leave(saved);
    /* Releases kept while the capture lasted can go now. */
    px__cuda_release_retry(false);
    return st;
}
