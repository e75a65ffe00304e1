/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* bench_scatter: scatter-adds (portex/scatter.h) with the strategy PX_SCATTER_AUTO picks,
 * against the same kernel adding with plain atomics (px_atomic_add), on each host backend
 * compiled in (serial, OpenMP, threads; their default instances, all their threads), in one
 * process:
 *
 *   histogram, 16 bins        2^24 uniform doubles counted in 16 int32 bins: every thread
 *                             on the same few elements (the contention case)
 *   histogram, 65536 bins     the same values in 65536 bins: little contention
 *   assembly 2-D, quads       a 1024 x 1024 mesh of quads, each adding a double into its 4
 *                             nodes (neighbours share nodes)
 *   assembly 3-D, hexahedra   a 96^3 mesh of hexahedra, each adding into its 8 nodes
 *
 * The scatter's time includes px_scatter_contribute (copies added into the target and
 * zeroed). A second table compares, on the serial backend, the scatter's plain adds with
 * the kernel's own `+=` (what one thread costs the scatter). The target: the scatter at
 * least as fast as the atomics (ratio >= 1.00) on OpenMP and threads with several threads
 * under contention; at least 0.95 of `+=` on one thread.
 *
 *   bench_scatter [--quick] [--reps N]
 *
 * Each case runs once each way into zeroed targets and the results are compared (integers
 * exactly, doubles to 1e-9 relative), then twice untimed, then N times (default 11; 3 with
 * --quick, which also shrinks the sizes) with the two ways alternating which goes first;
 * times are medians, the ratio the median of the per-round ratios. Exit status: 0; 1 when
 * the results differ; 2 on an error. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <math.h>
#include <stdint.h>

#include "bench_scatter_kernels.h"
#include "bench_util.h"

typedef struct ctx {
    px_instance *inst;
    const bs_case *c;
    px_scatter *s;
    bs_hist_args h;
    bs_fem_args f;
    px_view *target, *vin;
    int64_t nin;
    bool plain; /* sample 1 is the plain += (serial), not the atomics */
} ctx;

/* 0: the scatter (kernel and contribute); 1: atomics, or the plain += on one thread. */
static double sample(int v, void *p)
{
    ctx *x = p;
    const int kind = x->c->kind;
    const double t0 = now_ms();
    if (kind == BS_HIST) {
        const px_kernel *k = v == 0     ? PX_KERNEL(bs_hist_scatter)
                             : x->plain ? PX_KERNEL(bs_hist_plain)
                                        : PX_KERNEL(bs_hist_atomic);
        CHECK((px_parallel_for)(x->inst, "hist", px_range(0, x->c->n), k, &x->h));
    } else {
        const px_kernel *k =
            kind == BS_FEM2 ? (v == 0 ? PX_KERNEL(bs_fem2_scatter) : PX_KERNEL(bs_fem2_atomic))
                            : (v == 0 ? PX_KERNEL(bs_fem3_scatter) : PX_KERNEL(bs_fem3_atomic));
        CHECK((px_parallel_for)(x->inst, "assembly", px_range(0, x->nin), k, &x->f));
    }
    if (v == 0) CHECK(px_scatter_contribute(x->inst, x->s));
    CHECK(px_instance_fence(x->inst));
    return now_ms() - t0;
}

/* Splitmix64 doubles in [0, 1): the values, the same in every run. */
static void fill_uniform(double *x, int64_t n, uint64_t seed)
{
    for (int64_t i = 0; i < n; ++i) {
        uint64_t z = (seed += 0x9e3779b97f4a7c15u);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
        z ^= z >> 31;
        x[i] = (double)(z >> 11) * 0x1.0p-53;
    }
}

/* The inputs and target of case c (HOST views), the scatter on inst, the arguments. */
static void setup(ctx *x, const bs_case *c)
{
    x->c = c;
    int64_t nin, ntarget;
    if (c->kind == BS_HIST) {
        nin = c->n;
        ntarget = c->nbins;
    } else {
        const int64_t e = c->n, nz = c->kind == BS_FEM3 ? e : 1;
        nin = e * e * nz;
        ntarget = (e + 1) * (e + 1) * (c->kind == BS_FEM3 ? e + 1 : 1);
        x->f.nx = x->f.ny = e;
        x->f.nz = nz;
    }
    x->nin = nin;
    CHECK(px_view_create_1d(&x->vin, "in", px_host(), PX_F64, nin));
    CHECK(px_view_create_1d(&x->target, "target", px_host(), c->kind == BS_HIST ? PX_I32 : PX_F64,
                            ntarget));
    px_span_f64_1d in;
    CHECK(px_view_get_span(x->vin, &in));
    fill_uniform(in.data, nin, 20261127);
    CHECK(px_scatter_create(&x->s, x->inst, x->target, PX_SCATTER_AUTO));
    if (c->kind == BS_HIST) {
        x->h.x = in;
        x->h.nbins = c->nbins;
        CHECK(px_scatter_get_span(x->s, &x->h.counts));
        CHECK(px_view_get_span(x->target, &x->h.counts_a));
    } else {
        x->f.w = in;
        CHECK(px_scatter_get_span(x->s, &x->f.nodes));
        CHECK(px_view_get_span(x->target, &x->f.nodes_a));
    }
}

static void teardown(ctx *x)
{
    CHECK(px_scatter_destroy(&x->s));
    CHECK(px_view_release(&x->target));
    CHECK(px_view_release(&x->vin));
}

/* The target's elements after sample v from zero (malloc'ed). */
static void *result_of(ctx *x, int v)
{
    CHECK(px_scatter_reset(x->inst, x->s));
    (void)sample(v, x);
    px_view_info in;
    CHECK(px_view_info_get(x->target, &in));
    void *r = malloc(in.bytes);
    if (!r) exit(2);
    memcpy(r, in.data, in.bytes);
    return r;
}

/* Both ways once into a zeroed target: the same result. */
static bool same_result(ctx *x)
{
    px_view_info in;
    CHECK(px_view_info_get(x->target, &in));
    void *a = result_of(x, 0), *b = result_of(x, 1);
    bool ok = true;
    if (x->c->kind == BS_HIST) {
        ok = memcmp(a, b, in.bytes) == 0;
    } else {
        const double *p = a, *q = b;
        for (int64_t i = 0; i < in.size && ok; ++i)
            ok = fabs(p[i] - q[i]) <= 1e-9 * fabs(q[i]) + 1e-300;
    }
    free(a);
    free(b);
    CHECK(px_scatter_reset(x->inst, x->s));
    return ok;
}

typedef struct row {
    const char *backend, *name;
    int threads;
    px_scatter_strategy strategy;
    bench_pair p;
    bool target; /* the target applies */
} row;

int main(int argc, char **argv)
{
    int reps = 11;
    const bool quick = bench_options(argc, argv, &reps);
    if (quick) reps = 3;
    CHECK(px_init(NULL));
    const bs_case cases[] = {
        {"histogram, 16 bins", BS_HIST, (int64_t)1 << (quick ? 20 : 24), 16, true},
        {"histogram, 65536 bins", BS_HIST, (int64_t)1 << (quick ? 20 : 24), 65536, false},
        {"assembly 2-D, quads", BS_FEM2, quick ? 256 : 1024, 0, false},
        {"assembly 3-D, hexahedra", BS_FEM3, quick ? 32 : 96, 0, false},
    };
    const int ncases = (int)(sizeof cases / sizeof cases[0]);
    const px_exec_space execs[] = {PX_EXEC_SERIAL, PX_EXEC_OPENMP, PX_EXEC_THREADS};
    row rows[3 * 4 + 2];
    int nrows = 0;
    bool ok = true;
    for (int e = 0; e < 3; ++e) {
        if (px_exec_space_check(execs[e]) != PX_OK) continue;
        ctx x;
        memset(&x, 0, sizeof x);
        CHECK(px_instance_default(execs[e], 0, &x.inst));
        for (int k = 0; k < ncases; ++k) {
            /* The serial backend: against atomics, and the histograms against `+=`. */
            for (int plain = 0;
                 plain < (execs[e] == PX_EXEC_SERIAL && cases[k].kind == BS_HIST ? 2 : 1);
                 ++plain) {
                setup(&x, &cases[k]);
                x.plain = plain;
                if (!same_result(&x)) {
                    printf("bench_scatter: %s on %s: the scatter's result differs\n", cases[k].name,
                           px_exec_space_string(execs[e]));
                    ok = false;
                }
                px_scatter_info info;
                CHECK(px_scatter_info_get(x.s, &info));
                row *r = &rows[nrows++];
                r->backend = px_exec_space_string(execs[e]);
                r->name = plain ? (k == 0 ? "histogram, 16 bins, against +="
                                          : "histogram, 65536 bins, against +=")
                                : cases[k].name;
                r->threads = info.threads;
                r->strategy = info.strategy;
                r->p = bench_paired(sample, &x, 2, reps);
                r->target = plain || (cases[k].check && info.threads > 1);
                teardown(&x);
            }
        }
    }
    printf("bench_scatter: PX_SCATTER_AUTO against atomics (px_atomic_add); %s\n", BENCH_BUILD);
    printf("| backend | threads | case                                  | atomics ms | scatter "
           "ms | strategy   | atomics / scatter | target  | met? |\n");
    printf("|---------|--------:|---------------------------------------|-----------:|-----------"
           ":|------------|------------------:|---------|------|\n");
    for (int i = 0; i < nrows; ++i) {
        const row *r = &rows[i];
        const bool vs_plain = strstr(r->name, "+=") != NULL;
        const double want = vs_plain ? 0.95 : 1.0;
        char target[16] = "", met[8] = "";
        if (r->target) {
            snprintf(target, sizeof target, ">= %.2f", want);
            snprintf(met, sizeof met, "%s", r->p.ratio >= want ? "yes" : "NO");
        }
        printf("| %-7s | %7d | %-37s | %10.3f | %10.3f | %-10s | %17.3f | %-7s | %-4s |\n",
               r->backend, r->threads, r->name, r->p.test, r->p.base,
               px_scatter_strategy_string(r->strategy), r->p.ratio, target, met);
    }
    printf("(rows \"against +=\": the kernel's own non-atomic += in the atomics column)\n");
    CHECK(px_finalize());
    return ok ? 0 : 1;
}
