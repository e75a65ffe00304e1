/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* stencil_tiled: one explicit step of the 2-D heat equation (heat2d's 5-point stencil),
 * as a team kernel that stages its tile and halo in level-0 scratch, and as a flat
 * PX_FOR_2D kernel for comparison; and the same pair for a wide star stencil of radius 4
 * (17 points), where each input is read by up to 17 points and staging pays more. Shared
 * by the example's main and the benchmarks; included by C and (with CUDA on) by CUDA C++. */
#ifndef STENCIL_TILED_KERNELS_H
#define STENCIL_TILED_KERNELS_H

#include <portex.h>

typedef struct stencil_args {
    int64_t nx, ny;                /* the grid; the interior [1, nx-1) x [1, ny-1) is written
                                   ([WIDE_R, nx-WIDE_R) x [WIDE_R, ny-WIDE_R) by the wide stencil) */
    int64_t tile_i, tile_j;        /* a team's tile of interior points (team kernel only) */
    int64_t tiles_j;               /* tiles across a row of the grid (team kernel only) */
    double alpha;                  /* diffusion number, at most 1/4 (wide stencil: at most 0.15) */
    px_span_f64_right_restrict in; /* 2-D, row-major; never the same view as out */
    px_span_f64_right_restrict out;
} stencil_args;

/* The update of one point from itself and its neighbours north (i-1), south (i+1), west
 * (j-1), east (j+1): both kernels use this, in this order, so that they agree bit for bit. */
PX_FUNCTION double stencil_point(double c, double n, double s, double w, double e, double alpha)
{
    return c + alpha * (n + s + w + e - 4.0 * c);
}

/* The row and column (in tiles) of tile `t` of a grid `tiles_j` tiles wide, in 32-bit
 * arithmetic: a GPU thread does a 64-bit division in dozens of instructions, more than its
 * whole update. Right for leagues of fewer than 2^32 tiles (the example's sides are at most
 * 2^15, the benchmark's 8192). */
PX_FUNCTION void tile_origin(int64_t t, int64_t tiles_j, int64_t *row, int64_t *col)
{
    const uint32_t u = (uint32_t)t, n = (uint32_t)tiles_j;
    *row = (int64_t)(u / n);
    *col = (int64_t)(u % n);
}

/* A team per tile_i x tile_j tile: its threads (one per row of the tile) and lanes (over
 * the columns) copy the tile and a one-point halo into level-0 scratch, wait at a barrier,
 * then compute the tile from scratch, each input read from memory once per tile instead
 * of up to five times. */
PX_DECLARE_KERNEL(stencil_tiled);
/* The same step over the interior as a flat 2-D range: reads its neighbours from memory. */
PX_DECLARE_KERNEL(stencil_flat);

/* The policy of a tiled kernel whose halo is `halo` points, for args (nx, ny, tile_i,
 * tile_j set; tiles_j filled in): a team per tile_i x tile_j tile of the interior
 * [halo, nx-halo) x [halo, ny-halo), tile_i threads of tile_j lanes (a power of two <= 32:
 * lanes over consecutive columns, coalesced on a GPU), (tile_i + 2 halo) x (tile_j + 2
 * halo) doubles of level-0 scratch. A grid without interior has no teams. */
static inline px_team_policy tiled_policy(stencil_args *a, int64_t halo)
{
    const int64_t ni = a->nx > 2 * halo ? a->nx - 2 * halo : 0;
    const int64_t nj = a->ny > 2 * halo ? a->ny - 2 * halo : 0;
    const int64_t ti = (ni + a->tile_i - 1) / a->tile_i;
    a->tiles_j = (nj + a->tile_j - 1) / a->tile_j;
    const px_team_policy p = px_teams(ti * a->tiles_j, (int32_t)a->tile_i, (int32_t)a->tile_j);
    const size_t staged =
        (size_t)((a->tile_i + 2 * halo) * (a->tile_j + 2 * halo)) * sizeof(double);
    return px_team_policy_scratch(p, 0, staged, 0);
}

/* The policy of stencil_tiled: a one-point halo. */
static inline px_team_policy stencil_tiled_policy(stencil_args *a) { return tiled_policy(a, 1); }

/* ---- The wide stencil: radius 4 ----------------------------------------------------------- */

/* Its radius: the halo a tile needs on each side, the edge no step writes. */
#define WIDE_R 4

/* The update of the point p points at, in a row-major array whose rows are `row` elements
 * apart, from itself and its 4 neighbours in each direction: the 8th-order central
 * difference of d2/dx2 + d2/dy2 (weights -205/72, 8/5, -1/5, 8/315, -1/560 per axis; they
 * sum to zero), one explicit Euler step of diffusion number alpha. The weights' symbol
 * reaches -13.003 in 2-D: stable for alpha <= 0.15, and no mode changes sign from step to
 * step for alpha < 0.0769 (the example and bench_team use 0.05). The distances are added
 * in order 1 to 4, each as north + south + west + east: every variant (team, flat, raw
 * CUDA, plain C) calls this, so that they agree bit for bit. */
PX_FUNCTION double wide_point(const double *p, int64_t row, double alpha)
{
    const double c = p[0];
    double lap = (-205.0 / 36.0) * c;
    lap += (8.0 / 5.0) * (p[-row] + p[row] + p[-1] + p[1]);
    lap += (-1.0 / 5.0) * (p[-2 * row] + p[2 * row] + p[-2] + p[2]);
    lap += (8.0 / 315.0) * (p[-3 * row] + p[3 * row] + p[-3] + p[3]);
    lap += (-1.0 / 560.0) * (p[-4 * row] + p[4 * row] + p[-4] + p[4]);
    return c + alpha * lap;
}

/* As stencil_tiled, for the wide stencil: a team per tile_i x tile_j tile of the interior
 * stages the tile and a halo of WIDE_R points on each side in level-0 scratch (rows over
 * threads, columns over lanes), waits at a barrier, and computes the tile from scratch:
 * each input is read from memory (1 + 2 WIDE_R / tile_i) (1 + 2 WIDE_R / tile_j) times per
 * step on average instead of up to 17. */
PX_DECLARE_KERNEL(wide_tiled);
/* The same step over the interior [WIDE_R, nx-WIDE_R) x [WIDE_R, ny-WIDE_R) as a flat 2-D
 * range: reads its 17 points from memory (and caches). */
PX_DECLARE_KERNEL(wide_flat);

/* The policy of wide_tiled: a halo of WIDE_R. */
static inline px_team_policy wide_tiled_policy(stencil_args *a) { return tiled_policy(a, WIDE_R); }

#endif
