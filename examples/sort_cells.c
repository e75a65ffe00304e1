/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* sort_cells: particles sorted by the cell they are in, a key computed in a kernel. The
 * sort gives the permutation (px_sort_permutation), a kernel applies it to the positions;
 * the host checks that cells come in order and that no particle was lost. */
#include "example.h"
#include "sort_cells_kernels.h"

int main(void)
{
    const int64_t n = 1 << 20;
    CHECK(px_init(NULL));
    example_backend be = example_default("sort_cells");
    px_view *v[6]; /* x, y, cell, order, ox, oy */
    const px_dtype types[6] = {PX_F64, PX_F64, PX_U32, PX_I64, PX_F64, PX_F64};
    for (int k = 0; k < 6; ++k) CHECK(px_view_create_1d(&v[k], "particles", be.space, types[k], n));
    cells_args a = {.seed = 7, .cells = 64};
    CHECK(px_view_get_span(v[0], &a.x));
    CHECK(px_view_get_span(v[1], &a.y));
    CHECK(px_view_get_span(v[2], &a.cell));
    CHECK(px_view_get_span(v[3], &a.order));
    CHECK(px_view_get_span(v[4], &a.ox));
    CHECK(px_view_get_span(v[5], &a.oy));

    CHECK(px_parallel_for(be.inst, "place", px_range(0, n), PX_KERNEL(cells_place), &a));
    CHECK(px_sort_permutation(be.inst, v[3], v[2], PX_SORT_ASCENDING));
    CHECK(px_parallel_for(be.inst, "gather", px_range(0, n), PX_KERNEL(cells_gather), &a));

    px_view *hx, *hy;
    CHECK(px_view_create_mirror_view_and_copy(&hx, px_host(), v[4]));
    CHECK(px_view_create_mirror_view_and_copy(&hy, px_host(), v[5]));
    px_span_f64_1d x, y;
    CHECK(px_view_get_span(hx, &x));
    CHECK(px_view_get_span(hy, &y));
    int64_t bad = 0, last = -1;
    double mean = 0;
    for (int64_t i = 0; i < n; ++i) {
        const int64_t c =
            (int64_t)(PX_AT1(y, i) * a.cells) * a.cells + (int64_t)(PX_AT1(x, i) * a.cells);
        bad += c < last;
        last = c;
        mean += PX_AT1(x, i) / (double)n;
    }
    printf("sort_cells: %lld particles in %d x %d cells, %lld out of order, mean x %.4f\n",
           (long long)n, a.cells, a.cells, (long long)bad, mean);
    CHECK(px_view_release(&hx));
    CHECK(px_view_release(&hy));
    for (int k = 0; k < 6; ++k) CHECK(px_view_release(&v[k]));
    CHECK(px_finalize());
    return bad == 0 && mean > 0.49 && mean < 0.51 ? 0 : 1;
}
