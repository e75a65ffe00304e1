/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/** @file
 * portex — single-source kernels.
 *
 * A kernel is written once, as a C function body, in a "kernel file". That file is
 * compiled by the C compiler when CUDA is off, and as CUDA (by nvcc, which also produces
 * the host version) when CUDA is on; see docs/kernels.md for the Meson pattern. Each
 * macro below defines:
 *   - the body, as a static inline function (`__host__ __device__` under nvcc);
 *   - a host entry that runs the index space, or a part of it, on the calling thread (the
 *     OpenMP backend calls it from each thread of a team on that thread's part);
 *   - under nvcc, a CUDA entry that launches it on a stream;
 *   - the descriptor `px_kernel_<name>` (external, C linkage) that dispatch takes.
 *
 * @code
 *   typedef struct axpy_args { double a; px_span_f64_1d x, y; } axpy_args;
 *   PX_FOR(axpy, axpy_args, args, i) { PX_AT1(args->y, i) += args->a * PX_AT1(args->x, i); }
 *
 *   px_parallel_for(inst, "axpy", px_range(0, n), PX_KERNEL(axpy), &(axpy_args){2, x, y});
 * @endcode
 *
 * Arguments travel by value: dispatch copies the struct, so it may change right after.
 * `args` is a const pointer to that copy; write through the spans' data pointers (the span
 * forms and PX_AT* are in portex/view.h).
 *
 * Any range runs, next to INT64_MAX and INT64_MIN too; dispatch refuses a policy whose
 * extent (end - begin) exceeds INT64_MAX.
 *
 * Reductions name a value type T and a join `op`; PX_REDUCE bodies fold into *acc:
 * @code
 *   PX_REDUCE(dot, dot_args, args, i, double, sum, acc) { *acc += args->x.data[i] * ...; }
 * @endcode
 * Built-in joins: sum, prod, min, max for float, double, int32_t, int64_t, uint32_t,
 * uint64_t; minloc and maxloc for px_valloc_f32/_f64/_i32/_i64 (ties: smallest index).
 * A custom join is two functions defined before the kernel with PX_JOIN and PX_IDENTITY.
 * T and op must each be one identifier (use a typedef for anything else).
 * A reduction's join must be associative and commutative, and joining the identity must
 * change nothing: the GPU folds partial results in an order and grouping of its choosing.
 * A scan keeps the order, so its join needs to be associative only.
 *
 * Scans are Kokkos-style: the body adds element i's contribution to *update and, when
 * `final` is true, stores the running value (before the add: exclusive; after:
 * inclusive):
 * @code
 *   PX_SCAN(psum, psum_args, args, i, int64_t, sum, update, final) {
 *       if (final) args->out.data[i] = *update;   // exclusive
 *       *update += args->in.data[i];
 *   }
 * @endcode
 * The body may be called more than once per index (with final false, then true).
 *
 * Bodies that update the same element from several indices use the atomics of
 * portex/atomic.h (included here): px_atomic_add(&PX_AT1(args->hist, b), 1), ... */
#ifndef PORTEX_KERNEL_H
#define PORTEX_KERNEL_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "portex/atomic.h" /* px_atomic_* for kernel bodies */
#include "portex/export.h"
#include "portex/policy.h"
#include "portex/view.h" /* spans, PX_AT*; PX__UNIQUE */

PX_EXTERN_C_BEGIN

/** What a kernel is: the macro that defined it. */
typedef enum px_kernel_kind {
    PX_KERNEL_FOR = 1,    /**< PX_FOR, PX_FOR_2D, PX_FOR_3D */
    PX_KERNEL_REDUCE = 2, /**< PX_REDUCE, PX_REDUCE_2D, PX_REDUCE_3D */
    PX_KERNEL_SCAN = 3    /**< PX_SCAN */
} px_kernel_kind;

/** What a CUDA entry needs from the library for one launch (filled by the CUDA backend). */
typedef struct px_cuda_launch {
    void *stream;          /**< cudaStream_t of the instance */
    int device;            /**< the instance's device ordinal */
    int sm_count;          /**< the SMs the instance's kernels may use */
    const char *label;     /**< the dispatch's label */
    void *result;          /**< device memory for the reduction value or scan total;
                                 NULL when a scan's total is not wanted */
    unsigned int *counter; /**< device counter, zero between launches (one-pass reductions) */
    /** Device scratch of at least `bytes`, owned by the instance and reused in stream
       order; NULL when it cannot be had. */
    void *(*scratch)(const struct px_cuda_launch *launch, size_t bytes);
    void *backend; /**< for scratch() */
} px_cuda_launch;

/** A kernel's host entry: runs the policy's index space (or the part of it it is given) on
 * the calling thread, folding a reduction into *result. */
typedef void (*px_host_entry)(const void *args, const px_policy *policy, void *result);
/** A scan's pass over part of its range: starts from *update, calls the body with `final`,
   leaves the running value in *update (parallel host backends scan in two passes). */
typedef void (*px_host_scan_entry)(const void *args, const px_policy *policy, void *update,
                                   bool final);
/** A kernel's CUDA entry: launches it on launch->stream. Returns a cudaError_t (0: launched). */
typedef int (*px_cuda_entry)(const px_cuda_launch *launch, const void *args,
                             const px_policy *policy);

struct px_team_run;
/** A team kernel's host entry (portex/team.h): runs the teams [run->league_begin,
 * run->league_end) on the calling thread, folding a reduction into *result. */
typedef void (*px_host_team_entry)(const void *args, const struct px_team_run *run, void *result);
/** A team kernel's CUDA entry: launches the league on launch->stream, resolving automatic
 * sizes into *run. Returns a cudaError_t (0: launched). */
typedef int (*px_cuda_team_entry)(const px_cuda_launch *launch, const void *args,
                                  struct px_team_run *run);

/** "PXK3": the descriptor's layout since team kernels carry their entries; "PXK1" and
   "PXK2" descriptors come from kernel files compiled against an older portex/kernel.h. */
#define PX_KERNEL_MAGIC 0x50584b33u
#define PX__KERNEL_MAGIC_V1 0x50584b31u
#define PX__KERNEL_MAGIC_V2 0x50584b32u

/** A kernel's descriptor. Made by the macros below; never filled by hand. */
typedef struct px_kernel {
    uint32_t magic;                /**< PX_KERNEL_MAGIC */
    const char *name;              /**< the kernel's name, as given to the macro */
    px_kernel_kind kind;           /**< for, reduce or scan */
    int32_t rank;                  /**< 1, 2 or 3: the policies it runs */
    size_t args_size;              /**< sizeof the argument struct */
    size_t value_size;             /**< reduce and scan */
    px_host_entry host;            /**< present unless a team kernel */
    px_cuda_entry cuda;            /**< NULL unless compiled by nvcc (or a team kernel) */
    void (*identity)(void *value); /**< reduce and scan */
    void (*join)(void *dst, const void *src); /**< reduce and scan */
    px_host_scan_entry host_scan;             /**< scan */
    int32_t team;                             /**< 1: a team kernel (PX_TEAM_FOR, PX_TEAM_REDUCE) */
    px_host_team_entry host_team;             /**< team kernels: always present */
    px_cuda_team_entry cuda_team;             /**< team kernels: NULL unless compiled by nvcc */
} px_kernel;

/** The descriptor of a kernel defined in this or another file: a `const px_kernel *`.
 * Where the kernel's kind is visible (the kernel is defined above in this file, or
 * declared with PX_DECLARE_KERNEL_FOR and its siblings), the expression also carries the
 * kind in its type, and a dispatch of the wrong kind (a reduce kernel handed to
 * px_parallel_for, ...) does not compile; elsewhere dispatch refuses it at run time. */
#define PX_KERNEL(name) \
    (*(const px_kernel(*)[PX__MARK_SIZE(px__kernel_kind_##name)]) & px_kernel_##name)
/** Declares a kernel defined in another file, e.g. in a header shared with the caller, of
 * any kind: a dispatch of the wrong kind is refused at run time. */
#define PX_DECLARE_KERNEL(name)                         \
    PX_EXTERN_DECL const char px__kernel_kind_##name[]; \
    PX_EXTERN_DECL const px_kernel px_kernel_##name
/** As PX_DECLARE_KERNEL, for a PX_FOR, PX_FOR_2D or PX_FOR_3D kernel: a dispatch of it that
 * takes another kind (px_parallel_reduce, ...) does not compile. The kernel file that
 * defines it may include the declaration; one of another kind there does not compile. */
#define PX_DECLARE_KERNEL_FOR(name) PX__DECLARE_KERNEL_OF_KIND(name, PX__KIND_FOR)
/** As PX_DECLARE_KERNEL_FOR, for a PX_REDUCE, PX_REDUCE_2D or PX_REDUCE_3D kernel. */
#define PX_DECLARE_KERNEL_REDUCE(name) PX__DECLARE_KERNEL_OF_KIND(name, PX__KIND_REDUCE)
/** As PX_DECLARE_KERNEL_FOR, for a PX_SCAN kernel. */
#define PX_DECLARE_KERNEL_SCAN(name) PX__DECLARE_KERNEL_OF_KIND(name, PX__KIND_SCAN)
/* (PX_DECLARE_KERNEL_TEAM_FOR and PX_DECLARE_KERNEL_TEAM_REDUCE: portex/team.h.) */

/* ---- Graph conditions ---------------------------------------------------------------- */

/** A WHILE or IF node's condition as a kernel sees it (portex/graph.h): pass the value
   px_graph_cond_value gives in the kernel's arguments and set it from the body with
   px_cond_set, from one index only (on CUDA concurrent sets of one condition are
   undefined). On the host backends the value belongs to the running executable graph
   (the library finds it); on CUDA the handle is a conditional handle
   (cudaGraphSetConditional). Outside a launch of the condition's graph a set does
   nothing. */
typedef struct px_cond {
    uint64_t handle; /**< the condition, as px_graph_cond_value gives it; opaque */
} px_cond;

/* The host side of px_cond_set (library internal). */
PX_API void px__host_cond_set(uint64_t handle, unsigned value);

/** Sets the condition to `value` (non-zero: true) from a kernel body; see px_cond. */
PX_FUNCTION void px_cond_set(px_cond cond, unsigned value)
{
#if defined(__CUDA_ARCH__)
    cudaGraphSetConditional((cudaGraphConditionalHandle)cond.handle, value);
#else
    px__host_cond_set(cond.handle, value);
#endif
}

/* ---- Joins --------------------------------------------------------------------------- */

/** Defines the join `op` of value type T: the body that follows folds *src into *dst
 * (px_join_<op>_<T>(T *dst, const T *src)). */
#define PX_JOIN(op, T, dst, src) PX_FUNCTION void px_join_##op##_##T(T *dst, const T *src)
/** Defines the identity of the join `op` of value type T: the body that follows sets
 * *value (px_identity_<op>_<T>(T *value)). */
#define PX_IDENTITY(op, T, value) PX_FUNCTION void px_identity_##op##_##T(T *value)

#define PX__ARITH_JOINS(T, LOWEST, HIGHEST)  \
    PX_JOIN(sum, T, d, s) { *d += *s; }      \
    PX_IDENTITY(sum, T, v) { *v = (T)0; }    \
    PX_JOIN(prod, T, d, s) { *d *= *s; }     \
    PX_IDENTITY(prod, T, v) { *v = (T)1; }   \
    PX_JOIN(min, T, d, s)                    \
    {                                        \
        if (*s < *d) *d = *s;                \
    }                                        \
    PX_IDENTITY(min, T, v) { *v = HIGHEST; } \
    PX_JOIN(max, T, d, s)                    \
    {                                        \
        if (*s > *d) *d = *s;                \
    }                                        \
    PX_IDENTITY(max, T, v) { *v = LOWEST; }

PX__ARITH_JOINS(float, -INFINITY, INFINITY)
PX__ARITH_JOINS(double, -(double)INFINITY, (double)INFINITY)
PX__ARITH_JOINS(int32_t, INT32_MIN, INT32_MAX)
PX__ARITH_JOINS(int64_t, INT64_MIN, INT64_MAX)
PX__ARITH_JOINS(uint32_t, 0u, UINT32_MAX)
PX__ARITH_JOINS(uint64_t, 0u, UINT64_MAX)

/** A value with its index, for minloc/maxloc (float). */
typedef struct px_valloc_f32 {
    float val;   /**< the value */
    int64_t loc; /**< its index */
} px_valloc_f32;
/** A value with its index, for minloc/maxloc (double). */
typedef struct px_valloc_f64 {
    double val;  /**< the value */
    int64_t loc; /**< its index */
} px_valloc_f64;
/** A value with its index, for minloc/maxloc (int32_t). */
typedef struct px_valloc_i32 {
    int32_t val; /**< the value */
    int64_t loc; /**< its index */
} px_valloc_i32;
/** A value with its index, for minloc/maxloc (int64_t). */
typedef struct px_valloc_i64 {
    int64_t val; /**< the value */
    int64_t loc; /**< its index */
} px_valloc_i64;

#define PX__LOC_JOINS(T, LOWEST, HIGHEST)                                      \
    PX_JOIN(minloc, T, d, s)                                                   \
    {                                                                          \
        if (s->val < d->val || (s->val == d->val && s->loc < d->loc)) *d = *s; \
    }                                                                          \
    PX_IDENTITY(minloc, T, v)                                                  \
    {                                                                          \
        v->val = HIGHEST;                                                      \
        v->loc = INT64_MAX;                                                    \
    }                                                                          \
    PX_JOIN(maxloc, T, d, s)                                                   \
    {                                                                          \
        if (s->val > d->val || (s->val == d->val && s->loc < d->loc)) *d = *s; \
    }                                                                          \
    PX_IDENTITY(maxloc, T, v)                                                  \
    {                                                                          \
        v->val = LOWEST;                                                       \
        v->loc = INT64_MAX;                                                    \
    }

PX__LOC_JOINS(px_valloc_f32, -INFINITY, INFINITY)
PX__LOC_JOINS(px_valloc_f64, -(double)INFINITY, (double)INFINITY)
PX__LOC_JOINS(px_valloc_i32, INT32_MIN, INT32_MAX)
PX__LOC_JOINS(px_valloc_i64, INT64_MIN, INT64_MAX)

PX_EXTERN_C_END

/* ---- Compile-time checks --------------------------------------------------------------- */

/** @cond PX_INTERNAL */
#ifdef __cplusplus
#define PX__STATIC_ASSERT(c, m) static_assert(c, m)
#else
#define PX__STATIC_ASSERT(c, m) _Static_assert(c, m)
#endif

/* A kernel's kind as compile-time checks know it. Each kernel `name` has a marker,
   px__kernel_kind_<name>: an array of char that is only ever declared, never defined nor
   read. PX_DECLARE_KERNEL declares it without a bound (kind unknown); the kernel macros and
   PX_DECLARE_KERNEL_<KIND> declare it with 1 + the kind as its bound. A bound may be added
   to an array declared without one, in C and C++, so the two kinds of declaration live
   together in one file, and the marker's type says the kind wherever one with a bound is
   in sight. PX_KERNEL's expression is an array of as many descriptors as the marker's
   bound (1 when unknown), which decays to the descriptor's address; its sizeof says the
   kind to dispatch's check. */
#define PX__KIND_FOR 1
#define PX__KIND_REDUCE 2
#define PX__KIND_SCAN 3
#define PX__KIND_TEAM_FOR 4
#define PX__KIND_TEAM_REDUCE 5
#define PX__KIND_WORDS_FOR "a for kernel (PX_FOR*)"
#define PX__KIND_WORDS_REDUCE "a reduce kernel (PX_REDUCE*)"
#define PX__KIND_WORDS_SCAN "a scan kernel (PX_SCAN)"
#define PX__KIND_WORDS_TEAM_FOR "a team kernel (PX_TEAM_FOR)"
#define PX__KIND_WORDS_TEAM_REDUCE "a team reduce kernel (PX_TEAM_REDUCE)"

#define PX__DECLARE_KERNEL_OF_KIND(name, k)                    \
    PX_EXTERN_DECL const char px__kernel_kind_##name[1 + (k)]; \
    PX_EXTERN_DECL const px_kernel px_kernel_##name

/* The bound of a marker: 1 + its kind, or 1 when it has none. */
#ifdef __cplusplus
/* (Overloads read through sizeof, not a class template on decltype(m): nvcc's front end
   writes the host code out again for the host compiler, and there it spelled decltype of
   one unbounded marker as decltype of another, the first of that type, whose bound had
   come since.) */
template <size_t N> char (&px__mark_size(const char (&)[N]))[N];
char (&px__mark_size(...))[1];
#define PX__MARK_SIZE(m) sizeof(px__mark_size(m))
#else
/* A marker without a bound is compatible with every bound: with 7, which no kind has. */
#define PX__MARK_SIZE(m) \
    sizeof(*_Generic(&(m), const char(*)[7] : (const char(*)[1])0, default : &(m)))
#endif

/* The marker of a kernel being defined, after checking it against a declaration of
   another kind. The declaration without a bound first: the check needs a marker to read
   when nothing declared the kernel before (GCC's -Wredundant-decls counts both as
   redundant: silenced here, and nowhere else). */
#if defined(__GNUC__) && !defined(__CUDACC__)
#define PX__REDECL_BEGIN \
    _Pragma("GCC diagnostic push") _Pragma("GCC diagnostic ignored \"-Wredundant-decls\"")
#define PX__REDECL_END _Pragma("GCC diagnostic pop")
#else
#define PX__REDECL_BEGIN
#define PX__REDECL_END
#endif
#define PX__DEFINE_KIND(name, KIND)                                                     \
    PX__REDECL_BEGIN                                                                    \
    PX_EXTERN_DECL const char px__kernel_kind_##name[];                                 \
    PX__STATIC_ASSERT(PX__MARK_SIZE(px__kernel_kind_##name) == 1 ||                     \
                          PX__MARK_SIZE(px__kernel_kind_##name) == 1 + PX__KIND_##KIND, \
                      "kernel " #name " is defined here as " PX__KIND_WORDS_##KIND      \
                      " but declared as another kind (PX_DECLARE_KERNEL_*)");           \
    PX_EXTERN_DECL const char px__kernel_kind_##name[1 + PX__KIND_##KIND];              \
    PX__REDECL_END

/* Dispatch's check: `kernel` as it is, after refusing to compile when its type says a kind
   other than WANT. `kstr` is the argument as written, `fn` the function. The kernel
   expression is named once, as the constant `k`, its size (a pointer's; one descriptor's
   for an unknown kind; 1 + the kind descriptors' for PX_KERNEL of a known one), because a
   macro that stringizes the call after expanding it gets the whole expansion as one string
   (ISO C's -Woverlength-strings past 4095 characters). */
#define PX__KIND_SIZE(KIND) sizeof(const px_kernel[1 + PX__KIND_##KIND])
#define PX__KIND_ASSERT(k, kstr, fn, WANT, KIND)                                      \
    PX__STATIC_ASSERT(PX__KIND_##WANT == PX__KIND_##KIND || k != PX__KIND_SIZE(KIND), \
                      fn ": kernel " kstr " is " PX__KIND_WORDS_##KIND                \
                      ", not " PX__KIND_WORDS_##WANT);
#define PX__KIND_ASSERTS(k, kstr, fn, WANT)      \
    PX__KIND_ASSERT(k, kstr, fn, WANT, FOR)      \
    PX__KIND_ASSERT(k, kstr, fn, WANT, REDUCE)   \
    PX__KIND_ASSERT(k, kstr, fn, WANT, SCAN)     \
    PX__KIND_ASSERT(k, kstr, fn, WANT, TEAM_FOR) \
    PX__KIND_ASSERT(k, kstr, fn, WANT, TEAM_REDUCE)
#ifdef __cplusplus
/* (A lambda: the one place in a C++ expression that takes static assertions. It captures
   nothing: sizeof does not use the variables it names.) */
#define PX__KERNEL_EXPECT(kernel, kstr, fn, WANT)   \
    (                                               \
        []() {                                      \
            enum { px__k = sizeof(kernel) };        \
            PX__KIND_ASSERTS(px__k, kstr, fn, WANT) \
        }(),                                        \
        (kernel))
#elif defined(PX__UNIQUE)
#define PX__KERNEL_EXPECT(kernel, kstr, fn, WANT) \
    PX__KERNEL_EXPECT_AS(kernel, kstr, fn, WANT, PX__UNIQUE(px__kernel_kind_is_))
#define PX__KERNEL_EXPECT_AS(kernel, kstr, fn, WANT, k) \
    ((void)sizeof(struct {                              \
         enum { k = sizeof(kernel) } px__k;             \
         PX__KIND_ASSERTS(k, kstr, fn, WANT)            \
     }),                                                \
     (kernel))
#else
/* (Without a unique name for the constant: one assertion, the kernel named once.) */
#define PX__KERNEL_EXPECT(kernel, kstr, fn, WANT)                                               \
    ((void)sizeof(struct {                                                                      \
         _Static_assert(sizeof(kernel) < PX__KIND_SIZE(FOR) ||                                  \
                            sizeof(kernel) == PX__KIND_SIZE(WANT),                              \
                        fn ": kernel " kstr " is of another kind, not " PX__KIND_WORDS_##WANT); \
         char px__ok;                                                                           \
     }),                                                                                        \
     (kernel))
#endif

/* An unknown join (a misspelt op, or a built-in op for a type it has no form for) is
   refused by name before anything uses it. In C++, a probe template that finds
   px_join_<op>_<T> or not (the call's arguments depend on the template's parameter, so an
   undeclared name is no error until instantiation, where it fails the substitution). In
   C, a call to an undeclared function declares it, returning int (implicit declaration,
   silenced for the generated code, where the assertion then fails): a join returns void. */
#define PX__JOIN_WORDS(T, op)                                                               \
    "unknown join " #op " for value type " #T " (no px_join_" #op "_" #T "): the built-in " \
    "joins are sum, prod, min, max (float, double, int32_t, int64_t, uint32_t, uint64_t), " \
    "minloc, maxloc (px_valloc_f32, _f64, _i32, _i64); define others with PX_JOIN and "     \
    "PX_IDENTITY before the kernel"
#ifdef __cplusplus
#define PX__JOIN_CHECK_DECL(name, T, op)                                                        \
    template <class V, class = void> struct px__join_probe_##name {                             \
        enum { value = 0 };                                                                     \
    };                                                                                          \
    template <class V>                                                                          \
    struct px__join_probe_##name<V, decltype((void)px_join_##op##_##T((V *)0, (const V *)0))> { \
        enum { value = 1 };                                                                     \
    };                                                                                          \
    static_assert(px__join_probe_##name<T>::value, PX__JOIN_WORDS(T, op));
#define PX__JOIN_CHECK_STMT(T, op)
#define PX__JOIN_USES_BEGIN
#define PX__JOIN_USES_END
#else
#define PX__JOIN_CHECK_DECL(name, T, op)
#define PX__JOIN_CHECK_STMT(T, op)                                                           \
    _Static_assert(_Generic(px_join_##op##_##T((T *)0, (const T *)0), int : 0, default : 1), \
                   PX__JOIN_WORDS(T, op));
#if defined(__GNUC__) || defined(__clang__)
#define PX__JOIN_USES_BEGIN        \
    _Pragma("GCC diagnostic push") \
        _Pragma("GCC diagnostic ignored \"-Wimplicit-function-declaration\"")
#define PX__JOIN_USES_END _Pragma("GCC diagnostic pop")
#else
#define PX__JOIN_USES_BEGIN
#define PX__JOIN_USES_END
#endif
#endif
/** @endcond */

/* ---- Host loop nests ----------------------------------------------------------------- */

/* Tile size of dimension d: the policy's, or the whole dimension. */
#define PX__TILE(p, d)               \
    ((p)->tile[d] > 0 ? (p)->tile[d] \
                      : ((p)->end[d] > (p)->begin[d] ? (p)->end[d] - (p)->begin[d] : 1))
#define PX__MIN(a, b) ((a) < (b) ? (a) : (b))

#define PX__HOST_LOOP1(p, i, stmt) \
    for (int64_t i = (p)->begin[0]; i < (p)->end[0]; ++i) { stmt; }

/* One tile loop per dimension; inside a tile, `fast` varies fastest. No bound goes past
   end (a step is at most end - v), and end - begin fits in int64_t (dispatch refuses
   policies where it does not), so no arithmetic overflows, even next to INT64_MAX. */
#define PX__TILE_LOOP(p, d, v) \
    for (int64_t v = (p)->begin[d]; v < (p)->end[d]; v += PX__MIN(PX__TILE(p, d), (p)->end[d] - v))
#define PX__IN_TILE(p, d, t, v) \
    for (int64_t v = t, v##_end = t + PX__MIN(PX__TILE(p, d), (p)->end[d] - t); v < v##_end; ++v)

#define PX__HOST_LOOP2(p, i, j, stmt)                                                         \
    if ((p)->iterate == PX_ITERATE_LEFT) {                                                    \
        PX__TILE_LOOP(p, 1, px__tj)                                                           \
        PX__TILE_LOOP(p, 0, px__ti) PX__IN_TILE(p, 1, px__tj, j) PX__IN_TILE(p, 0, px__ti, i) \
        {                                                                                     \
            stmt;                                                                             \
        }                                                                                     \
    } else {                                                                                  \
        PX__TILE_LOOP(p, 0, px__ti)                                                           \
        PX__TILE_LOOP(p, 1, px__tj) PX__IN_TILE(p, 0, px__ti, i) PX__IN_TILE(p, 1, px__tj, j) \
        {                                                                                     \
            stmt;                                                                             \
        }                                                                                     \
    }

#define PX__HOST_LOOP3(p, i, j, k, stmt)                                                       \
    if ((p)->iterate == PX_ITERATE_LEFT) {                                                     \
        PX__TILE_LOOP(p, 2, px__tk)                                                            \
        PX__TILE_LOOP(p, 1, px__tj)                                                            \
        PX__TILE_LOOP(p, 0, px__ti)                                                            \
        PX__IN_TILE(p, 2, px__tk, k) PX__IN_TILE(p, 1, px__tj, j) PX__IN_TILE(p, 0, px__ti, i) \
        {                                                                                      \
            stmt;                                                                              \
        }                                                                                      \
    } else {                                                                                   \
        PX__TILE_LOOP(p, 0, px__ti)                                                            \
        PX__TILE_LOOP(p, 1, px__tj)                                                            \
        PX__TILE_LOOP(p, 2, px__tk)                                                            \
        PX__IN_TILE(p, 0, px__ti, i) PX__IN_TILE(p, 1, px__tj, j) PX__IN_TILE(p, 2, px__tk, k) \
        {                                                                                      \
            stmt;                                                                              \
        }                                                                                      \
    }

/* ---- CUDA entries (nvcc only) ---------------------------------------------------------- */

#ifdef __CUDACC__
#include "portex/kernel_cuda.h"
#define PX__CUDA_PTR(name) px__cuda_##name
/* The body wrapped in a type, so that the launch templates can call it on the device. */
#define PX__CUDA_BODY(name, params, call)                                                 \
    namespace {                                                                           \
    struct px__cu_##name {                                                                \
        static __device__ __forceinline__ void call_body params { px__body_##name call; } \
    };                                                                                    \
    }
/* The join of a reduction or scan as a type (a template: nothing of it that a kernel does
   not use is instantiated, so nothing is left unreferenced). */
#define PX__CUDA_JOIN(T, op) px_cuda::join_fns<T, &px_identity_##op##_##T, &px_join_##op##_##T>
#define PX__CUDA_FOR(name, Args, R, params, call)                                             \
    PX__CUDA_BODY(name, params, call)                                                         \
    static int px__cuda_##name(const px_cuda_launch *l_, const void *a_, const px_policy *p_) \
    {                                                                                         \
        return px_cuda::launch_for##R<Args, px__cu_##name>(l_, *(const Args *)a_, *p_);       \
    }
#define PX__CUDA_REDUCE(name, Args, R, T, op, params, call)                                   \
    PX__CUDA_BODY(name, params, call)                                                         \
    static int px__cuda_##name(const px_cuda_launch *l_, const void *a_, const px_policy *p_) \
    {                                                                                         \
        return px_cuda::launch_reduce##R<Args, T, px__cu_##name, PX__CUDA_JOIN(T, op)>(       \
            l_, *(const Args *)a_, *p_);                                                      \
    }
#define PX__CUDA_SCAN(name, Args, T, op, params, call)                                        \
    PX__CUDA_BODY(name, params, call)                                                         \
    static int px__cuda_##name(const px_cuda_launch *l_, const void *a_, const px_policy *p_) \
    {                                                                                         \
        return px_cuda::launch_scan<Args, T, px__cu_##name, PX__CUDA_JOIN(T, op)>(            \
            l_, *(const Args *)a_, *p_);                                                      \
    }
#else
#define PX__CUDA_PTR(name) 0
#define PX__CUDA_FOR(name, Args, R, params, call)
#define PX__CUDA_REDUCE(name, Args, R, T, op, params, call)
#define PX__CUDA_SCAN(name, Args, T, op, params, call)
#endif

/* ---- Pieces shared by the kernel macros ----------------------------------------------- */

#define PX__BODY(name) PX_FUNCTION void px__body_##name

/* KIND: FOR, REDUCE or SCAN. */
#define PX__DESCRIPTOR(name, KIND, R, Args, vsize, identity, join, scan) \
    PX__DEFINE_KIND(name, KIND)                                          \
    PX_EXTERN_C const px_kernel px_kernel_##name = {PX_KERNEL_MAGIC,     \
                                                    #name,               \
                                                    PX_KERNEL_##KIND,    \
                                                    R,                   \
                                                    sizeof(Args),        \
                                                    vsize,               \
                                                    px__host_##name,     \
                                                    PX__CUDA_PTR(name),  \
                                                    identity,            \
                                                    join,                \
                                                    scan,                \
                                                    0,                   \
                                                    0,                   \
                                                    0};

/* Host wrappers of a join, for the descriptor; the join checked first (between
   PX__JOIN_USES_BEGIN and _END, as every host use of the join: see PX__JOIN_CHECK_STMT). */
#define PX__HOST_JOIN(name, T, op)                      \
    PX__JOIN_CHECK_DECL(name, T, op)                    \
    static void px__identity_##name(void *v)            \
    {                                                   \
        PX__JOIN_CHECK_STMT(T, op)                      \
        px_identity_##op##_##T((T *)v);                 \
    }                                                   \
    static void px__join_##name(void *d, const void *s) \
    {                                                   \
        px_join_##op##_##T((T *)d, (const T *)s);       \
    }

#if defined(__GNUC__) || defined(__clang__)
#define PX__NOINLINE __attribute__((noinline))
#else
#define PX__NOINLINE
#endif

/* The host loop is a function of its own that takes the arguments and the policy by
   value: the body sees by-value semantics, as on the GPU, the compiler knows that the
   kernel's stores cannot change them, and it honours restrict spans (GCC applies a
   restrict member of a struct to a by-value parameter only, so the function must not be
   inlined into the entry). `ret` is void, or the value type of a reduction or scan. */
#define PX__HOST_LOOP_FN(name, Args, ret) \
    PX__NOINLINE static ret px__loop_##name(const Args px__args, const px_policy px__p)

/* ---- parallel_for ---------------------------------------------------------------------- */

#define PX__HOST_FOR(name, Args, loop)                                         \
    PX__HOST_LOOP_FN(name, Args, void) { loop }                                \
    static void px__host_##name(const void *a_, const px_policy *p_, void *r_) \
    {                                                                          \
        (void)r_;                                                              \
        px__loop_##name(*(const Args *)a_, *p_);                               \
    }

/** Defines the 1-D parallel_for kernel `name`, whose body follows the macro: `args` is a
 * `const Args *` to the dispatch's copy of the arguments, `i` the index (int64_t). Run it
 * with px_parallel_for(inst, label, px_range(b, e), PX_KERNEL(name), &args). */
#define PX_FOR(name, Args, args, i)                                                      \
    PX__BODY(name)(const Args *PX_RESTRICT args, int64_t i);                             \
    PX__HOST_FOR(name, Args, PX__HOST_LOOP1(&px__p, i_, px__body_##name(&px__args, i_))) \
    PX__CUDA_FOR(name, Args, 1, (const Args *a, int64_t i0), (a, i0))                    \
    PX__DESCRIPTOR(name, FOR, 1, Args, 0, 0, 0, 0)                                       \
    PX__BODY(name)(const Args *PX_RESTRICT args, int64_t i)

/** As PX_FOR, over a 2-D range (px_mdrange2): indices i and j. */
#define PX_FOR_2D(name, Args, args, i, j)                                                        \
    PX__BODY(name)(const Args *PX_RESTRICT args, int64_t i, int64_t j);                          \
    PX__HOST_FOR(name, Args, PX__HOST_LOOP2(&px__p, i_, j_, px__body_##name(&px__args, i_, j_))) \
    PX__CUDA_FOR(name, Args, 2, (const Args *a, int64_t i0, int64_t i1), (a, i0, i1))            \
    PX__DESCRIPTOR(name, FOR, 2, Args, 0, 0, 0, 0)                                               \
    PX__BODY(name)(const Args *PX_RESTRICT args, int64_t i, int64_t j)

/** As PX_FOR, over a 3-D range (px_mdrange3): indices i, j and k. */
#define PX_FOR_3D(name, Args, args, i, j, k)                                                 \
    PX__BODY(name)(const Args *PX_RESTRICT args, int64_t i, int64_t j, int64_t k);           \
    PX__HOST_FOR(name, Args,                                                                 \
                 PX__HOST_LOOP3(&px__p, i_, j_, k_, px__body_##name(&px__args, i_, j_, k_))) \
    PX__CUDA_FOR(name, Args, 3, (const Args *a, int64_t i0, int64_t i1, int64_t i2),         \
                 (a, i0, i1, i2))                                                            \
    PX__DESCRIPTOR(name, FOR, 3, Args, 0, 0, 0, 0)                                           \
    PX__BODY(name)(const Args *PX_RESTRICT args, int64_t i, int64_t j, int64_t k)

/* ---- parallel_reduce ------------------------------------------------------------------- */

#define PX__HOST_REDUCE(name, Args, T, op, loop)                               \
    PX__JOIN_USES_BEGIN                                                        \
    PX__HOST_JOIN(name, T, op)                                                 \
    PX__HOST_LOOP_FN(name, Args, T)                                            \
    {                                                                          \
        T px__acc;                                                             \
        px_identity_##op##_##T(&px__acc);                                      \
        loop return px__acc;                                                   \
    }                                                                          \
    static void px__host_##name(const void *a_, const px_policy *p_, void *r_) \
    {                                                                          \
        *(T *)r_ = px__loop_##name(*(const Args *)a_, *p_);                    \
    }                                                                          \
    PX__JOIN_USES_END

/** Defines the 1-D reduction kernel `name`, whose body follows the macro and folds index
 * i's contribution into *acc, a T, with the join `op` (sum, prod, min, max, minloc,
 * maxloc, or one defined with PX_JOIN and PX_IDENTITY). Run it with px_parallel_reduce or
 * px_parallel_reduce_view. */
#define PX_REDUCE(name, Args, args, i, T, op, acc)                                            \
    PX__BODY(name)(const Args *PX_RESTRICT args, int64_t i, T *PX_RESTRICT acc);              \
    PX__HOST_REDUCE(name, Args, T, op,                                                        \
                    PX__HOST_LOOP1(&px__p, i_, px__body_##name(&px__args, i_, &px__acc)))     \
    PX__CUDA_REDUCE(name, Args, 1, T, op, (const Args *a, int64_t i0, T *v), (a, i0, v))      \
    PX__DESCRIPTOR(name, REDUCE, 1, Args, sizeof(T), px__identity_##name, px__join_##name, 0) \
    PX__BODY(name)(const Args *PX_RESTRICT args, int64_t i, T *PX_RESTRICT acc)

/** As PX_REDUCE, over a 2-D range: indices i and j. */
#define PX_REDUCE_2D(name, Args, args, i, j, T, op, acc)                                          \
    PX__BODY(name)(const Args *PX_RESTRICT args, int64_t i, int64_t j, T *PX_RESTRICT acc);       \
    PX__HOST_REDUCE(name, Args, T, op,                                                            \
                    PX__HOST_LOOP2(&px__p, i_, j_, px__body_##name(&px__args, i_, j_, &px__acc))) \
    PX__CUDA_REDUCE(name, Args, 2, T, op, (const Args *a, int64_t i0, int64_t i1, T *v),          \
                    (a, i0, i1, v))                                                               \
    PX__DESCRIPTOR(name, REDUCE, 2, Args, sizeof(T), px__identity_##name, px__join_##name, 0)     \
    PX__BODY(name)(const Args *PX_RESTRICT args, int64_t i, int64_t j, T *PX_RESTRICT acc)

/** As PX_REDUCE, over a 3-D range: indices i, j and k. */
#define PX_REDUCE_3D(name, Args, args, i, j, k, T, op, acc)                                        \
    PX__BODY(name)                                                                                 \
    (const Args *PX_RESTRICT args, int64_t i, int64_t j, int64_t k, T *PX_RESTRICT acc);           \
    PX__HOST_REDUCE(                                                                               \
        name, Args, T, op,                                                                         \
        PX__HOST_LOOP3(&px__p, i_, j_, k_, px__body_##name(&px__args, i_, j_, k_, &px__acc)))      \
    PX__CUDA_REDUCE(name, Args, 3, T, op,                                                          \
                    (const Args *a, int64_t i0, int64_t i1, int64_t i2, T *v), (a, i0, i1, i2, v)) \
    PX__DESCRIPTOR(name, REDUCE, 3, Args, sizeof(T), px__identity_##name, px__join_##name, 0)      \
    PX__BODY(name)                                                                                 \
    (const Args *PX_RESTRICT args, int64_t i, int64_t j, int64_t k, T *PX_RESTRICT acc)

/* ---- parallel_scan --------------------------------------------------------------------- */

/** Defines the scan kernel `name` over a 1-D range, whose body follows the macro: it adds
 * index i's contribution to *update, a T, with the join `op`, and stores the running
 * value when `final` (a bool) is true (see the file's description). Run it with
 * px_parallel_scan. */
#define PX_SCAN(name, Args, args, i, T, op, update, final)                                       \
    PX__BODY(name)(const Args *PX_RESTRICT args, int64_t i, T *PX_RESTRICT update, bool final);  \
    PX__JOIN_USES_BEGIN                                                                          \
    PX__HOST_JOIN(name, T, op)                                                                   \
    PX__NOINLINE static T px__loop_##name(const Args px__args, const px_policy px__p, T px__acc, \
                                          bool px__final)                                        \
    {                                                                                            \
        PX__HOST_LOOP1(&px__p, i_, px__body_##name(&px__args, i_, &px__acc, px__final))          \
        return px__acc;                                                                          \
    }                                                                                            \
    static void px__host_scan_##name(const void *a_, const px_policy *p_, void *u_, bool f_)     \
    {                                                                                            \
        *(T *)u_ = px__loop_##name(*(const Args *)a_, *p_, *(const T *)u_, f_);                  \
    }                                                                                            \
    static void px__host_##name(const void *a_, const px_policy *p_, void *r_)                   \
    {                                                                                            \
        T px__start;                                                                             \
        px_identity_##op##_##T(&px__start);                                                      \
        const T px__total = px__loop_##name(*(const Args *)a_, *p_, px__start, true);            \
        if (r_) *(T *)r_ = px__total;                                                            \
    }                                                                                            \
    PX__JOIN_USES_END                                                                            \
    PX__CUDA_SCAN(name, Args, T, op, (const Args *a, int64_t i0, T *v, bool f), (a, i0, v, f))   \
    PX__DESCRIPTOR(name, SCAN, 1, Args, sizeof(T), px__identity_##name, px__join_##name,         \
                   px__host_scan_##name)                                                         \
    PX__BODY(name)(const Args *PX_RESTRICT args, int64_t i, T *PX_RESTRICT update, bool final)

#endif /* PORTEX_KERNEL_H */
