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
            out[i * ny + j] = stencil_point(in[i * ny + j], in[(i - 1) * ny + j], in[(i + 1) * ny + j],
                                            in[i * ny + j - 1], in[i * ny + j + 1], alpha);
}

/* The wide stencil's reference, likewise. */
static void step_wide_plain(int64_t nx, int64_t ny, double alpha, const double *in, double *out)
{
    for (int64_t i = WIDE_R; i < nx - WIDE_R; ++i)
        for (int64_t j = WIDE_R; j < ny - WIDE_R; ++j)
            out[i * ny + j] = wide_point(in + i * ny + j, ny, alpha);
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
    const size_t bytes = (size_t)(nx * ny) * sizeof(double);

    CHECK(px_init(NULL));
    example_backend be = example_default("stencil_tiled");

    /* Two buffer pairs, one per kernel: each step reads one of a pair and writes the other.
     * All four start equal, so the edges, which no step writes, stay fixed in all. */
    px_view_desc desc = {.label = "u", .space = be.space, .dtype = PX_F64, .rank = 2,
                         .extent = {nx, ny}, .flags = PX_VIEW_NO_INIT};
    px_view *u[2][2];
    for (int k = 0; k < 4; ++k) CHECK(px_view_create(&u[k / 2][k % 2], &desc));
    /* A mirror of its own (not create_mirror_view, which on the host would be u[0][0]
     * itself): the results of both kernels pass through it. */
    px_view *hu;
    CHECK(px_view_create_mirror(&hu, px_host(), u[0][0]));
    px_span_f64 hs;
    CHECK(px_view_get_span(hu, &hs));
    uint64_t seed = 5;
    for (int64_t k = 0; k < nx * ny; ++k) hs.data[k] = example_random(&seed);
    double *ref[2] = {malloc(bytes), malloc(bytes)};
    double *flat = malloc(bytes);
    if (!ref[0] || !ref[1] || !flat) return 2;
    memcpy(ref[0], hs.data, bytes);
    memcpy(ref[1], hs.data, bytes);
    for (int k = 0; k < 4; ++k) CHECK(px_deep_copy(u[k / 2][k % 2], hu, NULL));

    /* A team per 8 x 32 tile; the flat kernel over the interior. */
    stencil_args ta = {.nx = nx, .ny = ny, .tile_i = 8, .tile_j = 32, .alpha = 0.2};
    const px_team_policy tiled = stencil_tiled_policy(&ta);
    stencil_args fa = ta;
    const px_policy interior = px_mdrange2(1, nx - 1, 1, ny - 1);
    for (int s = 0; s < steps; ++s) {
        CHECK(px_view_get_span(u[0][s % 2], &ta.in));
        CHECK(px_view_get_span(u[0][(s + 1) % 2], &ta.out));
        CHECK(px_parallel_for_team(be.inst, "stencil_tiled", tiled, PX_KERNEL(stencil_tiled), &ta));
        CHECK(px_view_get_span(u[1][s % 2], &fa.in));
        CHECK(px_view_get_span(u[1][(s + 1) % 2], &fa.out));
        CHECK(px_parallel_for(be.inst, "stencil_flat", interior, PX_KERNEL(stencil_flat), &fa));
        step_plain(nx, ny, ta.alpha, ref[s % 2], ref[(s + 1) % 2]);
    }
    const double *expect = ref[steps % 2];

    CHECK(px_deep_copy(hu, u[1][steps % 2], NULL)); /* waits for the steps */
    memcpy(flat, hs.data, bytes);
    CHECK(px_deep_copy(hu, u[0][steps % 2], NULL));
    double max_diff = 0.0;
    for (int64_t k = 0; k < nx * ny; ++k) {
        const double d = fabs(hs.data[k] - expect[k]);
        if (!(d <= max_diff)) max_diff = d;   /* NaN counts */
    }
    /* Values are in (0, 1]; only rounding may differ from plain C (fma on a GPU), while the
     * two kernels compute the same expression on the same device: identical bits. */
    const int same_bits = memcmp(hs.data, flat, bytes) == 0;
    const int ok = max_diff <= 1e-12 && same_bits;
    printf("stencil_tiled: %lld x %lld grid, %d steps, tiles of %lld x %lld (%lld teams, %zu bytes "
           "of level-0 scratch each), max difference from plain C %.3g, bit-identical to the flat "
           "PX_FOR_2D stencil: %s: %s\n", (long long)nx, (long long)ny, steps, (long long)ta.tile_i,
           (long long)ta.tile_j, (long long)tiled.league_size, tiled.scratch_team[0], max_diff,
           same_bits ? "yes" : "no", ok ? "OK" : "MISMATCH");

    /* The wide stencil, on the same buffers, from the same start, in tiles of 16 x 32
     * (bench_team's shape): its halo of WIDE_R needs a grid of more than 2 WIDE_R points a side. */
    int wide_ok = 1;
    if (nx > 2 * WIDE_R && ny > 2 * WIDE_R) {
        seed = 5;
        for (int64_t k = 0; k < nx * ny; ++k) hs.data[k] = example_random(&seed);
        memcpy(ref[0], hs.data, bytes);
        memcpy(ref[1], hs.data, bytes);
        for (int k = 0; k < 4; ++k) CHECK(px_deep_copy(u[k / 2][k % 2], hu, NULL));
        stencil_args wa = {.nx = nx, .ny = ny, .tile_i = 16, .tile_j = 32, .alpha = 0.05};
        const px_team_policy wide = wide_tiled_policy(&wa);
        stencil_args wf = wa;
        const px_policy wide_interior = px_mdrange2(WIDE_R, nx - WIDE_R, WIDE_R, ny - WIDE_R);
        for (int s = 0; s < steps; ++s) {
            CHECK(px_view_get_span(u[0][s % 2], &wa.in));
            CHECK(px_view_get_span(u[0][(s + 1) % 2], &wa.out));
            CHECK(px_parallel_for_team(be.inst, "wide_tiled", wide, PX_KERNEL(wide_tiled), &wa));
            CHECK(px_view_get_span(u[1][s % 2], &wf.in));
            CHECK(px_view_get_span(u[1][(s + 1) % 2], &wf.out));
            CHECK(px_parallel_for(be.inst, "wide_flat", wide_interior, PX_KERNEL(wide_flat), &wf));
            step_wide_plain(nx, ny, wa.alpha, ref[s % 2], ref[(s + 1) % 2]);
        }
        CHECK(px_deep_copy(hu, u[1][steps % 2], NULL));
        memcpy(flat, hs.data, bytes);
        CHECK(px_deep_copy(hu, u[0][steps % 2], NULL));
        double wide_diff = 0.0;
        for (int64_t k = 0; k < nx * ny; ++k) {
            const double d = fabs(hs.data[k] - expect[k]);
            if (!(d <= wide_diff)) wide_diff = d;
        }
        const int wide_bits = memcmp(hs.data, flat, bytes) == 0;
        wide_ok = wide_diff <= 1e-12 && wide_bits;
        printf("stencil_tiled: wide stencil (radius %d, 17 points), %d steps, tiles of %lld x %lld "
               "(%lld teams, %zu bytes of level-0 scratch each), max difference from plain C %.3g, "
               "bit-identical to the flat PX_FOR_2D stencil: %s: %s\n", WIDE_R, steps,
               (long long)wa.tile_i, (long long)wa.tile_j, (long long)wide.league_size,
               wide.scratch_team[0], wide_diff, wide_bits ? "yes" : "no", wide_ok ? "OK" : "MISMATCH");
    } else {
        printf("stencil_tiled: wide stencil (radius %d): no interior on a %lld x %lld grid: skipped\n",
               WIDE_R, (long long)nx, (long long)ny);
    }

    free(ref[0]);
    free(ref[1]);
    free(flat);
    CHECK(px_view_release(&hu));
    for (int k = 0; k < 4; ++k) CHECK(px_view_release(&u[k / 2][k % 2]));
    CHECK(px_finalize());
    return ok && wide_ok ? 0 : 1;
}
