/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/** @file
 * portex — scatter-adds (Kokkos' ScatterView): kernels that add into shared elements of a
 * view from many threads at once (histograms, finite-element assembly), with the way of
 * adding chosen per backend by the library, and overridable.
 * @code
 *   px_scatter *s;
 *   px_scatter_create(&s, inst, hist, PX_SCATTER_AUTO);   // the library picks
 *   hist_args a;
 *   px_scatter_get_span(s, &a.hist);                      // the kernel's handle (px_scatter_i32)
 *   px_parallel_for(inst, "hist", px_range(0, n), PX_KERNEL(hist), &a);
 *   px_scatter_contribute(inst, s);                       // every add is in hist now
 *   px_scatter_destroy(&s);
 *
 *   PX_FOR(hist, hist_args, a, i) { px_scatter_add(&a->hist, bin_of(a, i), 1); }
 * @endcode
 *
 * Strategies (px_scatter_strategy): on a GPU, atomics on the target; on a host backend
 * that runs kernels on one thread, plain adds; on one with several threads, a copy of the
 * target per thread (the adds of each thread go to its own copy, and px_scatter_contribute
 * adds the copies into the target) when the copies take at most
 * PX_SCATTER_DUPLICATE_LIMIT bytes, else atomics. px_scatter_info_get says which was
 * chosen. Until px_scatter_contribute, the target holds only some of the adds (none, with
 * copies); after it, all of them, on every strategy. docs/scatter.md has the details and
 * the figures. */
#ifndef PORTEX_SCATTER_H
#define PORTEX_SCATTER_H

#include <stddef.h>
#include <stdint.h>

#include "portex/atomic.h"
#include "portex/export.h"
#include "portex/impl/abi.h" /* px__kabi_host_part */
#include "portex/instance.h"
#include "portex/view.h"

PX_EXTERN_C_BEGIN

/** How the adds of a scatter reach its target. */
typedef enum px_scatter_strategy {
    /** The library chooses, from the instance given to px_scatter_create: ATOMIC on a GPU,
     * PLAIN on a host backend that runs kernels on one thread (the serial backend, OpenMP or
     * threads with one thread), DUPLICATED on a host backend with several threads where
     * the copies take at most PX_SCATTER_DUPLICATE_LIMIT bytes, else ATOMIC. */
    PX_SCATTER_AUTO = 0,
    /** Atomic adds on the target (px_atomic_add), on every backend. */
    PX_SCATTER_ATOMIC,
    /** Host backends only: a copy of the target per thread of the instance, zeroed; each
     * part of a dispatch adds into its own copy without atomics, and px_scatter_contribute
     * adds the copies into the target and zeroes them. For a given thread count, range
     * kernels' sums are the same bits run to run (each copy gets the same adds in the same
     * order); team kernels hand leagues to threads as they come, so theirs may vary. */
    PX_SCATTER_DUPLICATED,
    /** Plain adds on the target (`+=`), for an instance that runs kernels on one thread at
     * a time: refused on one with several threads, or on a GPU. */
    PX_SCATTER_PLAIN,
    PX_SCATTER_STRATEGY_COUNT /**< the number of strategies (not one) */
} px_scatter_strategy;

/** PX_SCATTER_AUTO duplicates the target only while its copies (one per thread) take at
 * most this many bytes: 32 MiB. Beyond, the copies' memory and the pass that adds them up
 * cost more than the atomics they save; PX_SCATTER_DUPLICATED asks for copies at any
 * size. */
#define PX_SCATTER_DUPLICATE_LIMIT ((size_t)32 << 20)

/** "auto", "atomic", "duplicated", "plain"; "unknown" for values outside
 * px_scatter_strategy; never NULL. */
PX_API const char *px_scatter_strategy_string(px_scatter_strategy strategy);

/** A scatter (opaque, host side): a target view, the strategy chosen and, for
 * PX_SCATTER_DUPLICATED, the copies. Kernels see a handle (px_scatter_f64, ...). */
typedef struct px_scatter px_scatter;

/** What a scatter is (px_scatter_info_get). */
typedef struct px_scatter_info {
    px_scatter_strategy strategy;  /**< the strategy chosen (never PX_SCATTER_AUTO) */
    px_scatter_strategy requested; /**< the strategy px_scatter_create was given */
    int threads;  /**< the threads the instance runs kernels on (px_instance_concurrency) */
    int copies;   /**< PX_SCATTER_DUPLICATED: the target's copies (one per thread); else 0 */
    size_t bytes; /**< host memory the copies take (copies x the target's bytes, each copy
                     rounded up to 128 bytes); else 0 */
} px_scatter_info;

/** A scatter into `target`, whose kernels run on instances like `inst` (its backend and
 * thread count choose the strategy). `target` is a rank-1 or rank-2 view of int32, uint32,
 * int64, uint64, float or double elements, contiguous in row-major order (rank 2:
 * PX_LAYOUT_RIGHT, stride 1 in its last dimension), in memory the instance's kernels reach
 * (host memory for a host backend, not pageable HOST memory for a GPU). The scatter holds
 * a reference to it. PX_SCATTER_DUPLICATED also allocates the copies (HOST memory,
 * zero-filled, counted as a view labelled "<target's label>/scatter"): refused on a GPU
 * (PX_ERR_UNSUPPORTED); PX_SCATTER_PLAIN is refused where kernels run on several threads.
 * The target's elements are not changed. */
PX_API px_status px_scatter_create(px_scatter **out, px_instance *inst, px_view *target,
                                   px_scatter_strategy strategy);
/** Drops the scatter's reference to its target, frees its copies and the scatter; sets *s
 * to NULL. Adds not contributed are lost. */
PX_API px_status px_scatter_destroy(px_scatter **s);
/** Fills *out with what the scatter is. */
PX_API px_status px_scatter_info_get(const px_scatter *s, px_scatter_info *out);

/** Brings every add made since the last contribute or reset into the target: with
 * PX_SCATTER_DUPLICATED, a kernel on `inst` (a host backend's instance, after the work
 * queued there; finished on return, as host kernels are; copies of 128 KiB or less in all
 * are added by the calling thread) adds the copies into the target and zeroes them; with
 * the other strategies the adds are in the target already and nothing runs. The kernels
 * that added must be complete: dispatched on `inst` before, or fenced. */
PX_API px_status px_scatter_contribute(px_instance *inst, px_scatter *s);
/** Sets the target's elements to zero and drops the adds not contributed (zeroes the
 * copies), on `inst` in order (px_fill_async): a new sum starts. */
PX_API px_status px_scatter_reset(px_instance *inst, px_scatter *s);

/* ---- What kernels see -------------------------------------------------------------- */

/** @struct px_scatter_f64
 * The kernel-side handle of a scatter, one type per element type: px_scatter_i32,
 * px_scatter_u32, px_scatter_i64, px_scatter_u64, px_scatter_f32, px_scatter_f64. Plain
 * data, put in a kernel's argument struct (filled by px_scatter_get_span or the typed
 * getters) and passed by pointer to px_scatter_add and px_scatter_add2. Valid while the
 * scatter lives. */
/** @var px_scatter_f64::data
 * The target's element 0 (rank 2: (0, 0); row-major). */
/** @var px_scatter_f64::dup
 * PX_SCATTER_DUPLICATED: the first copy, the others `stride` elements apart; else NULL. */
/** @var px_scatter_f64::extent
 * The target's extents (rank 1: extent[1] is 1). */
/** @var px_scatter_f64::size
 * The target's elements: extent[0] x extent[1]. */
/** @var px_scatter_f64::stride
 * PX_SCATTER_DUPLICATED: elements from one copy to the next (size, rounded up so that each
 * copy starts a cache line of its own); else 0. */
/** @var px_scatter_f64::mode
 * The strategy chosen (a px_scatter_strategy). */
/** @var px_scatter_f64::copies
 * PX_SCATTER_DUPLICATED: the number of copies; else 0. */
#define PX__SCATTER_TYPE(sfx, T)      \
    typedef struct px_scatter_##sfx { \
        T *data;                      \
        T *dup;                       \
        int64_t extent[2];            \
        int64_t size;                 \
        int64_t stride;               \
        int32_t mode;                 \
        int32_t copies;               \
    } px_scatter_##sfx;
PX__SCATTER_TYPE(f64, double)
/** @cond PX_INTERNAL */
PX__SCATTER_TYPE(i32, int32_t)
PX__SCATTER_TYPE(u32, uint32_t)
PX__SCATTER_TYPE(i64, int64_t)
PX__SCATTER_TYPE(u64, uint64_t)
PX__SCATTER_TYPE(f32, float)
/** @endcond */

/** @{ */
/** The kernel-side handle of a scatter, checked against the target's element type
 * (PX_ERR_TYPE_MISMATCH names both). px_scatter_get_span is the one getter for all. */
PX_API px_status px_scatter_span_i32(const px_scatter *s, px_scatter_i32 *out);
PX_API px_status px_scatter_span_u32(const px_scatter *s, px_scatter_u32 *out);
PX_API px_status px_scatter_span_i64(const px_scatter *s, px_scatter_i64 *out);
PX_API px_status px_scatter_span_u64(const px_scatter *s, px_scatter_u64 *out);
PX_API px_status px_scatter_span_f32(const px_scatter *s, px_scatter_f32 *out);
PX_API px_status px_scatter_span_f64(const px_scatter *s, px_scatter_f64 *out);
/** @} */

/* ---- Adds in kernel bodies ----------------------------------------------------------- */

/** @cond PX_INTERNAL */
/* Integer sums wrap (two's complement), as px_atomic_add's do: no undefined behaviour. */
PX_FUNCTION int32_t px__scatter_sum_i32(int32_t a, int32_t b)
{
    return (int32_t)((uint32_t)a + (uint32_t)b);
}
PX_FUNCTION int64_t px__scatter_sum_i64(int64_t a, int64_t b)
{
    return (int64_t)((uint64_t)a + (uint64_t)b);
}
PX_FUNCTION uint32_t px__scatter_sum_u32(uint32_t a, uint32_t b) { return a + b; }
PX_FUNCTION uint64_t px__scatter_sum_u64(uint64_t a, uint64_t b) { return a + b; }
PX_FUNCTION float px__scatter_sum_f32(float a, float b) { return a + b; }
PX_FUNCTION double px__scatter_sum_f64(double a, double b) { return a + b; }

#ifdef PX_BOUNDS_CHECK
#define PX__SCATTER_INDEX(i, n, d) px__checked((i), (n), (d))
#else
#define PX__SCATTER_INDEX(i, n, d) (i)
#endif

/* Element k (row-major) of the target gets v. On a GPU an atomic add. On the host, by the
   strategy: a plain add, an atomic add, or a plain add into the copy of the part of the
   dispatch this thread runs (px__kabi_host_part, read once per loop: it is declared
   const); a thread that runs no part the scatter has a copy for (outside a dispatch, or
   a dispatch on an instance of more threads than the scatter's) adds atomically into the
   target, which stays right. */
#if defined(__CUDA_ARCH__)
#define PX__SCATTER_AT(sfx, T)                                                       \
    PX_FUNCTION void px__scatter_at_##sfx(const px_scatter_##sfx *h, int64_t k, T v) \
    {                                                                                \
        px_atomic_add_##sfx(h->data + k, v);                                         \
    }
#else
#define PX__SCATTER_AT(sfx, T)                                                                 \
    PX_FUNCTION void px__scatter_at_##sfx(const px_scatter_##sfx *h, int64_t k, T v)           \
    {                                                                                          \
        const int part = px__kabi_host_part();                                                 \
        if (h->mode == PX_SCATTER_PLAIN && (unsigned)(part + 1) <= 1u) {                       \
            h->data[k] = px__scatter_sum_##sfx(h->data[k], v);                                 \
        } else if (h->mode == PX_SCATTER_DUPLICATED && (unsigned)part < (unsigned)h->copies) { \
            T *c = h->dup + (int64_t)part * h->stride + k;                                     \
            *c = px__scatter_sum_##sfx(*c, v);                                                 \
        } else {                                                                               \
            px_atomic_add_##sfx(h->data + k, v);                                               \
        }                                                                                      \
    }
#endif

/* The typed adds, px_scatter_add_<T>(h, i, v) and px_scatter_add2_<T>(h, i, j, v): what
   px_scatter_add and px_scatter_add2 call. */
#define PX__SCATTER_ADDS(sfx, T)                                                                 \
    PX__SCATTER_AT(sfx, T)                                                                       \
    PX_FUNCTION void px_scatter_add_##sfx(const px_scatter_##sfx *h, int64_t i, T v)             \
    {                                                                                            \
        px__scatter_at_##sfx(h, PX__SCATTER_INDEX(i, h->size, 0), v);                            \
    }                                                                                            \
    PX_FUNCTION void px_scatter_add2_##sfx(const px_scatter_##sfx *h, int64_t i, int64_t j, T v) \
    {                                                                                            \
        px__scatter_at_##sfx(h,                                                                  \
                             PX__SCATTER_INDEX(i, h->extent[0], 0) * h->extent[1] +              \
                                 PX__SCATTER_INDEX(j, h->extent[1], 1),                          \
                             v);                                                                 \
    }
PX__SCATTER_ADDS(i32, int32_t)
PX__SCATTER_ADDS(u32, uint32_t)
PX__SCATTER_ADDS(i64, int64_t)
PX__SCATTER_ADDS(u64, uint64_t)
PX__SCATTER_ADDS(f32, float)
PX__SCATTER_ADDS(f64, double)
/** @endcond */

PX_EXTERN_C_END

/** @cond PX_INTERNAL */
#define PX__SCATTER_ADD_WORDS(call)                                                     \
    call ": the first argument must point to a scatter handle (px_scatter_i32, "        \
         "px_scatter_u32, px_scatter_i64, px_scatter_u64, px_scatter_f32 or "           \
         "px_scatter_f64, from px_scatter_get_span), such as &args->hist; not a span, " \
         "a view or a data pointer"
#define PX__SCATTER_GET_WORDS                                                          \
    "px_scatter_get_span: the second argument must point to a scatter handle "         \
    "(px_scatter_i32, px_scatter_u32, px_scatter_i64, px_scatter_u64, px_scatter_f32 " \
    "or px_scatter_f64; not const)"
#ifndef __cplusplus
#define PX__SCATTER_EACH(X, e) X(i32, e) X(u32, e) X(i64, e) X(u64, e) X(f32, e) X(f64, e)
/* Whether h points to a handle; h itself where it does, else a handle pointer that keeps
   the rest of the expression free of errors (the assertion is then the one message); the
   typed function `fn` for h. The same for the getter's `out` (handles only, not const). */
#define PX__SCATTER_IS(sfx, e) px_scatter_##sfx * : 1, const px_scatter_##sfx * : 1,
#define PX__SCATTER_SELF(sfx, h) px_scatter_##sfx * : (h), const px_scatter_##sfx * : (h),
#define PX__SCATTER_FN(sfx, fn)                   \
    px_scatter_##sfx * : px_scatter_##fn##_##sfx, \
                         const px_scatter_##sfx * : px_scatter_##fn##_##sfx,
#define PX__SCATTER_OUT_IS(sfx, e) px_scatter_##sfx * : 1,
#define PX__SCATTER_OUT_SELF(sfx, out) px_scatter_##sfx * : (out),
#define PX__SCATTER_OUT_FN(sfx, e) px_scatter_##sfx * : px_scatter_span_##sfx,
#define PX__SCATTER_CHECK(ok, words) \
    (void)sizeof(struct {            \
        _Static_assert(ok, words);   \
        char px__ok;                 \
    })
#define PX__SCATTER_IS_H(h) _Generic((h), PX__SCATTER_EACH(PX__SCATTER_IS, ~) default : 0)
#define PX__SCATTER_H(h) \
    _Generic((h), PX__SCATTER_EACH(PX__SCATTER_SELF, h) default : (const px_scatter_f64 *)0)
#define PX__SCATTER_FN_OF(fn, h) \
    _Generic((h), PX__SCATTER_EACH(PX__SCATTER_FN, fn) default : px_scatter_##fn##_f64)
#define PX__SCATTER_OUT(out) \
    _Generic((out), PX__SCATTER_EACH(PX__SCATTER_OUT_SELF, out) default : (px_scatter_f64 *)0)
#endif
/** @endcond */

/** @def px_scatter_add(h, i, v)
 * From a kernel body: `v` added to element i of the target of `h`, a pointer to a
 * scatter handle (`&args->hist`); of a rank-2 target, element i in row-major order. The
 * value is converted to the element type, as the atomics do, and integer sums wrap. A
 * macro in C (_Generic on the handle's type), a function template in C++; underneath are
 * the typed functions px_scatter_add_i32, _u32, _i64, _u64, _f32 and _f64. Anything but a
 * pointer to a handle is a compile error that says so. */
/** @def px_scatter_add2(h, i, j, v)
 * As px_scatter_add, at element (i, j) of a rank-2 target (px_scatter_add2_f64, ...). */
/** @def px_scatter_get_span(s, out)
 * px_scatter_get_span(s, &handle): one getter for every handle type (a macro in C, a
 * function template in C++); the handle's type names the element type, checked against
 * the target's as the typed getters do. Anything but a pointer to a handle is a compile
 * error that says so. */
#ifndef __cplusplus
#define px_scatter_add(h, i, v)                                                       \
    (PX__SCATTER_CHECK(PX__SCATTER_IS_H(h), PX__SCATTER_ADD_WORDS("px_scatter_add")), \
     PX__SCATTER_FN_OF(add, h)(PX__SCATTER_H(h), (i), (v)))
#define px_scatter_add2(h, i, j, v)                                                    \
    (PX__SCATTER_CHECK(PX__SCATTER_IS_H(h), PX__SCATTER_ADD_WORDS("px_scatter_add2")), \
     PX__SCATTER_FN_OF(add2, h)(PX__SCATTER_H(h), (i), (j), (v)))
#define px_scatter_get_span(s, out)                                                          \
    (PX__SCATTER_CHECK(_Generic((out), PX__SCATTER_EACH(PX__SCATTER_OUT_IS, ~) default : 0), \
                       PX__SCATTER_GET_WORDS),                                               \
     _Generic((out), PX__SCATTER_EACH(PX__SCATTER_OUT_FN, ~) default                         \
              : px_scatter_span_f64)((s), PX__SCATTER_OUT(out)))
#else /* C++: function templates, with C++ linkage even inside extern "C" */
/** @cond PX_INTERNAL */
extern "C++" {
/* Whether H is a handle (value), one that may be filled (writable: not const), and its
   element type. */
template <class H> struct px__scatter_of {
    enum { value = 0, writable = 0 };
    typedef double T;
};
#define PX__SCATTER_OF(sfx, TT)                                                                 \
    template <> struct px__scatter_of<px_scatter_##sfx> {                                       \
        enum { value = 1, writable = 1 };                                                       \
        typedef TT T;                                                                           \
    };                                                                                          \
    template <> struct px__scatter_of<const px_scatter_##sfx> {                                 \
        enum { value = 1, writable = 0 };                                                       \
        typedef TT T;                                                                           \
    };                                                                                          \
    PX_FUNCTION void px__scatter_add_of(const px_scatter_##sfx *h, int64_t i, TT v)             \
    {                                                                                           \
        px_scatter_add_##sfx(h, i, v);                                                          \
    }                                                                                           \
    PX_FUNCTION void px__scatter_add2_of(const px_scatter_##sfx *h, int64_t i, int64_t j, TT v) \
    {                                                                                           \
        px_scatter_add2_##sfx(h, i, j, v);                                                      \
    }                                                                                           \
    static inline px_status px__scatter_span_of(const px_scatter *s, px_scatter_##sfx *out)     \
    {                                                                                           \
        return px_scatter_span_##sfx(s, out);                                                   \
    }
PX__SCATTER_OF(i32, int32_t)
PX__SCATTER_OF(u32, uint32_t)
PX__SCATTER_OF(i64, int64_t)
PX__SCATTER_OF(u64, uint64_t)
PX__SCATTER_OF(f32, float)
PX__SCATTER_OF(f64, double)
#undef PX__SCATTER_OF
template <bool B> struct px__scatter_ok {};

/* The typed call for a handle; nothing for anything else, whose static assertion is then
   the one message. */
template <class H, class V>
PX_FUNCTION void px__scatter_add_pick(H *h, int64_t i, V v, px__scatter_ok<true>)
{
    px__scatter_add_of(h, i, static_cast<typename px__scatter_of<H>::T>(v));
}
template <class H, class V>
PX_FUNCTION void px__scatter_add_pick(H *, int64_t, V, px__scatter_ok<false>)
{}
template <class H, class V>
PX_FUNCTION void px__scatter_add2_pick(H *h, int64_t i, int64_t j, V v, px__scatter_ok<true>)
{
    px__scatter_add2_of(h, i, j, static_cast<typename px__scatter_of<H>::T>(v));
}
template <class H, class V>
PX_FUNCTION void px__scatter_add2_pick(H *, int64_t, int64_t, V, px__scatter_ok<false>)
{}
template <class H>
static inline px_status px__scatter_get_pick(const px_scatter *s, H *out, px__scatter_ok<true>)
{
    return px__scatter_span_of(s, out);
}
template <class H>
static inline px_status px__scatter_get_pick(const px_scatter *, H *, px__scatter_ok<false>)
{
    return PX_ERR_INVALID_ARGUMENT;
}

template <class H, class V> PX_FUNCTION void px_scatter_add(H *h, int64_t i, V v)
{
    static_assert(px__scatter_of<H>::value, PX__SCATTER_ADD_WORDS("px_scatter_add"));
    px__scatter_add_pick(h, i, v, px__scatter_ok<px__scatter_of<H>::value != 0>());
}
/* Anything but a pointer (a handle by value, ...). */
template <class NotAPointer, class V> PX_FUNCTION void px_scatter_add(NotAPointer, int64_t, V)
{
    static_assert(sizeof(NotAPointer) == 0, PX__SCATTER_ADD_WORDS("px_scatter_add"));
}
template <class H, class V> PX_FUNCTION void px_scatter_add2(H *h, int64_t i, int64_t j, V v)
{
    static_assert(px__scatter_of<H>::value, PX__SCATTER_ADD_WORDS("px_scatter_add2"));
    px__scatter_add2_pick(h, i, j, v, px__scatter_ok<px__scatter_of<H>::value != 0>());
}
template <class NotAPointer, class V>
PX_FUNCTION void px_scatter_add2(NotAPointer, int64_t, int64_t, V)
{
    static_assert(sizeof(NotAPointer) == 0, PX__SCATTER_ADD_WORDS("px_scatter_add2"));
}
template <class H> static inline px_status px_scatter_get_span(const px_scatter *s, H *out)
{
    static_assert(px__scatter_of<H>::writable, PX__SCATTER_GET_WORDS);
    return px__scatter_get_pick(s, out, px__scatter_ok<px__scatter_of<H>::writable != 0>());
}
template <class NotAPointer>
static inline px_status px_scatter_get_span(const px_scatter *, NotAPointer)
{
    static_assert(sizeof(NotAPointer) == 0, PX__SCATTER_GET_WORDS);
    return PX_ERR_INVALID_ARGUMENT;
}
}
/** @endcond */
#endif

#endif /* PORTEX_SCATTER_H */
