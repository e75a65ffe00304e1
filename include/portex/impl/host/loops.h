/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* portex — the host family's loop nests (not API): a policy's index space walked on the
 * calling thread, tiles and iteration order honoured. portex/impl/host/family.h wraps a
 * kernel's body in them. */
#ifndef PORTEX_IMPL_HOST_LOOPS_H
#define PORTEX_IMPL_HOST_LOOPS_H

#include <stdint.h>

#include "portex/policy.h"

/* Tile size of dimension d: the policy's, or the whole dimension. */
#define PX__TILE(p, d)               \
    ((p)->tile[d] > 0 ? (p)->tile[d] \
                      : ((p)->end[d] > (p)->begin[d] ? (p)->end[d] - (p)->begin[d] : 1))
#define PX__MIN(a, b) ((a) < (b) ? (a) : (b))

#define PX__HOST_LOOP1(p, i, stmt) \
    for (int64_t i = (p)->begin[0]; i < (p)->end[0]; ++i) { stmt; }

/* One tile loop per dimension; inside a tile, `fast` varies fastest. No bound goes past
   end (a step is at most end - v), and end - begin fits in int64_t (dispatch refuses
   policies where it does not), so no arithmetic overflows, even next to INT64_MAX. */
#define PX__TILE_LOOP(p, d, v) \
    for (int64_t v = (p)->begin[d]; v < (p)->end[d]; v += PX__MIN(PX__TILE(p, d), (p)->end[d] - v))
#define PX__IN_TILE(p, d, t, v) \
    for (int64_t v = t, v##_end = t + PX__MIN(PX__TILE(p, d), (p)->end[d] - t); v < v##_end; ++v)

/* The nests of 2 and 3 dimensions, each given outermost first as (dimension, tile
   variable, index variable): the tile loops, then the loops inside a tile, in that order. */
#define PX__HOST_NEST2(p, a, ta, ia, b, tb, ib, stmt) \
    PX__TILE_LOOP(p, a, ta)                           \
    PX__TILE_LOOP(p, b, tb) PX__IN_TILE(p, a, ta, ia) PX__IN_TILE(p, b, tb, ib) { stmt; }
#define PX__HOST_NEST3(p, a, ta, ia, b, tb, ib, c, tc, ic, stmt) \
    PX__TILE_LOOP(p, a, ta)                                      \
    PX__TILE_LOOP(p, b, tb)                                      \
    PX__TILE_LOOP(p, c, tc)                                      \
    PX__IN_TILE(p, a, ta, ia) PX__IN_TILE(p, b, tb, ib) PX__IN_TILE(p, c, tc, ic) { stmt; }

/* PX_ITERATE_LEFT: the first index varies fastest; otherwise the last. */
#define PX__HOST_LOOP2(p, i, j, stmt)                       \
    if ((p)->iterate == PX_ITERATE_LEFT) {                  \
        PX__HOST_NEST2(p, 1, px__tj, j, 0, px__ti, i, stmt) \
    } else {                                                \
        PX__HOST_NEST2(p, 0, px__ti, i, 1, px__tj, j, stmt) \
    }

#define PX__HOST_LOOP3(p, i, j, k, stmt)                                  \
    if ((p)->iterate == PX_ITERATE_LEFT) {                                \
        PX__HOST_NEST3(p, 2, px__tk, k, 1, px__tj, j, 0, px__ti, i, stmt) \
    } else {                                                              \
        PX__HOST_NEST3(p, 0, px__ti, i, 1, px__tj, j, 2, px__tk, k, stmt) \
    }

#endif /* PORTEX_IMPL_HOST_LOOPS_H */
