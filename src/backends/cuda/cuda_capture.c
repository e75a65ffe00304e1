/* Whether an instance's stream is being captured into a graph: the core refuses copies a
 * graph cannot hold (pageable memory, host work) before they reach CUDA. */
#include "backends/cuda/cuda_check.h"
#include "backends/cuda/cuda_device.h"
#include "backends/cuda/cuda_hooks.h"
#include "backends/cuda/cuda_queue.h"

px_status px__cuda_is_capturing(struct px_instance *inst, bool *capturing)
{
    px__cuda_queue *q = px__cuda_queue_of(inst);
    enum cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    *capturing = false;
    int saved;
    PX__TRY(px__cuda_enter(q->device, &saved));
    px_status st = PX__CU(cudaStreamIsCapturing(q->stream, &status));
    px__cuda_leave(saved);
    /* An invalidated capture still belongs to the capture: refuse there too. */
    *capturing = status != cudaStreamCaptureStatusNone;
    return st;
}
