/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/** @file
 * portex — atomic operations on view elements, for kernel bodies.
 *
 * One source for every backend: in a kernel file compiled as C (the host
 * backends) they are GCC/Clang __atomic builtins, and under nvcc the same calls are CUDA's
 * atomic functions on the device and the builtins in the host code nvcc compiles. They
 * take a pointer to an element, typically `&PX_AT1(span, i)`:
 *
 * @code
 *   PX_FOR(histogram, hist_args, args, i) {
 *       const int64_t b = (int64_t)(PX_AT1(args->x, i) * args->scale);
 *       px_atomic_add(&PX_AT1(args->hist, b), 1);
 *   }
 * @endcode
 *
 * Types: int32_t, uint32_t, int64_t, uint64_t, float, double. Each operation has one
 * generic name (a C11 _Generic macro in C, overloads in C++; the pointer's type picks the
 * function, and the value is converted to the element type) and a typed function per
 * element type underneath, named with the span suffix: px_atomic_fetch_add_i32, _u32,
 * _i64, _u64, _f32, _f64.
 *
 * @code{.unparsed}
 *   T    px_atomic_fetch_add(T *p, T v)       *p += v;            returns the old *p
 *   T    px_atomic_fetch_sub(T *p, T v)       *p -= v;            returns the old *p
 *   T    px_atomic_fetch_min(T *p, T v)       *p = min(*p, v);    returns the old *p
 *   T    px_atomic_fetch_max(T *p, T v)       *p = max(*p, v);    returns the old *p
 *   T    px_atomic_exchange(T *p, T v)        *p = v;             returns the old *p
 *   T    px_atomic_compare_exchange(T *p, T expected, T desired)
 *                                             *p = desired if *p == expected;
 *                                             returns the old *p (it equals `expected`
 *                                             exactly when the store happened)
 *   T    px_atomic_load(const T *p)           returns *p
 *   void px_atomic_store(T *p, T v)           *p = v
 *   void px_atomic_add, _sub, _min, _max(T *p, T v)    as the fetch forms, returning
 *                                             nothing (on a GPU the compiler can then
 *                                             use a reduction in memory, which does not
 *                                             wait for the old value)
 *   integer types only:
 *   T    px_atomic_fetch_and, _fetch_or, _fetch_xor(T *p, T v)   returns the old *p
 *   void px_atomic_and, _or, _xor(T *p, T v)
 * @endcode
 *
 * Memory order: relaxed, as Kokkos' default atomics. Each operation is indivisible, and
 * all operations on one element happen in one order that every thread agrees on, but
 * they order nothing else: an atomic store does not publish other, plain stores to
 * another thread of the same kernel. Every result is visible once the dispatch is
 * complete (a fence, a blocking call, the next kernel on the same instance).
 *
 * Scope: on CUDA, device scope (CUDA's atomicAdd and the others): atomic with respect to
 * the threads of the GPU that runs the kernel, not with respect to the host or other GPUs
 * touching the same memory at the same time. On the host backends, atomic with respect
 * to every thread of the process.
 *
 * Floating point:
 *   - add and sub round to nearest, as `+` and `-` do (on the host a compare-exchange
 *     loop on the element's bits; on CUDA atomicAdd, with -v for sub). One exception:
 *     CUDA's float atomicAdd flushes subnormal inputs and results to zero (its double
 *     form does not). Many adds to one element come in an order that varies from run to
 *     run, so the last bits of a floating-point sum may vary too; sums of integer values
 *     are exact while they stay within 2^24 (float) or 2^53 (double).
 *   - min and max store v only if v < *p (v > *p for max): a NaN v never changes the
 *     element, and a NaN already stored stays (no comparison with it is true); -0.0 and
 *     +0.0 compare equal, so the one stored first stays.
 *   - compare_exchange and the loops under add/sub/min/max compare bit patterns, not
 *     values: -0.0 does not match +0.0 and a NaN matches the same NaN bits.
 *   - exchange, load and store move the bits unchanged.
 *
 * Integers: add and sub wrap around (two's complement, signed types included: no
 * undefined behaviour on overflow).
 *
 * Cost: on a GPU, an atomic on an element few threads touch is about as cheap as a
 * store; many threads on one element serialize in the memory system (a histogram of
 * few bins over millions of indices is limited by the atomics on each bin). float and
 * double min/max, and fetch forms on one hot element, are compare-and-swap loops that
 * retry under contention. On the host an atomic is a locked instruction (tens of cycles,
 * more when cores contend for the element's cache line); on the serial backend nothing
 * contends, but the cost of the instruction stays. A reduction (PX_REDUCE) is faster
 * than atomics on one element everywhere; use atomics where the target is data-dependent
 * (histograms, scatter-adds, claiming slots).
 *
 * p must point to an element aligned to its size (every view element is) in memory the
 * kernel's backend reaches. */
#ifndef PORTEX_ATOMIC_H
#define PORTEX_ATOMIC_H

#include <stdint.h>

#include "portex/export.h"

#if !defined(__CUDA_ARCH__) && !defined(__GNUC__) && !defined(__clang__)
#error "portex/atomic.h: the host atomics need GCC's or Clang's __atomic builtins"
#endif

/* ---- Implementation of the typed functions, for the code being compiled ------------------ */

#if defined(__CUDA_ARCH__)

/* The bits of each type as the unsigned type CUDA's atomics take, and back. */
#define PX__CU_BITS(sfx, T, BT, to_bits, from_bits)                                 \
    static __device__ __forceinline__ BT px__cu_bits_##sfx(T v) { return to_bits; } \
    static __device__ __forceinline__ T px__cu_from_##sfx(BT b) { return from_bits; }
PX__CU_BITS(i32, int32_t, unsigned int, (unsigned int)v, (int32_t)b)
PX__CU_BITS(u32, uint32_t, unsigned int, v, b)
PX__CU_BITS(i64, int64_t, unsigned long long, (unsigned long long)v, (int64_t)b)
PX__CU_BITS(u64, uint64_t, unsigned long long, (unsigned long long)v, (uint64_t)b)
PX__CU_BITS(f32, float, unsigned int, __float_as_uint(v), __uint_as_float(b))
PX__CU_BITS(f64, double, unsigned long long, (unsigned long long)__double_as_longlong(v),
            __longlong_as_double((long long)b))

/* A read-modify-write by atomicCAS on the bits: `old` is the element's value; stops
   without a store when `skip` holds, else stores `next` if the element still holds old's
   bits, and retries with the value found if not. */
#define PX__RMW_LOOP(sfx, T, BT, skip, next)                                       \
    T old = *(const volatile T *)p;                                                \
    for (;;) {                                                                     \
        if (skip) break;                                                           \
        const BT px__want = px__cu_bits_##sfx(old);                                \
        const BT px__seen = atomicCAS((BT *)p, px__want, px__cu_bits_##sfx(next)); \
        if (px__seen == px__want) break;                                           \
        old = px__cu_from_##sfx(px__seen);                                         \
    }                                                                              \
    return old;

/* Plain volatile accesses: ld.volatile / st.volatile, relaxed at least at device scope. */
#define PX__IMPL_COMMON(sfx, T, BT)                                                       \
    PX_FUNCTION T px_atomic_load_##sfx(const T *p) { return *(const volatile T *)p; }     \
    PX_FUNCTION void px_atomic_store_##sfx(T *p, T v) { *(volatile T *)p = v; }           \
    PX_FUNCTION T px_atomic_exchange_##sfx(T *p, T v)                                     \
    {                                                                                     \
        return px__cu_from_##sfx(atomicExch((BT *)p, px__cu_bits_##sfx(v)));              \
    }                                                                                     \
    PX_FUNCTION T px_atomic_compare_exchange_##sfx(T *p, T expected, T desired)           \
    {                                                                                     \
        return px__cu_from_##sfx(                                                         \
            atomicCAS((BT *)p, px__cu_bits_##sfx(expected), px__cu_bits_##sfx(desired))); \
    }

/* Integers: add, sub, and, or, xor on the unsigned bits (two's complement makes them
   exact for the signed types); min and max on the type CUDA compares like T (MT). */
#define PX__IMPL_INT(sfx, T, BT, MT)                                                            \
    PX__IMPL_COMMON(sfx, T, BT)                                                                 \
    PX_FUNCTION T px_atomic_fetch_add_##sfx(T *p, T v)                                          \
    {                                                                                           \
        return px__cu_from_##sfx(atomicAdd((BT *)p, px__cu_bits_##sfx(v)));                     \
    }                                                                                           \
    PX_FUNCTION T px_atomic_fetch_sub_##sfx(T *p, T v)                                          \
    {                                                                                           \
        return px__cu_from_##sfx(atomicAdd((BT *)p, (BT)0 - px__cu_bits_##sfx(v)));             \
    }                                                                                           \
    PX_FUNCTION T px_atomic_fetch_min_##sfx(T *p, T v) { return (T)atomicMin((MT *)p, (MT)v); } \
    PX_FUNCTION T px_atomic_fetch_max_##sfx(T *p, T v) { return (T)atomicMax((MT *)p, (MT)v); } \
    PX_FUNCTION T px_atomic_fetch_and_##sfx(T *p, T v)                                          \
    {                                                                                           \
        return px__cu_from_##sfx(atomicAnd((BT *)p, px__cu_bits_##sfx(v)));                     \
    }                                                                                           \
    PX_FUNCTION T px_atomic_fetch_or_##sfx(T *p, T v)                                           \
    {                                                                                           \
        return px__cu_from_##sfx(atomicOr((BT *)p, px__cu_bits_##sfx(v)));                      \
    }                                                                                           \
    PX_FUNCTION T px_atomic_fetch_xor_##sfx(T *p, T v)                                          \
    {                                                                                           \
        return px__cu_from_##sfx(atomicXor((BT *)p, px__cu_bits_##sfx(v)));                     \
    }

/* float and double add: atomicAdd (double from sm_60 on; before, a loop). */
static __device__ __forceinline__ float px__cu_fadd(float *p, float v) { return atomicAdd(p, v); }
static __device__ __forceinline__ double px__cu_fadd(double *p, double v)
{
#if __CUDA_ARCH__ >= 600
    return atomicAdd(p, v);
#else
    PX__RMW_LOOP(f64, double, unsigned long long, 0, old + v)
#endif
}

#define PX__IMPL_FLOAT(sfx, T, BT)                                                     \
    PX__IMPL_COMMON(sfx, T, BT)                                                        \
    PX_FUNCTION T px_atomic_fetch_add_##sfx(T *p, T v) { return px__cu_fadd(p, v); }   \
    PX_FUNCTION T px_atomic_fetch_sub_##sfx(T *p, T v) { return px__cu_fadd(p, -v); }  \
    PX_FUNCTION T px_atomic_fetch_min_##sfx(T *p, T v){PX__RMW_LOOP(                   \
        sfx, T, BT, !(v < old), v)} PX_FUNCTION T px_atomic_fetch_max_##sfx(T *p, T v) \
    {                                                                                  \
        PX__RMW_LOOP(sfx, T, BT, !(v > old), v)                                        \
    }

#else /* the host: GCC/Clang __atomic builtins */

#define PX__RELAXED __ATOMIC_RELAXED

/* A read-modify-write by compare-exchange (weak, in a loop): `old` is the element's
   value; stops without a store when `skip` holds, else stores `next` if the element still
   holds old's bits, and retries with the value found if not. The generic builtins compare
   and move bits, so a NaN stored ends the loop too. */
#define PX__RMW_LOOP(sfx, T, BT, skip, next)                                                   \
    T old;                                                                                     \
    __atomic_load(p, &old, PX__RELAXED);                                                       \
    while (!(skip)) {                                                                          \
        T px__next = (next);                                                                   \
        if (__atomic_compare_exchange(p, &old, &px__next, 1, PX__RELAXED, PX__RELAXED)) break; \
    }                                                                                          \
    return old;

#define PX__IMPL_COMMON(sfx, T, BT)                                                           \
    PX_FUNCTION T px_atomic_load_##sfx(const T *p)                                            \
    {                                                                                         \
        T r;                                                                                  \
        __atomic_load(p, &r, PX__RELAXED);                                                    \
        return r;                                                                             \
    }                                                                                         \
    PX_FUNCTION void px_atomic_store_##sfx(T *p, T v) { __atomic_store(p, &v, PX__RELAXED); } \
    PX_FUNCTION T px_atomic_exchange_##sfx(T *p, T v)                                         \
    {                                                                                         \
        T r;                                                                                  \
        __atomic_exchange(p, &v, &r, PX__RELAXED);                                            \
        return r;                                                                             \
    }                                                                                         \
    PX_FUNCTION T px_atomic_compare_exchange_##sfx(T *p, T expected, T desired)               \
    {                                                                                         \
        /* On failure `expected` receives the value found: the old value either way. */       \
        __atomic_compare_exchange(p, &expected, &desired, 0, PX__RELAXED, PX__RELAXED);       \
        return expected;                                                                      \
    }

#define PX__IMPL_INT(sfx, T, BT, MT)                                                           \
    PX__IMPL_COMMON(sfx, T, BT)                                                                \
    PX_FUNCTION T px_atomic_fetch_add_##sfx(T *p, T v)                                         \
    {                                                                                          \
        return __atomic_fetch_add(p, v, PX__RELAXED);                                          \
    }                                                                                          \
    PX_FUNCTION T px_atomic_fetch_sub_##sfx(T *p, T v)                                         \
    {                                                                                          \
        return __atomic_fetch_sub(p, v, PX__RELAXED);                                          \
    }                                                                                          \
    PX_FUNCTION T px_atomic_fetch_min_##sfx(T *p, T v){PX__RMW_LOOP(                           \
        sfx, T, BT, !(v < old), v)} PX_FUNCTION T px_atomic_fetch_max_##sfx(T *p, T v){        \
        PX__RMW_LOOP(sfx, T, BT, !(v > old), v)} PX_FUNCTION T px_atomic_fetch_and_##sfx(T *p, \
                                                                                         T v)  \
    {                                                                                          \
        return __atomic_fetch_and(p, v, PX__RELAXED);                                          \
    }                                                                                          \
    PX_FUNCTION T px_atomic_fetch_or_##sfx(T *p, T v)                                          \
    {                                                                                          \
        return __atomic_fetch_or(p, v, PX__RELAXED);                                           \
    }                                                                                          \
    PX_FUNCTION T px_atomic_fetch_xor_##sfx(T *p, T v)                                         \
    {                                                                                          \
        return __atomic_fetch_xor(p, v, PX__RELAXED);                                          \
    }

#define PX__IMPL_FLOAT(sfx, T, BT)                                                                \
    PX__IMPL_COMMON(sfx, T, BT)                                                                   \
    PX_FUNCTION T px_atomic_fetch_add_##sfx(T *p, T v){                                           \
        PX__RMW_LOOP(sfx, T, BT, 0, old + v)} PX_FUNCTION T px_atomic_fetch_sub_##sfx(T *p, T v){ \
        PX__RMW_LOOP(sfx, T, BT, 0, old - v)} PX_FUNCTION T px_atomic_fetch_min_##sfx(T *p, T v){ \
        PX__RMW_LOOP(sfx, T, BT, !(v < old), v)} PX_FUNCTION T px_atomic_fetch_max_##sfx(T *p,    \
                                                                                         T v)     \
    {                                                                                             \
        PX__RMW_LOOP(sfx, T, BT, !(v > old), v)                                                   \
    }

#endif

/* ---- The typed functions --------------------------------------------------------------- */

/* The forms that return nothing, on top of the fetch forms. */
#define PX__VOID_FORM(op, sfx, T) \
    PX_FUNCTION void px_atomic_##op##_##sfx(T *p, T v) { (void)px_atomic_fetch_##op##_##sfx(p, v); }
#define PX__VOID_FORMS(sfx, T) \
    PX__VOID_FORM(add, sfx, T) \
    PX__VOID_FORM(sub, sfx, T) PX__VOID_FORM(min, sfx, T) PX__VOID_FORM(max, sfx, T)
#define PX__VOID_FORMS_INT(sfx, T) \
    PX__VOID_FORMS(sfx, T)         \
    PX__VOID_FORM(and, sfx, T) PX__VOID_FORM(or, sfx, T) PX__VOID_FORM(xor, sfx, T)

/*         suffix  T         bits (CUDA)         min/max (CUDA) */
PX__IMPL_INT(i32, int32_t, unsigned int, int)
PX__IMPL_INT(u32, uint32_t, unsigned int, unsigned int)
PX__IMPL_INT(i64, int64_t, unsigned long long, long long)
PX__IMPL_INT(u64, uint64_t, unsigned long long, unsigned long long)
PX__IMPL_FLOAT(f32, float, unsigned int)
PX__IMPL_FLOAT(f64, double, unsigned long long)

PX__VOID_FORMS_INT(i32, int32_t)
PX__VOID_FORMS_INT(u32, uint32_t)
PX__VOID_FORMS_INT(i64, int64_t)
PX__VOID_FORMS_INT(u64, uint64_t)
PX__VOID_FORMS(f32, float)
PX__VOID_FORMS(f64, double)

/* ---- The generic names ------------------------------------------------------------------ */

#ifdef __cplusplus

/* Overloads, with C++ linkage even where this header is included inside extern "C". */
extern "C++" {
/* One overload per line reads better than clang-format's reflow of these macro lists, which
   does not settle from one run to the next. */
/* clang-format off */
#define PX__OVERLOAD(op, sfx, T) \
    PX_FUNCTION T px_atomic_##op(T *p, T v) { return px_atomic_##op##_##sfx(p, v); }
#define PX__OVERLOAD_VOID(op, sfx, T) \
    PX_FUNCTION void px_atomic_##op(T *p, T v) { px_atomic_##op##_##sfx(p, v); }
#define PX__OVERLOADS(sfx, T)                                              \
    PX__OVERLOAD(fetch_add, sfx, T)                                        \
    PX__OVERLOAD(fetch_sub, sfx, T)                                        \
    PX__OVERLOAD(fetch_min, sfx, T)                                        \
    PX__OVERLOAD(fetch_max, sfx, T)                                        \
    PX__OVERLOAD(exchange, sfx, T)                                         \
    PX__OVERLOAD_VOID(add, sfx, T)                                         \
    PX__OVERLOAD_VOID(sub, sfx, T)                                         \
    PX__OVERLOAD_VOID(min, sfx, T)                                         \
    PX__OVERLOAD_VOID(max, sfx, T)                                         \
    PX__OVERLOAD_VOID(store, sfx, T)                                       \
    PX_FUNCTION T px_atomic_compare_exchange(T *p, T expected, T desired)  \
    {                                                                      \
        return px_atomic_compare_exchange_##sfx(p, expected, desired);     \
    }                                                                      \
    PX_FUNCTION T px_atomic_load(const T *p) { return px_atomic_load_##sfx(p); }
#define PX__OVERLOADS_INT(sfx, T)   \
    PX__OVERLOADS(sfx, T)           \
    PX__OVERLOAD(fetch_and, sfx, T) \
    PX__OVERLOAD(fetch_or, sfx, T)  \
    PX__OVERLOAD(fetch_xor, sfx, T) \
    PX__OVERLOAD_VOID(and, sfx, T)  \
    PX__OVERLOAD_VOID(or, sfx, T)   \
    PX__OVERLOAD_VOID(xor, sfx, T)
/* clang-format on */
PX__OVERLOADS_INT(i32, int32_t)
PX__OVERLOADS_INT(u32, uint32_t)
PX__OVERLOADS_INT(i64, int64_t)
PX__OVERLOADS_INT(u64, uint64_t)
PX__OVERLOADS(f32, float)
PX__OVERLOADS(f64, double)
}

#else /* C11: _Generic on the pointer's type */

#define PX__ATOMIC_PICK(op, p) \
    _Generic((p), int32_t *: px_atomic_##op##_i32, uint32_t *: px_atomic_##op##_u32,      \
             int64_t *: px_atomic_##op##_i64, uint64_t *: px_atomic_##op##_u64,           \
             float *: px_atomic_##op##_f32, double *: px_atomic_##op##_f64)
/* Integer types only: a float or double pointer matches nothing (a compile error). */
#define PX__ATOMIC_PICK_INT(op, p)              \
    _Generic((p), int32_t *                     \
             : px_atomic_##op##_i32, uint32_t * \
             : px_atomic_##op##_u32, int64_t *  \
             : px_atomic_##op##_i64, uint64_t * \
             : px_atomic_##op##_u64)

/** `*p += v`; returns the old `*p`. */
#define px_atomic_fetch_add(p, v) PX__ATOMIC_PICK(fetch_add, p)((p), (v))
/** `*p -= v`; returns the old `*p`. */
#define px_atomic_fetch_sub(p, v) PX__ATOMIC_PICK(fetch_sub, p)((p), (v))
/** `*p = min(*p, v)`; returns the old `*p`. */
#define px_atomic_fetch_min(p, v) PX__ATOMIC_PICK(fetch_min, p)((p), (v))
/** `*p = max(*p, v)`; returns the old `*p`. */
#define px_atomic_fetch_max(p, v) PX__ATOMIC_PICK(fetch_max, p)((p), (v))
/** `*p = v`; returns the old `*p`. */
#define px_atomic_exchange(p, v) PX__ATOMIC_PICK(exchange, p)((p), (v))
/** `*p = desired` if `*p == expected`; returns the old `*p` (it equals `expected`
 * exactly when the store happened). */
#define px_atomic_compare_exchange(p, expected, desired) \
    PX__ATOMIC_PICK(compare_exchange, p)((p), (expected), (desired))
/** `*p = v`. */
#define px_atomic_store(p, v) PX__ATOMIC_PICK(store, p)((p), (v))
/** Returns `*p`. */
#define px_atomic_load(p) \
    _Generic((p), int32_t *: px_atomic_load_i32, const int32_t *: px_atomic_load_i32,     \
             uint32_t *: px_atomic_load_u32, const uint32_t *: px_atomic_load_u32,        \
             int64_t *: px_atomic_load_i64, const int64_t *: px_atomic_load_i64,          \
             uint64_t *: px_atomic_load_u64, const uint64_t *: px_atomic_load_u64,        \
             float *: px_atomic_load_f32, const float *: px_atomic_load_f32,              \
             double *: px_atomic_load_f64, const double *: px_atomic_load_f64)((p))
/** `*p += v`, returning nothing. */
#define px_atomic_add(p, v) PX__ATOMIC_PICK(add, p)((p), (v))
/** `*p -= v`, returning nothing. */
#define px_atomic_sub(p, v) PX__ATOMIC_PICK(sub, p)((p), (v))
/** `*p = min(*p, v)`, returning nothing. */
#define px_atomic_min(p, v) PX__ATOMIC_PICK(min, p)((p), (v))
/** `*p = max(*p, v)`, returning nothing. */
#define px_atomic_max(p, v) PX__ATOMIC_PICK(max, p)((p), (v))
/** `*p &= v` (integer types only); returns the old `*p`. */
#define px_atomic_fetch_and(p, v) PX__ATOMIC_PICK_INT(fetch_and, p)((p), (v))
/** `*p |= v` (integer types only); returns the old `*p`. */
#define px_atomic_fetch_or(p, v) PX__ATOMIC_PICK_INT(fetch_or, p)((p), (v))
/** `*p ^= v` (integer types only); returns the old `*p`. */
#define px_atomic_fetch_xor(p, v) PX__ATOMIC_PICK_INT(fetch_xor, p)((p), (v))
/** `*p &= v` (integer types only), returning nothing. */
#define px_atomic_and(p, v) PX__ATOMIC_PICK_INT(and, p)((p), (v))
/** `*p |= v` (integer types only), returning nothing. */
#define px_atomic_or(p, v) PX__ATOMIC_PICK_INT(or, p)((p), (v))
/** `*p ^= v` (integer types only), returning nothing. */
#define px_atomic_xor(p, v) PX__ATOMIC_PICK_INT(xor, p)((p), (v))

#endif

#endif /* PORTEX_ATOMIC_H */
