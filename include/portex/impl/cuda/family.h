/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* portex — the CUDA family of device code (not API): the entries that the CUDA backend
 * (target PX__TARGET_CUDA) runs, made where nvcc compiles a kernel file as CUDA; nothing
 * elsewhere. One family of portex/impl/targets.h.
 *
 * Its entries, by kind (portex/impl/abi.h):
 *   RANGE   px__cuda_range_fn: launches the kernel over the policy on launch->stream;
 *   LEAGUE  px__cuda_league_fn (team kernels): launches the league on launch->stream,
 *           resolving automatic sizes into *run (the shape used, or why it was refused).
 * Both return a cudaError_t as an int (0: queued) and leave no CUDA error pending. The
 * launch record and the entry types are C, for the backend (src/backends/cuda/); the launch
 * templates they instantiate, C++ for nvcc, are portex/impl/cuda/kernel_cuda.h and, for
 * team kernels, portex/impl/cuda/team_cuda.h (docs/cuda.md, docs/teams.md).
 *
 * Under nvcc it also gives the device side of px_cond_set (PX__DEVICE_COND_SET) and, with
 * portex/team.h, the team-level primitives of CUDA blocks. */
#ifndef PORTEX_IMPL_CUDA_FAMILY_H
#define PORTEX_IMPL_CUDA_FAMILY_H

#include <stddef.h>

#include "portex/export.h"
#include "portex/impl/abi.h"
#include "portex/policy.h"

PX_EXTERN_C_BEGIN

/* What a CUDA entry needs from the library for one launch (filled by the CUDA backend). */
typedef struct px__cuda_launch_desc {
    void *stream;          /* cudaStream_t of the instance */
    int device;            /* the instance's device ordinal */
    int sm_count;          /* the SMs the instance's kernels may use */
    const char *label;     /* the dispatch's label */
    void *result;          /* device memory for the reduction value or scan total; NULL
                              when a scan's total is not wanted */
    unsigned int *counter; /* device counter, zero between launches (one-pass reductions) */
    /* Device scratch of at least `bytes`, owned by the instance and reused in stream
       order; NULL when it cannot be had. */
    void *(*scratch)(const struct px__cuda_launch_desc *launch, size_t bytes);
    void *backend; /* the backend's own, for scratch() */
} px__cuda_launch_desc;

typedef int (*px__cuda_range_fn)(const px__cuda_launch_desc *launch, const void *args,
                                 const px_policy *policy);
typedef int (*px__cuda_league_fn)(const px__cuda_launch_desc *launch, const void *args,
                                  px__team_run *run);

PX_EXTERN_C_END

#ifdef __CUDACC__
#include "portex/impl/cuda/kernel_cuda.h"

#if defined(__CUDA_ARCH__)
#define PX__DEVICE_COND_SET(handle, value) \
    cudaGraphSetConditional((cudaGraphConditionalHandle)(handle), value)
#endif

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

/* The family's generators (portex/impl/targets.h): a kernel's code, by shape, and the rows
   of its entries. */
#define PX__CUDA_CODE(SHAPE, name, Args, R, T, op) PX__CUDA_CODE_##SHAPE(name, Args, R, T, op)
#define PX__CUDA_ROWS(SHAPE, name) PX__CUDA_ROWS_##SHAPE(name)
#define PX__CUDA_ROW(KIND, fn) {PX__TARGET_CUDA, PX__ENTRY_##KIND, (px__entry_fn)fn},

/* The body's parameters as the launch templates call it, and the call, by shape and rank. */
#define PX__CUDA_PARAMS_FOR1(Args, T) (const Args *a, int64_t i0)
#define PX__CUDA_CALL_FOR1 (a, i0)
#define PX__CUDA_PARAMS_FOR2(Args, T) (const Args *a, int64_t i0, int64_t i1)
#define PX__CUDA_CALL_FOR2 (a, i0, i1)
#define PX__CUDA_PARAMS_FOR3(Args, T) (const Args *a, int64_t i0, int64_t i1, int64_t i2)
#define PX__CUDA_CALL_FOR3 (a, i0, i1, i2)
#define PX__CUDA_PARAMS_FOR4(Args, T) \
    (const Args *a, int64_t i0, int64_t i1, int64_t i2, int64_t i3)
#define PX__CUDA_CALL_FOR4 (a, i0, i1, i2, i3)
#define PX__CUDA_PARAMS_FOR5(Args, T) \
    (const Args *a, int64_t i0, int64_t i1, int64_t i2, int64_t i3, int64_t i4)
#define PX__CUDA_CALL_FOR5 (a, i0, i1, i2, i3, i4)
#define PX__CUDA_PARAMS_FOR6(Args, T) \
    (const Args *a, int64_t i0, int64_t i1, int64_t i2, int64_t i3, int64_t i4, int64_t i5)
#define PX__CUDA_CALL_FOR6 (a, i0, i1, i2, i3, i4, i5)
#define PX__CUDA_PARAMS_REDUCE1(Args, T) (const Args *a, int64_t i0, T *v)
#define PX__CUDA_CALL_REDUCE1 (a, i0, v)
#define PX__CUDA_PARAMS_REDUCE2(Args, T) (const Args *a, int64_t i0, int64_t i1, T *v)
#define PX__CUDA_CALL_REDUCE2 (a, i0, i1, v)
#define PX__CUDA_PARAMS_REDUCE3(Args, T) (const Args *a, int64_t i0, int64_t i1, int64_t i2, T *v)
#define PX__CUDA_CALL_REDUCE3 (a, i0, i1, i2, v)
#define PX__CUDA_PARAMS_REDUCE4(Args, T) \
    (const Args *a, int64_t i0, int64_t i1, int64_t i2, int64_t i3, T *v)
#define PX__CUDA_CALL_REDUCE4 (a, i0, i1, i2, i3, v)
#define PX__CUDA_PARAMS_REDUCE5(Args, T) \
    (const Args *a, int64_t i0, int64_t i1, int64_t i2, int64_t i3, int64_t i4, T *v)
#define PX__CUDA_CALL_REDUCE5 (a, i0, i1, i2, i3, i4, v)
#define PX__CUDA_PARAMS_REDUCE6(Args, T) \
    (const Args *a, int64_t i0, int64_t i1, int64_t i2, int64_t i3, int64_t i4, int64_t i5, T *v)
#define PX__CUDA_CALL_REDUCE6 (a, i0, i1, i2, i3, i4, i5, v)

#define PX__CUDA_CODE_FOR(name, Args, R, T, op)                                         \
    PX__CUDA_BODY(name, PX__CUDA_PARAMS_FOR##R(Args, T), PX__CUDA_CALL_FOR##R)          \
    static int px__cuda_##name(const px__cuda_launch_desc *l_, const void *a_,          \
                               const px_policy *p_)                                     \
    {                                                                                   \
        return px_cuda::launch_for##R<Args, px__cu_##name>(l_, *(const Args *)a_, *p_); \
    }
#define PX__CUDA_ROWS_FOR(name) PX__CUDA_ROW(RANGE, px__cuda_##name)

#define PX__CUDA_CODE_REDUCE(name, Args, R, T, op)                                      \
    PX__CUDA_BODY(name, PX__CUDA_PARAMS_REDUCE##R(Args, T), PX__CUDA_CALL_REDUCE##R)    \
    static int px__cuda_##name(const px__cuda_launch_desc *l_, const void *a_,          \
                               const px_policy *p_)                                     \
    {                                                                                   \
        return px_cuda::launch_reduce##R<Args, T, px__cu_##name, PX__CUDA_JOIN(T, op)>( \
            l_, *(const Args *)a_, *p_);                                                \
    }
#define PX__CUDA_ROWS_REDUCE(name) PX__CUDA_ROW(RANGE, px__cuda_##name)

#define PX__CUDA_CODE_SCAN(name, Args, R, T, op)                                   \
    PX__CUDA_BODY(name, (const Args *a, int64_t i0, T *v, bool f), (a, i0, v, f))  \
    static int px__cuda_##name(const px__cuda_launch_desc *l_, const void *a_,     \
                               const px_policy *p_)                                \
    {                                                                              \
        return px_cuda::launch_scan<Args, T, px__cu_##name, PX__CUDA_JOIN(T, op)>( \
            l_, *(const Args *)a_, *p_);                                           \
    }
#define PX__CUDA_ROWS_SCAN(name) PX__CUDA_ROW(RANGE, px__cuda_##name)

#else
#define PX__CUDA_CODE(SHAPE, name, Args, R, T, op)
#define PX__CUDA_ROWS(SHAPE, name)
#endif /* __CUDACC__ */

#endif /* PORTEX_IMPL_CUDA_FAMILY_H */

/* ---- Team kernels (with portex/team.h, under nvcc) ------------------------------------------ */

#if defined(PX__TEAM_DECLARED) && defined(__CUDACC__) && !defined(PORTEX_IMPL_CUDA_FAMILY_TEAM)
#define PORTEX_IMPL_CUDA_FAMILY_TEAM
#include "portex/impl/cuda/team_cuda.h"

/* The team-level primitives (portex/impl/nested.h) of a team that is a block. On the host
   pass of nvcc the templates do what a team of one thread does. */
/* Folds v (T) over the threads `unit` names; every one of them gets the total. */
#define PX__TEAM_COMBINE(team, T, op, unit, v) \
    px_cuda::team::combine<T, PX__CUDA_JOIN(T, op), unit>(team, v)
/* A nested scan's pass `pass` (0: totals, device only; 1: final; 2: after): whether the
   pass loops, over [lo, hi) of [0, n); sv[0] runs, sv[1] is the total after pass 2. */
#define PX__TEAM_SCAN_STAGE(team, T, op, unit, pass, sv, n, lo, hi) \
    px_cuda::team::scan_stage<T, PX__CUDA_JOIN(T, op), unit>(team, (int)(pass), sv, n, &(lo), &(hi))
#define PX__TEAM_BARRIER_IMPL(team) px_cuda::team::barrier(team)
#if defined(__CUDA_ARCH__)
/* The totals pass of a nested scan runs on the device only. */
#define PX__TEAM_SCAN_FIRST 0
/* On a GPU a thread's share of a nested loop is a few steps (a row's entries over its
   lanes), each usually a load: unrolled (each copy keeping its own exit test), the
   compiler may start the loads of several steps before the first returns (the SpMV
   example's one-lane rows ran 16 % faster on an H100 with this and restrict spans). */
#define PX__TEAM_UNROLL _Pragma("unroll 4")
#endif

#define PX__CUDA_CODE_TEAM_FOR(name, Args, R, T, op)                                      \
    PX__CUDA_BODY(name, (const Args *a, const px_team *t), (a, t))                        \
    static int px__cuda_team_##name(const px__cuda_launch_desc *l_, const void *a_,       \
                                    px__team_run *r_)                                     \
    {                                                                                     \
        return px_cuda::team::launch_for<Args, px__cu_##name>(l_, *(const Args *)a_, r_); \
    }
#define PX__CUDA_ROWS_TEAM_FOR(name) PX__CUDA_ROW(LEAGUE, px__cuda_team_##name)

#define PX__CUDA_CODE_TEAM_REDUCE(name, Args, R, T, op)                                    \
    PX__CUDA_BODY(name, (const Args *a, const px_team *t, T *v), (a, t, v))                \
    static int px__cuda_team_##name(const px__cuda_launch_desc *l_, const void *a_,        \
                                    px__team_run *r_)                                      \
    {                                                                                      \
        return px_cuda::team::launch_reduce<Args, T, px__cu_##name, PX__CUDA_JOIN(T, op)>( \
            l_, *(const Args *)a_, r_);                                                    \
    }
#define PX__CUDA_ROWS_TEAM_REDUCE(name) PX__CUDA_ROW(LEAGUE, px__cuda_team_##name)

#endif /* PX__TEAM_DECLARED, __CUDACC__ */
