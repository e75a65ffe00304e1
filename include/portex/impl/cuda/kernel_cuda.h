/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* portex — the CUDA family's launch templates (not API), behind the kernel macros of
 * portex/kernel.h.
 *
 * C++ for nvcc only: portex/impl/cuda/family.h includes this header when a kernel file is
 * compiled as CUDA, and its generators instantiate
 * @code{.unparsed}
 *   px_cuda::launch_for1/2/3<Args, Body>(launch, args, policy)
 *   px_cuda::launch_reduce1/2/3<Args, T, Body, Join>(launch, args, policy)
 *   px_cuda::launch_scan<Args, T, Body, Join>(launch, args, policy)
 * @endcode
 * Body has `static __device__ void call_body(...)` with the kernel's parameters; Join is
 * join_fns<T, identity, join> (scans pick their CUB operator by the join function). Every
 * launch returns a cudaError_t as an int (0: queued) and leaves no pending error behind: a
 * failed launch's error is cleared with cudaGetLastError.
 *
 * How each kind runs (docs/cuda.md has the measurements and the reasons):
 *   - arguments travel by value as the kernel parameter (`__grid_constant__`: the body reads
 *     them from parameter memory, no per-thread copy);
 *   - block sizes come from the occupancy API, once per kernel and device (function-local
 *     static caches, constant-initialised: no guard on the launch path);
 *   - index arithmetic runs on offsets from the range's begin, which never exceed its
 *     extent (end - begin fits in int64_t: dispatch refuses other policies), so nothing
 *     overflows next to INT64_MAX or INT64_MIN;
 *   - 1-D for: one element per thread of a grid that covers the range (no loop) up to 2^31
 *     elements; beyond, or with PX_CUDA_FOR_GRID=sm, a grid-stride loop over a grid sized
 *     to the SMs; 32-bit offsets when the range allows;
 *   - 2-D/3-D for: the fastest index (policy.iterate) on threadIdx.x, tiles honoured;
 *   - reduce: one pass; unrolled grid-stride accumulation, cub::BlockReduce, one partial
 *     per block in scratch, the last block to finish folds the partials;
 *   - scan: one pass with decoupled look-back over tiles (scan_tile_kernel): the body runs
 *     at striped indices with final = false, then again with final = true from each index's
 *     exclusive prefix; a built-in sum scans as cuda::std::plus. Beyond 2^31 tiles,
 *     cub::DeviceScan::ExclusiveScan over n + 1 items through two iterators that call the
 *     body. */
#ifndef PORTEX_IMPL_CUDA_KERNEL_CUDA_H
#define PORTEX_IMPL_CUDA_KERNEL_CUDA_H

#ifndef __CUDACC__
#error "portex/impl/cuda/kernel_cuda.h is for nvcc; include portex/kernel.h instead"
#endif

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include <cuda.h>
#include <cuda_runtime.h>
#include <cuda/std/functional>
#include <cuda/std/iterator>
#include <cub/agent/single_pass_scan_operators.cuh>
#include <cub/block/block_exchange.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/device/device_scan.cuh>

#include "portex/impl/cuda/family.h"
#include "portex/kernel.h"

namespace px_cuda {

/* A join as a type: the PX_IDENTITY and PX_JOIN functions of a reduction or scan. */
template <class T, void (*I)(T *), void (*J)(T *, const T *)> struct join_fns {
    static __host__ __device__ __forceinline__ void identity(T *v) { I(v); }
    static __host__ __device__ __forceinline__ void join(T *d, const T *s) { J(d, s); }
};

namespace detail {

/* ---- Launch shapes ------------------------------------------------------------------ */

/* Devices whose shapes are cached; a larger ordinal is recomputed at every launch. */
constexpr int max_cached_devices = 64;
constexpr int64_t max_grid_x = 2147483647;
constexpr int64_t max_grid_yz = 65535;
constexpr int max_block_z = 64;

/* What the occupancy API says about one kernel on one device. */
struct shape {
    int block;         /* threads per block for this kernel */
    int blocks_per_sm; /* resident blocks of that size per SM */
    int max_threads;   /* the most threads a block of this kernel may have */
};

using shape_cache = std::atomic<unsigned long long>;

inline unsigned long long pack_shape(const shape &s)
{
    return (unsigned long long)(unsigned)s.block |
           ((unsigned long long)(unsigned)s.blocks_per_sm << 16) |
           ((unsigned long long)(unsigned)s.max_threads << 32) | (1ull << 63);
}

inline shape unpack_shape(unsigned long long v)
{
    shape s;
    s.block = (int)(v & 0xffffu);
    s.blocks_per_sm = (int)((v >> 16) & 0xffffu);
    s.max_threads = (int)((v >> 32) & 0xffffu);
    return s;
}

/* The occupancy API's block size for a kernel without shared memory, limited to an eighth
 * of an SM's threads (256 on Hopper and Ampere): the largest size with the best
 * occupancy is usually 1024, and with blocks that large an SM idles while the last warps
 * of a block finish; eight resident blocks keep the tail small. The limit only caps the
 * search: register-heavy kernels still get the smaller size the API picks. */
inline cudaError_t compute_shape(const void *kernel, int device, shape *out)
{
    int per_sm = 0, warp = 0;
    cudaError_t e = cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, device);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, device);
    cudaFuncAttributes attr;
    if (e == cudaSuccess) e = cudaFuncGetAttributes(&attr, kernel);
    if (e != cudaSuccess) return e;
    int limit = per_sm / 8 / warp * warp;
    if (limit < warp) limit = warp;
    if (limit > attr.maxThreadsPerBlock) limit = attr.maxThreadsPerBlock;
    int min_grid = 0, block = 0;
    e = cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, kernel, 0, limit);
    if (e != cudaSuccess) return e;
    int per = 0;
    e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, kernel, block, 0);
    if (e != cudaSuccess) return e;
    if (block <= 0 || per <= 0) return cudaErrorLaunchOutOfResources;
    out->block = block;
    out->blocks_per_sm = per;
    out->max_threads = attr.maxThreadsPerBlock;
    return cudaSuccess;
}

/* The shape of `kernel` on `device`, cached in `cache` (a function-local static array of
 * the launch template, one per kernel). Racing threads compute the same value. */
inline cudaError_t shape_of(const void *kernel, int device, shape_cache *cache, shape *out)
{
    const bool cached = device >= 0 && device < max_cached_devices;
    if (cached) {
        const unsigned long long v = cache[device].load(std::memory_order_relaxed);
        if (v != 0) {
            *out = unpack_shape(v);
            return cudaSuccess;
        }
    }
    const cudaError_t e = compute_shape(kernel, device, out);
    if (e == cudaSuccess && cached)
        cache[device].store(pack_shape(*out), std::memory_order_relaxed);
    return e;
}

/* PX_CUDA_FOR_GRID=sm sizes 1-D for grids to the SMs (grid-stride) even when one thread
 * per element would fit; the default, "flat", covers the range. A tuning aid for
 * benchmarks, read once, when the program starts (a launch reads a plain bool). */
inline bool read_for_grid_sm()
{
    const char *v = std::getenv("PX_CUDA_FOR_GRID");
    return v != nullptr && std::strcmp(v, "sm") == 0;
}
inline const bool for_grid_sm = read_for_grid_sm();

/* a >= 0, b > 0; no a + b - 1 that could overflow. */
__host__ __device__ inline int64_t ceil_div(int64_t a, int64_t b) { return a / b + (a % b != 0); }
__host__ __device__ inline int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
__host__ __device__ inline int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }
__host__ __device__ inline uint64_t minu64(uint64_t a, uint64_t b) { return a < b ? a : b; }

template <class T> struct same {
    using type = T;
};

/* ---- Launching ------------------------------------------------------------------------ */

using driver_launch_fn = CUresult(CUDAAPI *)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                                             unsigned, unsigned, unsigned, CUstream, void **,
                                             void **);

/* The driver's cuLaunchKernel as the library found it (NULL without one), asked once. */
inline driver_launch_fn driver_launch()
{
    static const driver_launch_fn f =
        reinterpret_cast<driver_launch_fn>(px__kabi_cuda_launch_entry());
    return f;
}

/* Launching kernel K and returning the launch's own status: no cudaGetLastError after a
 * good launch, so an error the caller's code left pending is neither taken for portex's
 * nor cleared. A launch goes to the driver with K's CUkernel, found once: a context-free
 * handle, launched in its stream's context (partitions' green contexts included), which
 * skips the runtime's search for K's host stub at every launch (0.1-0.2 us of a 3.5 us
 * launch on the H200 machine; docs/results/history.md). Without the driver's call or the
 * handle, or when the driver refuses, the runtime launches it and says why it failed; a
 * failure is cleared so that the caller's next CUDA call does not find it: portex reports
 * it. The parameter types come from the kernel alone (same<P> is not deduced), so an
 * argument of that type is passed where it is, not copied (the arguments struct can be
 * large); others convert to a temporary. */
template <auto K> struct launcher;
template <class... P, void (*K)(P...)> struct launcher<K> {
    static CUkernel handle()
    {
        static std::atomic<CUkernel> cache{nullptr};
        CUkernel k = cache.load(std::memory_order_acquire);
        if (k != nullptr) return k;
        cudaKernel_t h = nullptr;
        if (cudaGetKernel(&h, reinterpret_cast<const void *>(K)) != cudaSuccess || h == nullptr) {
            (void)cudaGetLastError();
            return nullptr;
        }
        k = reinterpret_cast<CUkernel>(h);
        cache.store(k, std::memory_order_release);
        return k;
    }

    static int launch(dim3 grid, dim3 block, size_t shared, cudaStream_t s,
                      const typename same<P>::type &...a)
    {
        void *ptrs[] = {const_cast<void *>(static_cast<const void *>(&a))...};
        const driver_launch_fn drv = driver_launch();
        const CUkernel k = drv != nullptr ? handle() : nullptr;
        if (k != nullptr &&
            drv(reinterpret_cast<CUfunction>(k), grid.x, grid.y, grid.z, block.x, block.y, block.z,
                (unsigned)shared, reinterpret_cast<CUstream>(s), ptrs, nullptr) == CUDA_SUCCESS)
            return (int)cudaSuccess;
        const cudaError_t e =
            cudaLaunchKernel(reinterpret_cast<const void *>(K), grid, block, ptrs, shared, s);
        if (e != cudaSuccess) (void)cudaGetLastError();
        return (int)e;
    }
};

/* ---- Joins as functors -------------------------------------------------------------- */

template <class T, class Join> struct join_op {
    __host__ __device__ __forceinline__ T operator()(const T &a, const T &b) const
    {
        T r = a;
        Join::join(&r, &b);
        return r;
    }
};

/* The operator a scan hands CUB. CUB tunes its tiles per architecture for its own
 * operators only; behind any other functor it falls back to generic tiles. A built-in sum
 * therefore goes as cuda::std::plus (same arithmetic: `*d += *s`): on the H200 an
 * inclusive scan of 2^28 int64 took 1.33 ms this way against 1.52 ms through join_op, with
 * cub::DeviceScan::InclusiveSum at 1.24 ms. */
template <class T, class Join> struct scan_op {
    using type = join_op<T, Join>;
};
#define PX__CUDA_SCAN_PLUS(T)                                                       \
    template <void (*I)(T *)> struct scan_op<T, join_fns<T, I, &px_join_sum_##T>> { \
        using type = cuda::std::plus<T>;                                            \
    };
PX__CUDA_SCAN_PLUS(float)
PX__CUDA_SCAN_PLUS(double)
PX__CUDA_SCAN_PLUS(int32_t)
PX__CUDA_SCAN_PLUS(int64_t)
PX__CUDA_SCAN_PLUS(uint32_t)
PX__CUDA_SCAN_PLUS(uint64_t)
#undef PX__CUDA_SCAN_PLUS

/* A load that bypasses L1: partials written by other SMs must come from L2. */
template <class T> __device__ __forceinline__ T load_l2(const T *p)
{
    T v;
    if constexpr (sizeof(T) % 8 == 0 && alignof(T) >= 8) {
        unsigned long long w[sizeof(T) / 8];
#pragma unroll
        for (size_t k = 0; k < sizeof(T) / 8; ++k)
            w[k] = __ldcg(reinterpret_cast<const unsigned long long *>(p) + k);
        memcpy(&v, w, sizeof(T));
    } else if constexpr (sizeof(T) % 4 == 0 && alignof(T) >= 4) {
        unsigned int w[sizeof(T) / 4];
#pragma unroll
        for (size_t k = 0; k < sizeof(T) / 4; ++k)
            w[k] = __ldcg(reinterpret_cast<const unsigned int *>(p) + k);
        memcpy(&v, w, sizeof(T));
    } else {
        unsigned char b[sizeof(T)];
        const volatile unsigned char *s = reinterpret_cast<const volatile unsigned char *>(p);
        for (size_t k = 0; k < sizeof(T); ++k) b[k] = s[k];
        memcpy(&v, b, sizeof(T));
    }
    return v;
}

/* ---- 1-D for ----------------------------------------------------------------------- */

/* Grid-stride loop over offsets k in [0, n) of type I (uint32_t when the range and the
 * grid allow it: cheaper index arithmetic; uint64_t otherwise, where k + stride < 2^64).
 * Every parallel_for kernel takes the arguments struct first, then 2 parameters (1-D:
 * begin, n) or 1 (N-D: the md_range): graph kernel nodes change parameter 0 in place and
 * count on that (src/backends/cuda/cuda_graph_build.c). */
template <class Args, class Body, class I>
__global__ void for1_kernel(const __grid_constant__ Args a, int64_t begin, I n)
{
    const I stride = (I)gridDim.x * (I)blockDim.x;
    for (I k = (I)blockIdx.x * (I)blockDim.x + (I)threadIdx.x; k < n; k += stride)
        Body::call_body(&a, begin + (int64_t)k);
}

/* One element per thread of a grid that covers the range (the default 1-D shape, up to
 * 2^31 elements): no loop, no stride, the instructions of a hand-written kernel's
 * `if (i < n)`. Same parameters as for1_kernel (graph nodes count on it). */
template <class Args, class Body>
__global__ void for1_exact_kernel(const __grid_constant__ Args a, int64_t begin, uint32_t n)
{
    const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < n) Body::call_body(&a, begin + (int64_t)k);
}

/* Blocks for a 1-D grid-stride loop over n items: the whole range when it fits, else
 * (or with PX_CUDA_FOR_GRID=sm) the blocks that fill every SM once. */
inline int64_t for1_grid(int64_t n, const shape &sh, int sm_count)
{
    const int64_t flat = ceil_div(n, sh.block);
    const int64_t wave = max64(1, (int64_t)sm_count * sh.blocks_per_sm);
    if (flat <= max_grid_x && !for_grid_sm) return flat;
    return min64(flat, min64(wave, max_grid_x));
}

/* ---- 2-D to 6-D ranges --------------------------------------------------------------- */

/* A policy seen along hardware axes: axis 0 is the fastest index (threadIdx.x), axis 2
 * the slowest; a 2-D range has axis 2 = [0, 1). n[a] is the extent on axis a (kernels walk
 * offsets in [0, n[a]) and call the body with begin[a] + offset), tile[a] its tile. */
struct md_range {
    int64_t begin[3];
    int64_t n[3];
    int64_t tile[3];
};

/* Block dimensions over the axes. */
struct md_block {
    int x, y, z;
};

/* The policy's dimension on hardware axis `axis`, or -1 for the unused third axis. */
inline int md_dim(int rank, bool right, int axis)
{
    if (axis >= rank) return -1;
    return right ? rank - 1 - axis : axis;
}

inline md_range md_from_policy(const px_policy &p, int rank, bool right)
{
    md_range r;
    for (int a = 0; a < 3; ++a) {
        const int d = md_dim(rank, right, a);
        r.begin[a] = d < 0 ? 0 : p.begin[d];
        r.n[a] = d < 0 ? 1 : max64(0, p.end[d] - p.begin[d]);
        r.tile[a] = d < 0 ? 1 : p.tile[d];
    }
    return r;
}

/* Ranks 4 to 6: the two fastest dimensions on axes 0 and 1, the others flattened onto
 * axis 2 (begin 0, n their product), outer[k] the k-th fastest of them: an offset on axis 2
 * splits into their indices. One more parameter struct, only for those ranks. */
struct md_outer {
    int64_t begin[PX_POLICY_MAX_RANK - 2];
    int64_t n[PX_POLICY_MAX_RANK - 2];
};
struct md_range_hi : md_range {
    md_outer outer;
};
template <int R, bool Hi = (R > 3)> struct md_range_sel {
    using type = md_range;
};
template <int R> struct md_range_sel<R, true> {
    using type = md_range_hi;
};
template <int R> using md_range_of = typename md_range_sel<R>::type;

/* The policy dimension of outer[k] (ranks 4 to 6). */
__host__ __device__ constexpr int md_outer_dim(int rank, bool right, int k)
{
    return right ? rank - 3 - k : 2 + k;
}

template <int R> inline md_range_of<R> md_range_from(const px_policy &p, bool right)
{
    if constexpr (R <= 3) {
        return md_from_policy(p, R, right);
    } else {
        md_range_hi r;
        for (int a = 0; a < 2; ++a) {
            const int d = right ? R - 1 - a : a;
            r.begin[a] = p.begin[d];
            r.n[a] = max64(0, p.end[d] - p.begin[d]);
            r.tile[a] = p.tile[d];
        }
        /* The product of extents fits: dispatch checks the index count does. */
        int64_t n = 1;
        for (int k = 0; k < PX_POLICY_MAX_RANK - 2; ++k) {
            const bool used = k < R - 2;
            const int d = used ? md_outer_dim(R, right, k) : 0;
            r.outer.begin[k] = used ? p.begin[d] : 0;
            r.outer.n[k] = used ? max64(0, p.end[d] - p.begin[d]) : 1;
            n *= r.outer.n[k];
        }
        r.begin[2] = 0;
        r.n[2] = n;
        r.tile[2] = 0;
        return r;
    }
}

inline int64_t md_extent(const md_range &r, int a) { return r.n[a]; }

/* md_call of ranks 4 to 6, the order known at compile time (indices stay in registers). */
template <class Body, class Args, int R, bool Right, class... V>
__device__ __forceinline__ void md_call_hi(const Args *a, const md_range_hi &r, uint64_t ox,
                                           uint64_t oy, uint64_t oz, V *...acc)
{
    int64_t d[R];
    d[Right ? R - 1 : 0] = r.begin[0] + (int64_t)ox;
    d[Right ? R - 2 : 1] = r.begin[1] + (int64_t)oy;
#pragma unroll
    for (int k = 0; k < R - 2; ++k) {
        const uint64_t n = (uint64_t)r.outer.n[k];
        d[md_outer_dim(R, Right, k)] = r.outer.begin[k] + (int64_t)(oz % n);
        oz /= n;
    }
    if constexpr (R == 4)
        Body::call_body(a, d[0], d[1], d[2], d[3], acc...);
    else if constexpr (R == 5)
        Body::call_body(a, d[0], d[1], d[2], d[3], d[4], acc...);
    else
        Body::call_body(a, d[0], d[1], d[2], d[3], d[4], d[5], acc...);
}

/* Calls the body at offsets (x, y, z) from the range's begin, with the axes put back in
 * the policy's order. */
template <class Body, class Args, int R, class Range, class... V>
__device__ __forceinline__ void md_call(const Args *a, const Range &r, bool right, uint64_t ox,
                                        uint64_t oy, uint64_t oz, V *...acc)
{
    if constexpr (R > 3) {
        if (right)
            md_call_hi<Body, Args, R, true>(a, r, ox, oy, oz, acc...);
        else
            md_call_hi<Body, Args, R, false>(a, r, ox, oy, oz, acc...);
    } else {
        const int64_t x = r.begin[0] + (int64_t)ox, y = r.begin[1] + (int64_t)oy;
        const int64_t z = R == 3 ? r.begin[2] + (int64_t)oz : 0;
        if constexpr (R == 2) {
            if (right)
                Body::call_body(a, y, x, acc...);
            else
                Body::call_body(a, x, y, acc...);
        } else {
            if (right)
                Body::call_body(a, z, y, x, acc...);
            else
                Body::call_body(a, x, y, z, acc...);
        }
    }
}

/* One element per thread of a grid that covers the range (grid-stride on an axis whose
 * blocks would exceed the grid's limit). Blocks are the tiles when tiles are given. */
template <class Args, class Body, int R, bool Right>
__global__ void for_md_kernel(const __grid_constant__ Args a, md_range_of<R> r)
{
    const uint64_t sx = (uint64_t)gridDim.x * blockDim.x;
    const uint64_t sy = (uint64_t)gridDim.y * blockDim.y;
    const uint64_t sz = (uint64_t)gridDim.z * blockDim.z;
    const uint64_t x0 = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const uint64_t y0 = (uint64_t)blockIdx.y * blockDim.y + threadIdx.y;
    const uint64_t nx = (uint64_t)r.n[0], ny = (uint64_t)r.n[1], nz = (uint64_t)r.n[2];
    for (uint64_t z = (uint64_t)blockIdx.z * blockDim.z + threadIdx.z; z < nz; z += sz)
        for (uint64_t y = y0; y < ny; y += sy)
            for (uint64_t x = x0; x < nx; x += sx) md_call<Body, Args, R>(&a, r, Right, x, y, z);
}

/* Tiles larger than a block: each block walks its tile (tiles grid-stride over the grid),
 * so one tile's iterations still run on one block, as on the host. */
template <class Args, class Body, int R, bool Right>
__global__ void for_md_tiled_kernel(const __grid_constant__ Args a, md_range_of<R> r)
{
    const uint64_t nx = (uint64_t)r.n[0], ny = (uint64_t)r.n[1], nz = (uint64_t)r.n[2];
    const uint64_t tx = (uint64_t)r.tile[0], ty = (uint64_t)r.tile[1], tz = (uint64_t)r.tile[2];
    for (uint64_t oz = blockIdx.z * tz; oz < nz; oz += gridDim.z * tz) {
        const uint64_t ez = minu64(oz + tz, nz);
        for (uint64_t oy = blockIdx.y * ty; oy < ny; oy += gridDim.y * ty) {
            const uint64_t ey = minu64(oy + ty, ny);
            for (uint64_t ox = blockIdx.x * tx; ox < nx; ox += gridDim.x * tx) {
                const uint64_t ex = minu64(ox + tx, nx);
                for (uint64_t z = oz + threadIdx.z; z < ez; z += blockDim.z)
                    for (uint64_t y = oy + threadIdx.y; y < ey; y += blockDim.y)
                        for (uint64_t x = ox + threadIdx.x; x < ex; x += blockDim.x)
                            md_call<Body, Args, R>(&a, r, Right, x, y, z);
            }
        }
    }
}

/* Fills unset extents of `b` (0) from a budget of `threads`: the fastest axis first, in
 * warps, then the slower ones; each at most the range's extent. */
inline md_block md_fill_block(md_block b, const md_range &r, int threads)
{
    int64_t budget = threads;
    if (b.x > 0) budget /= b.x;
    if (b.y > 0) budget /= max64(1, b.y);
    if (b.z > 0) budget /= max64(1, b.z);
    budget = max64(1, budget);
    if (b.x == 0) {
        const int64_t want = ceil_div(min64(md_extent(r, 0), budget), 32) * 32;
        b.x = (int)max64(1, min64(budget, want));
        budget = max64(1, budget / b.x);
    }
    if (b.y == 0) {
        b.y = (int)max64(1, min64(budget, md_extent(r, 1)));
        budget = max64(1, budget / b.y);
    }
    if (b.z == 0) b.z = (int)max64(1, min64(min64(budget, md_extent(r, 2)), max_block_z));
    return b;
}

/* The tile on each axis as given by the policy, clamped to the range and to an int (a tile
 * is walked by one block: a larger one only groups iterations differently) (0: not given). */
inline int md_axis_tile(const md_range &r, int a)
{
    return (int)min64(min64(max64(0, r.tile[a]), max64(1, md_extent(r, a))), INT32_MAX);
}

inline md_block md_policy_tile(const md_range &r)
{
    md_block t;
    t.x = md_axis_tile(r, 0);
    t.y = md_axis_tile(r, 1);
    t.z = md_axis_tile(r, 2);
    return t;
}

inline dim3 md_grid(const md_range &r, int64_t tx, int64_t ty, int64_t tz)
{
    return dim3((unsigned)min64(ceil_div(md_extent(r, 0), tx), max_grid_x),
                (unsigned)min64(ceil_div(md_extent(r, 1), ty), max_grid_yz),
                (unsigned)min64(ceil_div(md_extent(r, 2), tz), max_grid_yz));
}

/* One element per thread, the grid covering the range exactly: no loops, 32-bit block
 * arithmetic. At 4 TB/s a few dozen instructions per element already cost bandwidth. */
template <class Args, class Body, int R, bool Right>
__global__ void for_md_exact_kernel(const __grid_constant__ Args a, md_range_of<R> r)
{
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
    const unsigned z = R >= 3 ? blockIdx.z * blockDim.z + threadIdx.z : 0;
    if (x < r.n[0] && y < r.n[1] && (R == 2 || z < r.n[2]))
        md_call<Body, Args, R>(&a, r, Right, x, y, z);
}

/* Blocks of shape b over r: the exact kernel when the grid covers the range within the
   hardware's limits and 32-bit indices, else the grid-stride one. */
template <class Args, class Body, int R, bool Right>
int launch_md_block(const md_range_of<R> &r, md_block b, cudaStream_t s, const Args &args)
{
    const dim3 grid = md_grid(r, b.x, b.y, b.z);
    const bool covers =
        (int64_t)grid.x * b.x >= md_extent(r, 0) && (int64_t)grid.y * b.y >= md_extent(r, 1) &&
        (int64_t)grid.z * b.z >= md_extent(r, 2) && (int64_t)grid.x * b.x <= INT32_MAX &&
        (int64_t)grid.y * b.y <= INT32_MAX && (int64_t)grid.z * b.z <= INT32_MAX;
    if (covers)
        return launcher<&for_md_exact_kernel<Args, Body, R, Right>>::launch(
            grid, dim3(b.x, b.y, b.z), 0, s, args, r);
    return launcher<&for_md_kernel<Args, Body, R, Right>>::launch(grid, dim3(b.x, b.y, b.z), 0, s,
                                                                  args, r);
}

template <class Args, class Body, int R, bool Right>
int launch_md_for(const px__cuda_launch_desc *l, const Args &args, md_range_of<R> r)
{
    static shape_cache cache_flat[max_cached_devices];
    static shape_cache cache_tiled[max_cached_devices];
    cudaStream_t s = static_cast<cudaStream_t>(l->stream);

    shape sh;
    cudaError_t e = shape_of(reinterpret_cast<const void *>(&for_md_kernel<Args, Body, R, Right>),
                             l->device, cache_flat, &sh);
    if (e != cudaSuccess) return (int)e;

    const md_block tile = md_policy_tile(r);
    const bool tiled = tile.x > 0 || tile.y > 0 || tile.z > 0;
    if (!tiled) {
        const md_block b = md_fill_block(md_block{0, 0, 0}, r, sh.block);
        return launch_md_block<Args, Body, R, Right>(r, b, s, args);
    }

    /* Unset tile extents are chosen as blocks are. A tile that fits in one block is the
       block; a larger one is walked by a block of the tiled kernel. */
    const md_block t = md_fill_block(tile, r, sh.block);
    r.tile[0] = t.x;
    r.tile[1] = t.y;
    r.tile[2] = t.z;
    if ((int64_t)t.x * t.y * t.z <= sh.max_threads && t.y <= 1024 && t.z <= max_block_z) {
        return launch_md_block<Args, Body, R, Right>(r, t, s, args);
    }
    shape st;
    e = shape_of(reinterpret_cast<const void *>(&for_md_tiled_kernel<Args, Body, R, Right>),
                 l->device, cache_tiled, &st);
    if (e != cudaSuccess) return (int)e;
    md_block b;
    b.x = (int)min64(t.x, st.block);
    b.y = (int)min64(t.y, max64(1, st.block / b.x));
    b.z = (int)min64(min64(t.z, max64(1, st.block / ((int64_t)b.x * b.y))), max_block_z);
    return launcher<&for_md_tiled_kernel<Args, Body, R, Right>>::launch(
        md_grid(r, t.x, t.y, t.z), dim3(b.x, b.y, b.z), 0, s, args, r);
}

template <class Args, class Body, int R>
int launch_for_md(const px__cuda_launch_desc *l, const Args &args, const px_policy &p)
{
    const bool right = p.iterate != PX_ITERATE_LEFT;
    const md_range_of<R> r = md_range_from<R>(p, right);
    if (md_extent(r, 0) <= 0 || md_extent(r, 1) <= 0 || md_extent(r, 2) <= 0)
        return (int)cudaSuccess;
    return right ? launch_md_for<Args, Body, R, true>(l, args, r)
                 : launch_md_for<Args, Body, R, false>(l, args, r);
}

/* ---- Reductions ---------------------------------------------------------------------- */

/* Independent accumulators per thread in the 1-D loop: that many loads in flight. */
constexpr int reduce_unroll = 4;

/* Block sizes a reduction is compiled for (cub::BlockReduce takes the size at compile
 * time); the occupancy API picks one per kernel and device. */
constexpr int reduce_blocks[3] = {128, 256, 512};

/* Folds each thread's value into one per block, then the last block to finish folds the
 * blocks' partials and writes *result; it also resets the counter for the next launch. */
template <class T, class Join, int B>
__device__ __forceinline__ void reduce_finish(T v, unsigned block_id, unsigned nblocks, T *partials,
                                              unsigned int *counter, T *result)
{
    using block_reduce = cub::BlockReduce<T, B>;
    __shared__ typename block_reduce::TempStorage tmp;
    __shared__ bool last;
    const join_op<T, Join> op;
    const T total = block_reduce(tmp).Reduce(v, op);
    if (nblocks == 1) {
        if (threadIdx.x == 0) *result = total;
        return;
    }
    if (threadIdx.x == 0) {
        partials[block_id] = total;
        __threadfence(); /* the partial is visible before the count says so */
        last = atomicAdd(counter, 1u) == nblocks - 1;
    }
    __syncthreads();
    if (!last) return;
    __threadfence();
    T acc;
    Join::identity(&acc);
    for (unsigned b = threadIdx.x; b < nblocks; b += B) {
        const T p = load_l2(partials + b);
        Join::join(&acc, &p);
    }
    const T all = block_reduce(tmp).Reduce(acc, op); /* tmp reuse: after __syncthreads */
    if (threadIdx.x == 0) {
        *result = all;
        *counter = 0;
    }
}

/* __launch_bounds__(B) lets ptxas aim at full occupancy (32 registers for a dot on
 * sm_90, no spills); the 2-D/3-D kernel goes without, as there the same aim spills. */
template <class Args, class T, class Body, class Join, int B>
__global__ void __launch_bounds__(B)
    reduce1_kernel(const __grid_constant__ Args a, int64_t begin, int64_t n, T *partials,
                   unsigned int *counter, T *result)
{
    constexpr int U = reduce_unroll;
    T acc[U];
#pragma unroll
    for (int u = 0; u < U; ++u) Join::identity(&acc[u]);
    const uint64_t stride = (uint64_t)gridDim.x * B, un = (uint64_t)n;
    uint64_t k = (uint64_t)blockIdx.x * B + threadIdx.x;
    for (; k + (U - 1) * stride < un; k += U * stride) {
#pragma unroll
        for (int u = 0; u < U; ++u) Body::call_body(&a, begin + (int64_t)(k + u * stride), &acc[u]);
    }
    for (; k < un; k += stride) Body::call_body(&a, begin + (int64_t)k, &acc[0]);
#pragma unroll
    for (int u = 1; u < U; ++u) Join::join(&acc[0], &acc[u]);
    reduce_finish<T, Join, B>(acc[0], blockIdx.x, gridDim.x, partials, counter, result);
}

/* 2-D to 6-D: a 1-D block of B threads seen as bx * by * bz (threads beyond that contribute
 * the identity), walking tiles of r.tile over a grid sized to the SMs. */
template <class Args, class T, class Body, class Join, int B, int R>
__global__ void reduce_md_kernel(const __grid_constant__ Args a, md_range_of<R> r, md_block blk,
                                 bool right, T *partials, unsigned int *counter, T *result)
{
    const int t = (int)threadIdx.x;
    const int tx = t % blk.x;
    const int ty = (t / blk.x) % blk.y;
    const int tz = t / (blk.x * blk.y);
    T acc;
    Join::identity(&acc);
    const uint64_t nx = (uint64_t)r.n[0], ny = (uint64_t)r.n[1], nz = (uint64_t)r.n[2];
    const uint64_t sx = (uint64_t)r.tile[0], sy = (uint64_t)r.tile[1], sz = (uint64_t)r.tile[2];
    if (tz < blk.z) {
        for (uint64_t oz = blockIdx.z * sz; oz < nz; oz += gridDim.z * sz) {
            const uint64_t ez = minu64(oz + sz, nz);
            for (uint64_t oy = blockIdx.y * sy; oy < ny; oy += gridDim.y * sy) {
                const uint64_t ey = minu64(oy + sy, ny);
                for (uint64_t ox = blockIdx.x * sx; ox < nx; ox += gridDim.x * sx) {
                    const uint64_t ex = minu64(ox + sx, nx);
                    for (uint64_t z = oz + tz; z < ez; z += blk.z)
                        for (uint64_t y = oy + ty; y < ey; y += blk.y)
                            for (uint64_t x = ox + tx; x < ex; x += blk.x)
                                md_call<Body, Args, R>(&a, r, right, x, y, z, &acc);
                }
            }
        }
    }
    const unsigned id = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    reduce_finish<T, Join, B>(acc, id, gridDim.x * gridDim.y * gridDim.z, partials, counter,
                              result);
}

/* Which of reduce_blocks a reduction kernel runs with on a device, and how many of its
 * blocks fit on an SM: the most resident threads, the larger block on a tie (fewer
 * partials). Cached like shapes. */
inline cudaError_t reduce_choice(const void *const kernels[3], int device, shape_cache *cache,
                                 shape *out)
{
    const bool cached = device >= 0 && device < max_cached_devices;
    if (cached) {
        const unsigned long long v = cache[device].load(std::memory_order_relaxed);
        if (v != 0) {
            *out = unpack_shape(v);
            return cudaSuccess;
        }
    }
    int best = -1, best_per = 0;
    for (int c = 0; c < 3; ++c) {
        int per = 0;
        const cudaError_t e =
            cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, kernels[c], reduce_blocks[c], 0);
        if (e != cudaSuccess) return e;
        if (per > 0 && (best < 0 || per * reduce_blocks[c] >= best_per * reduce_blocks[best])) {
            best = c;
            best_per = per;
        }
    }
    if (best < 0) return cudaErrorLaunchOutOfResources;
    out->block = reduce_blocks[best];
    out->blocks_per_sm = best_per;
    out->max_threads = reduce_blocks[best];
    if (cached) cache[device].store(pack_shape(*out), std::memory_order_relaxed);
    return cudaSuccess;
}

template <class T>
inline cudaError_t reduce_scratch(const px__cuda_launch_desc *l, int64_t blocks, T **partials)
{
    *partials = nullptr;
    if (blocks <= 1) return cudaSuccess;
    void *p = l->scratch(l, (size_t)blocks * sizeof(T));
    if (p == nullptr) return cudaErrorMemoryAllocation;
    *partials = static_cast<T *>(p);
    return cudaSuccess;
}

template <class Args, class T, class Body, class Join>
int launch_reduce_1d(const px__cuda_launch_desc *l, const Args &args, const px_policy &p)
{
    static shape_cache cache[max_cached_devices];
    const void *const kernels[3] = {
        reinterpret_cast<const void *>(&reduce1_kernel<Args, T, Body, Join, reduce_blocks[0]>),
        reinterpret_cast<const void *>(&reduce1_kernel<Args, T, Body, Join, reduce_blocks[1]>),
        reinterpret_cast<const void *>(&reduce1_kernel<Args, T, Body, Join, reduce_blocks[2]>)};
    shape sh;
    cudaError_t e = reduce_choice(kernels, l->device, cache, &sh);
    if (e != cudaSuccess) return (int)e;
    const int64_t n = max64(0, p.end[0] - p.begin[0]);
    const int64_t wave = max64(1, (int64_t)l->sm_count * sh.blocks_per_sm);
    const int64_t grid = max64(1, min64(ceil_div(n, (int64_t)sh.block * reduce_unroll), wave));
    T *partials;
    e = reduce_scratch<T>(l, grid, &partials);
    if (e != cudaSuccess) return (int)e;
    T *result = static_cast<T *>(l->result);
    cudaStream_t s = static_cast<cudaStream_t>(l->stream);
    const unsigned g = (unsigned)grid;
    switch (sh.block) {
    case reduce_blocks[0]:
        return launcher<&reduce1_kernel<Args, T, Body, Join, reduce_blocks[0]>>::launch(
            dim3(g), dim3(reduce_blocks[0]), 0, s, args, p.begin[0], n, partials, l->counter,
            result);
    case reduce_blocks[1]:
        return launcher<&reduce1_kernel<Args, T, Body, Join, reduce_blocks[1]>>::launch(
            dim3(g), dim3(reduce_blocks[1]), 0, s, args, p.begin[0], n, partials, l->counter,
            result);
    default:
        return launcher<&reduce1_kernel<Args, T, Body, Join, reduce_blocks[2]>>::launch(
            dim3(g), dim3(reduce_blocks[2]), 0, s, args, p.begin[0], n, partials, l->counter,
            result);
    }
}

template <class Args, class T, class Body, class Join, int R>
int launch_reduce_md(const px__cuda_launch_desc *l, const Args &args, const px_policy &p)
{
    static shape_cache cache[max_cached_devices];
    const void *const kernels[3] = {
        reinterpret_cast<const void *>(&reduce_md_kernel<Args, T, Body, Join, reduce_blocks[0], R>),
        reinterpret_cast<const void *>(&reduce_md_kernel<Args, T, Body, Join, reduce_blocks[1], R>),
        reinterpret_cast<const void *>(
            &reduce_md_kernel<Args, T, Body, Join, reduce_blocks[2], R>)};
    shape sh;
    cudaError_t e = reduce_choice(kernels, l->device, cache, &sh);
    if (e != cudaSuccess) return (int)e;

    const bool right = p.iterate != PX_ITERATE_LEFT;
    md_range_of<R> r = md_range_from<R>(p, right);
    const bool empty = md_extent(r, 0) <= 0 || md_extent(r, 1) <= 0 || md_extent(r, 2) <= 0;
    if (empty) { /* one block writes the identity */
        for (int a = 0; a < 3; ++a) r.n[a] = 0;
    }
    /* Threads of the block as a box over the axes; tiles (given or chosen like the box)
       are walked by one block each. */
    const md_block tile = md_fill_block(md_policy_tile(r), r, sh.block);
    md_block blk;
    blk.x = (int)min64(tile.x, sh.block);
    blk.y = (int)max64(1, min64(tile.y, sh.block / blk.x));
    blk.z = (int)max64(1, min64(tile.z, sh.block / ((int64_t)blk.x * blk.y)));
    r.tile[0] = tile.x;
    r.tile[1] = tile.y;
    r.tile[2] = tile.z;

    /* A grid that fills the SMs once, spread over the axes' tiles. */
    const int64_t wave = max64(1, (int64_t)l->sm_count * sh.blocks_per_sm);
    const int64_t tx = empty ? 1 : ceil_div(md_extent(r, 0), tile.x);
    const int64_t ty = empty ? 1 : ceil_div(md_extent(r, 1), tile.y);
    const int64_t tz = empty ? 1 : ceil_div(md_extent(r, 2), tile.z);
    const int64_t gx = max64(1, min64(tx, min64(wave, max_grid_x)));
    const int64_t gy = max64(1, min64(ty, min64(wave / gx, max_grid_yz)));
    const int64_t gz = max64(1, min64(tz, min64(wave / (gx * gy), max_grid_yz)));
    T *partials;
    e = reduce_scratch<T>(l, gx * gy * gz, &partials);
    if (e != cudaSuccess) return (int)e;
    T *result = static_cast<T *>(l->result);
    cudaStream_t s = static_cast<cudaStream_t>(l->stream);
    const dim3 grid((unsigned)gx, (unsigned)gy, (unsigned)gz);
    switch (sh.block) {
    case reduce_blocks[0]:
        return launcher<&reduce_md_kernel<Args, T, Body, Join, reduce_blocks[0], R>>::launch(
            grid, dim3(reduce_blocks[0]), 0, s, args, r, blk, right, partials, l->counter, result);
    case reduce_blocks[1]:
        return launcher<&reduce_md_kernel<Args, T, Body, Join, reduce_blocks[1], R>>::launch(
            grid, dim3(reduce_blocks[1]), 0, s, args, r, blk, right, partials, l->counter, result);
    default:
        return launcher<&reduce_md_kernel<Args, T, Body, Join, reduce_blocks[2], R>>::launch(
            grid, dim3(reduce_blocks[2]), 0, s, args, r, blk, right, partials, l->counter, result);
    }
}

/* ---- Scans --------------------------------------------------------------------------- */

/* Item k of the scan: the body's contribution of index begin + k (final = false on an
 * identity), and the identity for the extra item k = n. */
template <class Args, class T, class Body, class Join> struct scan_input {
    using iterator_category = cuda::std::random_access_iterator_tag;
    using value_type = T;
    using difference_type = int64_t;
    using pointer = const T *;
    using reference = T;

    Args args;
    int64_t begin;
    int64_t n;
    int64_t k;

    __host__ __device__ __forceinline__ scan_input operator+(difference_type d) const
    {
        scan_input r = *this;
        r.k += d;
        return r;
    }
    __host__ __device__ __forceinline__ scan_input &operator+=(difference_type d)
    {
        k += d;
        return *this;
    }
    __host__ __device__ __forceinline__ scan_input &operator++()
    {
        ++k;
        return *this;
    }
    __host__ __device__ __forceinline__ difference_type operator-(const scan_input &o) const
    {
        return k - o.k;
    }
    __device__ __forceinline__ T operator[](difference_type d) const
    {
        const int64_t i = k + d;
        T v;
        Join::identity(&v);
        if (i < n) Body::call_body(&args, begin + i, &v, false);
        return v;
    }
    __device__ __forceinline__ T operator*() const { return (*this)[0]; }
};

/* Where item k's exclusive prefix goes: the body with final = true for k < n, the total
 * (to *total, when wanted) for k = n. */
template <class Args, class T, class Body, class Join> struct scan_output {
    using iterator_category = cuda::std::random_access_iterator_tag;
    using value_type = T;
    using difference_type = int64_t;
    using pointer = void;

    struct reference {
        const scan_output *it;
        int64_t i;
        __device__ __forceinline__ reference &operator=(const T &prefix)
        {
            if (i < it->n) {
                T u = prefix;
                Body::call_body(&it->args, it->begin + i, &u, true);
            } else if (it->total != nullptr) {
                *it->total = prefix;
            }
            return *this;
        }
    };

    Args args;
    int64_t begin;
    int64_t n;
    T *total;
    int64_t k;

    __host__ __device__ __forceinline__ scan_output operator+(difference_type d) const
    {
        scan_output r = *this;
        r.k += d;
        return r;
    }
    __host__ __device__ __forceinline__ scan_output &operator+=(difference_type d)
    {
        k += d;
        return *this;
    }
    __host__ __device__ __forceinline__ scan_output &operator++()
    {
        ++k;
        return *this;
    }
    __host__ __device__ __forceinline__ difference_type operator-(const scan_output &o) const
    {
        return k - o.k;
    }
    __device__ __forceinline__ reference operator[](difference_type d) const
    {
        return reference{this, k + d};
    }
    __device__ __forceinline__ reference operator*() const { return reference{this, k}; }
};

template <class T, class Join, class In, class Out, class N>
int run_scan(const px__cuda_launch_desc *l, const In &in, const Out &out, N items)
{
    cudaStream_t s = static_cast<cudaStream_t>(l->stream);
    T init;
    Join::identity(&init);
    const typename scan_op<T, Join>::type op{};
    size_t bytes = 0;
    cudaError_t e = cub::DeviceScan::ExclusiveScan(nullptr, bytes, in, out, op, init, items, s);
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        return (int)e;
    }
    void *tmp = l->scratch(l, bytes > 0 ? bytes : 1);
    if (tmp == nullptr) return (int)cudaErrorMemoryAllocation;
    /* CUB returns its launches' own status (cudaPeekAtLastError after each); clear a
       failure so that the caller's next CUDA call does not find it. */
    e = cub::DeviceScan::ExclusiveScan(tmp, bytes, in, out, op, init, items, s);
    if (e != cudaSuccess) (void)cudaGetLastError();
    return (int)e;
}

/* ---- Scans in one pass -------------------------------------------------------------- */

/* One pass over the data with decoupled look-back (Merrill and Garland, as CUB's own scans
 * do, from CUB's block scan, block exchange and tile-status blocks): each block takes a
 * tile of scan_block x scan_items<T> indices. The body runs with final = false at the
 * indices of the tile striped over the threads (a warp's indices side by side: coalesced),
 * the contributions go to shared memory and back so that each thread holds consecutive
 * ones, the block scans them seeded with the tiles before it, and the exclusive prefixes go
 * back the other way for the body's final = true run at the same striped indices. The body
 * thus reads its input twice as before (it is opaque: the final run recomputes the
 * contribution), but the second read is of a tile the block has just read, from L1/L2, so
 * memory traffic is a plain scan's: in, then out. Against the two iterators behind CUB's
 * device-wide scan (one body call per CUB load or store, no vector loads), this was
 * measured faster on the H200 machine (docs/results/history.md). */
constexpr int scan_block = 256;

/* Items per thread: about 96 bytes of contributions in registers, 1 to 16 of them. */
template <class T> constexpr int scan_items()
{
    return sizeof(T) >= 96 ? 1 : (96 / sizeof(T) > 16 ? 16 : (int)(96 / sizeof(T)));
}

template <class T> __global__ void scan_status_kernel(cub::ScanTileState<T> status, int tiles)
{
    status.InitializeStatus(tiles);
}

template <class Args, class T, class Body, class Join, int B, int N>
__global__ void __launch_bounds__(B)
    scan_tile_kernel(const __grid_constant__ Args a, int64_t begin, int64_t n,
                     cub::ScanTileState<T> status, T *total)
{
    using op_t = typename scan_op<T, Join>::type;
    using exchange = cub::BlockExchange<T, B, N>;
    using block_scan = cub::BlockScan<T, B, cub::BLOCK_SCAN_WARP_SCANS>;
    using look_back = cub::TilePrefixCallbackOp<T, op_t, cub::ScanTileState<T>>;
    __shared__ union {
        typename exchange::TempStorage exchange;
        struct {
            typename block_scan::TempStorage scan;
            typename look_back::TempStorage prefix;
        } scan;
    } shared;
    const op_t op{};
    const int tile = (int)blockIdx.x;
    const int64_t base = (int64_t)tile * (B * N);
    T v[N];
#pragma unroll
    for (int j = 0; j < N; ++j) {
        const int64_t k = base + j * B + (int)threadIdx.x;
        Join::identity(&v[j]);
        if (k < n) Body::call_body(&a, begin + k, &v[j], false);
    }
    exchange(shared.exchange).StripedToBlocked(v);
    __syncthreads(); /* the exchange's storage becomes the scan's */
    T sum = v[0];
#pragma unroll
    for (int j = 1; j < N; ++j) sum = op(sum, v[j]);
    T prefix;
    if (tile == 0) {
        T identity, tile_total;
        Join::identity(&identity);
        block_scan(shared.scan.scan).ExclusiveScan(sum, prefix, identity, op, tile_total);
        if (threadIdx.x == 0) status.SetInclusive(0, tile_total);
    } else {
        look_back before(status, shared.scan.prefix, op, tile);
        block_scan(shared.scan.scan).ExclusiveScan(sum, prefix, op, before);
    }
    /* Each item's exclusive prefix, in place; the running value ends at this thread's
       inclusive prefix, the whole scan's total for the last thread of the last tile. */
#pragma unroll
    for (int j = 0; j < N; ++j) {
        const T item = v[j];
        v[j] = prefix;
        prefix = op(prefix, item);
    }
    if (total != nullptr && tile == (int)gridDim.x - 1 && threadIdx.x == B - 1) *total = prefix;
    __syncthreads(); /* the scan's storage becomes the exchange's again */
    exchange(shared.exchange).BlockedToStriped(v);
#pragma unroll
    for (int j = 0; j < N; ++j) {
        const int64_t k = base + j * B + (int)threadIdx.x;
        if (k < n) Body::call_body(&a, begin + k, &v[j], true);
    }
}

/* The one-pass scan of n indices from begin: false when its tiles would not fit an int
   (CUB's device-wide scan takes those). */
template <class Args, class T, class Body, class Join>
bool scan_one_pass(const px__cuda_launch_desc *l, const Args &args, int64_t begin, int64_t n,
                   int *err)
{
    constexpr int B = scan_block, N = scan_items<T>();
    const int64_t tiles64 = n == 0 ? 1 : ceil_div(n, (int64_t)B * N);
    if (tiles64 > INT32_MAX - 64) return false;
    const int tiles = (int)tiles64;
    cudaStream_t s = static_cast<cudaStream_t>(l->stream);
    size_t bytes = 0;
    cub::ScanTileState<T> status;
    cudaError_t e = cub::ScanTileState<T>::AllocationSize(tiles, bytes);
    void *tmp = e == cudaSuccess ? l->scratch(l, bytes) : nullptr;
    if (e == cudaSuccess && tmp == nullptr) e = cudaErrorMemoryAllocation;
    if (e == cudaSuccess) e = status.Init(tiles, tmp, bytes);
    if (e != cudaSuccess) {
        *err = (int)e;
        return true;
    }
    /* Status words for the tiles and the 32 before the first (the look-back's padding). */
    constexpr int init_block = 128;
    *err = launcher<&scan_status_kernel<T>>::launch(dim3((unsigned)ceil_div(tiles, init_block)),
                                                    dim3(init_block), 0, s, status, tiles);
    if (*err != (int)cudaSuccess) return true;
    *err = launcher<&scan_tile_kernel<Args, T, Body, Join, B, N>>::launch(
        dim3((unsigned)tiles), dim3(B), 0, s, args, begin, n, status, static_cast<T *>(l->result));
    return true;
}

} /* namespace detail */

/* ---- Entry points of the kernel macros ---------------------------------------------- */

template <class Args, class Body>
int launch_for1(const px__cuda_launch_desc *l, const Args &args, const px_policy &p)
{
    using namespace detail;
    static shape_cache cache_exact[max_cached_devices];
    static shape_cache cache32[max_cached_devices];
    static shape_cache cache64[max_cached_devices];
    const int64_t n = max64(0, p.end[0] - p.begin[0]);
    if (n == 0) return (int)cudaSuccess;
    cudaStream_t s = static_cast<cudaStream_t>(l->stream);
    shape sh;
    cudaError_t e;
    constexpr int64_t narrow = (int64_t)1 << 31;
    if (n <= narrow && !for_grid_sm) {
        e = shape_of(reinterpret_cast<const void *>(&for1_exact_kernel<Args, Body>), l->device,
                     cache_exact, &sh);
        if (e != cudaSuccess) return (int)e;
        const int64_t grid = ceil_div(n, sh.block);
        if (grid <= max_grid_x && grid * sh.block <= narrow) {
            return launcher<&for1_exact_kernel<Args, Body>>::launch(
                dim3((unsigned)grid), dim3(sh.block), 0, s, args, p.begin[0], (uint32_t)n);
        }
    }
    if (n <= narrow) {
        e = shape_of(reinterpret_cast<const void *>(&for1_kernel<Args, Body, uint32_t>), l->device,
                     cache32, &sh);
        if (e != cudaSuccess) return (int)e;
        const int64_t grid = for1_grid(n, sh, l->sm_count);
        if (grid * sh.block <= narrow) {
            return launcher<&for1_kernel<Args, Body, uint32_t>>::launch(
                dim3((unsigned)grid), dim3(sh.block), 0, s, args, p.begin[0], (uint32_t)n);
        }
    }
    e = shape_of(reinterpret_cast<const void *>(&for1_kernel<Args, Body, uint64_t>), l->device,
                 cache64, &sh);
    if (e != cudaSuccess) return (int)e;
    const int64_t grid = for1_grid(n, sh, l->sm_count);
    return launcher<&for1_kernel<Args, Body, uint64_t>>::launch(
        dim3((unsigned)grid), dim3(sh.block), 0, s, args, p.begin[0], (uint64_t)n);
}

template <class Args, class Body>
int launch_for2(const px__cuda_launch_desc *l, const Args &args, const px_policy &p)
{
    return detail::launch_for_md<Args, Body, 2>(l, args, p);
}

template <class Args, class Body>
int launch_for3(const px__cuda_launch_desc *l, const Args &args, const px_policy &p)
{
    return detail::launch_for_md<Args, Body, 3>(l, args, p);
}

template <class Args, class Body>
int launch_for4(const px__cuda_launch_desc *l, const Args &args, const px_policy &p)
{
    return detail::launch_for_md<Args, Body, 4>(l, args, p);
}

template <class Args, class Body>
int launch_for5(const px__cuda_launch_desc *l, const Args &args, const px_policy &p)
{
    return detail::launch_for_md<Args, Body, 5>(l, args, p);
}

template <class Args, class Body>
int launch_for6(const px__cuda_launch_desc *l, const Args &args, const px_policy &p)
{
    return detail::launch_for_md<Args, Body, 6>(l, args, p);
}

template <class Args, class T, class Body, class Join>
int launch_reduce1(const px__cuda_launch_desc *l, const Args &args, const px_policy &p)
{
    return detail::launch_reduce_1d<Args, T, Body, Join>(l, args, p);
}

template <class Args, class T, class Body, class Join>
int launch_reduce2(const px__cuda_launch_desc *l, const Args &args, const px_policy &p)
{
    return detail::launch_reduce_md<Args, T, Body, Join, 2>(l, args, p);
}

template <class Args, class T, class Body, class Join>
int launch_reduce3(const px__cuda_launch_desc *l, const Args &args, const px_policy &p)
{
    return detail::launch_reduce_md<Args, T, Body, Join, 3>(l, args, p);
}

template <class Args, class T, class Body, class Join>
int launch_reduce4(const px__cuda_launch_desc *l, const Args &args, const px_policy &p)
{
    return detail::launch_reduce_md<Args, T, Body, Join, 4>(l, args, p);
}

template <class Args, class T, class Body, class Join>
int launch_reduce5(const px__cuda_launch_desc *l, const Args &args, const px_policy &p)
{
    return detail::launch_reduce_md<Args, T, Body, Join, 5>(l, args, p);
}

template <class Args, class T, class Body, class Join>
int launch_reduce6(const px__cuda_launch_desc *l, const Args &args, const px_policy &p)
{
    return detail::launch_reduce_md<Args, T, Body, Join, 6>(l, args, p);
}

/* Scans n + 1 items so that item n's exclusive prefix is the total. 32-bit item counts
 * when they fit: CUB's offsets follow the count's type. The one extent with no n + 1,
 * INT64_MAX, is refused (2^63 elements: no device holds them). */
template <class Args, class T, class Body, class Join>
int launch_scan(const px__cuda_launch_desc *l, const Args &args, const px_policy &p)
{
    using namespace detail;
    const int64_t n = max64(0, p.end[0] - p.begin[0]);
    T *total = static_cast<T *>(l->result);
    if (n == 0 && total == nullptr) return (int)cudaSuccess;
    int err;
    if (scan_one_pass<Args, T, Body, Join>(l, args, p.begin[0], n, &err)) return err;
    if (n == INT64_MAX) return (int)cudaErrorInvalidValue;
    const scan_input<Args, T, Body, Join> in{args, p.begin[0], n, 0};
    const scan_output<Args, T, Body, Join> out{args, p.begin[0], n, total, 0};
    if (n < INT32_MAX) return run_scan<T, Join>(l, in, out, (int)(n + 1));
    return run_scan<T, Join>(l, in, out, n + 1);
}

} /* namespace px_cuda */

#endif /* PORTEX_IMPL_CUDA_KERNEL_CUDA_H */
