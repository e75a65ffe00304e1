/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* DLPack interop (portex/dlpack.h): views exported as tensors (fields for every dtype,
 * layout and subview; the view kept until the deleter), tensors taken as views (shape,
 * strides, byte_offset, the deleter called exactly once when the last view, subview or
 * copy lets go), round trips, a kernel over a taken tensor, and every refusal with its
 * message (nothing taken, nothing leaked). Suite dlpack runs on every backend, in its
 * memory space (DEVICE(0) on CUDA); dlpack_cuda checks pinned memory and the memory
 * checks of a GPU. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "common.h"
#include "kernels.h"
#include "portex/dlpack.h"

static const px_dtype builtin[] = {PX_U8, PX_I32, PX_I64, PX_U32, PX_U64, PX_F32, PX_F64};
static const DLDataType builtin_dl[] = {{kDLUInt, 8, 1},  {kDLInt, 32, 1},  {kDLInt, 64, 1},
                                        {kDLUInt, 32, 1}, {kDLUInt, 64, 1}, {kDLFloat, 32, 1},
                                        {kDLFloat, 64, 1}};
#define NBUILTIN 7

/* ---- A producer of tensors: the test's own, as PyTorch or NumPy would be ------------------- */

/* One tensor lent to portex, in both forms (a test uses one), with the deleter's calls
 * counted. The memory is the test's (a buffer, or a portex view standing for another
 * library's allocation); the deleter frees nothing, so the count can be read after it. */
typedef struct lent {
    DLManagedTensor m;
    DLManagedTensorVersioned mv;
    int64_t shape[PX_MAX_RANK + 2];
    int64_t strides[PX_MAX_RANK + 2];
    atomic_int deleted;
} lent;

static void lent_delete(DLManagedTensor *self)
{
    atomic_fetch_add(&((lent *)self->manager_ctx)->deleted, 1);
}
static void lent_delete_v(DLManagedTensorVersioned *self)
{
    atomic_fetch_add(&((lent *)self->manager_ctx)->deleted, 1);
}

/* A tensor of `ndim` dimensions over data (strides NULL: none given). */
static void lent_init(lent *l, void *data, DLDevice dev, DLDataType dt, int ndim,
                      const int64_t *shape, const int64_t *strides)
{
    memset(l, 0, sizeof *l);
    atomic_init(&l->deleted, 0);
    for (int d = 0; d < ndim && d < PX_MAX_RANK + 2; ++d) {
        l->shape[d] = shape[d];
        l->strides[d] = strides ? strides[d] : 0;
    }
    const DLTensor t = {.data = data,
                        .device = dev,
                        .ndim = ndim,
                        .dtype = dt,
                        .shape = l->shape,
                        .strides = strides ? l->strides : NULL};
    l->m.dl_tensor = t;
    l->m.manager_ctx = l;
    l->m.deleter = lent_delete;
    l->mv.version.major = 1;
    l->mv.version.minor = 1;
    l->mv.manager_ctx = l;
    l->mv.deleter = lent_delete_v;
    l->mv.dl_tensor = t;
}

static DLDevice dl_device(px_space s)
{
    DLDevice d;
    d.device_type = s.kind == PX_SPACE_HOST          ? kDLCPU
                    : s.kind == PX_SPACE_HOST_PINNED ? kDLCUDAHost
                                                     : kDLCUDA;
    d.device_id = s.kind == PX_SPACE_DEVICE ? s.device : 0;
    return d;
}

static DLDevice cpu(void) { return dl_device(px_host()); }

static DLDataType dl_f64(void)
{
    DLDataType t = {kDLFloat, 64, 1};
    return t;
}

static int deleted(lent *l) { return atomic_load(&l->deleted); }

/* Both entry points on the same tensor, one after the other (n = 0: legacy, 1: versioned). */
static px_status take(int n, px_view **out, const char *label, lent *l)
{
    return n ? px_view_from_dlpack_versioned(out, label, &l->mv)
             : px_view_from_dlpack(out, label, &l->m);
}
static const char *const take_name[2] = {"px_view_from_dlpack", "px_view_from_dlpack_versioned"};

/* A HOST view of doubles holding 10 * flat index + 0.5, copied into `space`. */
static px_view *counting(const char *label, px_space space, px_layout layout, int rank,
                         const int64_t *extent)
{
    px_view *h = tk_view_ex(label, px_host(), PX_F64, 0, layout, rank, extent, 0);
    px_view_info hi = tk_info(h);
    for (int64_t i = 0; i < hi.size; ++i) ((double *)hi.data)[i] = 10.0 * (double)i + 0.5;
    if (space.kind == PX_SPACE_HOST) return h;
    px_view *v = tk_view_ex(label, space, PX_F64, 0, layout, rank, extent, PX_VIEW_NO_INIT);
    TK_OK(px_deep_copy(v, h, NULL));
    TK_RELEASE(h);
    return v;
}

/* The DLTensor describes view v exactly. */
static void expect_tensor(const DLTensor *t, const px_view *v)
{
    px_view_info in = tk_info(v);
    const DLDevice d = dl_device(in.space);
    ck_assert_int_eq(t->device.device_type, d.device_type);
    ck_assert_int_eq(t->device.device_id, d.device_id);
    ck_assert_ptr_eq(t->data, in.data);
    ck_assert_uint_eq(t->byte_offset, 0);
    ck_assert_int_eq(t->ndim, in.rank);
    int k = 0;
    while (k < NBUILTIN && builtin[k] != in.dtype) ++k;
    ck_assert_int_lt(k, NBUILTIN);
    ck_assert_uint_eq(t->dtype.code, builtin_dl[k].code);
    ck_assert_uint_eq(t->dtype.bits, builtin_dl[k].bits);
    ck_assert_uint_eq(t->dtype.lanes, 1);
    ck_assert_ptr_nonnull(t->shape);
    ck_assert_ptr_nonnull(t->strides);
    for (int d = 0; d < in.rank; ++d) {
        ck_assert_int_eq(t->shape[d], in.extent[d]);
        ck_assert_int_eq(t->strides[d], in.stride[d]);
    }
}

/* ---- Views as tensors ------------------------------------------------------------------------ */

/* Every dtype, both forms: the fields, and the reference the tensor holds. */
START_TEST(export_every_dtype)
{
    const int64_t e[2] = {3, 5};
    for (int k = 0; k < NBUILTIN; ++k) {
        px_view *v = tk_view("exported", tk_space(), builtin[k], 2, e);
        DLManagedTensor *t = NULL;
        TK_OK(px_view_to_dlpack(v, &t));
        ck_assert_ptr_nonnull(t);
        expect_tensor(&t->dl_tensor, v);
        ck_assert(t->deleter != NULL);
        ck_assert_int_eq(tk_info(v).use_count, 2);

        DLManagedTensorVersioned *tv = NULL;
        TK_OK(px_view_to_dlpack_versioned(v, &tv));
        ck_assert_ptr_nonnull(tv);
        expect_tensor(&tv->dl_tensor, v);
        ck_assert_uint_eq(tv->version.major, PX_DLPACK_MAJOR_VERSION);
        ck_assert_uint_eq(tv->version.minor, PX_DLPACK_MINOR_VERSION);
        ck_assert_uint_eq(tv->flags, 0);
        ck_assert(tv->deleter != NULL);
        ck_assert_int_eq(tk_info(v).use_count, 3);

        t->deleter(t);
        ck_assert_int_eq(tk_info(v).use_count, 2);
        tv->deleter(tv);
        ck_assert_int_eq(tk_info(v).use_count, 1);
        TK_RELEASE(v);
    }
}
END_TEST

/* LAYOUT_LEFT, LAYOUT_STRIDE, subviews (a column, a block, one element), rank 0, empty. */
START_TEST(export_layouts_and_subviews)
{
    const int64_t e3[3] = {3, 4, 5};
    px_view *left = counting("left", tk_space(), PX_LAYOUT_LEFT, 3, e3);
    DLManagedTensor *t = NULL;
    TK_OK(px_view_to_dlpack(left, &t));
    expect_tensor(&t->dl_tensor, left);
    ck_assert_int_eq(t->dl_tensor.strides[0], 1);
    ck_assert_int_eq(t->dl_tensor.strides[1], 3);
    ck_assert_int_eq(t->dl_tensor.strides[2], 12);
    t->deleter(t);

    px_view_desc d = tk_desc("padded", tk_space(), PX_I32, 2, e3);
    d.layout = PX_LAYOUT_STRIDE;
    d.stride[0] = 8;
    d.stride[1] = 1;
    px_view *padded = NULL;
    TK_OK(px_view_create(&padded, &d));
    TK_OK(px_view_to_dlpack(padded, &t));
    expect_tensor(&t->dl_tensor, padded);
    ck_assert_int_eq(t->dl_tensor.strides[0], 8);
    ck_assert_int_eq(t->dl_tensor.strides[1], 1);
    t->deleter(t);

    const int64_t e2[2] = {5, 7};
    px_view *grid = counting("grid", tk_space(), PX_LAYOUT_RIGHT, 2, e2);
    const px_slice col[2] = {px_slice_range(1, 5), px_slice_index(3)};
    const px_slice block[2] = {px_slice_range(2, 4), px_slice_range(1, 6)};
    const px_slice one[2] = {px_slice_index(4), px_slice_index(6)};
    const px_slice none[2] = {px_slice_range(2, 2), px_slice_all()};
    const px_slice *const subs[] = {col, block, one, none};
    for (size_t k = 0; k < sizeof subs / sizeof subs[0]; ++k) {
        px_view *s = NULL;
        TK_OK(px_view_subview(&s, grid, subs[k], 2));
        TK_OK(px_view_to_dlpack(s, &t));
        expect_tensor(&t->dl_tensor, s);
        /* The tensor keeps the memory after every view is released. */
        TK_RELEASE(s);
        if (k == 0) {
            ck_assert_int_eq(t->dl_tensor.ndim, 1);
            ck_assert_int_eq(t->dl_tensor.shape[0], 4);
            ck_assert_int_eq(t->dl_tensor.strides[0], 7);
            ck_assert_ptr_eq(t->dl_tensor.data, (double *)tk_info(grid).data + 7 + 3);
        } else if (k == 2) {
            ck_assert_int_eq(t->dl_tensor.ndim, 0);
            ck_assert_ptr_eq(t->dl_tensor.data, (double *)tk_info(grid).data + 4 * 7 + 6);
        }
        t->deleter(t);
    }
    TK_RELEASE(left, padded, grid);
}
END_TEST

/* The tensor, not the caller's handle, keeps the view: released first, the memory stays in
 * use until the deleter; px_finalize names the view while a tensor holds it. */
START_TEST(export_outlives_handle)
{
    px_memory_stats m0, m1;
    TK_OK(px_space_memory(tk_space(), &m0));
    px_view *v = tk_view1("held by a tensor", tk_space(), PX_F64, 1000);
    DLManagedTensorVersioned *t = NULL;
    TK_OK(px_view_to_dlpack_versioned(v, &t));
    TK_OK(px_view_release(&v));
    TK_OK(px_space_memory(tk_space(), &m1));
    ck_assert_uint_eq(m1.bytes_in_use, m0.bytes_in_use + 8000);

    TK_FAIL(px_finalize(), PX_ERR_BUSY, "px_finalize");
    TK_ERROR_HAS("held by a tensor");
    t->deleter(t);
    TK_OK(px_space_memory(tk_space(), &m1));
    ck_assert_uint_eq(m1.bytes_in_use, m0.bytes_in_use);
}
END_TEST

START_TEST(export_refusals)
{
    DLManagedTensor *t = NULL;
    DLManagedTensorVersioned *tv = NULL;
    px_view *v = tk_view1("v", tk_space(), PX_F32, 8);
    TK_FAIL(px_view_to_dlpack(v, NULL), PX_ERR_INVALID_ARGUMENT, "px_view_to_dlpack");
    TK_FAIL(px_view_to_dlpack_versioned(v, NULL), PX_ERR_INVALID_ARGUMENT,
            "px_view_to_dlpack_versioned");
    t = (DLManagedTensor *)&t; /* a refusal clears *out */
    TK_FAIL(px_view_to_dlpack(NULL, &t), PX_ERR_INVALID_ARGUMENT, "px_view_to_dlpack");
    ck_assert_ptr_null(t);
    tv = (DLManagedTensorVersioned *)&tv;
    TK_FAIL(px_view_to_dlpack_versioned(NULL, &tv), PX_ERR_INVALID_ARGUMENT,
            "px_view_to_dlpack_versioned");
    ck_assert_ptr_null(tv);
    ck_assert_int_eq(tk_info(v).use_count, 1);

    /* PX_USER: no DLPack type. */
    const int64_t n = 4;
    px_view *u = tk_view_ex("user elements", tk_space(), PX_USER, 12, PX_LAYOUT_RIGHT, 1, &n, 0);
    TK_FAIL(px_view_to_dlpack(u, &t), PX_ERR_UNSUPPORTED, "px_view_to_dlpack");
    TK_ERROR_HAS("PX_USER");
    TK_ERROR_HAS("user elements");
    ck_assert_ptr_null(t);
    TK_FAIL(px_view_to_dlpack_versioned(u, &tv), PX_ERR_UNSUPPORTED, "px_view_to_dlpack_versioned");
    ck_assert_ptr_null(tv);
    ck_assert_int_eq(tk_info(u).use_count, 1);

    /* A handle that is no view. */
    int64_t not_a_view[64] = {0};
    TK_FAIL(px_view_to_dlpack((px_view *)not_a_view, &t), PX_ERR_INVALID_ARGUMENT,
            "px_view_to_dlpack");
    ck_assert_ptr_null(t);
    TK_RELEASE(v, u);
}
END_TEST

/* ---- Tensors as views -------------------------------------------------------------------------- */

/* A host buffer: shape, no strides (row-major), values seen and written through the view;
 * subviews and mirror views keep the tensor, whose deleter runs once, at the last release. */
START_TEST(take_host_tensor)
{
    for (int n = 0; n < 2; ++n) {
        static _Alignas(64) double buf[24];
        for (int i = 0; i < 24; ++i) buf[i] = i;
        const int64_t shape[2] = {4, 6};
        lent l;
        lent_init(&l, buf, cpu(), dl_f64(), 2, shape, NULL);
        px_memory_stats m0, m1;
        TK_OK(px_space_memory(px_host(), &m0));
        px_view *v = NULL;
        TK_OK(take(n, &v, "from torch", &l));
        px_view_info in = tk_info(v);
        ck_assert_str_eq(in.label, "from torch");
        ck_assert_int_eq(in.space.kind, PX_SPACE_HOST);
        ck_assert_int_eq(in.dtype, PX_F64);
        ck_assert_int_eq(in.rank, 2);
        ck_assert_int_eq(in.extent[0], 4);
        ck_assert_int_eq(in.extent[1], 6);
        ck_assert_int_eq(in.stride[0], 6);
        ck_assert_int_eq(in.stride[1], 1);
        ck_assert_int_eq(in.layout, PX_LAYOUT_RIGHT);
        ck_assert_ptr_eq(in.data, buf);
        ck_assert(!in.managed);
        ck_assert(in.contiguous);
        TK_OK(px_space_memory(px_host(), &m1));
        ck_assert_uint_eq(m1.bytes_in_use, m0.bytes_in_use); /* nothing allocated */

        px_span_f64_right s;
        TK_OK(px_view_get_span(v, &s));
        ck_assert(PX_AT2(s, 3, 5) == 23.0);
        PX_AT2(s, 1, 2) = -1.0;
        ck_assert(buf[8] == -1.0);

        /* A subview of a subview, a mirror view (v itself), and a copy into a view of
           portex's: the deleter waits for the last of them. */
        const px_slice rows[2] = {px_slice_range(1, 3), px_slice_all()};
        const px_slice elem[2] = {px_slice_index(1), px_slice_range(2, 5)};
        px_view *a = NULL, *b = NULL, *m = NULL;
        TK_OK(px_view_subview(&a, v, rows, 2));
        TK_OK(px_view_subview(&b, a, elem, 2));
        TK_OK(px_view_create_mirror_view(&m, px_host(), v));
        ck_assert_ptr_eq(m, v);
        px_view *copy = tk_view("copy", tk_space(), PX_F64, 2, shape);
        TK_COPY(NULL, copy, v, TK_ANY_PATH);
        TK_RELEASE(v, m, a);
        ck_assert_int_eq(deleted(&l), 0);
        ck_assert(((double *)tk_info(b).data)[0] == buf[2 * 6 + 2]);
        TK_RELEASE(b);
        ck_assert_int_eq(deleted(&l), 1);
        TK_OK(px_space_memory(px_host(), &m1));
        ck_assert_uint_eq(m1.bytes_in_use, m0.bytes_in_use + (tk_is_cuda() ? 0 : 24 * 8));
        /* The copy outlives the tensor. */
        px_view *ch = tk_to_host(copy);
        ck_assert(((double *)tk_data(ch))[8] == -1.0);
        ck_assert(((double *)tk_data(ch))[23] == 23.0);
        TK_RELEASE(ch, copy);
        ck_assert_int_eq(deleted(&l), 1);
    }
}
END_TEST

/* Strides: compact right or left keep their layout's name (whatever strides dimensions of
 * extent 1 have), others are LAYOUT_STRIDE; zero strides broadcast; rank 0; no elements. */
START_TEST(take_strides_and_layouts)
{
    static _Alignas(64) float buf[256];
    for (int i = 0; i < 256; ++i) buf[i] = (float)i;
    const DLDataType f32 = {kDLFloat, 32, 1};
    static const struct {
        int ndim;
        int64_t shape[3], strides[3];
        px_layout layout;
        bool contiguous;
    } cases[] = {
        {3, {2, 3, 4}, {12, 4, 1}, PX_LAYOUT_RIGHT, true},
        {3, {2, 3, 4}, {1, 2, 6}, PX_LAYOUT_LEFT, true},
        {3, {2, 1, 4}, {4, 99, 1}, PX_LAYOUT_RIGHT, true}, /* extent 1: any stride */
        {2, {3, 4}, {8, 1}, PX_LAYOUT_STRIDE, false},      /* padded rows */
        {2, {4, 3}, {1, 5}, PX_LAYOUT_STRIDE, false},      /* padded columns */
        {2, {3, 4}, {0, 1}, PX_LAYOUT_STRIDE, false},      /* broadcast rows */
        {1, {10}, {3}, PX_LAYOUT_STRIDE, false},
        {1, {10}, {1}, PX_LAYOUT_RIGHT, true},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
        lent l;
        lent_init(&l, buf, cpu(), f32, cases[k].ndim, cases[k].shape, cases[k].strides);
        px_view *v = NULL;
        TK_OK(px_view_from_dlpack(&v, "strided", &l.m));
        px_view_info in = tk_info(v);
        TK_ASSERT(in.layout == cases[k].layout, "case %zu: layout %s", k,
                  px_layout_string(in.layout));
        TK_ASSERT(in.contiguous == cases[k].contiguous, "case %zu", k);
        ck_assert_int_eq(in.rank, cases[k].ndim);
        px_span_f32 s;
        TK_OK(px_view_get_span(v, &s));
        /* Every element is where the tensor's strides put it. */
        for (int64_t i = 0; i < cases[k].shape[0]; ++i)
            for (int64_t j = 0; j < (cases[k].ndim > 1 ? cases[k].shape[1] : 1); ++j) {
                const int64_t off =
                    i * cases[k].strides[0] + (cases[k].ndim > 1 ? j * cases[k].strides[1] : 0);
                const float got = cases[k].ndim == 1   ? PX_AT1(s, i)
                                  : cases[k].ndim == 2 ? PX_AT2(s, i, j)
                                                       : PX_AT3(s, i, j, 0);
                TK_ASSERT(got == buf[off], "case %zu (%lld, %lld): %g, want %g", k, (long long)i,
                          (long long)j, (double)got, (double)buf[off]);
            }
        TK_RELEASE(v);
        ck_assert_int_eq(deleted(&l), 1);
    }

    /* Rank 0: one element, shape may be NULL. */
    lent l;
    lent_init(&l, buf + 7, cpu(), f32, 0, NULL, NULL);
    l.m.dl_tensor.shape = NULL;
    px_view *v = NULL;
    TK_OK(px_view_from_dlpack(&v, "scalar", &l.m));
    ck_assert_int_eq(tk_info(v).rank, 0);
    ck_assert_int_eq(tk_info(v).size, 1);
    ck_assert(*(float *)tk_info(v).data == 7.0f);
    TK_RELEASE(v);
    ck_assert_int_eq(deleted(&l), 1);

    /* No element: data may be NULL (and is not looked at otherwise). */
    const int64_t empty[2] = {0, 5};
    lent_init(&l, NULL, cpu(), f32, 2, empty, NULL);
    TK_OK(px_view_from_dlpack(&v, "empty", &l.m));
    ck_assert_int_eq(tk_info(v).size, 0);
    ck_assert_int_eq(tk_info(v).extent[1], 5);
    TK_RELEASE(v);
    ck_assert_int_eq(deleted(&l), 1);

    /* A NULL deleter: nothing to call. */
    lent_init(&l, buf, cpu(), f32, 1, (const int64_t[]){16}, NULL);
    l.mv.deleter = NULL;
    TK_OK(px_view_from_dlpack_versioned(&v, "no deleter", &l.mv));
    TK_RELEASE(v);
    ck_assert_int_eq(deleted(&l), 0);
}
END_TEST

/* byte_offset is honoured; the first element it gives must be aligned for the element. */
START_TEST(take_byte_offset)
{
    static _Alignas(64) double buf[16];
    for (int i = 0; i < 16; ++i) buf[i] = 100.0 + i;
    const int64_t shape[1] = {5};
    for (int n = 0; n < 2; ++n) {
        lent l;
        lent_init(&l, buf, cpu(), dl_f64(), 1, shape, NULL);
        l.m.dl_tensor.byte_offset = l.mv.dl_tensor.byte_offset = 3 * sizeof(double);
        px_view *v = NULL;
        TK_OK(take(n, &v, "offset", &l));
        ck_assert_ptr_eq(tk_info(v).data, &buf[3]);
        px_span_f64_1d s;
        TK_OK(px_view_get_span(v, &s));
        ck_assert(PX_AT1(s, 0) == 103.0 && PX_AT1(s, 4) == 107.0);
        /* With strides, too. */
        TK_RELEASE(v);
        ck_assert_int_eq(deleted(&l), 1);

        /* 4 bytes in: fine for float32, refused for float64. */
        l.m.dl_tensor.byte_offset = l.mv.dl_tensor.byte_offset = 4;
        TK_FAIL(take(n, &v, "misaligned", &l), PX_ERR_INVALID_ARGUMENT, take_name[n]);
        TK_ERROR_HAS("aligned");
        TK_ERROR_HAS("byte_offset 4");
        ck_assert_ptr_null(v);
        const DLDataType f32 = {kDLFloat, 32, 1};
        l.m.dl_tensor.dtype = l.mv.dl_tensor.dtype = f32;
        TK_OK(take(n, &v, "float at +4", &l));
        ck_assert_ptr_eq(tk_info(v).data, (char *)buf + 4);
        TK_RELEASE(v);
        ck_assert_int_eq(deleted(&l), 2);
    }
}
END_TEST

/* A portex kernel (axpy) over two tensors another library owns, in the backend's memory
 * space, one of them strided; the results read back through the producer's memory. */
START_TEST(kernel_over_taken_tensors)
{
    const int64_t n = 1000;
    /* The "other library's" memory: portex views, lent through hand-made tensors. */
    px_view *xmem = counting("x memory", tk_space(), PX_LAYOUT_RIGHT, 1, &n);
    const int64_t n2 = 2 * n;
    px_view *ymem = counting("y memory", tk_space(), PX_LAYOUT_RIGHT, 1, &n2);
    lent lx, ly;
    const int64_t stride2 = 2;
    lent_init(&lx, tk_info(xmem).data, dl_device(tk_space()), dl_f64(), 1, &n, NULL);
    lent_init(&ly, tk_info(ymem).data, dl_device(tk_space()), dl_f64(), 1, &n, &stride2);
    px_view *x = NULL, *y = NULL;
    TK_OK(px_view_from_dlpack(&x, "x", &lx.m));
    TK_OK(px_view_from_dlpack_versioned(&y, "y (every other)", &ly.mv));
    ck_assert_int_eq(tk_info(x).space.kind, tk_space().kind);
    ck_assert_int_eq(tk_info(y).layout, PX_LAYOUT_STRIDE);

    axpy_args a;
    memset(&a, 0, sizeof a);
    a.a = 2.0;
    TK_OK(px_view_span_f64(x, &a.x));
    TK_OK(px_view_span_f64(y, &a.y));
    px_instance *inst = tk_inst();
    TK_OK(px_parallel_for(inst, "axpy over DLPack tensors", px_range(0, n), PX_KERNEL(axpy), &a));
    TK_OK(px_instance_fence(inst));
    TK_RELEASE(x, y);
    ck_assert_int_eq(deleted(&lx), 1);
    ck_assert_int_eq(deleted(&ly), 1);

    /* y(i) = 2 x(i) + y(i) at the even places of ymem, the odd ones untouched. */
    px_view *yh = tk_to_host(ymem);
    const double *yd = (const double *)tk_data(yh);
    for (int64_t i = 0; i < n2; ++i) {
        const double before = 10.0 * (double)i + 0.5;
        const double want = i % 2 ? before : before + 2.0 * (10.0 * (double)(i / 2) + 0.5);
        TK_ASSERT(yd[i] == want, "ymem[%lld] = %g, want %g", (long long)i, yd[i], want);
    }
    TK_RELEASE(yh, xmem, ymem);
}
END_TEST

/* A graph whose fill node names a taken tensor's view keeps the tensor: the deleter runs
 * when the graph and its executable graph go, after the view's handle. */
START_TEST(graph_holds_tensor)
{
    const int64_t n = 64;
    px_view *mem = counting("graph memory", tk_space(), PX_LAYOUT_RIGHT, 1, &n);
    lent l;
    lent_init(&l, tk_info(mem).data, dl_device(tk_space()), dl_f64(), 1, &n, NULL);
    px_view *v = NULL;
    TK_OK(px_view_from_dlpack(&v, "filled by a graph", &l.m));
    px_graph *g = NULL;
    px_graph_node *fill = NULL;
    px_graph_exec *e = NULL;
    const double value = 4.25;
    TK_OK(px_graph_create(&g, tk_exec(), 0, "fills a tensor"));
    TK_OK(px_graph_add_fill(g, NULL, 0, v, &value, &fill));
    TK_OK(px_graph_instantiate(g, &e));
    TK_RELEASE(v);
    ck_assert_int_eq(deleted(&l), 0);
    px_instance *inst = tk_inst();
    TK_OK(px_graph_launch(e, inst));
    TK_OK(px_instance_fence(inst));
    TK_OK(px_graph_destroy(&g));
    ck_assert_int_eq(deleted(&l), 0); /* the executable graph keeps its graph */
    TK_OK(px_graph_exec_destroy(&e));
    ck_assert_int_eq(deleted(&l), 1);
    TK_ALL_ARE(mem, &value);
    TK_RELEASE(mem);
}
END_TEST

/* Round trips in the backend's space: a view as a tensor and the tensor as a view again;
 * the second view outlives the first and keeps its memory. */
START_TEST(round_trip)
{
    for (int n = 0; n < 2; ++n) {
        const int64_t e[3] = {4, 3, 5};
        px_view *v = counting("original", tk_space(), n ? PX_LAYOUT_LEFT : PX_LAYOUT_RIGHT, 3, e);
        const px_slice sl[3] = {px_slice_range(1, 4), px_slice_all(), px_slice_range(1, 4)};
        px_view *sub = NULL;
        TK_OK(px_view_subview(&sub, v, sl, 3));
        px_memory_stats m0, m1;
        TK_OK(px_space_memory(tk_space(), &m0));
        px_view *w = NULL;
        if (n) {
            DLManagedTensorVersioned *t = NULL;
            TK_OK(px_view_to_dlpack_versioned(sub, &t));
            TK_OK(px_view_from_dlpack_versioned(&w, "back", t));
        } else {
            DLManagedTensor *t = NULL;
            TK_OK(px_view_to_dlpack(sub, &t));
            TK_OK(px_view_from_dlpack(&w, "back", t));
        }
        px_view_info si = tk_info(sub), wi = tk_info(w);
        ck_assert_ptr_eq(wi.data, si.data);
        ck_assert_int_eq(wi.space.kind, si.space.kind);
        ck_assert_int_eq(wi.space.device, si.space.device);
        ck_assert_int_eq(wi.dtype, si.dtype);
        ck_assert_int_eq(wi.rank, 3);
        for (int d = 0; d < 3; ++d) {
            ck_assert_int_eq(wi.extent[d], si.extent[d]);
            ck_assert_int_eq(wi.stride[d], si.stride[d]);
        }
        ck_assert_int_eq(wi.layout, si.layout);
        ck_assert(!wi.managed);
        ck_assert_int_eq(si.use_count, 2); /* the tensor's reference */
        TK_RELEASE(v, sub);
        TK_OK(px_space_memory(tk_space(), &m1));
        ck_assert_uint_eq(m1.bytes_in_use, m0.bytes_in_use);
        px_view *h = tk_to_host(w);
        px_span_f64 hs;
        TK_OK(px_view_span_f64(h, &hs));
        /* original(1 + i, j, 1 + k), numbered in the original's memory order. */
        const int64_t flat = n ? (1 + 4 * (0 + 3 * 1)) : ((1 * 3 + 0) * 5 + 1);
        ck_assert(PX_AT3(hs, 0, 0, 0) == 10.0 * (double)flat + 0.5);
        TK_RELEASE(h, w);
        TK_OK(px_space_memory(tk_space(), &m1));
        ck_assert_uint_eq(m1.bytes_in_use, m0.bytes_in_use - 60 * 8);
    }
}
END_TEST

/* ---- Refusals: the tensor is still the caller's (no deleter call), *out is NULL ----------------- */

/* Runs both entry points on l, expecting `want` naming the function and `needle`. */
#define REFUSED(l, want, needle)                                              \
    do {                                                                      \
        for (int n_ = 0; n_ < 2; ++n_) {                                      \
            px_view *v_ = (px_view *)&(l);                                    \
            TK_FAIL(take(n_, &v_, "refused", &(l)), (want), take_name[n_]);   \
            TK_ASSERT(tk_error_from(take_name[n_]), "'%s'", px_last_error()); \
            TK_ERROR_HAS(needle);                                             \
            ck_assert_ptr_null(v_);                                           \
        }                                                                     \
        ck_assert_int_eq(deleted(&(l)), 0);                                   \
    } while (0)

START_TEST(take_refusals)
{
    static _Alignas(64) double buf[64];
    const int64_t shape[2] = {4, 4};
    lent l;
    px_view *v = NULL;

    /* Arguments. */
    lent_init(&l, buf, cpu(), dl_f64(), 2, shape, NULL);
    TK_FAIL(px_view_from_dlpack(NULL, "x", &l.m), PX_ERR_INVALID_ARGUMENT, "px_view_from_dlpack");
    TK_FAIL(px_view_from_dlpack_versioned(NULL, "x", &l.mv), PX_ERR_INVALID_ARGUMENT,
            "px_view_from_dlpack_versioned");
    v = (px_view *)&l;
    TK_FAIL(px_view_from_dlpack(&v, "x", NULL), PX_ERR_INVALID_ARGUMENT, "px_view_from_dlpack");
    ck_assert_ptr_null(v);
    v = (px_view *)&l;
    TK_FAIL(px_view_from_dlpack_versioned(&v, "x", NULL), PX_ERR_INVALID_ARGUMENT,
            "px_view_from_dlpack_versioned");
    ck_assert_ptr_null(v);

    /* Rank and shape. */
    lent_init(&l, buf, cpu(), dl_f64(), -1, shape, NULL);
    REFUSED(l, PX_ERR_INVALID_ARGUMENT, "ndim is -1");
    const int64_t nine[9] = {1, 1, 1, 1, 1, 1, 1, 1, 2};
    lent_init(&l, buf, cpu(), dl_f64(), 9, nine, NULL);
    REFUSED(l, PX_ERR_UNSUPPORTED, "at most 8");
    lent_init(&l, buf, cpu(), dl_f64(), 2, shape, NULL);
    l.m.dl_tensor.shape = l.mv.dl_tensor.shape = NULL;
    REFUSED(l, PX_ERR_INVALID_ARGUMENT, "shape is NULL");
    const int64_t negative[2] = {4, -3};
    lent_init(&l, buf, cpu(), dl_f64(), 2, negative, NULL);
    REFUSED(l, PX_ERR_INVALID_ARGUMENT, "shape[1] is -3");
    const int64_t flipped[2] = {-4, 1};
    lent_init(&l, buf + 12, cpu(), dl_f64(), 2, shape, flipped);
    REFUSED(l, PX_ERR_UNSUPPORTED, "strides[0] is -4");
    const int64_t huge[2] = {INT64_MAX, 2};
    lent_init(&l, buf, cpu(), dl_f64(), 2, huge, NULL);
    REFUSED(l, PX_ERR_OVERFLOW, "overflow");
    const int64_t far[2] = {1, INT64_MAX / 2};
    lent_init(&l, buf, cpu(), dl_f64(), 2, shape, far);
    REFUSED(l, PX_ERR_OVERFLOW, "overflow");

    /* Element types portex has no dtype for. */
    static const struct {
        DLDataType t;
        const char *name;
    } types[] = {
        {{kDLBool, 8, 1}, "bool8"},
        {{kDLComplex, 64, 1}, "complex64"},
        {{kDLComplex, 128, 1}, "complex128"},
        {{kDLFloat, 16, 1}, "float16"},
        {{kDLBfloat, 16, 1}, "bfloat16"},
        {{kDLInt, 8, 1}, "int8"},
        {{kDLInt, 16, 1}, "int16"},
        {{kDLUInt, 16, 1}, "uint16"},
        {{kDLFloat, 32, 4}, "4 lanes"},
        {{kDLUInt, 8, 0}, "0 lanes"},
        {{kDLOpaqueHandle, 64, 1}, "opaque"},
        {{kDLFloat8_e4m3fn, 8, 1}, "float8_e4m3fn"},
        {{kDLFloat4_e2m1fn, 4, 1}, "float4_e2m1fn"},
        {{200, 32, 1}, "type code 200"},
    };
    for (size_t k = 0; k < sizeof types / sizeof types[0]; ++k) {
        lent_init(&l, buf, cpu(), types[k].t, 2, shape, NULL);
        REFUSED(l, PX_ERR_UNSUPPORTED, types[k].name);
        TK_ERROR_HAS("portex takes int32, int64, uint8, uint32, uint64, float32 and float64");
    }

    /* Devices. */
    static const struct {
        int32_t type;
        const char *name;
    } devices[] = {
        {kDLCUDAManaged, "kDLCUDAManaged"},
        {kDLROCM, "kDLROCM"},
        {kDLROCMHost, "kDLROCMHost"},
        {kDLOpenCL, "kDLOpenCL"},
        {kDLMetal, "kDLMetal"},
        {kDLOneAPI, "kDLOneAPI"},
        {kDLExtDev, "kDLExtDev"},
        {0, "device type 0"},
        {99, "device type 99"},
        {-5, "device type -5"},
    };
    for (size_t k = 0; k < sizeof devices / sizeof devices[0]; ++k) {
        DLDevice d;
        d.device_type = (DLDeviceType)devices[k].type;
        d.device_id = 0;
        lent_init(&l, buf, d, dl_f64(), 2, shape, NULL);
        REFUSED(l, PX_ERR_UNSUPPORTED, devices[k].name);
    }
    DLDevice bad = cpu();
    bad.device_id = 1;
    lent_init(&l, buf, bad, dl_f64(), 2, shape, NULL);
    REFUSED(l, PX_ERR_INVALID_ARGUMENT, "device_id 1");
    bad.device_type = kDLCUDA;
    bad.device_id = -1;
    lent_init(&l, buf, bad, dl_f64(), 2, shape, NULL);
    REFUSED(l, PX_ERR_INVALID_ARGUMENT, "device_id -1");
    /* GPU memory where there is none: the space's own reason. */
    const px_status dev_ok = px_space_check(px_device(0));
    if (dev_ok != PX_OK) {
        lent_init(&l, buf, dl_device(px_device(0)), dl_f64(), 2, shape, NULL);
        REFUSED(l, dev_ok, "memory space DEVICE");
        const px_status pinned_ok = px_space_check(px_host_pinned());
        lent_init(&l, buf, dl_device(px_host_pinned()), dl_f64(), 2, shape, NULL);
        REFUSED(l, pinned_ok, "HOST_PINNED");
    }

    /* Memory. */
    lent_init(&l, NULL, cpu(), dl_f64(), 2, shape, NULL);
    REFUSED(l, PX_ERR_INVALID_ARGUMENT, "data is NULL");
    lent_init(&l, (char *)buf + 2, cpu(), dl_f64(), 2, shape, NULL);
    REFUSED(l, PX_ERR_INVALID_ARGUMENT, "not aligned to 8 bytes");
    lent_init(&l, buf, cpu(), dl_f64(), 2, shape, NULL);
    l.m.dl_tensor.byte_offset = l.mv.dl_tensor.byte_offset = UINT64_MAX - 8;
    REFUSED(l, PX_ERR_OVERFLOW, "byte_offset");

    /* Versioned only: another major version, and read-only memory. Other flags pass. */
    lent_init(&l, buf, cpu(), dl_f64(), 2, shape, NULL);
    for (uint32_t major = 0; major < 4; major += 2) {
        l.mv.version.major = major;
        v = (px_view *)&l;
        TK_FAIL(px_view_from_dlpack_versioned(&v, "x", &l.mv), PX_ERR_UNSUPPORTED,
                "px_view_from_dlpack_versioned");
        TK_ERROR_HAS("version");
        TK_ERROR_HAS("call its deleter");
        ck_assert_ptr_null(v);
    }
    l.mv.version.major = 1;
    l.mv.version.minor = 99; /* a later minor version: enumerations added, same layout */
    l.mv.flags = DLPACK_FLAG_BITMASK_READ_ONLY;
    TK_FAIL(px_view_from_dlpack_versioned(&v, "x", &l.mv), PX_ERR_UNSUPPORTED,
            "px_view_from_dlpack_versioned");
    TK_ERROR_HAS("read-only");
    ck_assert_int_eq(deleted(&l), 0);
    l.mv.flags = DLPACK_FLAG_BITMASK_IS_COPIED | DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED |
                 (UINT64_C(1) << 40);
    TK_OK(px_view_from_dlpack_versioned(&v, "copied", &l.mv));
    TK_RELEASE(v);
    ck_assert_int_eq(deleted(&l), 1);
}
END_TEST

/* Before px_init: refused, the tensor untouched. */
START_TEST(take_before_init)
{
    static _Alignas(64) double buf[4];
    const int64_t n = 4;
    lent l;
    lent_init(&l, buf, cpu(), dl_f64(), 1, &n, NULL);
    ck_assert(!px_is_initialized());
    REFUSED(l, PX_ERR_NOT_INITIALIZED, "px_init");
}
END_TEST

/* ---- CUDA: pinned memory, and tensors whose device is not their memory's ----------------------- */

START_TEST(cuda_pinned_round_trip)
{
    px_view *p = counting("pinned", px_host_pinned(), PX_LAYOUT_RIGHT, 1, (const int64_t[]){64});
    DLManagedTensor *t = NULL;
    TK_OK(px_view_to_dlpack(p, &t));
    ck_assert_int_eq(t->dl_tensor.device.device_type, kDLCUDAHost);
    ck_assert_int_eq(t->dl_tensor.device.device_id, 0);
    px_view *w = NULL;
    TK_OK(px_view_from_dlpack(&w, "pinned again", t));
    ck_assert_int_eq(tk_info(w).space.kind, PX_SPACE_HOST_PINNED);
    ck_assert_ptr_eq(tk_info(w).data, tk_info(p).data);
    /* A DMA copy to the GPU from it, as from any pinned view. */
    px_view *d = tk_view1("on the GPU", px_device(0), PX_F64, 64);
    TK_COPY(NULL, d, w, PX_COPY_CUDA_DMA);
    TK_SAME(d, p);
    TK_RELEASE(p, w, d);

    /* A kDLCUDAHost tensor over pageable memory is a HOST view: what the memory is. */
    static _Alignas(64) double buf[8];
    lent l;
    lent_init(&l, buf, dl_device(px_host_pinned()), dl_f64(), 1, (const int64_t[]){8}, NULL);
    TK_OK(px_view_from_dlpack(&w, "pageable", &l.m));
    ck_assert_int_eq(tk_info(w).space.kind, PX_SPACE_HOST);
    TK_RELEASE(w);
    ck_assert_int_eq(deleted(&l), 1);
}
END_TEST

START_TEST(cuda_device_mismatch)
{
    static _Alignas(64) double buf[16];
    const int64_t n = 16;
    px_view *dev = tk_view1("device memory", px_device(0), PX_F64, n);
    lent l;
    /* Host memory said to be on the GPU, and GPU memory said to be on the host. */
    lent_init(&l, buf, dl_device(px_device(0)), dl_f64(), 1, &n, NULL);
    REFUSED(l, PX_ERR_INVALID_ARGUMENT, "not that GPU's memory");
    lent_init(&l, tk_info(dev).data, cpu(), dl_f64(), 1, &n, NULL);
    REFUSED(l, PX_ERR_INVALID_ARGUMENT, "is DEVICE(0) memory");
    lent_init(&l, tk_info(dev).data, dl_device(px_host_pinned()), dl_f64(), 1, &n, NULL);
    REFUSED(l, PX_ERR_INVALID_ARGUMENT, "is DEVICE(0) memory");
    /* Another GPU's ordinal: no such GPU, or not its memory. */
    int count = 0;
    TK_OK(px_exec_space_device_count(PX_EXEC_CUDA, &count));
    lent_init(&l, tk_info(dev).data, dl_device(px_device(1)), dl_f64(), 1, &n, NULL);
    if (count > 1)
        REFUSED(l, PX_ERR_INVALID_ARGUMENT, "is DEVICE(0) memory");
    else
        REFUSED(l, PX_ERR_NO_DEVICE, "DEVICE(1)");
    TK_RELEASE(dev);
}
END_TEST

int main(void)
{
    TCase *tc = tk_case("dlpack", "export");
    TK_ADD(tc, export_every_dtype, export_layouts_and_subviews, export_outlives_handle,
           export_refusals);
    tc = tk_case("dlpack", "take");
    TK_ADD(tc, take_host_tensor, take_strides_and_layouts, take_byte_offset,
           kernel_over_taken_tensors, graph_holds_tensor, round_trip, take_refusals);
    tc = tk_case_bare("dlpack", "take_uninitialized");
    TK_ADD(tc, take_before_init);
    tc = tk_case("dlpack_cuda", "cuda");
    TK_ADD(tc, cuda_pinned_round_trip, cuda_device_mismatch);
    tk_require("dlpack_cuda", tk_need_cuda);
    return tk_run();
}
