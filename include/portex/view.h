/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/** @file
 * portex — views: typed, labelled, reference-counted N-d arrays in one memory space.
 *
 * A px_view is a host-side handle. Kernels never see it: they get a px_span_<T>, a plain
 * struct (pointer, extents, strides) passed by value, and index it with PX_AT*.
 *
 * Ownership: px_view_create returns a view with one reference; px_view_retain adds one;
 * px_view_release drops one and clears the caller's pointer. The memory goes back when the
 * last view onto it (subviews and mirror views included) is released. A wrapped
 * (unmanaged) view never frees the user's memory. */
#ifndef PORTEX_VIEW_H
#define PORTEX_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "portex/impl/abi.h" /* what PX_AT* and px_view_get_span call */
#include "portex/space.h"

PX_EXTERN_C_BEGIN

/** The most dimensions a view (and a span) has. */
#define PX_MAX_RANK 8

/** Element types. */
typedef enum px_dtype {
    PX_U8 = 0,     /**< uint8_t */
    PX_I32,        /**< int32_t */
    PX_I64,        /**< int64_t */
    PX_U32,        /**< uint32_t */
    PX_U64,        /**< uint64_t */
    PX_F32,        /**< float */
    PX_F64,        /**< double */
    PX_USER,       /**< any element of desc.elem_size bytes */
    PX_DTYPE_COUNT /**< the number of element types (not a type) */
} px_dtype;

/** "u8", "i32", ..., "f64", "user"; "unknown" for values outside px_dtype; never NULL. */
PX_API const char *px_dtype_string(px_dtype dtype);
/** Size in bytes of one element of a built-in type; 0 for PX_USER or invalid values. */
PX_API size_t px_dtype_size(px_dtype dtype);

/** How a view's elements are laid out in memory. */
typedef enum px_layout {
    PX_LAYOUT_RIGHT = 0, /**< row-major: the last index is contiguous (C) */
    PX_LAYOUT_LEFT,      /**< column-major: the first index is contiguous (Fortran) */
    PX_LAYOUT_STRIDE     /**< explicit strides, in elements */
} px_layout;

/** "right", "left", "stride"; "unknown" for values outside px_layout; never NULL. */
PX_API const char *px_layout_string(px_layout layout);

/** Flags of px_view_desc.flags and px_view_create_1d_ex. */
enum {
    PX_VIEW_NO_INIT =
        1u << 0 /**< skip zero-filling a new allocation (Kokkos' WithoutInitializing) */
};

/** What a view is. Zero-initialise and set what you need: the defaults are a rank-0 HOST
 * view of LAYOUT_RIGHT, zero-filled. */
typedef struct px_view_desc {
    const char *label;           /**< copied; NULL means "" */
    px_space space;              /**< where the memory is (a wrapped view: where it really is) */
    px_dtype dtype;              /**< the element type */
    size_t elem_size;            /**< PX_USER only */
    int rank;                    /**< 0 to PX_MAX_RANK */
    int64_t extent[PX_MAX_RANK]; /**< first `rank` used, each >= 0 */
    px_layout layout;            /**< RIGHT, LEFT or STRIDE */
    int64_t stride[PX_MAX_RANK]; /**< PX_LAYOUT_STRIDE only, in elements, each >= 0 */
    unsigned flags;              /**< PX_VIEW_* */
} px_view_desc;

/** A view: a host-side handle, opaque; kernels see spans (px_view_get_span). */
typedef struct px_view px_view;

/** A new view with its own memory in desc->space. Memory is zero-filled unless
 * PX_VIEW_NO_INIT, and the fill has finished when the call returns:
 *  - HOST and HOST_PINNED: by the OpenMP backend's default team where it is compiled in
 *    (whatever the default execution space), each thread zeroing the share of the
 *    elements that a 1-D px_parallel_for over the view gives it on the default instance,
 *    so that first touch places each page of a HOST view on the NUMA node of the thread
 *    that will loop over it (pinned pages are placed when they are pinned, at
 *    allocation); below 256 KiB, and without OpenMP, by the calling thread;
 *  - DEVICE(n): a cudaMemsetAsync on portex's own allocation stream of device n, waited
 *    for before the call returns: it waits for no other work, and all work issued
 *    afterwards, on any instance, sees the zeros.
 *
 * An allocation that fails returns PX_ERR_OUT_OF_MEMORY with the space, label and size in
 * the message. */
PX_API px_status px_view_create(px_view **out, const px_view_desc *desc);

/** The common case in one call: a new contiguous 1-D view of n elements of a built-in dtype
 * in `space`, zero-filled as px_view_create says (px_view_create with rank 1, extent n,
 * LAYOUT_RIGHT). It reads the same in C and C++, where a px_view_desc needs no designated
 * initializers. */
PX_API px_status px_view_create_1d(px_view **out, const char *label, px_space space, px_dtype dtype,
                                   int64_t n);

/** px_view_create_1d with flags: PX_VIEW_NO_INIT leaves the memory as the allocator gives
 * it, for a view the program writes in full before reading (the fill would be wasted
 * time, and on the host its first touch would be the fill's, not the program's):
 * @code
 *   px_view_create_1d_ex(&x, "x", space, PX_F64, n, PX_VIEW_NO_INIT);
 * @endcode
 * flags 0 is px_view_create_1d; an unknown bit is refused (PX_ERR_INVALID_ARGUMENT). */
PX_API px_status px_view_create_1d_ex(px_view **out, const char *label, px_space space,
                                      px_dtype dtype, int64_t n, unsigned flags);

/** The 2-D and 3-D cases in one call, as px_view_create_1d: a new contiguous row-major
 * (LAYOUT_RIGHT: the last index fastest) view of n0 x n1 (x n2) elements of a built-in
 * dtype in `space`, zero-filled (Kokkos' `View<double**> u("u", n0, n1)`):
 * @code
 *   px_view_create_2d(&u, "u", where, PX_F64, ny, nx);  // PX_AT2(span, j, i), i fastest
 * @endcode
 * Another layout, or no fill, is px_view_create with a px_view_desc. */
PX_API px_status px_view_create_2d(px_view **out, const char *label, px_space space, px_dtype dtype,
                                   int64_t n0, int64_t n1);
/** @copydoc px_view_create_2d */
PX_API px_status px_view_create_3d(px_view **out, const char *label, px_space space, px_dtype dtype,
                                   int64_t n0, int64_t n1, int64_t n2);

/** An unmanaged view over memory the caller owns and keeps alive longer than the view.
 * data may be NULL only when the view holds no element. For the built-in dtypes it must
 * be aligned to the element's size (kernels load elements by their type); PX_USER memory
 * may have any alignment as far as portex's copies are concerned. */
PX_API px_status px_view_wrap(px_view **out, const px_view_desc *desc, void *data);

/** Adds one reference: each px_view_retain needs one more px_view_release. */
PX_API px_status px_view_retain(px_view *view);
/** Drops one reference and sets *view to NULL. */
PX_API px_status px_view_release(px_view **view);

/** One dimension of a subview: a half-open range [begin, end) that is kept, or a single
 * index (begin; end is not used) that removes the dimension. */
typedef struct px_slice {
    int64_t begin; /**< the first index kept, or the index taken */
    int64_t end;   /**< PX_END: up to the extent */
    bool index;    /**< true: take `begin` only and drop the dimension */
} px_slice;

/** A px_slice end meaning "up to the extent". */
#define PX_END INT64_MAX

/** The indices [begin, end) of a dimension, kept (end may be PX_END). */
static inline px_slice px_slice_range(int64_t begin, int64_t end)
{
    px_slice s = {begin, end, false};
    return s;
}
/** The whole dimension, kept. */
static inline px_slice px_slice_all(void)
{
    px_slice s = {0, PX_END, false};
    return s;
}
/** Index i of a dimension only; the dimension is dropped. */
static inline px_slice px_slice_index(int64_t i)
{
    px_slice s = {i, i, true};
    return s;
}

/** A view onto part of src, sharing its memory (and keeping it alive). nslices must equal
 * src's rank. The result's label is src's with "(sub)" appended. */
PX_API px_status px_view_subview(px_view **out, px_view *src, const px_slice *slices, int nslices);

/** Kokkos create_mirror: always a new contiguous view in `space` with src's extents, dtype
 * and layout (LAYOUT_RIGHT when src is strided). Contents are not copied. */
PX_API px_status px_view_create_mirror(px_view **out, px_space space, const px_view *src);
/** Kokkos create_mirror_view: src itself (one more reference) when it already lives in
 * `space`, else as px_view_create_mirror. */
PX_API px_status px_view_create_mirror_view(px_view **out, px_space space, px_view *src);

/** What a view is now (px_view_info_get). */
typedef struct px_view_info {
    const char *label;           /**< valid while the view lives */
    px_space space;              /**< where its memory is */
    px_dtype dtype;              /**< the element type */
    size_t elem_size;            /**< bytes per element */
    int rank;                    /**< number of dimensions */
    int64_t extent[PX_MAX_RANK]; /**< first `rank` used */
    int64_t stride[PX_MAX_RANK]; /**< in elements */
    px_layout layout;            /**< RIGHT, LEFT or STRIDE */
    void *data;                  /**< the first element */
    int64_t size;                /**< number of elements */
    size_t bytes;                /**< size * elem_size */
    bool contiguous;             /**< the elements fill [data, data + bytes) */
    bool managed;                /**< false for wrapped views */
    int use_count;               /**< references to this handle */
} px_view_info;

/** Fills *out with what the view is (px_view_info). */
PX_API px_status px_view_info_get(const px_view *view, px_view_info *out);

/* ---- What kernels see ------------------------------------------------------------- */

/** @struct px_span
 * A span is a plain struct: data pointer, extents and strides in elements, rank. Its
 * type also says, at compile time, which index has unit stride; the accessors read that
 * from the size of the px__layout tag (never its value), so they work alike in C and C++:
 * @code{.unparsed}
 *   px_span_<T>                every index times its run-time stride (any layout, any
 *                              subview)
 *   px_span_<T>_right          the last index has unit stride (LAYOUT_RIGHT, and its
 *                              subviews that keep the last dimension)
 *   px_span_<T>_left           the first index has unit stride (LAYOUT_LEFT)
 *   px_span_<T>_1d             rank 1, unit stride: PX_AT1(x, i) is x.data[i]; 32 bytes
 *                              instead of 144 (a smaller kernel parameter)
 *   ..._restrict               any of the above with a restrict data pointer: the kernel
 *                              promises that memory written through it is reached through
 *                              no other span of its arguments (opt-in: two spans of one
 *                              view stay legal without it)
 * @endcode
 * `<T>` is u8, i32, i64, u32, u64, f32 or f64; px_span (void data) is the untyped form.
 * Every span type has the fields of px_span, with `data` of type `T *` (`T *restrict` for
 * the _restrict forms) and, for the _1d forms, one extent and one stride (extent[1], stride[1]). */
/** @var px_span::data
 * The element at index 0 of every dimension. */
/** @var px_span::extent
 * The extent of each dimension; the first `rank` are used. */
/** @var px_span::stride
 * The stride of each dimension, in elements. */
/** @var px_span::rank
 * The number of dimensions. */
#define PX__SPAN_STRIDED 1
#define PX__SPAN_RIGHT 2
#define PX__SPAN_LEFT 3
#define PX__SPAN_1D 4

#define PX__SPAN_FIELDS(P, N, L) \
    P data;                      \
    int64_t extent[N];           \
    int64_t stride[N];           \
    int32_t rank;                \
    char px__layout[L]

#define PX__SPAN_TYPE(name, P, N, L) \
    typedef struct name {            \
        PX__SPAN_FIELDS(P, N, L);    \
    } name;
#define PX__SPAN_TYPES(sfx, T)                                                                 \
    PX__SPAN_TYPE(px_span_##sfx, T *, PX_MAX_RANK, PX__SPAN_STRIDED)                           \
    PX__SPAN_TYPE(px_span_##sfx##_right, T *, PX_MAX_RANK, PX__SPAN_RIGHT)                     \
    PX__SPAN_TYPE(px_span_##sfx##_left, T *, PX_MAX_RANK, PX__SPAN_LEFT)                       \
    PX__SPAN_TYPE(px_span_##sfx##_1d, T *, 1, PX__SPAN_1D)                                     \
    PX__SPAN_TYPE(px_span_##sfx##_restrict, T *PX_RESTRICT, PX_MAX_RANK, PX__SPAN_STRIDED)     \
    PX__SPAN_TYPE(px_span_##sfx##_right_restrict, T *PX_RESTRICT, PX_MAX_RANK, PX__SPAN_RIGHT) \
    PX__SPAN_TYPE(px_span_##sfx##_left_restrict, T *PX_RESTRICT, PX_MAX_RANK, PX__SPAN_LEFT)   \
    PX__SPAN_TYPE(px_span_##sfx##_1d_restrict, T *PX_RESTRICT, 1, PX__SPAN_1D)

PX__SPAN_TYPE(px_span, void *, PX_MAX_RANK, PX__SPAN_STRIDED)
PX__SPAN_TYPES(u8, uint8_t)
PX__SPAN_TYPES(i32, int32_t)
PX__SPAN_TYPES(i64, int64_t)
PX__SPAN_TYPES(u32, uint32_t)
PX__SPAN_TYPES(u64, uint64_t)
PX__SPAN_TYPES(f32, float)
PX__SPAN_TYPES(f64, double)

/** @{ */
/** The kernel-side struct of a view, checked against the element type asked for.
 * px_view_span works for any type (data is void *). */
PX_API px_status px_view_span(const px_view *view, px_span *out);
PX_API px_status px_view_span_u8(const px_view *view, px_span_u8 *out);
PX_API px_status px_view_span_i32(const px_view *view, px_span_i32 *out);
PX_API px_status px_view_span_i64(const px_view *view, px_span_i64 *out);
PX_API px_status px_view_span_u32(const px_view *view, px_span_u32 *out);
PX_API px_status px_view_span_u64(const px_view *view, px_span_u64 *out);
PX_API px_status px_view_span_f32(const px_view *view, px_span_f32 *out);
PX_API px_status px_view_span_f64(const px_view *view, px_span_f64 *out);
/** @} */

/** @def px_view_get_span(view, out)
 * px_view_get_span(view, &span): one getter for every span type above (a macro in C, a
 * function template in C++). The span's type names the element type, checked like the
 * typed getters (PX_ERR_TYPE_MISMATCH), and the layout, checked against the view's
 * strides (PX_ERR_INVALID_ARGUMENT naming the dimension whose stride is not 1; a 1-D span
 * also needs rank 1). A dimension of extent 0 or 1 counts as unit stride. */
/** @cond PX_INTERNAL */
/* A name made unique in the translation unit, where the compiler counts (GCC, Clang, nvcc
   and others): the constant a compile-time check declares inside an expression lives on
   in the enclosing block, so two checks in one block need two names (portex/kernel.h's
   dispatch checks use it too). */
#define PX__CAT(a, b) PX__CAT_(a, b)
#define PX__CAT_(a, b) a##b
#ifdef __COUNTER__
#define PX__UNIQUE(prefix) PX__CAT(prefix, __COUNTER__)
#endif
/* Every span type, as X(type, e) for each (e passed through). */
#define PX__SPAN_TYPES_OF(X, e, sfx)     \
    X(px_span_##sfx, e)                  \
    X(px_span_##sfx##_right, e)          \
    X(px_span_##sfx##_left, e)           \
    X(px_span_##sfx##_1d, e)             \
    X(px_span_##sfx##_restrict, e)       \
    X(px_span_##sfx##_right_restrict, e) \
    X(px_span_##sfx##_left_restrict, e) X(px_span_##sfx##_1d_restrict, e)
#define PX__SPAN_EACH(X, e)      \
    X(px_span, e)                \
    PX__SPAN_TYPES_OF(X, e, u8)  \
    PX__SPAN_TYPES_OF(X, e, i32) \
    PX__SPAN_TYPES_OF(X, e, i64) \
    PX__SPAN_TYPES_OF(X, e, u32) \
    PX__SPAN_TYPES_OF(X, e, u64) PX__SPAN_TYPES_OF(X, e, f32) PX__SPAN_TYPES_OF(X, e, f64)
#define PX__SPAN_GET_WORDS                                                            \
    "px_view_get_span: the second argument must point to a px_span_* type (px_span, " \
    "px_span_f64, px_span_f64_right, px_span_f64_1d_restrict, ...; not const)"
#ifndef __cplusplus
#define PX__SPAN_DTYPE(data) \
    _Generic((data), void *: PX_DTYPE_COUNT, uint8_t *: PX_U8, int32_t *: PX_I32,         \
             int64_t *: PX_I64, uint32_t *: PX_U32, uint64_t *: PX_U64, float *: PX_F32,  \
             double *: PX_F64)
#define PX__SPAN_ASSOC(S, e) S * : e,
#define PX__IS_SPAN_PTR(out) _Generic((out), PX__SPAN_EACH(PX__SPAN_ASSOC, 1) default : 0)
/* The check's result is a constant named once (ok); after it, out itself where it points
   to a span, else a span pointer that keeps the rest free of errors: the assertion is then
   the one message. */
#define PX__SPAN_PTR(out, ok) \
    _Generic((char(*)[1 + (ok)])0, char(*)[2] : (out), default : (px_span *)0)
#define PX__GET_SPAN_AS(view, out, ok)                                           \
    ((void)sizeof(struct {                                                       \
         enum { ok = PX__IS_SPAN_PTR(out) } px__ok;                              \
         _Static_assert(ok, PX__SPAN_GET_WORDS);                                 \
     }),                                                                         \
     px__kabi_view_get_span((view), PX__SPAN_DTYPE(PX__SPAN_PTR(out, ok)->data), \
                            (int)sizeof(PX__SPAN_PTR(out, ok)->px__layout),      \
                            PX__SPAN_PTR(out, ok)))
/* (Without a unique name: the assertion, then whatever else the compiler finds wrong.) */
#define PX__GET_SPAN_ONCE(view, out)                                                             \
    ((void)sizeof(struct {                                                                       \
         _Static_assert(PX__IS_SPAN_PTR(out), PX__SPAN_GET_WORDS);                               \
         char px__ok;                                                                            \
     }),                                                                                         \
     px__kabi_view_get_span((view), PX__SPAN_DTYPE((out)->data), (int)sizeof((out)->px__layout), \
                            (out)))
#endif
/** @endcond */
#ifndef __cplusplus
#ifdef PX__UNIQUE
#define px_view_get_span(view, out) PX__GET_SPAN_AS(view, out, PX__UNIQUE(px__span_ok_))
#else
#define px_view_get_span(view, out) PX__GET_SPAN_ONCE(view, out)
#endif
#endif

/** @def PX_AT1(s, i)
 * Element access in kernels: PX_AT1(x, i), PX_AT2(a, i, j), ... up to PX_AT6, for every
 * span type; an index with unit stride is used as it is, the others are multiplied by
 * their stride. PX_AT2..6 on a 1-D span do not compile.
 * With PX_BOUNDS_CHECK defined (meson -Dbounds_check=true), every index is checked: on
 * the host a bad index is recorded (the dispatch that ran the kernel returns
 * PX_ERR_INVALID_ARGUMENT naming it) and element 0 is used instead; on a GPU the kernel
 * traps, which the next fence reports as a launch failure with the kernel's label. */
#ifdef PX_BOUNDS_CHECK
PX_FUNCTION int64_t px__checked(int64_t i, int64_t n, int dim)
{
    if (i < 0 || i >= n) {
#ifdef __CUDA_ARCH__
        __trap();
#else
        px__kabi_bounds_violation(dim, i, n);
        return 0;
#endif
    }
    return i;
}
#define PX__INDEX(s, d, i) px__checked((i), (s).extent[d], (d))
#else
#define PX__INDEX(s, d, i) (i)
#endif

#define PX__LAYOUT(s) sizeof((s).px__layout)
#define PX__UNIT_FIRST(s) (PX__LAYOUT(s) == PX__SPAN_LEFT || PX__LAYOUT(s) == PX__SPAN_1D)
#define PX__UNIT_LAST(s) (PX__LAYOUT(s) == PX__SPAN_RIGHT)
/* Index i of dimension d times its stride; a constant 1 where `unit` (folded away). */
#define PX__IX(s, d, i, unit) (PX__INDEX(s, d, i) * ((unit) ? (int64_t)1 : (s).stride[d]))
/* 0, or a compile error naming the mistake when s is a 1-D span (`at`: 2 to 6, the
   macro). In C a static assertion in a struct in sizeof; in C++ (which defines no type
   there) one in a class template, whose member is an enumerator: a constant on the device
   too. */
#define PX__AT_WORDS(at)                                                   \
    "PX_AT" #at " on a 1-D span (px_span_*_1d): PX_AT" #at " needs a " #at \
    "-D span; index a 1-D span with PX_AT1"
#ifdef __cplusplus
#define PX__NOT_1D(s, at) ((int64_t)px__at##at##_rank<PX__LAYOUT(s) != PX__SPAN_1D>::value)
#else
#define PX__NOT_1D(s, at)                                                          \
    ((int64_t)(0 * sizeof(struct {                                                 \
                   _Static_assert(PX__LAYOUT(s) != PX__SPAN_1D, PX__AT_WORDS(at)); \
                   char px__ok;                                                    \
               })))
#endif

#define PX_AT1(s, i) ((s).data[PX__IX(s, 0, i, PX__LAYOUT(s) != PX__SPAN_STRIDED)])
/** Element (i, j) of a 2-D span, as PX_AT1. */
#define PX_AT2(s, i, j)                                               \
    ((s).data[PX__NOT_1D(s, 2) + PX__IX(s, 0, i, PX__UNIT_FIRST(s)) + \
              PX__IX(s, 1, j, PX__UNIT_LAST(s))])
/** Element (i, j, k) of a 3-D span, as PX_AT1. */
#define PX_AT3(s, i, j, k)                                                                 \
    ((s).data[PX__NOT_1D(s, 3) + PX__IX(s, 0, i, PX__UNIT_FIRST(s)) + PX__IX(s, 1, j, 0) + \
              PX__IX(s, 2, k, PX__UNIT_LAST(s))])
/** Element (i, j, k, l) of a 4-D span, as PX_AT1. */
#define PX_AT4(s, i, j, k, l)                                                              \
    ((s).data[PX__NOT_1D(s, 4) + PX__IX(s, 0, i, PX__UNIT_FIRST(s)) + PX__IX(s, 1, j, 0) + \
              PX__IX(s, 2, k, 0) + PX__IX(s, 3, l, PX__UNIT_LAST(s))])
/** Element (i, j, k, l, m) of a 5-D span, as PX_AT1. */
#define PX_AT5(s, i, j, k, l, m)                                                           \
    ((s).data[PX__NOT_1D(s, 5) + PX__IX(s, 0, i, PX__UNIT_FIRST(s)) + PX__IX(s, 1, j, 0) + \
              PX__IX(s, 2, k, 0) + PX__IX(s, 3, l, 0) + PX__IX(s, 4, m, PX__UNIT_LAST(s))])
/** Element (i, j, k, l, m, n) of a 6-D span, as PX_AT1. */
#define PX_AT6(s, i, j, k, l, m, n)                                                        \
    ((s).data[PX__NOT_1D(s, 6) + PX__IX(s, 0, i, PX__UNIT_FIRST(s)) + PX__IX(s, 1, j, 0) + \
              PX__IX(s, 2, k, 0) + PX__IX(s, 3, l, 0) + PX__IX(s, 4, m, 0) +               \
              PX__IX(s, 5, n, PX__UNIT_LAST(s))])

PX_EXTERN_C_END

#ifdef __cplusplus
/* px_view_get_span in C++: the element type from the data pointer's type. */
static inline px_dtype px__span_dtype(const void *) { return PX_DTYPE_COUNT; }
static inline px_dtype px__span_dtype(const uint8_t *) { return PX_U8; }
static inline px_dtype px__span_dtype(const int32_t *) { return PX_I32; }
static inline px_dtype px__span_dtype(const int64_t *) { return PX_I64; }
static inline px_dtype px__span_dtype(const uint32_t *) { return PX_U32; }
static inline px_dtype px__span_dtype(const uint64_t *) { return PX_U64; }
static inline px_dtype px__span_dtype(const float *) { return PX_F32; }
static inline px_dtype px__span_dtype(const double *) { return PX_F64; }

/* PX_AT2..6's check (PX__NOT_1D). */
#define PX__AT_RANK_CHECK(at)                          \
    template <bool NotOneD> struct px__at##at##_rank { \
        static_assert(NotOneD, PX__AT_WORDS(at));      \
        enum { value = 0 };                            \
    };
PX__AT_RANK_CHECK(2)
PX__AT_RANK_CHECK(3)
PX__AT_RANK_CHECK(4)
PX__AT_RANK_CHECK(5)
PX__AT_RANK_CHECK(6)

/* Whether S is a span type; the getter below, only for those (any other type is refused
   by one static assertion, with nothing after it that could fail too). */
template <class S> struct px__is_span {
    enum { value = 0 };
};
#define PX__SPAN_IS(S, e)               \
    template <> struct px__is_span<S> { \
        enum { value = 1 };             \
    };
PX__SPAN_EACH(PX__SPAN_IS, 0)
#undef PX__SPAN_IS
template <bool B> struct px__span_ok {};

template <class Span>
static inline px_status px__get_span(const px_view *view, Span *out, px__span_ok<true>)
{
    return px__kabi_view_get_span(view, px__span_dtype(out->data), (int)sizeof out->px__layout,
                                  out);
}
template <class Span>
static inline px_status px__get_span(const px_view *, Span *, px__span_ok<false>)
{
    return PX_ERR_INVALID_ARGUMENT;
}

template <class Span> static inline px_status px_view_get_span(const px_view *view, Span *out)
{
    static_assert(px__is_span<Span>::value, PX__SPAN_GET_WORDS);
    return px__get_span(view, out, px__span_ok<px__is_span<Span>::value != 0>());
}
/* Anything but a pointer (a span passed by value, ...). */
template <class NotAPointer> static inline px_status px_view_get_span(const px_view *, NotAPointer)
{
    static_assert(sizeof(NotAPointer) == 0, PX__SPAN_GET_WORDS);
    return PX_ERR_INVALID_ARGUMENT;
}
#endif

#endif /* PORTEX_VIEW_H */
