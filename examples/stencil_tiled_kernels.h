/* stencil_tiled: one explicit step of the 2-D heat equation (heat2d's 5-point stencil),
 * as a team kernel that stages its tile and halo in level-0 scratch, and as a flat
 * PX_FOR_2D kernel for comparison. Shared by the example's main and the benchmarks;
 * included by C and (with CUDA on) by CUDA C++. */
#ifndef STENCIL_TILED_KERNELS_H
#define STENCIL_TILED_KERNELS_H

#include <portex.h>

typedef struct stencil_args {
    int64_t nx, ny;             /* the grid; the interior [1, nx-1) x [1, ny-1) is written */
    int64_t tile_i, tile_j;     /* a team's tile of interior points (team kernel only) */
    int64_t tiles_j;            /* tiles across a row of the grid (team kernel only) */
    double alpha;               /* diffusion number, at most 1/4 */
    px_span_f64_right in;       /* 2-D, row-major */
    px_span_f64_right_restrict out;
} stencil_args;

/* The update of one point from itself and its neighbours north (i-1), south (i+1), west
 * (j-1), east (j+1): both kernels use this, in this order, so that they agree bit for bit. */
PX_FUNCTION double stencil_point(double c, double n, double s, double w, double e, double alpha)
{
    return c + alpha * (n + s + w + e - 4.0 * c);
}

/* A team per tile_i x tile_j tile: its threads (one per row of the tile) and lanes (over
 * the columns) copy the tile and a one-point halo into level-0 scratch, wait at a barrier,
 * then compute the tile from scratch, each input read from memory once per tile instead
 * of up to five times. */
PX_DECLARE_KERNEL(stencil_tiled);
/* The same step over the interior as a flat 2-D range: reads its neighbours from memory. */
PX_DECLARE_KERNEL(stencil_flat);

/* The policy of stencil_tiled for args (nx, ny, tile_i, tile_j set; tiles_j filled in):
 * a team of tile_i threads of tile_j lanes (a power of two <= 32: lanes over consecutive
 * columns, coalesced on a GPU), (tile_i + 2) x (tile_j + 2) doubles of level-0 scratch. */
static inline px_team_policy stencil_tiled_policy(stencil_args *a)
{
    const int64_t ti = (a->nx - 2 + a->tile_i - 1) / a->tile_i;
    a->tiles_j = (a->ny - 2 + a->tile_j - 1) / a->tile_j;
    const px_team_policy p = px_teams(ti * a->tiles_j, (int32_t)a->tile_i, (int32_t)a->tile_j);
    return px_team_policy_scratch(p, 0, (size_t)((a->tile_i + 2) * (a->tile_j + 2)) * sizeof(double), 0);
}

#endif
