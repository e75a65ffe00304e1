/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* CUDA interop (portex/cuda.h): wrapping the caller's stream and handing out portex's.
 * Built and registered only with CUDA; skips (77) without a GPU. */
#include <stdlib.h>

#include "common_cuda.h"

/* Work issued through portex on a wrapped stream and the caller's own work on that stream
 * form one queue. */
START_TEST(wrap_user_stream)
{
    cudaStream_t s;
    CU_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    px_instance *in = NULL;
    TK_OK(px_instance_from_cuda_stream(&in, s, "user_stream"));
    const char *label = NULL;
    TK_OK(px_instance_label(in, &label));
    ck_assert_str_eq(label, "user_stream");
    px_exec_space e;
    TK_OK(px_instance_exec_space(in, &e));
    ck_assert_int_eq(e, PX_EXEC_CUDA);
    int dev = -1, cur = -1;
    TK_OK(px_instance_device(in, &dev));
    CU_OK(cudaGetDevice(&cur));
    ck_assert_int_eq(dev, cur);
    cudaStream_t got = NULL;
    TK_OK(px_instance_cuda_stream(in, &got));
    ck_assert_ptr_eq(got, s);

    const int64_t n = 65537;
    px_view *v = tk_view1("v", px_device(0), PX_F64, n);
    double *host = (double *)malloc((size_t)n * sizeof *host);
    ck_assert_ptr_nonnull(host);
    double x = 2.5;
    TK_OK(px_fill_async(in, v, &x, NULL));
    /* The caller's copy on the same stream runs after portex's fill. */
    CU_OK(cudaMemcpyAsync(host, tk_info(v).data, (size_t)n * sizeof *host, cudaMemcpyDeviceToHost,
                          s));
    CU_OK(cudaStreamSynchronize(s));
    for (int64_t i = 0; i < n; ++i)
        TK_ASSERT(host[i] == 2.5, "host[%lld] = %g", (long long)i, host[i]);

    /* The caller's memset first, then portex's copy to a host view. */
    CU_OK(cudaMemsetAsync(tk_info(v).data, 0, (size_t)n * sizeof(double), s));
    px_view *h = tk_view1("h", px_host_pinned(), PX_F64, n);
    TK_OK(px_deep_copy_async(in, h, v, NULL));
    TK_OK(px_instance_fence(in));
    const double *hd = (const double *)tk_data(h);
    for (int64_t i = 0; i < n; ++i) TK_ASSERT(hd[i] == 0.0, "h[%lld] = %g", (long long)i, hd[i]);

    /* Destroying the instance leaves the stream to its owner. */
    TK_OK(px_instance_destroy(&in));
    CU_OK(cudaStreamQuery(s));
    CU_OK(cudaStreamDestroy(s));
    free(host);
    TK_RELEASE(v, h);
}
END_TEST

/* PyTorch hands out the legacy default stream: wrapping it works, in CUDA's order, and
   only capturing it is refused. */
START_TEST(wrap_default_streams)
{
    const cudaStream_t streams[] = {(cudaStream_t)0, cudaStreamLegacy, cudaStreamPerThread};
    for (size_t k = 0; k < sizeof streams / sizeof streams[0]; ++k) {
        px_instance *in = NULL;
        TK_OK(px_instance_from_cuda_stream(&in, streams[k], "default"));
        cudaStream_t back = NULL;
        TK_OK(px_instance_cuda_stream(in, &back));
        ck_assert_ptr_eq(back, streams[k] == NULL ? cudaStreamLegacy : streams[k]);
        const int64_t n = 1000;
        px_view *v = tk_view1("v", px_device(0), PX_F64, n);
        px_view *h = tk_view1("h", px_host_pinned(), PX_F64, n);
        const double seven = 7.0;
        TK_OK(px_fill_async(in, v, &seven, NULL));
        TK_OK(px_deep_copy_async(in, h, v, NULL));
        TK_OK(px_instance_fence(in));
        const double *hd = (const double *)tk_data(h);
        for (int64_t i = 0; i < n; ++i)
            TK_ASSERT(hd[i] == 7.0, "h[%lld] = %g", (long long)i, hd[i]);
        TK_FAIL(px_graph_capture_begin(in, PX_CAPTURE_THREAD_LOCAL), PX_ERR_UNSUPPORTED,
                "px_graph_capture_begin");
        TK_OK(px_instance_destroy(&in));
        TK_RELEASE(v, h);
    }
}
END_TEST

START_TEST(wrap_bad_streams)
{
    cudaStream_t s;
    CU_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    TK_FAIL(px_instance_from_cuda_stream(NULL, s, NULL), PX_ERR_INVALID_ARGUMENT,
            "px_instance_from_cuda_stream");
    CU_OK(cudaStreamDestroy(s));
}
END_TEST

START_TEST(stream_of_instances)
{
    px_instance *def = tk_inst(), *mine = tk_instance_on(PX_EXEC_CUDA, 0, NULL);
    cudaStream_t a = NULL, b = NULL;
    TK_OK(px_instance_cuda_stream(def, &a));
    TK_OK(px_instance_cuda_stream(mine, &b));
    /* Streams of their own, never the legacy or per-thread default stream, non-blocking. */
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_nonnull(b);
    ck_assert_ptr_ne(a, b);
    ck_assert(a != cudaStreamLegacy && a != cudaStreamPerThread);
    unsigned flags = 0;
    CU_OK(cudaStreamGetFlags(a, &flags));
    ck_assert(flags & cudaStreamNonBlocking);
    CU_OK(cudaStreamGetFlags(b, &flags));
    ck_assert(flags & cudaStreamNonBlocking);

    px_instance *ser = NULL;
    TK_OK(px_instance_default(PX_EXEC_SERIAL, 0, &ser));
    TK_FAIL2(px_instance_cuda_stream(ser, &a), PX_ERR_INVALID_ARGUMENT, PX_ERR_UNSUPPORTED,
             "px_instance_cuda_stream");
    TK_FAIL(px_instance_cuda_stream(NULL, &a), PX_ERR_INVALID_ARGUMENT, "px_instance_cuda_stream");
    TK_FAIL(px_instance_cuda_stream(mine, NULL), PX_ERR_INVALID_ARGUMENT,
            "px_instance_cuda_stream");
    TK_OK(px_instance_destroy(&mine));
}
END_TEST

/* Events order work across execution spaces: an OpenMP instance waiting for a CUDA event
 * reads what the GPU wrote (the wait blocks on the host), and a CUDA instance waiting for
 * an OpenMP event (complete when recorded) copies what the host threads wrote. */
START_TEST(events_across_openmp_and_cuda)
{
    px_instance *omp = NULL, *gpu = tk_inst();
    if (px_instance_default(PX_EXEC_OPENMP, 0, &omp) != PX_OK)
        TK_SKIP("the OpenMP backend is not compiled in");
    const int64_t n = 16 << 20; /* 128 MiB of doubles: the GPU's part takes milliseconds */
    px_view *dev = tk_view1("dev", px_device(0), PX_F64, n),
            *pin = tk_view1("pin", px_host_pinned(), PX_F64, n);
    px_view *host = tk_view1("host", px_host(), PX_F64, n);
    px_event *from_gpu = NULL, *from_omp = NULL;
    TK_OK(px_event_create(&from_gpu, gpu, 0));
    TK_OK(px_event_create(&from_omp, omp, 0));
    for (int round = 1; round <= 3; ++round) {
        const double v = round * 1.5;
        TK_OK(px_fill_async(gpu, dev, &v, NULL));
        TK_OK(px_deep_copy_async(gpu, pin, dev, NULL));
        TK_OK(px_event_record(from_gpu, gpu));
        TK_OK(px_instance_wait_event(omp, from_gpu));
        TK_OK(px_deep_copy_async(omp, host, pin, NULL));
        tk_all_are(host, &v, __LINE__);

        const double w = -v;
        TK_OK(px_fill_async(omp, pin, &w, NULL));
        TK_OK(px_event_record(from_omp, omp));
        TK_OK(px_instance_wait_event(gpu, from_omp));
        TK_OK(px_deep_copy_async(gpu, dev, pin, NULL));
        TK_OK(px_instance_fence(gpu));
        px_view *back = tk_to_host(dev);
        tk_all_are(back, &w, __LINE__);
        px_view_release(&back);
    }
    TK_OK(px_event_destroy(&from_gpu));
    TK_OK(px_event_destroy(&from_omp));
    px_view *views[] = {dev, pin, host};
    tk_release_all(views, 3);
}
END_TEST

int main(void)
{
    TK_ADD(tk_case("cuda", "interop"), wrap_user_stream, wrap_default_streams, wrap_bad_streams,
           stream_of_instances);
    TK_ADD(tk_case("cuda", "events"), events_across_openmp_and_cuda);
    tk_require("cuda", tk_need_cuda);
    return tk_run();
}
