/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* stencil_tiled: steps of the 2-D heat equation (heat2d's 5-point stencil) with a team
 * kernel that stages each tile and its halo in level-0 scratch (CUDA shared memory), on
 * the default execution space. Checked against the same steps in plain C and, bit for
 * bit, against portex's flat PX_FOR_2D version of the stencil on the same input. Then the
 * same for a wide star stencil of radius 4 (17 points, a halo of 4), on grids of at least
 * 9 x 9 (skipped on smaller ones).
 *
 *   stencil_tiled [nx ny] */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "example.h"
#include "stencil_tiled_kernels.h"

/* The reference: the same step in a plain loop nest (row-major). */
static void step_plain(int64_t nx, int64_t ny, double alpha, const double *in, double *out)
{
    for (int64_t i = 1; i < nx - 1; ++i)
        for (int64_t j = 1; j < ny - 1; ++j)
            out[i * ny + j] =
                stencil_point(in[i * ny + j], in[(i - 1) * ny + j], in[(i + 1) * ny + j],
                              in[i * ny + j - 1], in[i * ny + j + 1], alpha);
}

/* The wide stencil's reference, likewise. */
static void step_wide_plain(int64_t nx, int64_t ny, double alpha, const double *in, double *out)
{
    for (int64_t i = WIDE_R; i < nx - WIDE_R; ++i)
        for (int64_t j = WIDE_R; j < ny - WIDE_R; ++j)
            out[i * ny + j] = wide_point(in + i * ny + j, ny, alpha);
}

/* The example's buffers: two pairs on the device (one per kernel: each step reads one of
 * a pair and writes the other), their host mirror, and the plain C steps' pair. */
typedef struct buffers {
    int64_t nx, ny;
    size_t bytes;
    px_view *u[2][2];
    px_view *hu;
    double *hs; /* hu's elements */
    double *ref[2];
    double *flat; /* the flat kernel's result, copied out of hu */
} buffers;

/* One stencil: `steps` steps of the tiled kernel on u[0], of the flat kernel on u[1] and of
 * `plain` in C, all four buffers and the references starting from the same random values
 * (so the edges, which no step writes, stay equal). Prints what it found; true when the
 * tiled kernel is within 1e-12 of plain C and bit-identical to the flat one. */
static int run_stencil(const char *what, example_backend be, buffers *b, int steps, stencil_args a,
                       px_team_policy tiled, const px_kernel *tiled_k, px_policy interior,
                       const px_kernel *flat_k,
                       void (*plain)(int64_t, int64_t, double, const double *, double *))
{
    const int64_t cells = b->nx * b->ny;
    uint64_t seed = 5;
    for (int64_t k = 0; k < cells; ++k) b->hs[k] = example_random(&seed);
    memcpy(b->ref[0], b->hs, b->bytes);
    memcpy(b->ref[1], b->hs, b->bytes);
    for (int k = 0; k < 4; ++k) CHECK(px_deep_copy(b->u[k / 2][k % 2], b->hu, NULL));
    stencil_args fa = a;
    for (int s = 0; s < steps; ++s) {
        CHECK(px_view_get_span(b->u[0][s % 2], &a.in));
        CHECK(px_view_get_span(b->u[0][(s + 1) % 2], &a.out));
        CHECK(px_parallel_for_team(be.inst, "stencil_tiled", tiled, tiled_k, &a));
        CHECK(px_view_get_span(b->u[1][s % 2], &fa.in));
        CHECK(px_view_get_span(b->u[1][(s + 1) % 2], &fa.out));
        CHECK(px_parallel_for(be.inst, "stencil_flat", interior, flat_k, &fa));
        plain(b->nx, b->ny, a.alpha, b->ref[s % 2], b->ref[(s + 1) % 2]);
    }
    const double *expect = b->ref[steps % 2];
    CHECK(px_deep_copy(b->hu, b->u[1][steps % 2], NULL)); /* waits for the steps */
    memcpy(b->flat, b->hs, b->bytes);
    CHECK(px_deep_copy(b->hu, b->u[0][steps % 2], NULL));
    double max_diff = 0.0;
    for (int64_t k = 0; k < cells; ++k) {
        const double d = fabs(b->hs[k] - expect[k]);
        if (!(d <= max_diff)) max_diff = d; /* NaN counts */
    }
    /* Values are in (0, 1]; only rounding may differ from plain C (fma on a GPU), while the
     * two kernels compute the same expression on the same device: identical bits. */
    const int same_bits = memcmp(b->hs, b->flat, b->bytes) == 0;
    const int ok = max_diff <= 1e-12 && same_bits;
    printf("stencil_tiled: %s, %lld x %lld grid, %d steps, tiles of %lld x %lld (%lld teams, %zu "
           "bytes of "
           "level-0 scratch each), max difference from plain C %.3g, bit-identical to the flat "
           "PX_FOR_2D "
           "stencil: %s: %s\n",
           what, (long long)b->nx, (long long)b->ny, steps, (long long)a.tile_i,
           (long long)a.tile_j, (long long)tiled.league_size, tiled.scratch_team[0], max_diff,
           same_bits ? "yes" : "no", ok ? "OK" : "MISMATCH");
    return ok;
}

int main(int argc, char **argv)
{
    /* Not multiples of the tile: edge tiles are partly outside the interior. */
    const int64_t nx = argc > 2 ? atoll(argv[1]) : 301, ny = argc > 2 ? atoll(argv[2]) : 203;
    if (nx < 3 || ny < 3 || nx > 1 << 15 || ny > 1 << 15) {
        fprintf(stderr, "usage: stencil_tiled [nx ny], 3 <= nx, ny <= 32768\n");
        return 2;
    }
    const int steps = 20;

    CHECK(px_init(NULL));
    example_backend be = example_default("stencil_tiled");

    buffers b = {.nx = nx, .ny = ny, .bytes = (size_t)(nx * ny) * sizeof(double)};
    px_view_desc desc = {.label = "u",
                         .space = be.space,
                         .dtype = PX_F64,
                         .rank = 2,
                         .extent = {nx, ny},
                         .flags = PX_VIEW_NO_INIT};
    for (int k = 0; k < 4; ++k) CHECK(px_view_create(&b.u[k / 2][k % 2], &desc));
    /* A mirror of its own (not create_mirror_view, which on the host would be u[0][0]
     * itself): the results of both kernels pass through it. */
    CHECK(px_view_create_mirror(&b.hu, px_host(), b.u[0][0]));
    px_span_f64 hs;
    CHECK(px_view_get_span(b.hu, &hs));
    b.hs = hs.data;
    b.ref[0] = malloc(b.bytes);
    b.ref[1] = malloc(b.bytes);
    b.flat = malloc(b.bytes);
    if (!b.ref[0] || !b.ref[1] || !b.flat) return 2;

    /* The 5-point stencil: a team per 8 x 32 tile; the flat kernel over the interior. */
    stencil_args ta = {.nx = nx, .ny = ny, .tile_i = 8, .tile_j = 32, .alpha = 0.2};
    const px_team_policy tiled = stencil_tiled_policy(&ta);
    int ok = run_stencil("5-point stencil", be, &b, steps, ta, tiled, PX_KERNEL(stencil_tiled),
                         px_mdrange2(1, nx - 1, 1, ny - 1), PX_KERNEL(stencil_flat), step_plain);

    /* The wide stencil in tiles of 16 x 32 (bench_team's shape): its halo of WIDE_R needs a
     * grid of more than 2 WIDE_R points a side. */
    if (nx > 2 * WIDE_R && ny > 2 * WIDE_R) {
        stencil_args wa = {.nx = nx, .ny = ny, .tile_i = 16, .tile_j = 32, .alpha = 0.05};
        const px_team_policy wide = wide_tiled_policy(&wa);
        char what[48];
        snprintf(what, sizeof what, "wide stencil (radius %d, 17 points)", WIDE_R);
        ok &= run_stencil(what, be, &b, steps, wa, wide, PX_KERNEL(wide_tiled),
                          px_mdrange2(WIDE_R, nx - WIDE_R, WIDE_R, ny - WIDE_R),
                          PX_KERNEL(wide_flat), step_wide_plain);
    } else {
        printf(
            "stencil_tiled: wide stencil (radius %d): no interior on a %lld x %lld grid: skipped\n",
            WIDE_R, (long long)nx, (long long)ny);
    }

    free(b.ref[0]);
    free(b.ref[1]);
    free(b.flat);
    CHECK(px_view_release(&b.hu));
    for (int k = 0; k < 4; ++k) CHECK(px_view_release(&b.u[k / 2][k % 2]));
    CHECK(px_finalize());
    return ok ? 0 : 1;
}
