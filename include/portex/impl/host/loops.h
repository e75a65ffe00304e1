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

/* 4 to 6 dimensions: every tile loop, slowest first, then every loop inside a tile. The
   dimensions are given in the order of their loops, slowest first. */
#define PX__HOST_NEST4(p, a, ia, b, ib, c, ic, d, id, stmt)                                   \
    PX__TILE_LOOP(p, a, ia##_t)                                                               \
    PX__TILE_LOOP(p, b, ib##_t)                                                               \
    PX__TILE_LOOP(p, c, ic##_t)                                                               \
    PX__TILE_LOOP(p, d, id##_t)                                                               \
    PX__IN_TILE(p, a, ia##_t, ia)                                                             \
    PX__IN_TILE(p, b, ib##_t, ib) PX__IN_TILE(p, c, ic##_t, ic) PX__IN_TILE(p, d, id##_t, id) \
    {                                                                                         \
        stmt;                                                                                 \
    }
#define PX__HOST_NEST5(p, a, ia, b, ib, c, ic, d, id, e, ie, stmt)                            \
    PX__TILE_LOOP(p, a, ia##_t)                                                               \
    PX__TILE_LOOP(p, b, ib##_t)                                                               \
    PX__TILE_LOOP(p, c, ic##_t)                                                               \
    PX__TILE_LOOP(p, d, id##_t)                                                               \
    PX__TILE_LOOP(p, e, ie##_t)                                                               \
    PX__IN_TILE(p, a, ia##_t, ia)                                                             \
    PX__IN_TILE(p, b, ib##_t, ib)                                                             \
    PX__IN_TILE(p, c, ic##_t, ic) PX__IN_TILE(p, d, id##_t, id) PX__IN_TILE(p, e, ie##_t, ie) \
    {                                                                                         \
        stmt;                                                                                 \
    }
#define PX__HOST_NEST6(p, a, ia, b, ib, c, ic, d, id, e, ie, f, if_, stmt)                      \
    PX__TILE_LOOP(p, a, ia##_t)                                                                 \
    PX__TILE_LOOP(p, b, ib##_t)                                                                 \
    PX__TILE_LOOP(p, c, ic##_t)                                                                 \
    PX__TILE_LOOP(p, d, id##_t)                                                                 \
    PX__TILE_LOOP(p, e, ie##_t)                                                                 \
    PX__TILE_LOOP(p, f, if_##_t)                                                                \
    PX__IN_TILE(p, a, ia##_t, ia)                                                               \
    PX__IN_TILE(p, b, ib##_t, ib)                                                               \
    PX__IN_TILE(p, c, ic##_t, ic)                                                               \
    PX__IN_TILE(p, d, id##_t, id) PX__IN_TILE(p, e, ie##_t, ie) PX__IN_TILE(p, f, if_##_t, if_) \
    {                                                                                           \
        stmt;                                                                                   \
    }

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

#define PX__HOST_LOOP4(p, i, j, k, l, stmt)             \
    if ((p)->iterate == PX_ITERATE_LEFT) {              \
        PX__HOST_NEST4(p, 3, l, 2, k, 1, j, 0, i, stmt) \
    } else {                                            \
        PX__HOST_NEST4(p, 0, i, 1, j, 2, k, 3, l, stmt) \
    }

#define PX__HOST_LOOP5(p, i, j, k, l, m, stmt)                \
    if ((p)->iterate == PX_ITERATE_LEFT) {                    \
        PX__HOST_NEST5(p, 4, m, 3, l, 2, k, 1, j, 0, i, stmt) \
    } else {                                                  \
        PX__HOST_NEST5(p, 0, i, 1, j, 2, k, 3, l, 4, m, stmt) \
    }

#define PX__HOST_LOOP6(p, i, j, k, l, m, n, stmt)                   \
    if ((p)->iterate == PX_ITERATE_LEFT) {                          \
        PX__HOST_NEST6(p, 5, n, 4, m, 3, l, 2, k, 1, j, 0, i, stmt) \
    } else {                                                        \
        PX__HOST_NEST6(p, 0, i, 1, j, 2, k, 3, l, 4, m, 5, n, stmt) \
    }

#endif /* PORTEX_IMPL_HOST_LOOPS_H */
