/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* sort_cells' kernels (sort_cells_kernels.h). */
#include "sort_cells_kernels.h"

PX_FOR(cells_place, cells_args, a, i)
{
    px_philox g = px_philox_init(a->seed, (uint64_t)i, 0);
    const double x = px_rand_uniform_f64(&g), y = px_rand_uniform_f64(&g);
    PX_AT1(a->x, i) = x;
    PX_AT1(a->y, i) = y;
    PX_AT1(a->cell, i) = (uint32_t)((int)(y * a->cells) * a->cells + (int)(x * a->cells));
}

PX_FOR(cells_gather, cells_args, a, i)
{
    const int64_t from = PX_AT1(a->order, i);
    PX_AT1(a->ox, i) = PX_AT1(a->x, from);
    PX_AT1(a->oy, i) = PX_AT1(a->y, from);
}
