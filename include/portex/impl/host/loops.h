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

#define PX__HOST_LOOP2(p, i, j, stmt)                                                         \
    if ((p)->iterate == PX_ITERATE_LEFT) {                                                    \
        PX__TILE_LOOP(p, 1, px__tj)                                                           \
        PX__TILE_LOOP(p, 0, px__ti) PX__IN_TILE(p, 1, px__tj, j) PX__IN_TILE(p, 0, px__ti, i) \
        {                                                                                     \
            stmt;                                                                             \
        }                                                                                     \
    } else {                                                                                  \
        PX__TILE_LOOP(p, 0, px__ti)                                                           \
        PX__TILE_LOOP(p, 1, px__tj) PX__IN_TILE(p, 0, px__ti, i) PX__IN_TILE(p, 1, px__tj, j) \
        {                                                                                     \
            stmt;                                                                             \
        }                                                                                     \
    }

#define PX__HOST_LOOP3(p, i, j, k, stmt)                                                       \
    if ((p)->iterate == PX_ITERATE_LEFT) {                                                     \
        PX__TILE_LOOP(p, 2, px__tk)                                                            \
        PX__TILE_LOOP(p, 1, px__tj)                                                            \
        PX__TILE_LOOP(p, 0, px__ti)                                                            \
        PX__IN_TILE(p, 2, px__tk, k) PX__IN_TILE(p, 1, px__tj, j) PX__IN_TILE(p, 0, px__ti, i) \
        {                                                                                      \
            stmt;                                                                              \
        }                                                                                      \
    } else {                                                                                   \
        PX__TILE_LOOP(p, 0, px__ti)                                                            \
        PX__TILE_LOOP(p, 1, px__tj)                                                            \
        PX__TILE_LOOP(p, 2, px__tk)                                                            \
        PX__IN_TILE(p, 0, px__ti, i) PX__IN_TILE(p, 1, px__tj, j) PX__IN_TILE(p, 2, px__tk, k) \
        {                                                                                      \
            stmt;                                                                              \
        }                                                                                      \
    }

#endif /* PORTEX_IMPL_HOST_LOOPS_H */
