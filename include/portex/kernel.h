/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/** @file
 * portex — single-source kernels.
 *
 * A kernel is written once, as a C function body, in a "kernel file". That file is
 * compiled by the C compiler when CUDA is off, and as CUDA (by nvcc, which also produces
 * the host version) when CUDA is on; see docs/kernels.md for the Meson pattern. Each
 * macro below defines:
 *   - the body, as a static inline function (`__host__ __device__` under nvcc);
 *   - the code each family of device code compiled in makes of it: host code always (run
 *     by the serial, OpenMP and threads backends), CUDA code under nvcc;
 *   - the descriptor `px_kernel_<name>` (external, C linkage) that dispatch takes, with a
 *     table of that code's entries.
 * How they are made is not API: portex/impl/ (docs/design.md, "Kernels").
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
#include "portex/impl/abi.h"
#include "portex/policy.h"
#include "portex/view.h" /* spans, PX_AT*; PX__UNIQUE */

PX_EXTERN_C_BEGIN

/** What a kernel is: the macro that defined it. */
typedef enum px_kernel_kind {
    PX_KERNEL_FOR = 1,    /**< PX_FOR, PX_FOR_2D to PX_FOR_6D */
    PX_KERNEL_REDUCE = 2, /**< PX_REDUCE, PX_REDUCE_2D to PX_REDUCE_6D */
    PX_KERNEL_SCAN = 3    /**< PX_SCAN */
} px_kernel_kind;

/** "PXK6": the descriptor's layout and the kernel ABI (portex/impl/abi.h) these headers
 * compile into a kernel file. Dispatch refuses "PXK1" to "PXK5" descriptors, from kernel
 * files compiled against an older portex/kernel.h, asking for the file to be recompiled. */
#define PX_KERNEL_MAGIC 0x50584b36u

/** A kernel's descriptor. Made by the macros below; never filled by hand. What runs the
 * kernel is a table of entries, one per family of device code compiled in and kind of
 * entry its backends need (portex/impl/abi.h): the descriptor names no backend. */
typedef struct px_kernel {
    uint32_t magic;                /**< PX_KERNEL_MAGIC */
    const char *name;              /**< the kernel's name, as given to the macro */
    px_kernel_kind kind;           /**< for, reduce or scan */
    int32_t rank;                  /**< 1 to PX_POLICY_MAX_RANK: the policies it runs */
    int32_t team;                  /**< 1: a team kernel (PX_TEAM_FOR, PX_TEAM_REDUCE) */
    int32_t entry_count;           /**< the rows of `entries` */
    size_t args_size;              /**< sizeof the argument struct */
    size_t value_size;             /**< reduce and scan: sizeof the value */
    void (*identity)(void *value); /**< reduce and scan: the join's identity, on the host */
    void (*join)(void *dst, const void *src); /**< reduce and scan: the join, on the host */
    const struct px__kernel_entry *entries;   /**< what runs it, by target and kind */
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
/** As PX_DECLARE_KERNEL, for a PX_FOR or PX_FOR_2D to PX_FOR_6D kernel: a dispatch of it that
 * takes another kind (px_parallel_reduce, ...) does not compile. The kernel file that
 * defines it may include the declaration; one of another kind there does not compile. */
#define PX_DECLARE_KERNEL_FOR(name) PX__DECLARE_KERNEL_OF_KIND(name, PX__KIND_FOR)
/** As PX_DECLARE_KERNEL_FOR, for a PX_REDUCE or PX_REDUCE_2D to PX_REDUCE_6D kernel. */
#define PX_DECLARE_KERNEL_REDUCE(name) PX__DECLARE_KERNEL_OF_KIND(name, PX__KIND_REDUCE)
/** As PX_DECLARE_KERNEL_FOR, for a PX_SCAN kernel. */
#define PX_DECLARE_KERNEL_SCAN(name) PX__DECLARE_KERNEL_OF_KIND(name, PX__KIND_SCAN)
/* (PX_DECLARE_KERNEL_TEAM_FOR and PX_DECLARE_KERNEL_TEAM_REDUCE: portex/team.h.) */

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

/* How the macros below make a kernel: the compile-time checks, every family's code and
   the descriptor (after the joins, which device code instantiates). */
#include "portex/impl/define.h"

PX_EXTERN_C_BEGIN

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

/** Sets the condition to `value` (non-zero: true) from a kernel body; see px_cond. */
PX_FUNCTION void px_cond_set(px_cond cond, unsigned value)
{
#if defined(PX__DEVICE_COND_SET) /* device code of a family that has graph conditions */
    PX__DEVICE_COND_SET(cond.handle, value);
#else
    px__kabi_cond_set(cond.handle, value);
#endif
}

PX_EXTERN_C_END

/* ---- parallel_for ---------------------------------------------------------------------- */

/** Defines the 1-D parallel_for kernel `name`, whose body follows the macro: `args` is a
 * `const Args *` to the dispatch's copy of the arguments, `i` the index (int64_t). Run it
 * with px_parallel_for(inst, label, px_range(b, e), PX_KERNEL(name), &args). */
#define PX_FOR(name, Args, args, i)                          \
    PX__BODY(name)(const Args *PX_RESTRICT args, int64_t i); \
    PX__DEFINE_FOR(name, Args, 1)                            \
    PX__BODY(name)(const Args *PX_RESTRICT args, int64_t i)

/** As PX_FOR, over a 2-D range (px_mdrange2): indices i and j. */
#define PX_FOR_2D(name, Args, args, i, j)                               \
    PX__BODY(name)(const Args *PX_RESTRICT args, int64_t i, int64_t j); \
    PX__DEFINE_FOR(name, Args, 2)                                       \
    PX__BODY(name)(const Args *PX_RESTRICT args, int64_t i, int64_t j)

/** As PX_FOR, over a 3-D range (px_mdrange3): indices i, j and k. */
#define PX_FOR_3D(name, Args, args, i, j, k)                                       \
    PX__BODY(name)(const Args *PX_RESTRICT args, int64_t i, int64_t j, int64_t k); \
    PX__DEFINE_FOR(name, Args, 3)                                                  \
    PX__BODY(name)(const Args *PX_RESTRICT args, int64_t i, int64_t j, int64_t k)

/** As PX_FOR, over a 4-D range (px_mdrange4): indices i, j, k and l. */
#define PX_FOR_4D(name, Args, args, i, j, k, l)                                               \
    PX__BODY(name)(const Args *PX_RESTRICT args, int64_t i, int64_t j, int64_t k, int64_t l); \
    PX__DEFINE_FOR(name, Args, 4)                                                             \
    PX__BODY(name)(const Args *PX_RESTRICT args, int64_t i, int64_t j, int64_t k, int64_t l)

/** As PX_FOR, over a 5-D range (px_mdrange5): indices i, j, k, l and m. */
#define PX_FOR_5D(name, Args, args, i, j, k, l, m)                                         \
    PX__BODY(name)                                                                         \
    (const Args *PX_RESTRICT args, int64_t i, int64_t j, int64_t k, int64_t l, int64_t m); \
    PX__DEFINE_FOR(name, Args, 5)                                                          \
    PX__BODY(name)                                                                         \
    (const Args *PX_RESTRICT args, int64_t i, int64_t j, int64_t k, int64_t l, int64_t m)

/** As PX_FOR, over a 6-D range (px_mdrange6): indices i, j, k, l, m and n. */
#define PX_FOR_6D(name, Args, args, i, j, k, l, m, n)                                     \
    PX__BODY(name)                                                                        \
    (const Args *PX_RESTRICT args, int64_t i, int64_t j, int64_t k, int64_t l, int64_t m, \
     int64_t n);                                                                          \
    PX__DEFINE_FOR(name, Args, 6)                                                         \
    PX__BODY(name)                                                                        \
    (const Args *PX_RESTRICT args, int64_t i, int64_t j, int64_t k, int64_t l, int64_t m, int64_t n)

/* ---- parallel_reduce ------------------------------------------------------------------- */

/** Defines the 1-D reduction kernel `name`, whose body follows the macro and folds index
 * i's contribution into *acc, a T, with the join `op` (sum, prod, min, max, minloc,
 * maxloc, or one defined with PX_JOIN and PX_IDENTITY). Run it with px_parallel_reduce or
 * px_parallel_reduce_view. */
#define PX_REDUCE(name, Args, args, i, T, op, acc)                               \
    PX__BODY(name)(const Args *PX_RESTRICT args, int64_t i, T *PX_RESTRICT acc); \
    PX__DEFINE_REDUCE(name, Args, 1, T, op)                                      \
    PX__BODY(name)(const Args *PX_RESTRICT args, int64_t i, T *PX_RESTRICT acc)

/** As PX_REDUCE, over a 2-D range: indices i and j. */
#define PX_REDUCE_2D(name, Args, args, i, j, T, op, acc)                                    \
    PX__BODY(name)(const Args *PX_RESTRICT args, int64_t i, int64_t j, T *PX_RESTRICT acc); \
    PX__DEFINE_REDUCE(name, Args, 2, T, op)                                                 \
    PX__BODY(name)(const Args *PX_RESTRICT args, int64_t i, int64_t j, T *PX_RESTRICT acc)

/** As PX_REDUCE, over a 3-D range: indices i, j and k. */
#define PX_REDUCE_3D(name, Args, args, i, j, k, T, op, acc)                              \
    PX__BODY(name)                                                                       \
    (const Args *PX_RESTRICT args, int64_t i, int64_t j, int64_t k, T *PX_RESTRICT acc); \
    PX__DEFINE_REDUCE(name, Args, 3, T, op)                                              \
    PX__BODY(name)                                                                       \
    (const Args *PX_RESTRICT args, int64_t i, int64_t j, int64_t k, T *PX_RESTRICT acc)

/** As PX_REDUCE, over a 4-D range: indices i, j, k and l. */
#define PX_REDUCE_4D(name, Args, args, i, j, k, l, T, op, acc)                 \
    PX__BODY(name)                                                             \
    (const Args *PX_RESTRICT args, int64_t i, int64_t j, int64_t k, int64_t l, \
     T *PX_RESTRICT acc);                                                      \
    PX__DEFINE_REDUCE(name, Args, 4, T, op)                                    \
    PX__BODY(name)                                                             \
    (const Args *PX_RESTRICT args, int64_t i, int64_t j, int64_t k, int64_t l, T *PX_RESTRICT acc)

/** As PX_REDUCE, over a 5-D range: indices i, j, k, l and m. */
#define PX_REDUCE_5D(name, Args, args, i, j, k, l, m, T, op, acc)                         \
    PX__BODY(name)                                                                        \
    (const Args *PX_RESTRICT args, int64_t i, int64_t j, int64_t k, int64_t l, int64_t m, \
     T *PX_RESTRICT acc);                                                                 \
    PX__DEFINE_REDUCE(name, Args, 5, T, op)                                               \
    PX__BODY(name)                                                                        \
    (const Args *PX_RESTRICT args, int64_t i, int64_t j, int64_t k, int64_t l, int64_t m, \
     T *PX_RESTRICT acc)

/** As PX_REDUCE, over a 6-D range: indices i, j, k, l, m and n. */
#define PX_REDUCE_6D(name, Args, args, i, j, k, l, m, n, T, op, acc)                      \
    PX__BODY(name)                                                                        \
    (const Args *PX_RESTRICT args, int64_t i, int64_t j, int64_t k, int64_t l, int64_t m, \
     int64_t n, T *PX_RESTRICT acc);                                                      \
    PX__DEFINE_REDUCE(name, Args, 6, T, op)                                               \
    PX__BODY(name)                                                                        \
    (const Args *PX_RESTRICT args, int64_t i, int64_t j, int64_t k, int64_t l, int64_t m, \
     int64_t n, T *PX_RESTRICT acc)

/* ---- parallel_scan --------------------------------------------------------------------- */

/** Defines the scan kernel `name` over a 1-D range, whose body follows the macro: it adds
 * index i's contribution to *update, a T, with the join `op`, and stores the running
 * value when `final` (a bool) is true (see the file's description). Run it with
 * px_parallel_scan. */
#define PX_SCAN(name, Args, args, i, T, op, update, final)                                      \
    PX__BODY(name)(const Args *PX_RESTRICT args, int64_t i, T *PX_RESTRICT update, bool final); \
    PX__DEFINE_SCAN(name, Args, T, op)                                                          \
    PX__BODY(name)(const Args *PX_RESTRICT args, int64_t i, T *PX_RESTRICT update, bool final)

#endif /* PORTEX_KERNEL_H */
