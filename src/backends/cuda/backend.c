/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The CUDA backend's table: what the core calls for PX_EXEC_CUDA. */
#include "backends/cuda/backend.h"

#include "backends/cuda/device.h"
#include "backends/cuda/graph/graph.h"
#include "backends/cuda/hooks.h"
#include "backends/cuda/memory/pinned.h"
#include "backends/cuda/queue/track.h"
#include "backends/cuda/staging/staging.h"

/* No GPU is an answer (0), not a failure: the core names the caller when it needs one,
   and px_space_check and px_print_configuration give CUDA's reason. */
static px_status cuda_device_count(int *count)
{
    *count = px__cuda_device_total(NULL);
    return PX_OK;
}

/* The last px_finalize: every view, instance and event is gone by now (the core refuses
   otherwise), so only portex's own memory is left: staging, releases kept during a
   capture, the idle pinned blocks, the pools and the internal streams. */
static void cuda_finalize(void)
{
    px__cuda_staging_shutdown();
    px__cuda_release_retry(true);
    px__cuda_pinned_trim();
    px__cuda_devices_release();
}

const px__backend px__backend_cuda = {
    .name = "CUDA",
    .exec = PX_EXEC_CUDA,
    .target = PX__TARGET_CUDA,
    .runs_on_host = false,
    .device_count = cuda_device_count,
    .finalize = cuda_finalize,
    .queue_create = px__cuda_queue_create,
    .queue_wrap = px__cuda_queue_wrap,
    .queue_destroy = px__cuda_queue_destroy,
    .fence = px__cuda_fence,
    .fence_all = px__cuda_fence_all,
    .event_create = px__cuda_event_create,
    .event_destroy = px__cuda_event_destroy,
    .event_record = px__cuda_event_record,
    .event_wait = px__cuda_event_wait,
    .event_query = px__cuda_event_query,
    .event_synchronize = px__cuda_event_synchronize,
    .event_elapsed = px__cuda_event_elapsed,
    .launch = px__cuda_launch,
    .team_scratch_max = px__cuda_team_scratch_max,
    .copy_path = px__cuda_copy_path,
    .copy = px__cuda_copy,
    .fill = px__cuda_fill,
    .sort = px__cuda_sort,
    .prefix_sum = px__cuda_prefix_sum,
    .partition = px__cuda_partition,
    .sm_count = px__cuda_sm_count,
    .concurrency = px__cuda_concurrency,
    .print_configuration = px__cuda_print_configuration,
    .graph = &px__cuda_graph_ops,
};
