/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
// spmv_kokkos: the CSR SpMV of bench/cuda/bench_team.c (y = A x, the same matrices and x)
// written with Kokkos' own TeamPolicy, for a like-for-like comparison with portex's team
// kernel and cuSPARSE.
//
//   spmv_kokkos [--quick] [--reps N]
//
// Matrices (common/csr.h, as bench_team builds them; --quick: 512 x 512 and 256K rows):
//   spmv laplace    the 5-point Laplacian of a 4096 x 4096 grid (16M rows, 80M entries)
//   spmv powerlaw   16M rows of power-law lengths (seed 42, rows up to 4096 long)
// x: csr_random from seed 3, as in bench_team.
//
// Variants, each Kokkos::parallel_for over a Kokkos::TeamPolicy on the default execution
// space (Kokkos::Cuda in a CUDA build):
//   lanes L: T x L', N long   the standard team SpMV (the shape of KokkosKernels' and of
//                             portex's bench/cuda/spmv_lanes_k.c): a team per block of rows,
//                             TeamThreadRange over the block's rows, ThreadVectorRange +
//                             parallel_reduce over a row's entries; L = 1, 2, 4, 8, 16 lanes,
//                             T = 256 / L threads a team, a row a thread, as portex's
//                             lanes_policy; the N rows past 32 x L entries skipped and
//                             given a team each (TeamPolicy(N, 8, 32), a TeamVectorRange
//                             reduction), found once, as portex's lanes_dispatch does on CUDA
//                             (in a build without CUDA, for checking: teams of one thread, as
//                             portex's host backends run them, nothing split off); T x L' is
//                             the shape Kokkos made of the request
//   TeamPolicy AUTO           the same functor, TeamPolicy<>(league, AUTO, AUTO): Kokkos
//                             picks team size and vector length (on CUDA the vector length
//                             comes out 1); rows per team = the team size Kokkos recommends
//                             for the functor (team_size_recommended), one row per thread
//
// Each variant runs once and is checked against the plain C product (csr_spmv_plain;
// 1e-12 relative to each row's sum of |a x|, csr_max_rel_diff) before any timing; y starts
// as NaN so a missed row fails. Timing: 2 warm-up rounds, then N rounds (default 21; 3 with
// --quick) in which every variant runs 5 times between Kokkos::fence() calls, timed with
// std::chrono (the order rotating from round to round); the median per call is printed.
// GB/s counts the least traffic, as bench_team does: A once (12 bytes an entry, 4 a row
// offset), x and y once each.
//
// Exit status: 0; 1 when a result differs; 2 on a usage error.
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "csr.h"

namespace {

using exec_space = Kokkos::DefaultExecutionSpace;
using memory_space = exec_space::memory_space;
using policy_type = Kokkos::TeamPolicy<exec_space>;
using member_type = policy_type::member_type;

template <class T> using device_view = Kokkos::View<T *, memory_space>;
template <class T>
using host_unmanaged =
    Kokkos::View<T *, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

// The matrix, x and y on the device.
struct device_csr {
    int64_t nrows = 0, nnz = 0;
    device_view<int32_t> row, col;
    device_view<double> val, x, y;
};

// y[r] = sum of val[k] * x[col[k]] over row r, rows_per_team rows a team: TeamThreadRange
// over the rows, ThreadVectorRange + parallel_reduce over a row's entries. Rows longer than
// max_len (when max_len > 0) are left to SpmvLong.
struct SpmvTeam {
    device_view<const int32_t> row, col;
    device_view<const double> val, x;
    device_view<double> y;
    int64_t nrows, rows_per_team, max_len;

    KOKKOS_INLINE_FUNCTION void operator()(const member_type &team) const
    {
        const int64_t first = static_cast<int64_t>(team.league_rank()) * rows_per_team;
        const int64_t last = first + rows_per_team < nrows ? first + rows_per_team : nrows;
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, first, last), [&](const int64_t r) {
            const int32_t begin = row(r), end = row(r + 1);
            if (max_len > 0 && end - begin > max_len) return;
            double sum = 0.0;
            Kokkos::parallel_reduce(
                Kokkos::ThreadVectorRange(team, begin, end),
                [&](const int32_t k, double &acc) { acc += val(k) * x(col(k)); }, sum);
            Kokkos::single(Kokkos::PerThread(team), [&]() { y(r) = sum; });
        });
    }
};

// y[r] for r = long_rows[league_rank]: a team per row, the entries over every thread and
// vector lane of the team (TeamVectorRange + parallel_reduce).
struct SpmvLong {
    device_view<const int32_t> row, col, long_rows;
    device_view<const double> val, x;
    device_view<double> y;

    KOKKOS_INLINE_FUNCTION void operator()(const member_type &team) const
    {
        const int32_t r = long_rows(team.league_rank());
        double sum = 0.0;
        Kokkos::parallel_reduce(
            Kokkos::TeamVectorRange(team, row(r), row(r + 1)),
            [&](const int32_t k, double &acc) { acc += val(k) * x(col(k)); }, sum);
        Kokkos::single(Kokkos::PerTeam(team), [&]() { y(r) = sum; });
    }
};

SpmvTeam make_team_functor(const device_csr &d, int64_t rows_per_team, int64_t max_len)
{
    return SpmvTeam{d.row, d.col, d.val, d.x, d.y, d.nrows, rows_per_team, max_len};
}

template <class T> device_view<T> to_device(const char *label, const T *host, int64_t n)
{
    device_view<T> v(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)),
                     static_cast<size_t>(n > 0 ? n : 1));
    if (n > 0) {
        Kokkos::deep_copy(
            Kokkos::subview(v, std::make_pair<size_t, size_t>(0, static_cast<size_t>(n))),
            host_unmanaged<const T>(host, static_cast<size_t>(n)));
    }
    return v;
}

// One way of computing y: a name and one call (asynchronous; the caller fences).
struct variant {
    std::string name;
    std::function<void()> run;
    double ms = 0.0; // out: median time per call
};

// Each variant's median time per call: `warm` untimed rounds, then `reps` rounds of `batch`
// calls each between fences, the variant going first rotating from round to round.
void measure(std::vector<variant> &v, int batch, int warm, int reps)
{
    const size_t nv = v.size();
    std::vector<std::vector<double>> samples(nv);
    for (int round = 0; round < warm + reps; ++round) {
        for (size_t j = 0; j < nv; ++j) {
            variant &var = v[(j + static_cast<size_t>(round)) % nv];
            Kokkos::fence();
            const auto t0 = std::chrono::steady_clock::now();
            for (int b = 0; b < batch; ++b) var.run();
            Kokkos::fence();
            const auto t1 = std::chrono::steady_clock::now();
            if (round >= warm)
                samples[(j + static_cast<size_t>(round)) % nv].push_back(
                    std::chrono::duration<double, std::milli>(t1 - t0).count() / batch);
        }
    }
    for (size_t k = 0; k < nv; ++k) {
        std::vector<double> &s = samples[k];
        std::sort(s.begin(), s.end());
        const size_t n = s.size();
        v[k].ms = n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
    }
}

int g_failed = 0;

void bench_spmv(const char *name, const csr &m, int reps)
{
    const int64_t n = m.nrows;
    std::vector<double> x(static_cast<size_t>(n)), ref(static_cast<size_t>(n));
    uint64_t seed = 3;
    for (int64_t r = 0; r < n; ++r) x[static_cast<size_t>(r)] = csr_random(&seed);
    csr_spmv_plain(&m, x.data(), ref.data());

    device_csr d;
    d.nrows = n;
    d.nnz = m.nnz;
    d.row = to_device("row", m.row, n + 1);
    d.col = to_device("col", m.col, m.nnz);
    d.val = to_device("val", m.val, m.nnz);
    d.x = to_device("x", x.data(), n);
    d.y = device_view<double>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "y"),
                              static_cast<size_t>(n));

    const double mean = static_cast<double>(m.nnz) / static_cast<double>(n);
    constexpr bool on_host =
        Kokkos::SpaceAccessibility<Kokkos::HostSpace, memory_space>::accessible;
    std::vector<variant> v;

    // The shapes of portex's lanes_policy (bench/cuda/spmv_lanes_k.h), lanes 1 to 16:
    // 256 / lanes threads a team, a row a thread; rows past 32 lane-steps skipped by the
    // first kernel and given a team each (TeamPolicy(nlong, 8, 32), a TeamVectorRange
    // reduction), found once as a sparse library's analysis step is. Host backends (a build
    // without CUDA, for checking) run a team as one thread, as portex's do, and split nothing.
    int64_t nlong_shown = 0;
    for (int lanes = 1; lanes <= 16; lanes *= 2) {
        const int threads = 256 / lanes;
        const int league = static_cast<int>((n + threads - 1) / threads);
        const int64_t max_len = on_host ? 0 : 32 * static_cast<int64_t>(lanes);
        int64_t nlong = 0;
        int32_t *long_rows = csr_long_rows(&m, max_len, &nlong);
        const device_view<int32_t> d_long = to_device("long rows", long_rows, nlong);
        free(long_rows);
        const SpmvTeam split = make_team_functor(d, threads, max_len);
        const SpmvLong longf{d.row, d.col, d_long, d.val, d.x, d.y};
        const int team_max = policy_type(1, 1).team_size_max(split, Kokkos::ParallelForTag());
        const policy_type fixed(league, on_host ? 1 : std::min(threads, team_max),
                                std::min(lanes, policy_type::vector_length_max()));
        const int long_team =
            on_host ? 1
                    : std::min(8, policy_type(1, 1).team_size_max(longf, Kokkos::ParallelForTag()));
        const policy_type long_policy(static_cast<int>(nlong > 0 ? nlong : 1), long_team,
                                      std::min(32, policy_type::vector_length_max()));
        char vname[64];
        std::snprintf(vname, sizeof vname, "lanes %d: %d x %d, %lld long", lanes, fixed.team_size(),
                      fixed.impl_vector_length(), static_cast<long long>(nlong));
        v.push_back({vname, [=]() {
                         Kokkos::parallel_for("spmv_team", fixed, split);
                         if (nlong > 0) Kokkos::parallel_for("spmv_long", long_policy, longf);
                     }});
        if (lanes == 1) nlong_shown = nlong;
    }

    // AUTO: the team size Kokkos recommends for the functor, one row per thread, nothing
    // split off.
    const SpmvTeam plain = make_team_functor(d, 1, 0);
    const int auto_team = policy_type(1, Kokkos::AUTO, Kokkos::AUTO)
                              .team_size_recommended(plain, Kokkos::ParallelForTag());
    const SpmvTeam auto_functor = make_team_functor(d, auto_team, 0);
    const policy_type autop(static_cast<int>((n + auto_team - 1) / auto_team), Kokkos::AUTO,
                            Kokkos::AUTO);
    v.push_back({"TeamPolicy AUTO",
                 [=]() { Kokkos::parallel_for("spmv_team_auto", autop, auto_functor); }});

    const int64_t longest = csr_longest_row(&m);
    std::printf("%s: %lld rows, %lld entries (mean %.2f, longest %lld); AUTO: team size %d, "
                "vector length %d; %lld rows longer than 32 (a lane each)\n",
                name, static_cast<long long>(n), static_cast<long long>(m.nnz), mean,
                static_cast<long long>(longest), auto_team, autop.impl_vector_length(),
                static_cast<long long>(nlong_shown));

    // Check every variant before timing; y starts as NaN each time.
    const auto y_host = Kokkos::create_mirror_view(d.y);
    bool ok = true;
    for (variant &var : v) {
        Kokkos::deep_copy(d.y, std::numeric_limits<double>::quiet_NaN());
        var.run();
        Kokkos::fence();
        Kokkos::deep_copy(y_host, d.y);
        const double diff = csr_max_rel_diff(&m, x.data(), y_host.data(), ref.data());
        const bool good = diff <= 1e-12;
        std::printf("  %-26s max relative difference from plain C %.3g: %s\n", var.name.c_str(),
                    diff, good ? "OK" : "MISMATCH");
        ok = ok && good;
    }
    if (!ok) {
        g_failed = 1;
        return;
    }

    measure(v, 5, 2, reps);
    const double bytes = static_cast<double>(m.nnz) * 12.0 + static_cast<double>(n + 1) * 4.0 +
                         16.0 * static_cast<double>(n);
    std::printf("\n| %-14s | %-26s | %-11s | %-10s |\n", "case", "variant", "median", "bandwidth");
    std::printf("|----------------|----------------------------|------------:|-----------:|\n");
    for (const variant &var : v) {
        char t[32], bw[32];
        std::snprintf(t, sizeof t, "%.3f ms", var.ms);
        std::snprintf(bw, sizeof bw, "%.0f GB/s", bytes / var.ms * 1e-6);
        std::printf("| %-14s | %-26s | %11s | %10s |\n", name, var.name.c_str(), t, bw);
    }
    std::printf("\n");
}

} // namespace

int main(int argc, char **argv)
{
    bool quick = false;
    int reps = 0;
    for (int k = 1; k < argc; ++k) {
        if (!std::strcmp(argv[k], "--quick"))
            quick = true;
        else if (!std::strcmp(argv[k], "--reps") && k + 1 < argc)
            reps = std::atoi(argv[++k]);
        else if (!std::strncmp(argv[k], "--kokkos-", 9))
            continue; // Kokkos' own options (Kokkos::initialize reads them)
        else {
            std::fprintf(stderr, "usage: %s [--quick] [--reps N]\n", argv[0]);
            return 2;
        }
    }
    if (reps < 1) reps = quick ? 3 : 21;

    Kokkos::ScopeGuard guard(argc, argv);
    std::string device = exec_space::name();
#ifdef KOKKOS_ENABLE_CUDA
    if (std::is_same<exec_space, Kokkos::Cuda>::value) {
        const cudaDeviceProp &prop = Kokkos::Cuda().cuda_device_prop();
        device += std::string(" on ") + prop.name + " (" +
                  std::to_string(prop.multiProcessorCount) + " SMs)";
    }
#else
    device += " (concurrency " + std::to_string(exec_space().concurrency()) + ")";
#endif
    std::printf("spmv_kokkos: Kokkos %d.%d.%d TeamPolicy SpMV, %s; %d timed rounds after "
                "warm-up, medians\n\n",
                KOKKOS_VERSION / 10000, KOKKOS_VERSION / 100 % 100, KOKKOS_VERSION % 100,
                device.c_str(), reps);

    const int64_t grid = quick ? 512 : 4096;
    {
        csr lap = csr_laplacian2d(grid);
        bench_spmv("spmv laplace", lap, reps);
        csr_free(&lap);
    }
    {
        csr pl = csr_powerlaw(grid * grid, quick ? 1024 : 4096, 42);
        bench_spmv("spmv powerlaw", pl, reps);
        csr_free(&pl);
    }
    return g_failed;
}
