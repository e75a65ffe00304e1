/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Copies and fills of non-contiguous memory on the device (path CUDA_STRIDED, and fills of
 * strided DEVICE views). copy/strided.h says what comes in.
 *
 * From the views to words. Each side's strides become bytes, and the element itself one
 * more, innermost dimension (elem_size bytes of stride 1). Dimensions of extent 1 go; a
 * destination stride of 0 keeps only its last index (a sequential loop's result). The
 * rest are ordered by destination stride, largest first, so the destination's
 * fastest-varying dimension is innermost, and neighbours that are contiguous on both
 * sides merge into one. The word is then the widest of 16, 8, 4, 2, 1 bytes that divides
 * both addresses, every stride and the innermost run: a 5-byte element is copied by
 * bytes, a 24-byte one by 8-byte words, the rows of an int8 block 16 bytes at a time when
 * aligned.
 *
 * Two kernels:
 *   - flat: thread k of the word count finds its coordinates by dividing by the extents,
 *     innermost first (so that a warp's stores are consecutive along the destination),
 *     four words per thread with their loads in flight together. Division is by
 *     multiply-high and shift (a divisor fixed per launch) with 32-bit indices, plain
 *     division with 64-bit ones; kernels for 1, 2 and 3 dimensions unroll the walk.
 *   - tiled: when the destination's contiguous dimension a differs from the source's
 *     contiguous dimension b (a transpose, RIGHT <-> LEFT), 32 x 32 tiles of (a, b) go
 *     through shared memory: read along b, written along a, both coalesced; every other
 *     dimension is a batch index per block.
 * Fills use the flat walk without a source: one word per element, or, for wider
 * elements, the element's words as a pattern passed as a kernel parameter (1 KiB at a
 * time, longer elements in slices).
 *
 * Grids are sized from the occupancy API (once per kernel and device) to at most four
 * waves of resident blocks, walked grid-stride. */
#include "backends/cuda/copy/strided.h"

#include <atomic>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace {

constexpr int MAX_DIMS = PX__CUDA_STRIDED_MAX_RANK + 1; /* the element's words are one more */
constexpr int MAX_DEVICES = 64;
constexpr int BLOCK = 256;
constexpr int UNROLL = 4;
constexpr int TILE = 32;
constexpr int TILE_ROWS = 8;
constexpr int64_t MIN_TILED_EXTENT = 16;
constexpr uint64_t WAVES = 4;
constexpr size_t PATTERN_BYTES = 1024;

/* ---- Division by an extent fixed for the launch ------------------------------------- */

template <class I> struct divider;

/* n / d as (umulhi(n, m) + n) >> s (Granlund and Montgomery); exact for n, d < 2^31. */
template <> struct divider<uint32_t> {
    uint32_t d, m, s;
    void init(uint32_t div)
    {
        d = div;
        for (s = 0; s < 31; ++s)
            if ((1u << s) >= div) break;
        const uint64_t one = 1;
        m = (uint32_t)(((one << 32) * ((one << s) - div)) / div + 1);
    }
    __device__ __forceinline__ uint32_t quot(uint32_t n) const { return (__umulhi(n, m) + n) >> s; }
};

template <> struct divider<uint64_t> {
    uint64_t d;
    void init(uint64_t div) { d = div; }
    __device__ __forceinline__ uint64_t quot(uint64_t n) const { return n / d; }
};

/* The dimensions of the work in words, innermost first. */
template <class I> struct shape {
    int n;
    I ext[MAX_DIMS];
    divider<I> div[MAX_DIMS];
    int64_t ds[MAX_DIMS]; /* destination strides */
    int64_t ss[MAX_DIMS]; /* source strides (copies) */
};

/* Offsets of word k on both sides, and its innermost coordinate. N > 0: exactly N
   dimensions, unrolled; N = 0: g.n of them. */
template <int N, class I>
__device__ __forceinline__ void locate(const shape<I> &g, I k, int64_t &od, int64_t &os, I &inner)
{
    const int n = N > 0 ? N : g.n;
    I rem = k;
    od = 0;
    os = 0;
    inner = 0;
#pragma unroll
    for (int d = 0; d < (N > 0 ? N : MAX_DIMS); ++d) {
        if (d >= n) break;
        I idx = rem;
        if (d < n - 1) {
            const I q = g.div[d].quot(rem);
            idx = rem - q * g.ext[d];
            rem = q;
        }
        if (d == 0) inner = idx;
        od += (int64_t)idx * g.ds[d];
        os += (int64_t)idx * g.ss[d];
    }
}

/* ---- Kernels ------------------------------------------------------------------------ */

template <class T, class I, int N>
__global__ void __launch_bounds__(BLOCK)
    copy_kernel(T *dst, const T *src, const __grid_constant__ shape<I> g, uint64_t total)
{
    constexpr uint64_t tile = (uint64_t)BLOCK * UNROLL;
    for (uint64_t base = (uint64_t)blockIdx.x * tile; base < total;
         base += (uint64_t)gridDim.x * tile) {
        int64_t od[UNROLL], os[UNROLL];
        T v[UNROLL];
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) {
            const uint64_t k = base + (uint64_t)(u * BLOCK) + threadIdx.x;
            if (k < total) {
                I inner;
                locate<N>(g, (I)k, od[u], os[u], inner);
                v[u] = src[os[u]];
            }
        }
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) {
            const uint64_t k = base + (uint64_t)(u * BLOCK) + threadIdx.x;
            if (k < total) dst[od[u]] = v[u];
        }
    }
}

template <class T, class I, int N>
__global__ void __launch_bounds__(BLOCK)
    fill_value_kernel(T *dst, const __grid_constant__ shape<I> g, uint64_t total, T v)
{
    for (uint64_t k = (uint64_t)blockIdx.x * BLOCK + threadIdx.x; k < total;
         k += (uint64_t)gridDim.x * BLOCK) {
        int64_t od, os;
        I inner;
        locate<N>(g, (I)k, od, os, inner);
        dst[od] = v;
    }
}

template <class T> struct pattern {
    T w[PATTERN_BYTES / sizeof(T)];
};

/* The innermost dimension is the element's words [off, off + len): word `inner` of p. */
template <class T, class I, int N>
__global__ void __launch_bounds__(BLOCK)
    fill_pattern_kernel(T *dst, const __grid_constant__ shape<I> g, uint64_t total,
                        const __grid_constant__ pattern<T> p)
{
    for (uint64_t k = (uint64_t)blockIdx.x * BLOCK + threadIdx.x; k < total;
         k += (uint64_t)gridDim.x * BLOCK) {
        int64_t od, os;
        I inner;
        locate<N>(g, (I)k, od, os, inner);
        dst[od] = p.w[inner];
    }
}

/* a: contiguous in the destination (stride 1 there), b: contiguous in the source. */
struct tiled {
    int64_t ea, eb;
    int64_t sa;      /* source stride of a */
    int64_t db;      /* destination stride of b */
    int64_t tiles_a; /* tiles along a */
    int64_t tiles;   /* tiles of one (a, b) plane */
    int64_t count;   /* tiles times the batch */
    int nb;          /* the other dimensions, innermost first */
    int64_t bext[MAX_DIMS], bds[MAX_DIMS], bss[MAX_DIMS];
};

template <class T>
__global__ void __launch_bounds__(TILE *TILE_ROWS)
    tiled_kernel(T *dst, const T *src, const __grid_constant__ tiled g)
{
    __shared__ T tile[TILE][TILE + 1];
    for (int64_t w = blockIdx.x; w < g.count; w += gridDim.x) {
        int64_t rem = w / g.tiles;
        const int64_t t = w - rem * g.tiles;
        const int64_t tb = t / g.tiles_a;
        const int64_t ta = t - tb * g.tiles_a;
        int64_t od = 0, os = 0;
        for (int d = 0; d < g.nb; ++d) {
            int64_t idx = rem;
            if (d < g.nb - 1) {
                const int64_t q = rem / g.bext[d];
                idx = rem - q * g.bext[d];
                rem = q;
            }
            od += idx * g.bds[d];
            os += idx * g.bss[d];
        }
        const int64_t a0 = ta * TILE, b0 = tb * TILE;
        const int x = (int)threadIdx.x;
        for (int y = (int)threadIdx.y; y < TILE; y += TILE_ROWS) {
            const int64_t a = a0 + y, b = b0 + x;
            if (a < g.ea && b < g.eb) tile[y][x] = src[os + a * g.sa + b];
        }
        __syncthreads();
        for (int y = (int)threadIdx.y; y < TILE; y += TILE_ROWS) {
            const int64_t b = b0 + y, a = a0 + x;
            if (a < g.ea && b < g.eb) dst[od + b * g.db + a] = tile[x][y];
        }
        __syncthreads();
    }
}

/* ---- Launch shapes -------------------------------------------------------------------- */

/* Blocks of `block` threads resident on the whole device at once, per kernel and device. */
template <class K>
cudaError_t device_wave(K kernel, int block, int device, std::atomic<int> *cache, uint64_t *out)
{
    const bool cached = device >= 0 && device < MAX_DEVICES;
    int v = cached ? cache[device].load(std::memory_order_relaxed) : 0;
    if (v <= 0) {
        int per_sm = 0, sms = 0;
        cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, block, 0);
        if (e == cudaSuccess)
            e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
        if (e != cudaSuccess) return e;
        if (per_sm <= 0 || sms <= 0) return cudaErrorLaunchOutOfResources;
        v = per_sm * sms;
        if (cached) cache[device].store(v, std::memory_order_relaxed);
    }
    *out = (uint64_t)v;
    return cudaSuccess;
}

unsigned grid_of(uint64_t need, uint64_t wave)
{
    const uint64_t cap = wave * WAVES;
    const uint64_t g = need < cap ? need : cap;
    return (unsigned)(g > 0 ? g : 1);
}

/* One dimension in bytes (then in words), outer to inner while preparing. */
struct dimv {
    int64_t ext, ds, ss;
};

template <class I> shape<I> make_shape(const dimv *r, int m)
{
    shape<I> g;
    memset(&g, 0, sizeof g);
    g.n = m;
    for (int j = 0; j < m; ++j) {
        const dimv &x = r[m - 1 - j];
        g.ext[j] = (I)x.ext;
        g.div[j].init((I)x.ext);
        g.ds[j] = x.ds;
        g.ss[j] = x.ss;
    }
    return g;
}

/* f(std::integral_constant<int, N>) for the kernels of N dimensions: 1, 2, 3 unrolled with
   32-bit indices, the general walk otherwise. */
template <class I, class F> cudaError_t with_dims(int n, F &&f)
{
    if constexpr (sizeof(I) == 8) {
        (void)n;
        return f(std::integral_constant<int, 0>{});
    } else {
        switch (n) {
        case 1: return f(std::integral_constant<int, 1>{});
        case 2: return f(std::integral_constant<int, 2>{});
        case 3: return f(std::integral_constant<int, 3>{});
        default: return f(std::integral_constant<int, 0>{});
        }
    }
}

/* f(T{}) for the word of w bytes. */
template <class F> cudaError_t with_word(int64_t w, F &&f)
{
    switch (w) {
    case 16: return f(uint4{});
    case 8: return f((unsigned long long)0);
    case 4: return f((unsigned int)0);
    case 2: return f((unsigned short)0);
    default: return f((unsigned char)0);
    }
}

/* Outer to inner by destination stride, largest first (stable; at most MAX_DIMS). */
void sort_by_dst(dimv *v, int n)
{
    for (int i = 1; i < n; ++i) {
        const dimv x = v[i];
        int j = i;
        while (j > 0 && v[j - 1].ds < x.ds) {
            v[j] = v[j - 1];
            --j;
        }
        v[j] = x;
    }
}

/* Merges each dimension into its inner neighbour where the pair is contiguous on the
   destination (and on the source when `src`). Returns the count left. */
int merge(dimv *v, int n, bool src)
{
    int m = 0;
    for (int i = 0; i < n; ++i) {
        if (m > 0 && v[m - 1].ds == v[i].ds * v[i].ext &&
            (!src || v[m - 1].ss == v[i].ss * v[i].ext)) {
            v[m - 1].ext *= v[i].ext;
            v[m - 1].ds = v[i].ds;
            v[m - 1].ss = v[i].ss;
        } else {
            v[m++] = v[i];
        }
    }
    return m;
}

uint64_t product(const dimv *v, int n)
{
    uint64_t t = 1;
    for (int i = 0; i < n; ++i) t *= (uint64_t)v[i].ext;
    return t;
}

/* ---- Copies ------------------------------------------------------------------------------ */

template <class T, class I>
cudaError_t copy_flat(cudaStream_t s, int device, void *dst, const void *src, const dimv *r, int m,
                      uint64_t total)
{
    const shape<I> g = make_shape<I>(r, m);
    return with_dims<I>(m, [&](auto nc) -> cudaError_t {
        constexpr int N = decltype(nc)::value;
        static std::atomic<int> cache[MAX_DEVICES];
        uint64_t wave = 0;
        cudaError_t e = device_wave(copy_kernel<T, I, N>, BLOCK, device, cache, &wave);
        if (e != cudaSuccess) return e;
        const uint64_t need = (total + (uint64_t)BLOCK * UNROLL - 1) / ((uint64_t)BLOCK * UNROLL);
        copy_kernel<T, I, N><<<grid_of(need, wave), BLOCK, 0, s>>>(
            static_cast<T *>(dst), static_cast<const T *>(src), g, total);
        return cudaGetLastError();
    });
}

template <class T>
cudaError_t copy_tiled(cudaStream_t s, int device, void *dst, const void *src, const dimv *r, int m,
                       int ia, int ib)
{
    static std::atomic<int> cache[MAX_DEVICES];
    tiled g;
    memset(&g, 0, sizeof g);
    g.ea = r[ia].ext;
    g.eb = r[ib].ext;
    g.sa = r[ia].ss;
    g.db = r[ib].ds;
    g.tiles_a = (g.ea + TILE - 1) / TILE;
    g.tiles = g.tiles_a * ((g.eb + TILE - 1) / TILE);
    int64_t batch = 1;
    for (int i = m - 1; i >= 0; --i) {
        if (i == ia || i == ib) continue;
        g.bext[g.nb] = r[i].ext;
        g.bds[g.nb] = r[i].ds;
        g.bss[g.nb] = r[i].ss;
        batch *= r[i].ext;
        ++g.nb;
    }
    g.count = g.tiles * batch;
    uint64_t wave = 0;
    cudaError_t e = device_wave(tiled_kernel<T>, TILE * TILE_ROWS, device, cache, &wave);
    if (e != cudaSuccess) return e;
    tiled_kernel<T><<<grid_of((uint64_t)g.count, wave), dim3(TILE, TILE_ROWS), 0, s>>>(
        static_cast<T *>(dst), static_cast<const T *>(src), g);
    return cudaGetLastError();
}

/* The dimension contiguous in the source when the innermost one (contiguous in the
   destination) is not, both long enough to fill tiles; -1 otherwise. */
int tiled_partner(const dimv *r, int m)
{
    const dimv &a = r[m - 1];
    if (m < 2 || a.ds != 1 || a.ss == 1 || a.ext < MIN_TILED_EXTENT) return -1;
    for (int i = m - 2; i >= 0; --i)
        if (r[i].ss == 1 && r[i].ext >= MIN_TILED_EXTENT) return i;
    return -1;
}

/* ---- Fills --------------------------------------------------------------------------------- */

template <class T, class I>
cudaError_t fill_value(cudaStream_t s, int device, void *dst, const dimv *r, int m, uint64_t total,
                       const void *value)
{
    const shape<I> g = make_shape<I>(r, m);
    T v;
    memcpy(&v, value, sizeof v);
    return with_dims<I>(m, [&](auto nc) -> cudaError_t {
        constexpr int N = decltype(nc)::value;
        static std::atomic<int> cache[MAX_DEVICES];
        uint64_t wave = 0;
        cudaError_t e = device_wave(fill_value_kernel<T, I, N>, BLOCK, device, cache, &wave);
        if (e != cudaSuccess) return e;
        const uint64_t need = (total + BLOCK - 1) / BLOCK;
        fill_value_kernel<T, I, N>
            <<<grid_of(need, wave), BLOCK, 0, s>>>(static_cast<T *>(dst), g, total, v);
        return cudaGetLastError();
    });
}

template <class T, class I>
cudaError_t fill_pattern(cudaStream_t s, int device, void *dst, const dimv *r, int m,
                         uint64_t total, const unsigned char *words, size_t len)
{
    const shape<I> g = make_shape<I>(r, m);
    pattern<T> p;
    memset(&p, 0, sizeof p);
    memcpy(p.w, words, len * sizeof(T));
    return with_dims<I>(m, [&](auto nc) -> cudaError_t {
        constexpr int N = decltype(nc)::value;
        static std::atomic<int> cache[MAX_DEVICES];
        uint64_t wave = 0;
        cudaError_t e = device_wave(fill_pattern_kernel<T, I, N>, BLOCK, device, cache, &wave);
        if (e != cudaSuccess) return e;
        const uint64_t need = (total + BLOCK - 1) / BLOCK;
        fill_pattern_kernel<T, I, N>
            <<<grid_of(need, wave), BLOCK, 0, s>>>(static_cast<T *>(dst), g, total, p);
        return cudaGetLastError();
    });
}

/* Indices fit 32 bits (with the divider's margin) when the word count is below 2^31. */
bool small_index(uint64_t total) { return total < ((uint64_t)1 << 31); }

} /* namespace */

extern "C" cudaError_t px__cuda_strided_copy_launch(cudaStream_t stream, int device,
                                                    const px__cuda_strided *op)
{
    const int64_t es = (int64_t)op->elem_size;
    char *dst = static_cast<char *>(op->dst);
    const char *src = static_cast<const char *>(op->src);
    if (es <= 0 || op->rank < 0 || op->rank > PX__CUDA_STRIDED_MAX_RANK)
        return cudaErrorInvalidValue;
    dimv r[MAX_DIMS];
    int m = 0;
    for (int d = 0; d < op->rank; ++d) {
        const int64_t e = op->extent[d];
        if (e <= 0) return cudaSuccess; /* no element */
        if (e == 1) continue;
        const int64_t ds = op->dst_stride[d] * es, ss = op->src_stride[d] * es;
        if (ds == 0) {
            src += (e - 1) * ss; /* every index lands on one element: the last one wins */
            continue;
        }
        r[m++] = dimv{e, ds, ss};
    }
    sort_by_dst(r, m);
    r[m++] = dimv{es, 1, 1}; /* the element's bytes */
    m = merge(r, m, true);

    /* The widest word that divides the addresses, every stride and the innermost run. */
    int64_t w = 16;
    for (; w > 1; w /= 2) {
        bool ok = (uintptr_t)dst % (uint64_t)w == 0 && (uintptr_t)src % (uint64_t)w == 0 &&
                  r[m - 1].ext % w == 0;
        for (int i = 0; ok && i < m - 1; ++i) ok = r[i].ds % w == 0 && r[i].ss % w == 0;
        if (ok) break;
    }
    r[m - 1].ext /= w;
    for (int i = 0; i < m - 1; ++i) {
        r[i].ds /= w;
        r[i].ss /= w;
    }
    if (r[m - 1].ext == 1 && m > 1) --m;
    const uint64_t total = product(r, m);

    const int ib = tiled_partner(r, m);
    if (ib >= 0)
        return with_word(w, [&](auto t) {
            return copy_tiled<decltype(t)>(stream, device, dst, src, r, m, m - 1, ib);
        });
    return with_word(w, [&](auto t) {
        using T = decltype(t);
        return small_index(total) ? copy_flat<T, uint32_t>(stream, device, dst, src, r, m, total)
                                  : copy_flat<T, uint64_t>(stream, device, dst, src, r, m, total);
    });
}

extern "C" cudaError_t px__cuda_strided_fill_launch(cudaStream_t stream, int device,
                                                    const px__cuda_strided *op)
{
    const int64_t es = (int64_t)op->elem_size;
    char *dst = static_cast<char *>(op->dst);
    if (es <= 0 || op->rank < 0 || op->rank > PX__CUDA_STRIDED_MAX_RANK)
        return cudaErrorInvalidValue;
    dimv r[MAX_DIMS];
    int m = 0;
    for (int d = 0; d < op->rank; ++d) {
        const int64_t e = op->extent[d];
        if (e <= 0) return cudaSuccess;
        const int64_t ds = op->dst_stride[d] * es;
        if (e == 1 || ds == 0) continue; /* one element, written once */
        r[m++] = dimv{e, ds, 0};
    }
    sort_by_dst(r, m);
    m = merge(r, m, false);

    int64_t w = 16;
    for (; w > 1; w /= 2) {
        bool ok = es % w == 0 && (uintptr_t)dst % (uint64_t)w == 0;
        for (int i = 0; ok && i < m; ++i) ok = r[i].ds % w == 0;
        if (ok) break;
    }
    for (int i = 0; i < m; ++i) r[i].ds /= w;
    const int64_t words = es / w;
    const unsigned char *value = static_cast<const unsigned char *>(op->value);

    if (words == 1) {
        if (m == 0) r[m++] = dimv{1, 0, 0};
        const uint64_t total = product(r, m);
        return with_word(w, [&](auto t) {
            using T = decltype(t);
            return small_index(total)
                       ? fill_value<T, uint32_t>(stream, device, dst, r, m, total, value)
                       : fill_value<T, uint64_t>(stream, device, dst, r, m, total, value);
        });
    }
    /* Wider elements: the element's words as a pattern along a last dimension, in slices
       of PATTERN_BYTES. */
    const int64_t slice = (int64_t)PATTERN_BYTES / w;
    for (int64_t off = 0; off < words; off += slice) {
        const int64_t len = words - off < slice ? words - off : slice;
        r[m] = dimv{len, 1, 0};
        const uint64_t total = product(r, m + 1);
        char *base = dst + off * w;
        const unsigned char *part = value + off * w;
        const cudaError_t e = with_word(w, [&](auto t) {
            using T = decltype(t);
            return small_index(total) ? fill_pattern<T, uint32_t>(stream, device, base, r, m + 1,
                                                                  total, part, (size_t)len)
                                      : fill_pattern<T, uint64_t>(stream, device, base, r, m + 1,
                                                                  total, part, (size_t)len);
        });
        if (e != cudaSuccess) return e;
    }
    return cudaSuccess;
}
