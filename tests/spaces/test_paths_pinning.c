/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* What px_pointer_space says about memory and what px_host_register changes: suite
 * "pinning" has the bad input and the answers without a GPU (every backend);
 * "pinning_cuda" classifies pinned, device and registered memory and copies through it. */
#include <stdlib.h>

#include "common.h"

#ifdef TK_HAVE_CUDA
#include "common_cuda.h"
#endif

/* ---- pointer classification: bad input (both backends) -------------------------------------- */

START_TEST(pointer_bad_input)
{
    px_space s = px_device(3);
    unsigned char *m = tk_rand_buf(4096, 5000);
    TK_OK(px_pointer_space(m, &s));
    ck_assert_int_eq(s.kind, PX_SPACE_HOST);
    ck_assert_int_eq(s.device, 0);
    static int static_var = 42;
    s = px_device(1);
    TK_OK(px_pointer_space(&static_var, &s));
    ck_assert_int_eq(s.kind, PX_SPACE_HOST);

    TK_FAIL(px_pointer_space(NULL, &s), PX_ERR_INVALID_ARGUMENT, "px_pointer_space");
    TK_FAIL(px_pointer_space(m, NULL), PX_ERR_INVALID_ARGUMENT, "px_pointer_space");
    TK_FAIL(px_host_register(NULL, 4096), PX_ERR_INVALID_ARGUMENT, "px_host_register");
    TK_FAIL(px_host_register(m, 0), PX_ERR_INVALID_ARGUMENT, "px_host_register");
    TK_FAIL(px_host_unregister(NULL), PX_ERR_INVALID_ARGUMENT, "px_host_unregister");
    if (!px_exec_space_available(PX_EXEC_CUDA)) {
        /* No GPU (or no CUDA backend): nothing can be page-locked. */
        TK_FAIL2(px_host_register(m, 4096), PX_ERR_NO_DEVICE, PX_ERR_UNSUPPORTED,
                 "px_host_register");
        TK_FAIL2(px_host_unregister(m), PX_ERR_NO_DEVICE, PX_ERR_UNSUPPORTED, "px_host_unregister");
    }

    /* Wrapping: NULL data only for a view without elements. */
    const int64_t n = 16, z = 0;
    px_view_desc d = tk_desc("w", px_host(), PX_U8, 1, &n);
    px_view *v = (px_view *)&s; /* any non-NULL value: a failed wrap must clear it */
    TK_FAIL(px_view_wrap(&v, &d, NULL), PX_ERR_INVALID_ARGUMENT, "px_view_wrap");
    ck_assert_ptr_null(v);
    d.extent[0] = z;
    TK_OK(px_view_wrap(&v, &d, NULL));
    ck_assert_int_eq(tk_info(v).size, 0);
    TK_OK(px_view_release(&v));
    /* A view wrapped over malloc memory is HOST even when HOST_PINNED is asked for: the
       space follows the memory. */
    d.extent[0] = n;
    d.space = px_host_pinned();
    if (px_space_available(px_host_pinned())) {
        TK_OK(px_view_wrap(&v, &d, m));
        ck_assert_int_eq(tk_info(v).space.kind, PX_SPACE_HOST);
        TK_OK(px_view_release(&v));
    }
    px_clear_error();
    free(m);
}
END_TEST

#ifdef TK_HAVE_CUDA

/* ---- CUDA: pointer classification and registration ------------------------------------------ */

START_TEST(pointer_classification)
{
    px_space s;
    const int64_t n = 4099;
    px_view *pin = tk_view1("pin", px_host_pinned(), PX_U8, n),
            *dev = tk_view1("dev", px_device(0), PX_U8, n);
    unsigned char *pp = tk_data(pin), *dp = tk_info(dev).data;
    TK_OK(px_pointer_space(pp, &s));
    ck_assert_int_eq(s.kind, PX_SPACE_HOST_PINNED);
    TK_OK(px_pointer_space(pp + n - 1, &s));
    ck_assert_int_eq(s.kind, PX_SPACE_HOST_PINNED);
    TK_OK(px_pointer_space(dp, &s));
    ck_assert_int_eq(s.kind, PX_SPACE_DEVICE);
    ck_assert_int_eq(s.device, 0);
    TK_OK(px_pointer_space(dp + 7, &s));
    ck_assert_int_eq(s.kind, PX_SPACE_DEVICE);
    ck_assert_int_eq(s.device, 0);
    ck_assert_int_eq(cudaGetLastError(), cudaSuccess); /* no CUDA error left pending */

    /* Register a malloc'ed buffer: pinned, then pageable again. */
    const size_t bytes = ((size_t)3 << 20) + 5;
    const int64_t nb = (int64_t)bytes;
    unsigned char *buf = tk_rand_buf(bytes, 9000), *orig = tk_dup_buf(buf, bytes);
    TK_OK(px_pointer_space(buf, &s));
    ck_assert_int_eq(s.kind, PX_SPACE_HOST);
    TK_OK(px_host_register(buf, bytes));
    TK_OK(px_pointer_space(buf, &s));
    ck_assert_int_eq(s.kind, PX_SPACE_HOST_PINNED);
    TK_OK(px_pointer_space(buf + bytes - 1, &s));
    ck_assert_int_eq(s.kind, PX_SPACE_HOST_PINNED);
    /* Already page-locked: registered, or allocated pinned. */
    TK_FAIL(px_host_register(buf, bytes), PX_ERR_INVALID_ARGUMENT, "px_host_register");
    TK_FAIL(px_host_register(pp, (size_t)n), PX_ERR_INVALID_ARGUMENT, "px_host_register");

    px_view *w = tk_wrap("registered", px_host(), PX_U8, 0, PX_LAYOUT_RIGHT, 1, &nb, buf);
    ck_assert_int_eq(tk_info(w).space.kind, PX_SPACE_HOST_PINNED);
    ck_assert(!tk_info(w).managed);
    px_view *d = tk_view1("d", px_device(0), PX_U8, nb);
    for (int form = 0; form < 2; ++form) {
        px_instance *in = form ? tk_inst() : NULL;
        TK_COPY(in, d, w, PX_COPY_CUDA_DMA);
        tk_randomize(w, 9001 + (uint64_t)form);
        TK_COPY(in, w, d, PX_COPY_CUDA_DMA);
        ck_assert_int_eq(memcmp(buf, orig, bytes), 0);
    }
    TK_OK(px_view_release(&w));
    TK_OK(px_host_unregister(buf));
    TK_OK(px_pointer_space(buf, &s));
    ck_assert_int_eq(s.kind, PX_SPACE_HOST);
    TK_FAIL(px_host_unregister(buf), PX_ERR_INVALID_ARGUMENT, "px_host_unregister");
    /* Wrapped again: pageable, whichever host space is asked for. */
    px_view *w2 = tk_wrap("unregistered", px_host(), PX_U8, 0, PX_LAYOUT_RIGHT, 1, &nb, buf);
    px_view *w3 =
        tk_wrap("unregistered as pinned", px_host_pinned(), PX_U8, 0, PX_LAYOUT_RIGHT, 1, &nb, buf);
    ck_assert_int_eq(tk_info(w2).space.kind, PX_SPACE_HOST);
    ck_assert_int_eq(tk_info(w3).space.kind, PX_SPACE_HOST);
    tk_fill_random(d, 9003);
    TK_COPY(NULL, w2, d, PX_COPY_CUDA_STAGED);
    TK_SAME(w2, d);
    tk_randomize(w3, 9004);
    TK_COPY(tk_inst(), d, w3, PX_COPY_CUDA_STAGED);
    TK_SAME(d, w3);

    /* Device memory claimed as host, and host memory claimed as device, are refused. */
    px_view_desc wd = tk_desc("claims", px_host(), PX_U8, 1, &n);
    px_view *v = NULL;
    TK_FAIL(px_view_wrap(&v, &wd, dp), PX_ERR_INVALID_ARGUMENT, "px_view_wrap");
    ck_assert_ptr_null(v);
    TK_ERROR_HAS("DEVICE");
    wd.space = px_host_pinned();
    TK_FAIL(px_view_wrap(&v, &wd, dp), PX_ERR_INVALID_ARGUMENT, "px_view_wrap");
    wd.space = px_device(0);
    TK_FAIL(px_view_wrap(&v, &wd, buf), PX_ERR_INVALID_ARGUMENT, "px_view_wrap");
    TK_FAIL(px_view_wrap(&v, &wd, pp), PX_ERR_INVALID_ARGUMENT, "px_view_wrap");
    ck_assert_ptr_null(v);
    TK_OK(px_view_wrap(&v, &wd, dp));
    ck_assert_int_eq(tk_info(v).space.kind, PX_SPACE_DEVICE);
    TK_OK(px_view_release(&v));

    TK_RELEASE(pin, dev, d, w2, w3);
    free(buf);
    free(orig);
}
END_TEST


#endif /* TK_HAVE_CUDA */

int main(void)
{
    TK_ADD(tk_case("pinning", "pointers"), pointer_bad_input);
#ifdef TK_HAVE_CUDA
    TK_ADD(tk_case("pinning_cuda", "registration"), pointer_classification);
    tk_require("pinning_cuda", tk_need_cuda);
#endif
    return tk_run();
}
