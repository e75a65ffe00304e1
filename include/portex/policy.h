/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/** @file
 * portex — iteration policies: 1-D ranges and 2-D/3-D (tiled) ranges. */
#ifndef PORTEX_POLICY_H
#define PORTEX_POLICY_H

#include <stdint.h>

#include "portex/export.h"

PX_EXTERN_C_BEGIN

/** The order in which a 2-D or 3-D range is walked. */
typedef enum px_iterate {
    PX_ITERATE_RIGHT = 0, /**< the last index varies fastest: matches LAYOUT_RIGHT views */
    PX_ITERATE_LEFT = 1   /**< the first index varies fastest: matches LAYOUT_LEFT views */
} px_iterate;

/** The index space of one dispatch: [begin[d], end[d]) for d < rank, in tiles of tile[d]
 * (0: the backend chooses). Small and passed by value; kernels receive it too. */
typedef struct px_policy {
    int64_t begin[3]; /**< first index of each dimension */
    int64_t end[3];   /**< one past the last index of each dimension */
    int64_t tile[3];  /**< tile extent of each dimension; 0: the backend chooses */
    int32_t rank;     /**< 1, 2 or 3 */
    int32_t iterate;  /**< px_iterate */
} px_policy;

/** The 1-D range [begin, end). */
static inline px_policy px_range(int64_t begin, int64_t end)
{
    px_policy p = {{begin, 0, 0}, {end, 1, 1}, {0, 0, 0}, 1, PX_ITERATE_RIGHT};
    return p;
}

/** The 2-D range [b0, e0) x [b1, e1), the last index fastest. */
static inline px_policy px_mdrange2(int64_t b0, int64_t e0, int64_t b1, int64_t e1)
{
    px_policy p = {{b0, b1, 0}, {e0, e1, 1}, {0, 0, 0}, 2, PX_ITERATE_RIGHT};
    return p;
}

/** The 3-D range [b0, e0) x [b1, e1) x [b2, e2), the last index fastest. */
static inline px_policy px_mdrange3(int64_t b0, int64_t e0, int64_t b1, int64_t e1, int64_t b2,
                                    int64_t e2)
{
    px_policy p = {{b0, b1, b2}, {e0, e1, e2}, {0, 0, 0}, 3, PX_ITERATE_RIGHT};
    return p;
}

/** p in tiles of t0 x t1 x t2 (0: the backend chooses that dimension's). */
static inline px_policy px_policy_tile(px_policy p, int64_t t0, int64_t t1, int64_t t2)
{
    p.tile[0] = t0;
    p.tile[1] = t1;
    p.tile[2] = t2;
    return p;
}

/** p walked in `order` (PX_ITERATE_RIGHT by default). */
static inline px_policy px_policy_iterate(px_policy p, px_iterate order)
{
    p.iterate = (int32_t)order;
    return p;
}

PX_EXTERN_C_END

#endif /* PORTEX_POLICY_H */
