/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* sort_cells: the kernels' arguments and declarations, shared by the kernel file and main.
 * Included by C and (with CUDA on) by CUDA C++: keep it valid in both. */
#ifndef SORT_CELLS_KERNELS_H
#define SORT_CELLS_KERNELS_H

#include <portex.h>

/* Particles at random points of the unit square, in a grid of cells x cells. */
typedef struct cells_args {
    uint64_t seed;
    int cells;
    px_span_f64_1d x, y;   /* the positions */
    px_span_u32_1d cell;   /* the key: the cell each particle is in */
    px_span_i64_1d order;  /* the sorting permutation */
    px_span_f64_1d ox, oy; /* the positions in cell order */
} cells_args;

PX_DECLARE_KERNEL(cells_place);  /* x from the seed, cell from x */
PX_DECLARE_KERNEL(cells_gather); /* ox[i] = x[order[i]], oy alike */

#endif
