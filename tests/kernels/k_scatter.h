/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernels of test_scatter (k_scatter.c): scatter-adds (portex/scatter.h) into a target of
 * each element type from every kind of kernel, with bins and values the test recomputes on
 * the host (sc_bin, sc_value). Valid C11 and CUDA C++. */
#ifndef PX_TESTS_K_SCATTER_H
#define PX_TESTS_K_SCATTER_H

#include "portex/kernel.h"
#include "portex/scatter.h"
#include "portex/team.h"

/* Index i's bin among nbins: i modulo nbins (spread = 0: neighbours in different bins,
   every bin equally often), or a hash of i (spread = 1: bins in no order). */
PX_FUNCTION int64_t sc_bin(int64_t i, int64_t nbins, int spread)
{
    if (!spread) return i % nbins;
    uint64_t z = (uint64_t)i * 0x9e3779b97f4a7c15ull;
    z ^= z >> 29;
    z *= 0xbf58476d1ce4e5b9ull;
    z ^= z >> 32;
    return (int64_t)(z % (uint64_t)nbins);
}

/* Index i's double: not a sum that rounds alike in every order. */
PX_FUNCTION double sc_value(int64_t i)
{
    return 1.0 / (double)(1 + i % 977) + 1e-3 * (double)(i % 13);
}

/* Every index adds into bin sc_bin(i): 1 to c32, u32 and f32, i to s64, i * 2^33 + 1 to u64
   (wrapping), sc_value(i) to f64; targets of nbins elements, or of rank 2 (nbins / cols
   rows of cols) through px_scatter_add2 when rank2. */
typedef struct sc_args {
    int64_t nbins, cols;
    int32_t spread, rank2;
    px_scatter_i32 c32;
    px_scatter_u32 u32;
    px_scatter_i64 s64;
    px_scatter_u64 u64;
    px_scatter_f32 f32;
    px_scatter_f64 f64;
} sc_args;

/* The adds of index i. */
PX_FUNCTION void sc_add(const sc_args *a, int64_t i)
{
    const int64_t b = sc_bin(i, a->nbins, a->spread);
    if (a->rank2) {
        const int64_t r = b / a->cols, c = b % a->cols;
        px_scatter_add2(&a->c32, r, c, 1);
        px_scatter_add2(&a->u32, r, c, 1u);
        px_scatter_add2(&a->s64, r, c, i);
        px_scatter_add2(&a->u64, r, c, ((uint64_t)i << 33) + 1u);
        px_scatter_add2(&a->f32, r, c, 1.0f);
        px_scatter_add2(&a->f64, r, c, sc_value(i));
        return;
    }
    px_scatter_add(&a->c32, b, 1);
    px_scatter_add_u32(&a->u32, b, 1u); /* the typed form */
    px_scatter_add(&a->s64, b, i);
    px_scatter_add(&a->u64, b, ((uint64_t)i << 33) + 1u);
    px_scatter_add(&a->f32, b, 1); /* converted to float */
    px_scatter_add(&a->f64, b, sc_value(i));
}

PX_DECLARE_KERNEL_FOR(sc_for);       /* 1-D: index i adds */
PX_DECLARE_KERNEL_FOR(sc_for_2d);    /* (i, j): index i * cols2 + j adds */
PX_DECLARE_KERNEL_REDUCE(sc_reduce); /* adds, and counts its indices */
PX_DECLARE_KERNEL_SCAN(sc_scan);     /* adds on the final pass, scans 1s */
PX_DECLARE_KERNEL_TEAM_FOR(sc_team); /* team t adds for indices [t * 64, t * 64 + 64) */

/* sc_for_2d's second extent. */
enum { SC_COLS2 = 37, SC_PER_TEAM = 64 };

#endif
