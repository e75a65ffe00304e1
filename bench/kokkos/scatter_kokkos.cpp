/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
// scatter_kokkos: the cases of bench/cuda/bench_scatter_cuda.c (the same inputs, the same
// raw CUDA kernels as the baseline) written with Kokkos' ScatterView, so that portex's
// px_scatter and Kokkos' ScatterView can each be set against the same raw atomicAdd
// kernels on the same GPU.
//
//   scatter_kokkos [--quick] [--reps N]
//
// Cases (--quick: 2^20 values, a 256 x 256 and a 32^3 mesh):
//   histogram, 16 bins        2^26 splitmix64 doubles in [0, 1) counted in 16 int32 bins
//   histogram, 65536 bins     the same values in 65536 bins
//   assembly 2-D, quads       a 4096 x 4096 mesh of quads, each adding w(e) / 4 to its 4 nodes
//   assembly 3-D, hexahedra   a 256^3 mesh of hexahedra, each adding w(e) / 8 to its 8 nodes
//
// Variants, one process, one stream (the default execution space's):
//   raw CUDA           bench/cuda/raw_scatter.cu's kernels, built into this program: one
//                      thread an index, 256 a block, atomicAdd into a cudaMalloc target
//   Kokkos ScatterView Kokkos::Experimental::ScatterView<T*> over the target (its default
//                      for the execution space: on CUDA atomics, no duplicates), a
//                      parallel_for adding through access(), then contribute() (nothing to
//                      do without duplicates, and timed as portex's contribute is)
//   Kokkos atomic_add  the same loop adding with Kokkos::atomic_add into the target
//
// Each variant runs once from a zeroed target and is compared with the raw kernel's result
// (integers exactly, doubles to 1e-9 relative) before any timing. Timing: CUDA events on
// the stream around one call, medians of N rounds (default 21; 3 with --quick), the
// variants' order rotating from round to round; each row prints raw time / variant time
// (above 1: faster than raw), as bench_scatter_cuda does for portex.
//
// Exit status: 0; 1 when a result differs; 2 on a usage or CUDA error. Needs a CUDA build
// of Kokkos (the raw kernels are CUDA).
#include <Kokkos_Core.hpp>
#include <Kokkos_ScatterView.hpp>

#include "raw_scatter.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#ifndef KOKKOS_ENABLE_CUDA
#error "scatter_kokkos compares Kokkos with raw CUDA kernels: it needs Kokkos' CUDA backend"
#endif

namespace {

using exec_space = Kokkos::Cuda;
using memory_space = exec_space::memory_space;
template <class T> using device_view = Kokkos::View<T *, memory_space>;

#define CU(call)                                                                               \
    do {                                                                                       \
        const cudaError_t err_ = (call);                                                       \
        if (err_ != cudaSuccess) {                                                             \
            std::fprintf(stderr, "scatter_kokkos: %s: %s\n", #call, cudaGetErrorString(err_)); \
            std::exit(2);                                                                      \
        }                                                                                      \
    } while (0)

// ---- The Kokkos functors ----------------------------------------------------------------

template <class Scatter> struct HistScatter {
    device_view<const double> x;
    double nbins;
    Scatter s;
    KOKKOS_INLINE_FUNCTION void operator()(int64_t i) const
    {
        auto a = s.access();
        a((int64_t)(x(i) * nbins)) += 1;
    }
};

struct HistAtomic {
    device_view<const double> x;
    double nbins;
    device_view<int> counts;
    KOKKOS_INLINE_FUNCTION void operator()(int64_t i) const
    {
        Kokkos::atomic_add(&counts((int64_t)(x(i) * nbins)), 1);
    }
};

// Element e's node numbers and share, as raw_fem computes them.
KOKKOS_INLINE_FUNCTION void fem_nodes(int64_t e, int64_t nx, int64_t ny, int64_t *n0, int64_t *row,
                                      int64_t *plane)
{
    const int64_t i = e % nx, j = e / nx % ny, k = e / nx / ny;
    *row = nx + 1;
    *plane = *row * (ny + 1);
    *n0 = (k * (ny + 1) + j) * *row + i;
}

template <class Scatter> struct FemScatter {
    device_view<const double> w;
    int64_t nx, ny;
    int dim;
    Scatter s;
    KOKKOS_INLINE_FUNCTION void operator()(int64_t e) const
    {
        int64_t n0, row, plane;
        fem_nodes(e, nx, ny, &n0, &row, &plane);
        auto a = s.access();
        const double v = (dim == 2 ? 0.25 : 0.125) * w(e);
        for (int c = 0; c < (dim == 2 ? 4 : 8); ++c)
            a(n0 + (c & 1) + (c >> 1 & 1) * row + (c >> 2) * plane) += v;
    }
};

struct FemAtomic {
    device_view<const double> w;
    int64_t nx, ny;
    int dim;
    device_view<double> nodes;
    KOKKOS_INLINE_FUNCTION void operator()(int64_t e) const
    {
        int64_t n0, row, plane;
        fem_nodes(e, nx, ny, &n0, &row, &plane);
        const double v = (dim == 2 ? 0.25 : 0.125) * w(e);
        for (int c = 0; c < (dim == 2 ? 4 : 8); ++c)
            Kokkos::atomic_add(&nodes(n0 + (c & 1) + (c >> 1 & 1) * row + (c >> 2) * plane), v);
    }
};

// ---- The cases ------------------------------------------------------------------------

enum kind { HIST, FEM2, FEM3 };

struct bench_case {
    const char *name;
    kind k;
    int64_t n; // histogram: values; assembly: elements per dimension
    int nbins;
};

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// One case: the raw kernel and the two Kokkos variants, checked, then timed. Target
// element type T (int for the histograms, double for the assemblies).
template <class T> bool run_case(const bench_case &c, int reps)
{
    const exec_space space;
    const cudaStream_t stream = space.cuda_stream();
    int64_t nin, ntarget, nx = 0, ny = 0, nz = 1;
    if (c.k == HIST) {
        nin = c.n;
        ntarget = c.nbins;
    } else {
        nx = ny = c.n;
        nz = c.k == FEM3 ? c.n : 1;
        nin = nx * ny * nz;
        ntarget = (nx + 1) * (ny + 1) * (c.k == FEM3 ? nz + 1 : 1);
    }
    // Inputs: splitmix64 doubles in [0, 1), as bench_scatter_cuda makes them.
    std::vector<double> h((size_t)nin);
    uint64_t seed = 20261127;
    for (int64_t i = 0; i < nin; ++i) {
        uint64_t z = (seed += 0x9e3779b97f4a7c15u);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
        z ^= z >> 31;
        h[(size_t)i] = (double)(z >> 11) * 0x1.0p-53;
    }
    device_view<double> in("in", (size_t)nin);
    Kokkos::deep_copy(
        in,
        Kokkos::View<const double *, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
            h.data(), h.size()));
    device_view<T> target("target", (size_t)ntarget);
    T *raw = nullptr;
    const size_t bytes = (size_t)ntarget * sizeof(T);
    CU(cudaMalloc((void **)&raw, bytes));
    // The defaults for the view's execution space (ScatterSum; on CUDA non-duplicated atomics).
    auto scatter = Kokkos::Experimental::create_scatter_view(target);
    using scatter_type = decltype(scatter);
    const Kokkos::RangePolicy<exec_space, Kokkos::IndexType<int64_t>> range(space, 0, nin);
    auto variant = [&](int v) {
        if (v == 0) {
            if constexpr (std::is_same_v<T, int>)
                CU(raw_scatter_hist(in.data(), nin, c.nbins, raw, stream));
            else
                CU(raw_scatter_fem(in.data(), nx, ny, nz, c.k == FEM2 ? 2 : 3, raw, stream));
        } else if (v == 1) {
            if constexpr (std::is_same_v<T, int>)
                Kokkos::parallel_for("hist scatter", range,
                                     HistScatter<scatter_type>{in, (double)c.nbins, scatter});
            else
                Kokkos::parallel_for(
                    "fem scatter", range,
                    FemScatter<scatter_type>{in, nx, ny, c.k == FEM2 ? 2 : 3, scatter});
            Kokkos::Experimental::contribute(target, scatter);
        } else {
            if constexpr (std::is_same_v<T, int>)
                Kokkos::parallel_for("hist atomic", range, HistAtomic{in, (double)c.nbins, target});
            else
                Kokkos::parallel_for("fem atomic", range,
                                     FemAtomic{in, nx, ny, c.k == FEM2 ? 2 : 3, target});
        }
    };

    // Checks: each Kokkos variant from zero against the raw kernel from zero.
    std::vector<T> a((size_t)ntarget), b((size_t)ntarget);
    CU(cudaMemsetAsync(raw, 0, bytes, stream));
    variant(0);
    CU(cudaMemcpyAsync(b.data(), raw, bytes, cudaMemcpyDeviceToHost, stream));
    bool ok = true;
    for (int v = 1; v <= 2; ++v) {
        Kokkos::deep_copy(space, target, T(0));
        scatter.reset(space);
        variant(v);
        CU(cudaMemcpyAsync(a.data(), target.data(), bytes, cudaMemcpyDeviceToHost, stream));
        CU(cudaStreamSynchronize(stream));
        for (size_t i = 0; i < a.size() && ok; ++i)
            ok = std::is_same_v<T, int> ? a[i] == b[i]
                                        : std::fabs((double)a[i] - (double)b[i]) <=
                                              1e-9 * std::fabs((double)b[i]) + 1e-300;
        if (!ok) std::printf("scatter_kokkos: %s: variant %d differs from raw CUDA\n", c.name, v);
    }

    cudaEvent_t e0, e1;
    CU(cudaEventCreate(&e0));
    CU(cudaEventCreate(&e1));
    std::vector<double> t[3];
    for (int r = -2; r < reps; ++r) {
        for (int k = 0; k < 3; ++k) {
            const int v = (k + (r < 0 ? 0 : r)) % 3;
            float ms = 0;
            CU(cudaEventRecord(e0, stream));
            variant(v);
            CU(cudaEventRecord(e1, stream));
            CU(cudaEventSynchronize(e1));
            CU(cudaEventElapsedTime(&ms, e0, e1));
            if (r >= 0) t[v].push_back(ms);
        }
    }
    const double raw_ms = median(t[0]), sv_ms = median(t[1]), at_ms = median(t[2]);
    std::printf("| %-23s | %11.3f | %14.3f | %16.3f | %17.3f | %16.3f |\n", c.name, raw_ms, sv_ms,
                at_ms, raw_ms / sv_ms, raw_ms / at_ms);
    CU(cudaEventDestroy(e0));
    CU(cudaEventDestroy(e1));
    CU(cudaFree(raw));
    return ok;
}

} // namespace

int main(int argc, char **argv)
{
    int reps = 21;
    bool quick = false;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--quick") == 0)
            quick = true;
        else if (std::strcmp(argv[i], "--reps") == 0 && i + 1 < argc)
            reps = std::atoi(argv[++i]);
        else {
            std::fprintf(stderr, "usage: %s [--quick] [--reps N]\n", argv[0]);
            return 2;
        }
    }
    if (quick) reps = 3;
    if (reps < 1) reps = 1;
    bool ok = true;
    Kokkos::initialize(argc, argv);
    {
        const bench_case cases[] = {
            {"histogram, 16 bins", HIST, (int64_t)1 << (quick ? 20 : 26), 16},
            {"histogram, 65536 bins", HIST, (int64_t)1 << (quick ? 20 : 26), 65536},
            {"assembly 2-D, quads", FEM2, quick ? 256 : 4096, 0},
            {"assembly 3-D, hexahedra", FEM3, quick ? 32 : 256, 0},
        };
        std::printf("scatter_kokkos: Kokkos %d.%d.%d, %s; ScatterView's defaults on it, "
                    "against raw CUDA atomicAdd (medians of %d, CUDA events)\n",
                    KOKKOS_VERSION / 10000, KOKKOS_VERSION / 100 % 100, KOKKOS_VERSION % 100,
                    exec_space::name(), reps);
        std::printf("| case                    | raw CUDA ms | ScatterView ms | Kokkos atomic ms | "
                    "raw / ScatterView | raw / atomic_add |\n");
        std::printf("|-------------------------|------------:|---------------:|-----------------:|"
                    "------------------:|-----------------:|\n");
        for (const bench_case &c : cases)
            ok = (c.k == HIST ? run_case<int>(c, reps) : run_case<double>(c, reps)) && ok;
    }
    Kokkos::finalize();
    return ok ? 0 : 1;
}
