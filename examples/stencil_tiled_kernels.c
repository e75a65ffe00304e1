/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernel file: kernels only. Compiled as C, or as CUDA when the CUDA backend is on
 * (docs/kernels.md), so it is written in the common subset of C11 and C++. */
#include "stencil_tiled_kernels.h"

PX_TEAM_FOR(stencil_tiled, stencil_args, a, team)
{
    double *tile = (double *)px_team_scratch(team, 0);
    const int64_t hw = a->tile_j + 2; /* a row of the tile in scratch, halo included */
    int64_t ti, tj;
    tile_origin(team->league_rank, a->tiles_j, &ti, &tj);
    const int64_t i0 = 1 + ti * a->tile_i, j0 = 1 + tj * a->tile_j;
    /* Stage: rows over threads, columns over lanes; the tile's last rows and columns may
     * lie past the grid (a tile at its edge): those are never read below. */
    PX_TEAM_THREAD_FOR(team, r, 0, a->tile_i + 2)
    {
        PX_THREAD_VECTOR_FOR(team, c, 0, hw)
        {
            const int64_t i = i0 - 1 + r, j = j0 - 1 + c;
            if (i < a->nx && j < a->ny) tile[r * hw + c] = PX_AT2(a->in, i, j);
        }
    }
    PX_TEAM_BARRIER(team); /* every thread reads what the others staged */
    PX_TEAM_THREAD_FOR(team, r, 0, a->tile_i)
    {
        PX_THREAD_VECTOR_FOR(team, c, 0, a->tile_j)
        {
            const int64_t i = i0 + r, j = j0 + c;
            if (i < a->nx - 1 && j < a->ny - 1) {
                const double *t = tile + (r + 1) * hw + (c + 1);
                PX_AT2(a->out, i, j) = stencil_point(t[0], t[-hw], t[hw], t[-1], t[1], a->alpha);
            }
        }
    }
}

PX_FOR_2D(stencil_flat, stencil_args, a, i, j)
{
    PX_AT2(a->out, i, j) =
        stencil_point(PX_AT2(a->in, i, j), PX_AT2(a->in, i - 1, j), PX_AT2(a->in, i + 1, j),
                      PX_AT2(a->in, i, j - 1), PX_AT2(a->in, i, j + 1), a->alpha);
}

PX_TEAM_FOR(wide_tiled, stencil_args, a, team)
{
    double *tile = (double *)px_team_scratch(team, 0);
    const int64_t hw = a->tile_j + 2 * WIDE_R; /* a row of the tile in scratch, halo included */
    int64_t ti, tj;
    tile_origin(team->league_rank, a->tiles_j, &ti, &tj);
    const int64_t i0 = WIDE_R + ti * a->tile_i, j0 = WIDE_R + tj * a->tile_j;
    /* Stage as stencil_tiled does, a halo of WIDE_R: what lies past the grid is never read. */
    PX_TEAM_THREAD_FOR(team, r, 0, a->tile_i + 2 * WIDE_R)
    {
        PX_THREAD_VECTOR_FOR(team, c, 0, hw)
        {
            const int64_t i = i0 - WIDE_R + r, j = j0 - WIDE_R + c;
            if (i < a->nx && j < a->ny) tile[r * hw + c] = PX_AT2(a->in, i, j);
        }
    }
    PX_TEAM_BARRIER(team); /* every thread reads what the others staged */
    PX_TEAM_THREAD_FOR(team, r, 0, a->tile_i)
    {
        PX_THREAD_VECTOR_FOR(team, c, 0, a->tile_j)
        {
            const int64_t i = i0 + r, j = j0 + c;
            if (i < a->nx - WIDE_R && j < a->ny - WIDE_R)
                PX_AT2(a->out, i, j) =
                    wide_point(tile + (r + WIDE_R) * hw + (c + WIDE_R), hw, a->alpha);
        }
    }
}

/* The span is row-major (layout right): its rows are stride[0] elements apart. With
 * -Dbounds_check=true, PX_AT2 checks the centre's index; the interior keeps the other 16
 * inside the grid. */
PX_FOR_2D(wide_flat, stencil_args, a, i, j)
{
    PX_AT2(a->out, i, j) = wide_point(&PX_AT2(a->in, i, j), a->in.stride[0], a->alpha);
}
