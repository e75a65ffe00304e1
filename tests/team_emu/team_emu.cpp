/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The device side of CUDA team kernels, checked on the CPU (no GPU needed).
 *
 * The test kernels of kernels/k_team.c are compiled here as nvcc's device pass sees them
 * (__CUDACC__ and __CUDA_ARCH__ defined, so portex/team.h expands its macros to the device
 * branches of portex/impl/cuda/team_cuda.h), with the CUDA keywords, runtime calls and intrinsics
 * replaced by stand-ins: each CUDA thread of a block is a std::thread, __syncthreads a
 * barrier of the block, and a warp shuffle a rendezvous of the lanes its mask names that
 * returns the value of the lane CUDA would read (a poisoned value for a lane outside the
 * mask). Blocks walk the league grid-stride as team_cuda.h's kernels do, with its dims and
 * make_team. Every kernel runs over teams of many shapes (partial warps, lanes of 1 to
 * 32, grids smaller than the league) and must give exactly what a team of one thread and
 * one lane gives, which is checked against direct formulas. The launch plan (team shape,
 * grid, shared memory, refusals) is checked against stand-in device limits. What this
 * cannot see: the CUDA calls themselves (stubbed), memory ordering, timing. */
#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#define __host__
#define __device__
#define __global__
#define __forceinline__ inline
#define __grid_constant__
#define __shared__
#define __align__(n) __attribute__((aligned(n)))
#define PORTEX_IMPL_CUDA_KERNEL_CUDA_H 1
#define __CUDACC__ 1

struct uint3 {
    unsigned x, y, z;
};
struct dim3 {
    unsigned x, y, z;
    dim3(unsigned a = 1, unsigned b = 1, unsigned c = 1) : x(a), y(b), z(c) {}
};
thread_local uint3 threadIdx, blockIdx;
thread_local dim3 blockDim, gridDim;

typedef void *cudaStream_t;
enum cudaError_t {
    cudaSuccess = 0,
    cudaErrorInvalidConfiguration = 9,
    cudaErrorMemoryAllocation = 2
};
enum cudaDeviceAttr { cudaDevAttrMaxThreadsPerMultiProcessor = 39 };
enum cudaFuncAttribute { cudaFuncAttributeMaxDynamicSharedMemorySize = 8 };
struct cudaFuncAttributes {
    int maxThreadsPerBlock;
    size_t sharedSizeBytes;
};
/* CUDA queries plan made: a remembered shape makes none. */
static int g_queries;
inline cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *a, const void *)
{
    ++g_queries;
    a->maxThreadsPerBlock = 1024;
    a->sharedSizeBytes = 0;
    return cudaSuccess;
}
inline cudaError_t cudaDeviceGetAttribute(int *v, cudaDeviceAttr, int)
{
    *v = 2048;
    return cudaSuccess;
}
template <class T, class F>
cudaError_t cudaOccupancyMaxPotentialBlockSizeVariableSMem(int *g, int *b, T, F, int cap)
{
    *g = 1;
    *b = cap;
    return cudaSuccess;
}
inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *n, const void *, int, size_t)
{
    ++g_queries;
    *n = 1;
    return cudaSuccess;
}
inline cudaError_t cudaFuncSetAttribute(const void *, cudaFuncAttribute, int)
{
    return cudaSuccess;
}
inline cudaError_t cudaLaunchKernel(const void *, dim3, dim3, void **, size_t, cudaStream_t)
{
    return cudaSuccess;
}
inline cudaError_t cudaGetLastError() { return cudaSuccess; }
inline void __threadfence() {}
inline unsigned atomicAdd(unsigned *p, unsigned v)
{
    const unsigned o = *p;
    *p += v;
    return o;
}
inline unsigned long long atomicAdd(unsigned long long *p, unsigned long long v)
{
    return __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
}

/* ---- block and warp emulation ---- */
struct Block {
    std::mutex m;
    std::condition_variable cv;
    int n = 0, arrived = 0;
    long gen = 0;
    struct Rdv {
        int arrived = 0, departed = 0;
        bool departing = false;
        int vals[32];
    };
    std::map<std::pair<int, unsigned>, Rdv> rdv; // (warp, mask)
};
thread_local Block *g_block;

inline void __syncthreads()
{
    Block &b = *g_block;
    std::unique_lock<std::mutex> lk(b.m);
    const long g = b.gen;
    if (++b.arrived == b.n) {
        b.arrived = 0;
        b.gen++;
        b.cv.notify_all();
    } else {
        b.cv.wait(lk, [&] { return b.gen != g; });
    }
}

static int flat_lane() { return (int)((threadIdx.y * blockDim.x + threadIdx.x) & 31); }
static int flat_warp() { return (int)((threadIdx.y * blockDim.x + threadIdx.x) >> 5); }

static int exchange(unsigned mask, int v, int src)
{
    Block &b = *g_block;
    const int lane = flat_lane();
    if (!(mask >> lane & 1u)) {
        fprintf(stderr, "lane %d shuffles with mask %x, which leaves it out\n", lane, mask);
        abort();
    }
    std::unique_lock<std::mutex> lk(b.m);
    Block::Rdv &r = b.rdv[{flat_warp(), mask}];
    const int need = __builtin_popcount(mask);
    b.cv.wait(lk, [&] { return !r.departing; });
    r.vals[lane] = v;
    if (++r.arrived == need) {
        r.departing = true;
        b.cv.notify_all();
    } else {
        b.cv.wait(lk, [&] { return r.departing; });
    }
    const int out = (mask >> src & 1u) ? r.vals[src] : (int)0xdeadbeef;
    if (++r.departed == need) {
        r.arrived = r.departed = 0;
        r.departing = false;
        b.cv.notify_all();
    }
    return out;
}
inline int __shfl_sync(unsigned mask, int v, int src, int w = 32)
{
    const int lane = flat_lane();
    return exchange(mask, v, (lane / w) * w + (src % w));
}
inline int __shfl_up_sync(unsigned mask, int v, unsigned d, int w = 32)
{
    const int lane = flat_lane();
    return exchange(mask, v, (lane % w) >= (int)d ? lane - (int)d : lane);
}
inline int __shfl_down_sync(unsigned mask, int v, unsigned d, int w = 32)
{
    const int lane = flat_lane();
    return exchange(mask, v, (lane % w) + (int)d < w ? lane + (int)d : lane);
}

namespace px_cuda {
template <class T, void (*I)(T *), void (*J)(T *, const T *)> struct join_fns {
    static inline void identity(T *v) { I(v); }
    static inline void join(T *d, const T *s) { J(d, s); }
};
namespace detail {
constexpr int max_cached_devices = 64;
constexpr int64_t max_grid_x = 2147483647;
inline int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }
inline int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
template <class T> T load_l2(const T *p) { return *p; }
/* kernel_cuda.h's launcher: the stand-in launches nothing (the test runs the blocks). */
template <auto K> struct launcher {
    template <class... A> static int launch(dim3, dim3, size_t, cudaStream_t, const A &...)
    {
        return cudaSuccess;
    }
};
} // namespace detail
} // namespace px_cuda

#include "portex/kernel.h"
#include "portex/view.h"
#define __CUDA_ARCH__ 900
#include "portex/team.h"
#include "k_team.c"      /* the kernels, as the device pass compiles them */
#include "k_team_rows.c" /* the same for leagues over rows */
/* The dynamic shared memory team_cuda.h's kernels declare: they are compiled here but never
   called (the stand-in launches below give each block its own). */
namespace px_cuda {
namespace team {
__attribute__((aligned(16))) unsigned char px__team_smem[PX__TEAM_REDUCE_BYTES + 4096];
}
} // namespace px_cuda

/* ---- Launches: blocks one after another, each a std::thread per CUDA thread ---------------- */

/* Runs the team kernel Body over a league of L teams on `grid` blocks of Tn x V threads with
   the given scratch (level 0: t0 + th0 per thread; level 1: t1 + th1 per thread), as
   team_cuda.h's for_kernel does; with a Join, as its reduce_kernel, the blocks' partials
   joined in block order into *result. */
/* The rows of a px_teams_rows league the next runs walk (nullptr: none, a team per row). */
static const px__team_rows_run *g_rows = nullptr;

template <class Args, class Body, class T = int, class Join = void>
static void run(const Args &a, int64_t L, int Tn, int V, int grid, size_t t0, size_t th0, size_t t1,
                size_t th1, T *result = nullptr)
{
    using namespace px_cuda::team;
    std::vector<T> partials;
    for (int b = 0; b < grid; ++b) {
        Block blk;
        blk.n = Tn * V;
        std::vector<unsigned char> smem(PX__TEAM_REDUCE_BYTES + t0 + th0 * Tn + 16);
        const size_t stride1 = t1 + th1 * Tn;
        std::vector<char> l1(stride1 * grid + 16);
        dims d;
        d.league = L;
        d.team0 = t0;
        d.thread0 = th0;
        d.team1 = t1;
        d.thread1 = th1;
        d.level1 = stride1 ? l1.data() : nullptr;
        d.stride1 = stride1;
        d.sync = t0 + th0 + stride1 > 0; /* as plan: a barrier between teams only with scratch */
        d.first = 0;
        d.end = L;
        d.has_rows = g_rows != nullptr;
        if (g_rows) d.rows = *g_rows;
        T part{};
        std::vector<std::thread> th;
        for (int y = 0; y < Tn; ++y)
            for (int x = 0; x < V; ++x)
                th.emplace_back([&, x, y] {
                    threadIdx = {(unsigned)x, (unsigned)y, 0};
                    blockIdx = {(unsigned)b, 0, 0};
                    blockDim = dim3(V, Tn);
                    gridDim = dim3(grid);
                    g_block = &blk;
                    px_team t;
                    make_team(&t, d, smem.data());
                    if constexpr (std::is_same<Join, void>::value) {
                        for (int64_t l = b; l < L; l += grid) {
                            px__team_enter(&t, l);
                            Body::call_body(&a, &t);
                            if (d.sync && l + grid < L) __syncthreads();
                        }
                    } else {
                        T acc;
                        Join::identity(&acc);
                        for (int64_t l = b; l < L; l += grid) {
                            px__team_enter(&t, l);
                            Body::call_body(&a, &t, &acc);
                            if (d.sync) __syncthreads();
                        }
                        block_reduce<T, Join>(&t, &acc, threadIdx.x == 0);
                        if (x == 0 && y == 0) part = acc;
                    }
                });
        for (auto &t : th) t.join();
        partials.push_back(part);
    }
    if constexpr (!std::is_same<Join, void>::value) {
        Join::identity(result);
        for (auto &p : partials) Join::join(result, &p);
    }
}

template <class S, class E> static S span_of(std::vector<E> &v)
{
    S s;
    memset(&s, 0, sizeof s);
    s.data = v.data();
    s.extent[0] = (int64_t)v.size();
    s.stride[0] = 1;
    s.rank = 1;
    return s;
}
static px_span_i64 sp(std::vector<int64_t> &v) { return span_of<px_span_i64>(v); }
static px_span_u64 spu(std::vector<uint64_t> &v) { return span_of<px_span_u64>(v); }
static px_span_f64 spf(std::vector<double> &v) { return span_of<px_span_f64>(v); }

static int fails = 0;
#define CHECK(c, ...)                     \
    do {                                  \
        if (!(c)) {                       \
            ++fails;                      \
            fprintf(stderr, __VA_ARGS__); \
            fputc('\n', stderr);          \
        }                                 \
    } while (0)

/* A kernel's outputs, whichever it has. */
struct Outs {
    std::vector<int64_t> a, b, c, d, e;
    std::vector<uint64_t> u, v;
    std::vector<double> f;
};

static Outs nested(int64_t L, int Tn, int V, int grid)
{
    const int64_t ib = 3, ni = 11, nj = 13, nk = 37;
    Outs o;
    o.a.assign(L * ni * nj, 0);
    o.b.assign(L * nk, 0);
    o.c.assign(L * 4, 0);
    tk_nested_args a = {ib, ni, nj, nk, sp(o.a), sp(o.b), sp(o.c)};
    run<tk_nested_args, px__cu_tk_team_nested>(a, L, Tn, V, grid, 0, 0, 0, 0);
    for (int64_t r = 0; r < L; ++r) o.c[r * 4 + 0] = o.c[r * 4 + 1] = 0; // shapes differ by design
    return o;
}

static std::vector<int64_t> xs(int64_t n, int64_t lo, int64_t hi, unsigned seed)
{
    std::vector<int64_t> x(n);
    srand(seed);
    for (auto &v : x) v = lo + rand() % (hi - lo + 1);
    return x;
}

static Outs nred(int64_t L, int Tn, int V, int grid)
{
    const int64_t n = 97, nrow = 9, ncol = 19;
    static std::vector<int64_t> x = xs(n, -1000, 1000, 5);
    static std::vector<double> y;
    if (y.empty())
        for (int64_t i = 0; i < n; ++i) y.push_back((double)((i * 7919) % 1000) / 1000.0 - 0.5);
    Outs o;
    o.a.assign(L * 8, 0);
    o.b.assign(L * nrow, 0);
    o.c.assign(L * nrow * 3, 0);
    o.f.assign(L, 0);
    tk_nred_args a = {n, nrow, ncol, sp(x), spf(y), sp(o.a), sp(o.b), sp(o.c), spf(o.f)};
    run<tk_nred_args, px__cu_tk_team_nested_reduce>(a, L, Tn, V, grid, 0, 0, 0, 0);
    return o;
}

static Outs nscan(int64_t L, int Tn, int V, int grid)
{
    const int64_t n = 61, nrow = 6, ncol = 23;
    static std::vector<int64_t> x = xs(n, 0, 1000, 17);
    Outs o;
    o.a.assign(L * n, 0);
    o.b.assign(L * n, 0);
    o.c.assign(L * nrow * ncol, 0);
    o.d.assign(L * nrow * 2, 0);
    o.e.assign(L * 6, 0);
    o.u.assign(L * n, 0);
    o.v.assign(L * nrow * ncol, 0);
    tk_nscan_args a = {n,       nrow,    ncol,    sp(x),    sp(o.a), sp(o.b),
                       sp(o.c), sp(o.d), sp(o.e), spu(o.u), spu(o.v)};
    run<tk_nscan_args, px__cu_tk_team_nested_scan>(a, L, Tn, V, grid, 0, 0, 0, 0);
    return o;
}

static Outs scratch(int64_t L, int Tn, int V, int grid, int level)
{
    const int64_t m = 41, tn = 9;
    static std::vector<int64_t> in = xs(200 * m, -5000, 5000, 23);
    Outs o;
    o.a.assign(L * m, 0);
    o.b.assign(L * m, 0);
    tk_scratch_args a = {level, m, tn, sp(in), sp(o.a), sp(o.b)};
    const size_t pt = 336, pth = 80;
    run<tk_scratch_args, px__cu_tk_team_scratch>(a, L, Tn, V, grid, level == 0 ? pt : 0,
                                                 level == 0 ? pth : 0, level == 1 ? pt : 0,
                                                 level == 1 ? pth : 0);
    return o;
}

static bool same(const Outs &p, const Outs &q)
{
    if (p.a != q.a || p.b != q.b || p.c != q.c || p.d != q.d || p.e != q.e || p.u != q.u ||
        p.v != q.v)
        return false;
    for (size_t i = 0; i < p.f.size(); ++i)
        if (std::abs(p.f[i] - q.f[i]) > 1e-12 * 100) return false;
    return true;
}

static void diff(const char *what, const std::vector<int64_t> &p, const std::vector<int64_t> &q)
{
    for (size_t i = 0; i < p.size(); ++i)
        if (p[i] != q[i]) {
            fprintf(stderr, "  %s[%zu]: %lld vs %lld\n", what, i, (long long)p[i], (long long)q[i]);
            return;
        }
}

/* The launch plan (team_cuda.h's plan) on a device of 132 SMs of 2048 threads whose blocks
   may have 232448 bytes of shared memory (an H100's), for a kernel of 1024 threads at most
   and one resident block per SM (the stand-ins above). Every request is planned twice: the
   second time from the remembered shape, asking CUDA nothing, with the same outcome. */
static void check_plan()
{
    using namespace px_cuda::team;
    static shape_memo memo[px_cuda::detail::max_cached_devices];
    const void *kernel =
        reinterpret_cast<const void *>(&for_kernel<tk_nested_args, px__cu_tk_team_nested>);
    px__cuda_launch_desc l;
    memset(&l, 0, sizeof l);
    l.sm_count = 132;
    struct want {
        int64_t league;
        int team, vector;
        size_t t0, th0, t1, th1;
        bool one_wave;
        int refused;
        unsigned bx, by;
        int64_t grid;
        size_t shared;
        bool sync;
    };
    const want cases[] = {
        /* automatic: an eighth of an SM's threads, one lane; a reduction: one wave of blocks */
        {1000, 0, 0, 0, 0, 0, 0, true, 0, 1, 256, 132, 2048, false},
        /* the same for: a block per team */
        {1000, 0, 0, 0, 0, 0, 0, false, 0, 1, 256, 1000, 2048, false},
        /* as asked, level 0 after the reduction slots; a league smaller than the wave */
        {7, 4, 8, 1008, 0, 0, 0, true, 0, 8, 4, 7, 2048 + 1008, true},
        /* automatic, shrunk until level 0 fits: 2048 + 4096 * 56 <= 232448; a block per team */
        {500, 0, 4, 0, 4096, 0, 0, false, 0, 4, 56, 500, 2048 + 4096 * 56, true},
        /* too many threads; too much level 0 */
        {10, 300, 4, 0, 0, 0, 0, false, PX__TEAM_REFUSED_THREADS, 0, 0, 0, 0, false},
        {10, 2, 1, 0, 120000, 0, 0, false, PX__TEAM_REFUSED_SHARED, 0, 0, 0, 0, false},
        /* automatic with 64 MiB of level 1 per thread: 16 threads (1 GiB a team), 4 blocks,
           for a for as well */
        {1000, 0, 0, 0, 0, 0, (size_t)1 << 26, false, 0, 1, 16, 4, 2048, true},
        /* an empty league still has a block (a reduction writes the identity) */
        {0, 3, 2, 0, 0, 0, 0, true, 0, 2, 3, 1, 2048, false},
        /* more teams than a grid has blocks: the largest grid, walked grid-stride */
        {((int64_t)1 << 31) + 3, 2, 2, 0, 0, 0, 0, false, 0, 2, 2, 2147483647, 2048, false},
    };
    for (const want &w : cases)
        for (int pass = 0; pass < 2; ++pass) {
            px__team_run r;
            memset(&r, 0, sizeof r);
            r.league_size = w.league;
            r.league_end = w.league;
            r.team_size = w.team;
            r.vector_length = w.vector;
            r.scratch_team[0] = w.t0;
            r.scratch_thread[0] = w.th0;
            r.scratch_team[1] = w.t1;
            r.scratch_thread[1] = w.th1;
            r.shared_limit = 232448;
            dims d;
            memset(&d, 0, sizeof d);
            dim3 block;
            int64_t grid = -1;
            size_t shared = 0;
            g_queries = 0;
            const cudaError_t e =
                plan(kernel, memo, &l, &r, w.one_wave, &d, &block, &grid, &shared);
            if (w.refused) {
                CHECK(e != cudaSuccess && r.refused == w.refused,
                      "plan %lld x %d x %d: refused %d, want %d", (long long)w.league, w.team,
                      w.vector, r.refused, w.refused);
                continue;
            }
            CHECK(e == cudaSuccess && r.refused == 0, "plan %lld x %d x %d refused (%d)",
                  (long long)w.league, w.team, w.vector, r.refused);
            CHECK(block.x == w.bx && block.y == w.by && grid == w.grid && shared == w.shared &&
                      d.sync == w.sync,
                  "plan %lld x %d x %d (pass %d): block %u x %u, grid %lld, shared %zu, sync %d; "
                  "want %u x %u, "
                  "%lld, %zu, %d",
                  (long long)w.league, w.team, w.vector, pass, block.x, block.y, (long long)grid,
                  shared, (int)d.sync, w.bx, w.by, (long long)w.grid, w.shared, (int)w.sync);
            CHECK(r.team_size == (int)w.by && r.vector_length == (int)w.bx,
                  "plan: the run says %d x %d", r.team_size, r.vector_length);
            CHECK(d.stride1 == w.t1 + w.th1 * w.by, "plan: level-1 stride %zu", d.stride1);
            CHECK(pass == 0 || g_queries == 0,
                  "plan %lld x %d x %d: %d CUDA queries for a remembered shape",
                  (long long)w.league, w.team, w.vector, g_queries);
        }
}

/* Leagues over rows (k_team_rows.c): a px__team_rows_run made here as the library makes
   it (long rows first, a row per team thread in the rest, rows past long_after skipped
   there), on many team shapes, and a team per row without one; each against plain C. */
static void check_rows()
{
    const int64_t n = 120;
    std::vector<int64_t> off(n + 1, 0);
    srand(23);
    for (int64_t r = 0; r < n; ++r) {
        const int64_t len = r % 37 == 5 ? 40 + rand() % 300 : rand() % 7;
        off[r + 1] = off[r] + len;
    }
    const int64_t nnz = off[n];
    std::vector<int32_t> off32(off.begin(), off.end()), col(nnz);
    std::vector<double> val(nnz), x(n);
    for (int64_t k = 0; k < nnz; ++k) {
        col[k] = (int32_t)(rand() % n);
        val[k] = (double)(rand() % 2001 - 1000) / 1000.0;
    }
    for (auto &v : x) v = (double)(rand() % 2001 - 1000) / 1000.0;
    /* {team size, lanes, int64 offsets} */
    const int shapes[][3] = {{8, 4, 0}, {2, 32, 1}, {3, 2, 1}, {1, 1, 0}, {5, 8, 1}};
    for (int with_rows = 0; with_rows < 2; ++with_rows)
        for (auto &sh : shapes) {
            const int Tn = sh[0], V = sh[1], wide = sh[2];
            px__team_rows_run run_rec;
            memset(&run_rec, 0, sizeof run_rec);
            std::vector<int64_t> longs;
            const int64_t long_after = 8 * V;
            for (int64_t r = 0; r < n; ++r)
                if (off[r + 1] - off[r] > long_after) longs.push_back(r);
            run_rec.offsets = wide ? (const void *)off.data() : (const void *)off32.data();
            run_rec.offsets_i64 = wide;
            run_rec.long_rows = longs.data();
            run_rec.nrows = n;
            run_rec.per_team = Tn;
            run_rec.nlong = (int64_t)longs.size();
            run_rec.long_after = longs.empty() ? INT64_MAX : long_after;
            const int64_t L = with_rows ? run_rec.nlong + (n + Tn - 1) / Tn : n;
            std::vector<double> y(n, -1.0);
            std::vector<int64_t> cnt(n, -1), seen(n, 0), hits(nnz, 0);
            tk_rows_args a;
            memset(&a, 0, sizeof a);
            a.wide = wide;
            a.off32 = span_of<px_span_i32_1d>(off32);
            a.off64 = span_of<px_span_i64_1d>(off);
            a.col = span_of<px_span_i32_1d>(col);
            a.val = span_of<px_span_f64_1d>(val);
            a.x = span_of<px_span_f64_1d>(x);
            a.y = span_of<px_span_f64_1d>(y);
            a.n = span_of<px_span_i64_1d>(cnt);
            a.seen = span_of<px_span_i64_1d>(seen);
            a.hits = span_of<px_span_i64_1d>(hits);
            g_rows = with_rows ? &run_rec : nullptr;
            const int grid = (int)std::min<int64_t>(L, 4);
            run<tk_rows_args, px__cu_tk_rows_spmv>(a, L, Tn, V, grid, 0, 0, 0, 0);
            using sum_join = PX__CUDA_JOIN(int64_t, sum);
            int64_t total = -1, want_total = 0;
            run<tk_rows_args, px__cu_tk_rows_total, int64_t, sum_join>(a, L, Tn, V, grid, 0, 0, 0,
                                                                       0, &total);
            g_rows = nullptr;
            for (int64_t r = 0; r < n; ++r) {
                double want = 0.0, mag = 0.0;
                int64_t c = 0;
                for (int64_t k = off[r]; k < off[r + 1]; ++k) {
                    want += val[k] * x[col[k]];
                    mag += std::abs(val[k] * x[col[k]]);
                    c += k * 3 + 1;
                    CHECK(hits[k] == 1 + r, "rows %d x %d (%s): entry %lld hit %lld", Tn, V,
                          with_rows ? "rows" : "a team per row", (long long)k, (long long)hits[k]);
                }
                want_total += (r + 1) * (off[r + 1] - off[r]) + 7;
                CHECK(std::abs(y[r] - want) <= 1e-12 * (mag > 1.0 ? mag : 1.0) && cnt[r] == c &&
                          seen[r] == 1,
                      "rows %d x %d (%s): row %lld: y %.17g want %.17g, n %lld want %lld, "
                      "seen %lld",
                      Tn, V, with_rows ? "rows" : "a team per row", (long long)r, y[r], want,
                      (long long)cnt[r], (long long)c, (long long)seen[r]);
            }
            CHECK(total == want_total, "rows %d x %d (%s): total %lld, want %lld", Tn, V,
                  with_rows ? "rows" : "a team per row", (long long)total, (long long)want_total);
        }
    fprintf(stderr, "rows done\n");
}

int main()
{
    check_plan();
    check_rows();
    /* {league, team size, vector length, grid} */
    const int shapes[][4] = {{7, 3, 1, 2},   {29, 5, 4, 3}, {13, 7, 8, 2}, {9, 1, 32, 4},
                             {17, 32, 1, 5}, {5, 4, 2, 1},  {11, 6, 4, 3}, {3, 33, 2, 2},
                             {4, 16, 16, 3}, {6, 2, 16, 2}};
    for (auto &s : shapes) {
        const int64_t L = s[0];
        const int T = s[1], V = s[2], G = s[3];
        Outs r1 = nested(L, 1, 1, 1), r2 = nested(L, T, V, G);
        CHECK(same(r1, r2), "nested %lldx%dx%d differs", (long long)L, T, V);
        Outs a1 = nred(L, 1, 1, 1), a2 = nred(L, T, V, G);
        if (!same(a1, a2)) {
            CHECK(false, "nested reduce %lldx%dx%d differs", (long long)L, T, V);
            diff("out", a1.a, a2.a);
            diff("tvsum", a1.b, a2.b);
            diff("tvstat", a1.c, a2.c);
        }
        for (int64_t r = 0; r < L; ++r)
            CHECK(a2.a[r * 8 + 6] == 1, "nested reduce: disagreement in team %lld", (long long)r);
        Outs c1 = nscan(L, 1, 1, 1), c2 = nscan(L, T, V, G);
        if (!same(c1, c2)) {
            CHECK(false, "nested scan %lldx%dx%d differs", (long long)L, T, V);
            diff("excl", c1.a, c2.a);
            diff("incl", c1.b, c2.b);
            diff("vex", c1.c, c2.c);
            diff("vtot", c1.d, c2.d);
            diff("tot", c1.e, c2.e);
        }
        for (int lev = 0; lev < 2; ++lev) {
            Outs s1 = scratch(L, 1, 1, 1, lev), s2 = scratch(L, T, V, G, lev);
            CHECK(same(s1, s2), "scratch level %d %lldx%dx%d differs", lev, (long long)L, T, V);
        }
        /* team reductions */
        std::vector<int64_t> x = xs(L * 29, -100000, 100000, 11);
        tk_tsum_args ta = {29, sp(x)};
        int64_t want = 0, got = -1, got1 = -2;
        for (auto v : x) want += v;
        using sum_join = PX__CUDA_JOIN(int64_t, sum);
        using stat_join = PX__CUDA_JOIN(tk_stat, stat);
        run<tk_tsum_args, px__cu_tk_team_sum, int64_t, sum_join>(ta, L, T, V, G, 0, 0, 0, 0, &got);
        run<tk_tsum_args, px__cu_tk_team_sum, int64_t, sum_join>(ta, L, 1, 1, 1, 0, 0, 0, 0, &got1);
        CHECK(got == want && got1 == want, "team sum %lld / %lld, want %lld", (long long)got,
              (long long)got1, (long long)want);
        tk_stat st;
        run<tk_tsum_args, px__cu_tk_team_stat, tk_stat, stat_join>(ta, L, T, V, G, 0, 0, 0, 0, &st);
        CHECK(st.sum == want && st.count == L * 29, "team stat %lld %lld", (long long)st.sum,
              (long long)st.count);
        fprintf(stderr, "shape %lld x %d x %d (grid %d) done\n", (long long)L, T, V, G);
    }
    /* the 1x1 path against direct formulas */
    Outs a1 = nred(5, 1, 1, 1);
    {
        static std::vector<int64_t> x = xs(97, -1000, 1000, 5);
        for (int64_t r = 0; r < 5; ++r) {
            const int64_t len = (r * 37) % 98;
            int64_t s = 0;
            for (int64_t i = 0; i < len; ++i) s += x[i];
            CHECK(a1.a[r * 8] == s, "1x1 sum team %lld: %lld want %lld", (long long)r,
                  (long long)a1.a[r * 8], (long long)s);
        }
    }
    Outs c1 = nscan(5, 1, 1, 1);
    {
        static std::vector<int64_t> x = xs(61, 0, 1000, 17);
        for (int64_t r = 0; r < 5; ++r) {
            const int64_t len = (r * 53) % 62;
            int64_t s = 0;
            for (int64_t i = 0; i < len; ++i) {
                CHECK(c1.a[r * 61 + i] == s, "1x1 exclusive scan, team %lld index %lld",
                      (long long)r, (long long)i);
                s += x[i];
                CHECK(c1.b[r * 61 + i] == s, "1x1 inclusive scan, team %lld index %lld",
                      (long long)r, (long long)i);
            }
        }
    }
    printf("%s (%d failures)\n", fails ? "FAILED" : "all agree", fails);
    return fails != 0;
}
