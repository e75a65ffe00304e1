/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* portex — the CUDA family's side of team kernels (portex/team.h; not API); nvcc only.
 *
 * A team is a block of vector_length x team_size threads: threadIdx.x is the vector lane,
 * threadIdx.y the team rank, so a thread's lanes are consecutive lanes of one warp. A
 * parallel_for launches a block per team (the hardware hands blocks out as SMs free up, so
 * a slow team holds up no other), grid-stride past 2^31 - 1 teams; with level-1 scratch,
 * which is a slice of device memory per block, and for reductions, whose partials are one
 * per block, the grid is at most one wave of resident blocks. A block that runs several
 * teams passes a __syncthreads between two of them when the kernel has scratch, so that
 * scratch is not reused early (without scratch nothing a team leaves behind is shared:
 * the reduction slots are free again at every fold's last barrier).
 *
 * Dynamic shared memory holds, in order: PX__TEAM_REDUCE_BYTES of reduction slots (one
 * per warp), then the team's level-0 scratch (the team part, then each thread's part).
 * Level 1 is a slice of device scratch per resident block (the instance's scratch,
 * px__cuda_launch_desc.scratch, reused in stream order), after a reduction's partials.
 *
 * Nested reductions: lanes of a thread fold through warp shuffles; a team folds each
 * warp through shuffles, then the warps' values through the slots, in warp order, every
 * thread reading the same slots (all threads get the same total). Nested scans run twice
 * over contiguous chunks (a chunk per thread, lane, or both): totals, an exclusive scan of
 * the chunks' totals in order (shuffles, then slots), then the chunks again from their
 * prefix with final = true. */
#ifndef PORTEX_IMPL_CUDA_TEAM_CUDA_H
#define PORTEX_IMPL_CUDA_TEAM_CUDA_H

#ifndef __CUDACC__
#error "portex/impl/cuda/team_cuda.h is for nvcc; include portex/team.h instead"
#endif

#include "portex/impl/cuda/kernel_cuda.h"
#include "portex/team.h"

namespace px_cuda {
namespace team {

/* ---- Shuffles of any trivially copyable T, a 32-bit word at a time -------------------- */

template <class T> struct words {
    static constexpr int n = (int)((sizeof(T) + 3) / 4);
    int w[n];
};

template <class T> __device__ __forceinline__ words<T> to_words(const T &v)
{
    words<T> w = {};
    memcpy(w.w, &v, sizeof(T));
    return w;
}

template <class T> __device__ __forceinline__ T from_words(const words<T> &w)
{
    T v;
    memcpy(&v, w.w, sizeof(T));
    return v;
}

/* v moved a 32-bit word at a time by `shuffle` (one of the warp shuffles, on an int). */
template <class T, class Shuffle>
__device__ __forceinline__ T shfl_words(const T &v, Shuffle shuffle)
{
    words<T> w = to_words(v);
#pragma unroll
    for (int k = 0; k < words<T>::n; ++k) w.w[k] = shuffle(w.w[k]);
    return from_words<T>(w);
}

template <class T>
__device__ __forceinline__ T shfl_idx(unsigned mask, const T &v, int src, int width)
{
    return shfl_words(v, [=](int x) { return __shfl_sync(mask, x, src, width); });
}

template <class T>
__device__ __forceinline__ T shfl_up(unsigned mask, const T &v, unsigned d, int width)
{
    return shfl_words(v, [=](int x) { return __shfl_up_sync(mask, x, d, width); });
}

template <class T>
__device__ __forceinline__ T shfl_down(unsigned mask, const T &v, unsigned d, int width)
{
    return shfl_words(v, [=](int x) { return __shfl_down_sync(mask, x, d, width); });
}

/* ---- Where a thread sits --------------------------------------------------------------- */

struct place {
    int flat; /* team_rank * vector_length + vector_rank */
    int lane; /* in its warp */
    int warp;
    int warps;      /* of the block */
    int warp_lanes; /* lanes of this warp that exist (the last warp may be partial) */
    unsigned warp_mask;
    unsigned group_mask; /* the lanes of this thread's vector group */
};

__device__ __forceinline__ place where(const px_team *t)
{
    place p;
    const int V = t->vector_length;
    const int n = t->team_size * V;
    p.flat = t->team_rank * V + t->vector_rank;
    p.lane = p.flat & 31;
    p.warp = p.flat >> 5;
    p.warps = (n + 31) >> 5;
    p.warp_lanes = n - p.warp * 32 < 32 ? n - p.warp * 32 : 32;
    p.warp_mask = p.warp_lanes == 32 ? 0xffffffffu : (1u << p.warp_lanes) - 1u;
    const int base = p.lane & ~(V - 1);
    p.group_mask = V == 32 ? 0xffffffffu : ((1u << V) - 1u) << base;
    return p;
}

/* ---- Folds ------------------------------------------------------------------------------- */

/* Over the lanes of the calling thread; every lane gets lane 0's fold of all. */
template <class T, class Join> __device__ __forceinline__ void group_reduce(const px_team *t, T *v)
{
    const int V = t->vector_length;
    if (V == 1) return; /* one lane: nothing to fold, no shuffle */
    const place p = where(t);
    for (int off = V >> 1; off > 0; off >>= 1) {
        const T o = shfl_down(p.group_mask, *v, (unsigned)off, V);
        if (t->vector_rank + off < V) Join::join(v, &o);
    }
    *v = shfl_idx(p.group_mask, *v, 0, V);
}

/* Over the block (threads that do not contribute hold the identity); every thread gets the
   total. Reached by every thread of the block. */
template <class T, class Join>
__device__ __forceinline__ void block_reduce(const px_team *t, T *v, bool contributes)
{
    const place p = where(t);
    T *slots = static_cast<T *>(t->reduce_slots);
    if (!contributes) Join::identity(v);
    for (int off = 16; off > 0; off >>= 1) {
        const T o = shfl_down(p.warp_mask, *v, (unsigned)off, 32);
        if (p.lane + off < p.warp_lanes) Join::join(v, &o);
    }
    if (p.lane == 0) slots[p.warp] = *v;
    __syncthreads();
    T acc;
    Join::identity(&acc);
    for (int w = 0; w < p.warps; ++w) Join::join(&acc, &slots[w]);
    *v = acc;
    __syncthreads(); /* the slots are free again */
}

/* Exclusive scan of units of `unit` lanes (1: every lane; V: every thread, whose lanes hold
   the same value) in flat order over the block: *v becomes the unit's prefix, *total the
   fold of all. Reached by every thread of the block. */
template <class T, class Join>
__device__ __forceinline__ void block_scan(const px_team *t, T *v, int unit, T *total)
{
    const place p = where(t);
    T *slots = static_cast<T *>(t->reduce_slots);
    T x = *v;
    for (int off = unit; off < 32; off <<= 1) {
        const T o = shfl_up(p.warp_mask, x, (unsigned)off, 32);
        if (p.lane >= off) {
            T y = o;
            Join::join(&y, &x);
            x = y;
        }
    }
    const T last = shfl_idx(p.warp_mask, x, p.warp_lanes - 1, 32);
    T excl = shfl_up(p.warp_mask, x, (unsigned)unit, 32);
    if (p.lane < unit) Join::identity(&excl);
    if (p.lane == 0) slots[p.warp] = last;
    __syncthreads();
    T pre;
    Join::identity(&pre);
    for (int w = 0; w < p.warp; ++w) Join::join(&pre, &slots[w]);
    T all = pre;
    for (int w = p.warp; w < p.warps; ++w) Join::join(&all, &slots[w]);
    Join::join(&pre, &excl);
    *v = pre;
    *total = all;
    __syncthreads();
}

/* Exclusive scan over the lanes of the calling thread. */
template <class T, class Join>
__device__ __forceinline__ void group_scan(const px_team *t, T *v, T *total)
{
    const place p = where(t);
    const int V = t->vector_length;
    T x = *v;
    for (int off = 1; off < V; off <<= 1) {
        const T o = shfl_up(p.group_mask, x, (unsigned)off, V);
        if (t->vector_rank >= off) {
            T y = o;
            Join::join(&y, &x);
            x = y;
        }
    }
    *total = shfl_idx(p.group_mask, x, V - 1, V);
    T excl = shfl_up(p.group_mask, x, 1u, V);
    if (t->vector_rank == 0) Join::identity(&excl);
    *v = excl;
}

/* ---- What the nested loops of portex/team.h call ------------------------------------------------ */

template <class T, class Join, int Unit>
__host__ __device__ __forceinline__ void combine(const px_team *t, T *v)
{
#if defined(__CUDA_ARCH__)
    if (Unit == PX__THREAD_VECTOR || (Unit == PX__ROW_VECTOR && !px__row_whole_team(t)))
        group_reduce<T, Join>(t, v);
    else /* (a row's team: the same branch for the whole block) */
        block_reduce<T, Join>(t, v, Unit != PX__TEAM_THREAD || t->vector_rank == 0);
#else
    (void)t;
    (void)v;
#endif
}

__host__ __device__ __forceinline__ void barrier(const px_team *t)
{
    (void)t;
#if defined(__CUDA_ARCH__)
    __syncthreads();
#endif
}

template <class T, class Join, int Unit>
__host__ __device__ __forceinline__ int scan_stage(const px_team *t, int pass, T sv[2], int64_t n,
                                                   int64_t *lo, int64_t *hi)
{
#if defined(__CUDA_ARCH__)
    const int64_t V = t->vector_length;
    int64_t units, u;
    if (Unit == PX__TEAM_THREAD) {
        units = t->team_size;
        u = t->team_rank;
    } else if (Unit == PX__THREAD_VECTOR) {
        units = V;
        u = t->vector_rank;
    } else {
        units = (int64_t)t->team_size * V;
        u = (int64_t)t->team_rank * V + t->vector_rank;
    }
    if (pass == 0) {
        const int64_t chunk = n <= 0 ? 0 : n / units + (n % units != 0);
        *lo = chunk * u < n ? chunk * u : (n > 0 ? n : 0);
        *hi = n - *lo < chunk ? (n > 0 ? n : 0) : *lo + chunk;
        Join::identity(&sv[0]);
        return 1;
    }
    if (pass == 1) {
        if (Unit == PX__THREAD_VECTOR)
            group_scan<T, Join>(t, &sv[0], &sv[1]);
        else
            block_scan<T, Join>(t, &sv[0], Unit == PX__TEAM_THREAD ? (int)V : 1, &sv[1]);
        return 1;
    }
    return 0;
#else
    (void)t;
    if (pass == 1) {
        Join::identity(&sv[0]);
        *lo = 0;
        *hi = n;
        return 1;
    }
    if (pass == 2) sv[1] = sv[0];
    return 0;
#endif
}

/* ---- Launches -------------------------------------------------------------------------------- */

/* What a team block needs besides the arguments. */
struct dims {
    int64_t league;
    size_t team0, thread0; /* level 0 parts (rounded) */
    size_t team1, thread1; /* level 1 parts (rounded) */
    char *level1;          /* slices of `stride1` bytes, one per block */
    size_t stride1;
    int64_t first, end;     /* the league ranks this launch runs: [first, end) */
    px__team_rows_run rows; /* the league's rows, when has_rows: read from the parameters */
    bool has_rows;
    bool sync; /* a barrier between two teams of a block (any scratch) */
};

__device__ __forceinline__ void make_team(px_team *t, const dims &d, unsigned char *smem)
{
    t->league_size = d.league;
    t->team_rank = (int32_t)threadIdx.y;
    t->team_size = (int32_t)blockDim.y;
    t->vector_rank = (int32_t)threadIdx.x;
    t->vector_length = (int32_t)blockDim.x;
    t->reduce_slots = smem;
    t->rows = d.has_rows ? &d.rows : nullptr; /* d is a __grid_constant__ parameter */
    unsigned char *s0 = smem + PX__TEAM_REDUCE_BYTES;
    char *s1 = d.level1 != nullptr ? d.level1 + (size_t)blockIdx.x * d.stride1 : nullptr;
    t->scratch[0] = d.team0 ? s0 : nullptr;
    t->thread_scratch[0] = d.thread0 ? s0 + d.team0 + (size_t)threadIdx.y * d.thread0 : nullptr;
    t->scratch[1] = d.team1 && s1 ? s1 : nullptr;
    t->thread_scratch[1] =
        d.thread1 && s1 ? s1 + d.team1 + (size_t)threadIdx.y * d.thread1 : nullptr;
    t->scratch_size[0] = d.team0;
    t->thread_scratch_size[0] = d.thread0;
    t->scratch_size[1] = d.team1;
    t->thread_scratch_size[1] = d.thread1;
}

/* Mode: PX__ROWS_LONG or PX__ROWS_SHORT for a launch of that part of a px_teams_rows league
   only (the compiler then keeps that mode's code alone: a short part without the team folds
   of long rows needs fewer registers), -1 for any league. */
template <class Args, class Body, int Mode = -1>
__global__ void for_kernel(const __grid_constant__ Args a, const __grid_constant__ dims d)
{
    extern __shared__ __align__(16) unsigned char px__team_smem[];
    px_team t;
    make_team(&t, d, px__team_smem);
    for (int64_t l = d.first + blockIdx.x; l < d.end; l += gridDim.x) {
        if (Mode < 0)
            px__team_enter(&t, l);
        else
            px__team_enter_rows(&t, l, Mode);
        Body::call_body(&a, &t);
        if (d.sync && l + gridDim.x < d.end) __syncthreads();
    }
}

template <class Args, class T, class Body, class Join>
__global__ void reduce_kernel(const __grid_constant__ Args a, const __grid_constant__ dims d,
                              T *partials, unsigned int *counter, T *result)
{
    extern __shared__ __align__(16) unsigned char px__team_smem[];
    px_team t;
    make_team(&t, d, px__team_smem);
    T acc;
    Join::identity(&acc);
    for (int64_t l = d.first + blockIdx.x; l < d.end; l += gridDim.x) {
        px__team_enter(&t, l);
        Body::call_body(&a, &t, &acc);
        if (d.sync) __syncthreads();
    }
    /* Lane 0 of each thread counts: lanes run the same code. */
    block_reduce<T, Join>(&t, &acc, threadIdx.x == 0);
    const bool first = threadIdx.x == 0 && threadIdx.y == 0;
    if (gridDim.x == 1) {
        if (first) *result = acc;
        return;
    }
    /* The flag goes through the (free) reduction slots: no static shared memory, so that
       level 0 may have all that px_team_scratch_max promises. */
    volatile unsigned *flag = static_cast<volatile unsigned *>(t.reduce_slots);
    if (first) {
        partials[blockIdx.x] = acc;
        __threadfence();
        *flag = atomicAdd(counter, 1u) == gridDim.x - 1 ? 1u : 0u;
    }
    __syncthreads();
    const bool last = *flag != 0;
    __syncthreads(); /* every thread has read the flag before the slots are used again */
    if (!last) return;
    __threadfence();
    T all;
    Join::identity(&all);
    const unsigned nthreads = blockDim.x * blockDim.y;
    const unsigned me = threadIdx.y * blockDim.x + threadIdx.x;
    for (unsigned b = me; b < gridDim.x; b += nthreads) {
        const T part = detail::load_l2(partials + b);
        Join::join(&all, &part);
    }
    block_reduce<T, Join>(&t, &all, true);
    if (first) {
        *result = all;
        *counter = 0;
    }
}

/* Lets `kernel` have up to `limit` bytes of dynamic shared memory on the current device
   once a launch may need more than the default 48 KiB (before the occupancy API is asked,
   which honours the attribute). Always the device's whole limit, never less: a smaller
   value set by one thread could undercut another's launch. Asked only when a shape is
   resolved, which the shape memo makes once per request. */
inline cudaError_t allow_shared(const void *kernel, size_t need, size_t limit)
{
    if (need <= (size_t)48 * 1024) return cudaSuccess;
    return cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)limit);
}

/* The dynamic shared memory of a block of a team of `team` threads: the reduction slots,
   then level 0 (the team part, then each thread's). */
__host__ __device__ inline size_t block_shared(const px__team_run *r, int team)
{
    return PX__TEAM_REDUCE_BYTES + r->scratch_team[0] + r->scratch_thread[0] * (size_t)team;
}

/* block_shared of a block of `threads` threads, for the occupancy API. A named type, not
   a lambda: the API is a __host__ __device__ template, and a lambda's call operator is
   implicitly constexpr and __host__, which nvcc refuses to call from there (warnings 20013
   and 20015) unless --expt-relaxed-constexpr is given. Host and device, as the template
   that calls it (only its host side ever runs). */
struct block_shared_of {
    const px__team_run *r;
    int vector_length;
    __host__ __device__ size_t operator()(int threads) const
    {
        return block_shared(r, threads / vector_length > 0 ? threads / vector_length : 1);
    }
};

/* A team kernel's resolved shape for one request, remembered per kernel and device: the
   same request (team size, vector length, scratch) gets the same block, shared memory and
   occupancy at every dispatch, and asking CUDA again (attributes, occupancy) would cost
   more than the launch itself. One entry per device, a sequence lock around it: `seq` is
   odd while a writer fills it, 0 while empty; readers never wait (a torn read is a miss),
   a writer that finds another writing keeps nothing. Zero-initialised: a function-local
   static array of the launch template, without a guard on the launch path. */
struct shape_memo {
    static constexpr int key_words = 5;
    std::atomic<unsigned> seq;
    std::atomic<unsigned long long> key[key_words];
    std::atomic<unsigned long long> value; /* team_size | blocks per SM << 32 */
};

struct shape_request {
    unsigned long long w[shape_memo::key_words];
};

inline shape_request request_of(const px__team_run *r)
{
    shape_request q;
    q.w[0] = (unsigned long long)(uint32_t)r->team_size |
             (unsigned long long)(uint32_t)r->vector_length << 32;
    q.w[1] = r->scratch_team[0];
    q.w[2] = r->scratch_thread[0];
    q.w[3] = r->scratch_team[1];
    q.w[4] = r->scratch_thread[1];
    return q;
}

inline bool memo_find(shape_memo *m, const shape_request &q, int *team, int *per)
{
    const unsigned s = m->seq.load(std::memory_order_acquire);
    if (s == 0 || (s & 1u)) return false;
    bool same = true;
    for (int k = 0; k < shape_memo::key_words; ++k)
        same &= m->key[k].load(std::memory_order_relaxed) == q.w[k];
    const unsigned long long v = m->value.load(std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_acquire);
    if (!same || m->seq.load(std::memory_order_relaxed) != s) return false;
    *team = (int)(uint32_t)v;
    *per = (int)(uint32_t)(v >> 32);
    return true;
}

inline void memo_keep(shape_memo *m, const shape_request &q, int team, int per)
{
    unsigned s = m->seq.load(std::memory_order_relaxed);
    if ((s & 1u) || !m->seq.compare_exchange_strong(s, s + 1, std::memory_order_relaxed)) return;
    std::atomic_thread_fence(std::memory_order_release);
    for (int k = 0; k < shape_memo::key_words; ++k)
        m->key[k].store(q.w[k], std::memory_order_relaxed);
    m->value.store((unsigned long long)(uint32_t)team | (unsigned long long)(uint32_t)per << 32,
                   std::memory_order_relaxed);
    m->seq.store(s + 2, std::memory_order_release);
}

/* Resolves the team size (when automatic) for `kernel` and the blocks of that shape an SM
   holds, asking CUDA. Refusals say why in r. */
inline cudaError_t resolve_shape(const void *kernel, const px__cuda_launch_desc *l, px__team_run *r,
                                 int *team, int *per_sm)
{
    cudaFuncAttributes attr;
    cudaError_t e = cudaFuncGetAttributes(&attr, kernel);
    if (e != cudaSuccess) return e;
    const int max_threads = attr.maxThreadsPerBlock < PX_TEAM_MAX_THREADS ? attr.maxThreadsPerBlock
                                                                          : PX_TEAM_MAX_THREADS;
    const int V = r->vector_length > 0 ? r->vector_length : 1;
    const size_t limit =
        r->shared_limit > attr.sharedSizeBytes ? r->shared_limit - attr.sharedSizeBytes : 0;
    int T = r->team_size;
    e = allow_shared(kernel, block_shared(r, T > 0 ? T : max_threads / V), limit);
    if (e != cudaSuccess) return e;
    if (T <= 0) {
        /* The occupancy API's block size with this shared memory per block, at most an
           eighth of an SM's threads (as flat kernels), whole teams that fit the limit. */
        int threads_per_sm = 0;
        e = cudaDeviceGetAttribute(&threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor,
                                   l->device);
        if (e != cudaSuccess) return e;
        int cap = threads_per_sm / 8 < max_threads ? threads_per_sm / 8 : max_threads;
        if (cap < V) cap = V;
        const block_shared_of smem_of = {r, V};
        int min_grid = 0, best = 0;
        e = cudaOccupancyMaxPotentialBlockSizeVariableSMem(&min_grid, &best, kernel, smem_of, cap);
        if (e != cudaSuccess) return e;
        T = best / V > 0 ? best / V : 1;
        while (T > 1 && block_shared(r, T) > limit) --T;
        /* Level 1 within its limit too (dispatch checked it for a team of one). */
        const size_t t1 = r->scratch_team[1], th1 = r->scratch_thread[1];
        if (th1 > 0 && t1 <= PX_TEAM_SCRATCH1_MAX) {
            const size_t most1 = (PX_TEAM_SCRATCH1_MAX - t1) / th1;
            if (most1 < (size_t)T) T = most1 > 0 ? (int)most1 : 1;
        }
    }
    if ((int64_t)T * V > max_threads) {
        r->refused = PX__TEAM_REFUSED_THREADS;
        r->refused_limit = max_threads;
        return cudaErrorInvalidConfiguration;
    }
    const size_t smem = block_shared(r, T);
    if (smem > limit) {
        r->refused = PX__TEAM_REFUSED_SHARED;
        r->refused_limit = (int64_t)limit;
        return cudaErrorInvalidConfiguration;
    }
    int per = 0;
    e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, kernel, T * V, smem);
    if (e != cudaSuccess) return e;
    if (per <= 0) {
        r->refused = PX__TEAM_REFUSED_OCCUPANCY;
        r->refused_limit = 0;
        return cudaErrorInvalidConfiguration;
    }
    *team = T;
    *per_sm = per;
    return cudaSuccess;
}

/* The team's shape for `kernel` (remembered in memo[device]), the grid, and d (without level
   1's base). `one_wave`: at most one wave of resident blocks (a reduction, whose partials
   are one per block); otherwise a block per team unless level 1 needs slices per block.
   Refusals say why in r. */
inline cudaError_t plan(const void *kernel, shape_memo *memo, const px__cuda_launch_desc *l,
                        px__team_run *r, bool one_wave, dims *d, dim3 *block, int64_t *grid,
                        size_t *shared)
{
    const shape_request q = request_of(r);
    shape_memo *m =
        l->device >= 0 && l->device < detail::max_cached_devices ? &memo[l->device] : nullptr;
    int T = 0, per = 0;
    if (m == nullptr || !memo_find(m, q, &T, &per)) {
        const cudaError_t e = resolve_shape(kernel, l, r, &T, &per);
        if (e != cudaSuccess) return e;
        if (m != nullptr) memo_keep(m, q, T, per);
    }
    const int V = r->vector_length > 0 ? r->vector_length : 1;
    r->team_size = T;
    r->vector_length = V;
    const size_t t0 = r->scratch_team[0], th0 = r->scratch_thread[0];
    const size_t stride1 = r->scratch_team[1] + r->scratch_thread[1] * (size_t)T;
    int64_t g = detail::min64(detail::max64(1, r->league_size), detail::max_grid_x);
    if (one_wave || stride1 > 0) g = detail::min64(g, detail::max64(1, (int64_t)l->sm_count * per));
    /* Level 1: at most 4 GiB in all (fewer blocks, each walking more teams, when the slices
       are large). */
    if (stride1 > 0) g = detail::min64(g, detail::max64(1, (int64_t)(((size_t)4 << 30) / stride1)));
    d->league = r->league_size;
    d->team0 = t0;
    d->thread0 = th0;
    d->team1 = r->scratch_team[1];
    d->thread1 = r->scratch_thread[1];
    d->level1 = nullptr;
    d->stride1 = stride1;
    d->first = 0;
    d->end = r->league_size;
    d->has_rows = r->rows != nullptr;
    if (d->has_rows)
        d->rows = *static_cast<const px__team_rows_run *>(r->rows);
    else
        memset(&d->rows, 0, sizeof d->rows);
    d->sync = t0 + th0 + stride1 > 0;
    *block = dim3((unsigned)V, (unsigned)T, 1);
    *grid = g;
    *shared = block_shared(r, T);
    return cudaSuccess;
}

/* One block of instance scratch: `head` bytes (a reduction's partials), then level 1. */
inline cudaError_t take_scratch(const px__cuda_launch_desc *l, size_t head, dims *d, int64_t grid,
                                void **head_out)
{
    *head_out = nullptr;
    const size_t head_room = (head + 255) / 256 * 256;
    const size_t level1 = d->stride1 * (size_t)grid;
    if (head_room + level1 == 0) return cudaSuccess;
    char *p = static_cast<char *>(l->scratch(l, head_room + level1));
    if (p == nullptr) return cudaErrorMemoryAllocation;
    if (head) *head_out = p;
    if (level1) d->level1 = p + head_room;
    return cudaSuccess;
}

/* League ranks [first, end) of r's league with for_kernel<Args, Body, Mode>. */
template <class Args, class Body, int Mode>
int launch_part(const px__cuda_launch_desc *l, const Args &args, px__team_run *r, int64_t first,
                int64_t end)
{
    static shape_memo memo[detail::max_cached_devices];
    auto kernel = &for_kernel<Args, Body, Mode>;
    px__team_run part = *r;
    part.league_size = end - first;
    dims d;
    dim3 block;
    int64_t grid;
    size_t shared;
    cudaError_t e = plan(reinterpret_cast<const void *>(kernel), memo, l, &part, false, &d, &block,
                         &grid, &shared);
    r->team_size = part.team_size;
    r->vector_length = part.vector_length;
    r->refused = part.refused;
    r->refused_limit = part.refused_limit;
    if (e != cudaSuccess) return (int)e;
    d.league = r->league_size;
    d.first = first;
    d.end = end;
    void *none;
    e = take_scratch(l, 0, &d, grid, &none);
    if (e != cudaSuccess) return (int)e;
    return detail::launcher<&for_kernel<Args, Body, Mode>>::launch(
        dim3((unsigned)grid), block, shared, static_cast<cudaStream_t>(l->stream), args, d);
}

/* A league without rows in one launch; one of rows in two, its long rows first (ranks
   [0, nlong), the longest work started first), then its short part, each launch compiled
   for its part. */
template <class Args, class Body>
int launch_for(const px__cuda_launch_desc *l, const Args &args, px__team_run *r)
{
    if (r->league_size <= 0) return (int)cudaSuccess;
    const px__team_rows_run *rows = static_cast<const px__team_rows_run *>(r->rows);
    if (rows == nullptr) return launch_part<Args, Body, -1>(l, args, r, 0, r->league_size);
    const int64_t nlong = rows->nlong < r->league_size ? rows->nlong : r->league_size;
    int e = (int)cudaSuccess;
    if (nlong > 0) e = launch_part<Args, Body, PX__ROWS_LONG>(l, args, r, 0, nlong);
    if (e == (int)cudaSuccess && nlong < r->league_size)
        e = launch_part<Args, Body, PX__ROWS_SHORT>(l, args, r, nlong, r->league_size);
    return e;
}

template <class Args, class T, class Body, class Join>
int launch_reduce(const px__cuda_launch_desc *l, const Args &args, px__team_run *r)
{
    static_assert(sizeof(T) <= PX_TEAM_VALUE_MAX,
                  "a team reduction's value type exceeds PX_TEAM_VALUE_MAX");
    static shape_memo memo[detail::max_cached_devices];
    auto kernel = &reduce_kernel<Args, T, Body, Join>;
    dims d;
    dim3 block;
    int64_t grid;
    size_t shared;
    cudaError_t e =
        plan(reinterpret_cast<const void *>(kernel), memo, l, r, true, &d, &block, &grid, &shared);
    if (e != cudaSuccess) return (int)e;
    void *head;
    e = take_scratch(l, grid > 1 ? (size_t)grid * sizeof(T) : 0, &d, grid, &head);
    if (e != cudaSuccess) return (int)e;
    return detail::launcher<&reduce_kernel<Args, T, Body, Join>>::launch(
        dim3((unsigned)grid), block, shared, static_cast<cudaStream_t>(l->stream), args, d,
        static_cast<T *>(head), l->counter, static_cast<T *>(l->result));
}

} /* namespace team */
} /* namespace px_cuda */

#endif /* PORTEX_IMPL_CUDA_TEAM_CUDA_H */
