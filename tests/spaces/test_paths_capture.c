/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Stream capture (CUDA): while an instance's stream is captured into a graph, copies and
 * fills that a graph cannot hold (pageable memory, host paths) are refused before CUDA sees
 * them, pinned copies are captured, and the stream works as before afterwards. Built with
 * CUDA only. */
#include "common_cuda.h"

/* ---- CUDA: capture ---------------------------------------------------------------------------- */

START_TEST(capture_refuses_pageable)
{
    px_instance *in = tk_instance_on(PX_EXEC_CUDA, 0, "captured");
    cudaStream_t s = NULL;
    TK_OK(px_instance_cuda_stream(in, &s));

    const int64_t n = 262147;
    const int64_t e[2] = {509, 515};
    px_view *pa = tk_view1("pinA", px_host_pinned(), PX_U64, n),
            *pb = tk_view1("pinB", px_host_pinned(), PX_U64, n);
    px_view *dev = tk_view1("dev", px_device(0), PX_U64, n),
            *host = tk_view1("host", px_host(), PX_U64, n);
    px_view *hl = tk_view_ex("hostL", px_host(), PX_U64, 0, PX_LAYOUT_LEFT, 2, e, 0);
    px_view *dr = tk_view_ex("devR", px_device(0), PX_U64, 0, PX_LAYOUT_RIGHT, 2, e, 0);
    tk_randomize(pa, 11000);
    tk_randomize(pb, 11001);
    tk_randomize(host, 11002);
    tk_randomize(hl, 11003);
    px_view *pb0 = tk_to_host(pb);

    uint64_t before[PX_COPY_PATH_COUNT];
    tk_counts(before);
    px_copy_path p = PX_COPY_PATH_COUNT;
    CU_OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    /* Pageable memory: refused, naming the fix. */
    TK_FAIL(px_deep_copy_async(in, dev, host, &p), PX_ERR_CAPTURE_PAGEABLE, "px_deep_copy_async");
    TK_ERROR_HAS("HOST_PINNED");
    TK_FAIL(px_deep_copy_async(in, host, dev, &p), PX_ERR_CAPTURE_PAGEABLE, "px_deep_copy_async");
    TK_ERROR_HAS("HOST_PINNED");
    TK_FAIL(px_deep_copy_async(in, dr, hl, &p), PX_ERR_CAPTURE_PAGEABLE, "px_deep_copy_async");
    TK_ERROR_HAS("HOST_PINNED");
    /* Host paths cannot be held by a graph either, and touch nothing. */
    TK_FAIL(px_deep_copy_async(in, pb, pa, &p), PX_ERR_CAPTURING, "px_deep_copy_async");
    const uint64_t v = 0x0102030405060708ull;
    TK_FAIL(px_fill_async(in, pb, &v, &p), PX_ERR_CAPTURING, "px_fill_async");
    /* The query still answers. */
    TK_OK(px_deep_copy_query(dev, host, &p));
    ck_assert_int_eq(p, PX_COPY_CUDA_STAGED);
    /* Pinned memory is captured. */
    TK_OK(px_deep_copy_async(in, dev, pa, &p));
    ck_assert_int_eq(p, PX_COPY_CUDA_DMA);
    TK_OK(px_deep_copy_async(in, pb, dev, &p));
    ck_assert_int_eq(p, PX_COPY_CUDA_DMA);
    enum cudaStreamCaptureStatus cs = cudaStreamCaptureStatusNone;
    CU_OK(cudaStreamIsCapturing(s, &cs));
    ck_assert_int_eq(cs, cudaStreamCaptureStatusActive); /* the refusals left it intact */
    cudaGraph_t g = NULL;
    CU_OK(cudaStreamEndCapture(s, &g));
    ck_assert_ptr_nonnull(g);
    tk_counted(before, PX_COPY_CUDA_DMA, 2, __LINE__);
    TK_SAME(pb, pb0); /* captured, not run */

    cudaGraphExec_t ge = NULL;
    CU_OK(cudaGraphInstantiate(&ge, g, 0));
    CU_OK(cudaGraphLaunch(ge, s));
    TK_OK(px_instance_fence(in));
    TK_SAME(pb, pa);
    /* Launched again, the graph reads the pinned memory as it is then. */
    tk_randomize(pa, 11004);
    CU_OK(cudaGraphLaunch(ge, s));
    TK_OK(px_instance_fence(in));
    TK_SAME(pb, pa);
    CU_OK(cudaGraphExecDestroy(ge));
    CU_OK(cudaGraphDestroy(g));

    /* The stream is usable as before: staged copies both ways. */
    px_view *host2 = tk_view1("host2", px_host(), PX_U64, n);
    tk_randomize(host2, 11005);
    TK_COPY(in, dev, host, PX_COPY_CUDA_STAGED);
    TK_COPY(in, host2, dev, PX_COPY_CUDA_STAGED);
    TK_SAME(host2, host);
    TK_COPY(in, dr, hl, PX_COPY_CUDA_STRIDED_STAGED);
    TK_SAME(dr, hl);

    TK_RELEASE(pa, pb, dev, host, hl, dr, pb0, host2);
    TK_OK(px_instance_destroy(&in));
}
END_TEST


int main(void)
{
    TK_ADD(tk_case("capture", "capture"), capture_refuses_pageable);
    tk_require("capture", tk_need_cuda);
    return tk_run();
}
