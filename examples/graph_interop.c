/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* graph_interop: one CUDA graph from the user's own stream, raw CUDA and portex together.
 *
 * The user creates a cudaStream_t and wraps it in a portex instance
 * (px_instance_from_cuda_stream, portex/cuda.h). Between px_graph_capture_begin and
 * px_graph_capture_end on that instance, one step is issued:
 *   1. x += 1       a raw CUDA kernel, launched by the user on the stream
 *                   (graph_interop_raw.cu: portex never sees it, CUDA captures it);
 *   2. y = 2 x + i  a portex kernel on the instance;
 *   3. out = y      a copy to pinned host memory (HOST_PINNED: a graph replays from the
 *                   same addresses, which pageable memory does not guarantee).
 * The captured graph is instantiated once and replayed: after replay r the host reads
 * out = 2 (x0 + 1 + r) + i directly from pinned memory (after px_instance_fence), which
 * says that every replay ran all three, in order.
 *
 * CUDA only: built when portex is built with CUDA (examples/meson.build); on a machine
 * without a GPU it says so and exits 77, the test suite's "skipped".
 *
 *   graph_interop [--replays N]   (default 10) */
#include <math.h>
#include <string.h>

#include <portex/cuda.h>
#include <portex/graph.h>

#include "example.h"
#include "graph_interop_kernels.h"
#include "graph_interop_raw.h"

#define CUDA_CHECK(call)                                                  \
    do {                                                                  \
        cudaError_t cuda_err_ = (call);                                   \
        if (cuda_err_ != cudaSuccess) {                                   \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, \
                    cudaGetErrorString(cuda_err_));                       \
            exit(1);                                                      \
        }                                                                 \
    } while (0)

typedef struct step_views {
    px_view *x, *y, *out;
    cudaStream_t stream;
    px_instance *inst;
} step_views;

/* One step, as above: raw CUDA, a portex kernel, a copy to pinned memory, all ordered on
 * the one stream. Returns the copy's path. */
static px_copy_path issue_step(const step_views *v, int64_t n)
{
    px_span_f64_1d xs;
    CHECK(px_view_get_span(v->x, &xs));
    CUDA_CHECK((cudaError_t)graph_interop_raw_add(v->stream, xs.data, n, 1.0));

    interop_affine_args args = {.a = 2.0};
    CHECK(px_view_get_span(v->x, &args.x));
    CHECK(px_view_get_span(v->y, &args.y));
    CHECK(px_parallel_for(v->inst, "y = 2x + i", px_range(0, n), PX_KERNEL(interop_affine), &args));

    px_copy_path path;
    CHECK(px_deep_copy_async(v->inst, v->out, v->y, &path));
    return path;
}

/* out after `adds` raw adds: every value is exact in double, so the check is exact. */
static int64_t check_out(const px_view *out, const double *x0, int64_t n, double adds)
{
    px_span_f64_1d os;
    CHECK(px_view_get_span(out, &os));
    int64_t bad = 0;
    for (int64_t i = 0; i < n; ++i)
        if (os.data[i] != 2.0 * (x0[i] + adds) + (double)i) ++bad;
    return bad;
}

int main(int argc, char **argv)
{
    int replays = 10;
    for (int a = 1; a < argc; ++a) {
        if (strcmp(argv[a], "--replays") == 0 && a + 1 < argc && atoi(argv[a + 1]) > 0) {
            replays = atoi(argv[++a]);
        } else {
            fprintf(stderr, "usage: %s [--replays N]\n", argv[0]);
            return 2;
        }
    }
    const int64_t n = 1 << 20;

    CHECK(px_init(NULL));
    const px_status avail = px_exec_space_check(PX_EXEC_CUDA);
    if (avail != PX_OK) {
        printf("graph_interop: skipped: needs a GPU (%s: %s)\n", px_status_name(avail),
               px_last_error());
        CHECK(px_finalize());
        return 77;
    }

    /* The user's stream, wrapped: portex's work on the instance goes on this stream. */
    step_views v;
    CUDA_CHECK(cudaSetDevice(0));
    CUDA_CHECK(cudaStreamCreateWithFlags(&v.stream, cudaStreamNonBlocking));
    CHECK(px_instance_from_cuda_stream(&v.inst, v.stream, "user stream"));
    printf("graph_interop: CUDA backend, the user's stream wrapped as instance 'user stream'\n");

    CHECK(px_view_create_1d_ex(&v.x, "x", px_device(0), PX_F64, n, PX_VIEW_NO_INIT));
    CHECK(px_view_create_1d_ex(&v.y, "y", px_device(0), PX_F64, n, PX_VIEW_NO_INIT));
    CHECK(px_view_create_1d_ex(&v.out, "out", px_host_pinned(), PX_F64, n, PX_VIEW_NO_INIT));
    px_view *hx;
    CHECK(px_view_create_mirror_view(&hx, px_host(), v.x));
    px_span_f64_1d hxs;
    CHECK(px_view_get_span(hx, &hxs));
    for (int64_t i = 0; i < n; ++i) hxs.data[i] = 0.25 * (double)i;
    CHECK(px_deep_copy(v.x, hx, NULL));
    px_span_f64_1d outs;
    CHECK(px_view_get_span(v.out, &outs));

    /* Step 0, run as it is issued: the same work, and the first launches (which load the
     * kernels) happen outside the capture. */
    const px_copy_path path = issue_step(&v, n);
    CHECK(px_instance_fence(v.inst));
    int64_t bad = check_out(v.out, hxs.data, n, 1.0);
    printf("  step 0, run directly: %s; the copy to pinned memory took path %s\n",
           bad ? "MISMATCH" : "OK", px_copy_path_string(path));

    /* The same step, captured: nothing runs now. */
    CHECK(px_graph_capture_begin(v.inst, PX_CAPTURE_THREAD_LOCAL));
    issue_step(&v, n);
    px_graph *g;
    CHECK(px_graph_capture_end(v.inst, &g));
    int nodes = 0;
    CHECK(px_graph_node_count(g, &nodes));
    px_graph_exec *exec;
    CHECK(px_graph_instantiate(g, &exec));
    CHECK(px_graph_upload(exec, v.inst));
    printf("  captured: %d operations recorded by portex, plus the raw kernel\n", nodes);

    /* Replays: each adds 1 to x and brings out up to date; nothing is issued but the
     * launch. Poison out first, so that a replay that did not copy is seen. */
    int64_t replay_bad = 0;
    for (int r = 1; r <= replays; ++r) {
        for (int64_t i = 0; i < n; ++i) outs.data[i] = NAN;
        CHECK(px_graph_launch(exec, v.inst));
        CHECK(px_instance_fence(v.inst));
        const int64_t b = check_out(v.out, hxs.data, n, 1.0 + r);
        if (b) printf("  replay %d: %lld values wrong\n", r, (long long)b);
        replay_bad += b;
    }
    bad += replay_bad;
    printf("graph_interop: %d replays of raw CUDA + portex kernel + pinned copy on the user's "
           "stream, n = %lld: %s\n",
           replays, (long long)n, bad ? "MISMATCH" : "OK");

    CHECK(px_graph_exec_destroy(&exec));
    CHECK(px_graph_destroy(&g));
    CHECK(px_instance_destroy(&v.inst)); /* waits for portex's work; the stream stays */
    CHECK(px_view_release(&hx));
    CHECK(px_view_release(&v.x));
    CHECK(px_view_release(&v.y));
    CHECK(px_view_release(&v.out));
    CUDA_CHECK(cudaStreamDestroy(v.stream));
    CHECK(px_finalize());
    return bad ? 1 : 0;
}
