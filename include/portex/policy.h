/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/** @file
 * portex — iteration policies: 1-D ranges and 2-D to 6-D (tiled) ranges. */
#ifndef PORTEX_POLICY_H
#define PORTEX_POLICY_H

#include <stdint.h>

#include "portex/export.h"

PX_EXTERN_C_BEGIN

/** The most dimensions a range has. */
#define PX_POLICY_MAX_RANK 6

/** The order in which a range of 2 or more dimensions is walked. */
typedef enum px_iterate {
    PX_ITERATE_RIGHT = 0, /**< the last index varies fastest: matches LAYOUT_RIGHT views */
    PX_ITERATE_LEFT = 1   /**< the first index varies fastest: matches LAYOUT_LEFT views */
} px_iterate;

/** The index space of one dispatch: [begin[d], end[d]) for d < rank, in tiles of tile[d]
 * (0: the backend chooses). Dimensions from rank on are [0, 1). Passed by value; the
 * backends hand kernels only the dimensions they use. */
typedef struct px_policy {
    int64_t begin[PX_POLICY_MAX_RANK]; /**< first index of each dimension */
    int64_t end[PX_POLICY_MAX_RANK];   /**< one past the last index of each dimension */
    int64_t tile[PX_POLICY_MAX_RANK];  /**< tile extent of each dimension; 0: the backend chooses */
    int32_t rank;                      /**< 1 to PX_POLICY_MAX_RANK */
    int32_t iterate;                   /**< px_iterate */
} px_policy;

/** The range of `rank` dimensions (1 to PX_POLICY_MAX_RANK) [begin[d], end[d]), the last
 * index fastest, untiled. */
static inline px_policy px_mdrange(int rank, const int64_t *begin, const int64_t *end)
{
    px_policy p;
    for (int d = 0; d < PX_POLICY_MAX_RANK; ++d) {
        p.begin[d] = d < rank ? begin[d] : 0;
        p.end[d] = d < rank ? end[d] : 1;
        p.tile[d] = 0;
    }
    p.rank = rank;
    p.iterate = PX_ITERATE_RIGHT;
    return p;
}

/** The 1-D range [begin, end). */
static inline px_policy px_range(int64_t begin, int64_t end) { return px_mdrange(1, &begin, &end); }

/** The 2-D range [b0, e0) x [b1, e1), the last index fastest. */
static inline px_policy px_mdrange2(int64_t b0, int64_t e0, int64_t b1, int64_t e1)
{
    const int64_t b[2] = {b0, b1}, e[2] = {e0, e1};
    return px_mdrange(2, b, e);
}

/** The 3-D range [b0, e0) x [b1, e1) x [b2, e2), the last index fastest. */
static inline px_policy px_mdrange3(int64_t b0, int64_t e0, int64_t b1, int64_t e1, int64_t b2,
                                    int64_t e2)
{
    const int64_t b[3] = {b0, b1, b2}, e[3] = {e0, e1, e2};
    return px_mdrange(3, b, e);
}

/** The 4-D range [b0, e0) x ... x [b3, e3), the last index fastest. */
static inline px_policy px_mdrange4(int64_t b0, int64_t e0, int64_t b1, int64_t e1, int64_t b2,
                                    int64_t e2, int64_t b3, int64_t e3)
{
    const int64_t b[4] = {b0, b1, b2, b3}, e[4] = {e0, e1, e2, e3};
    return px_mdrange(4, b, e);
}

/** The 5-D range [b0, e0) x ... x [b4, e4), the last index fastest. */
static inline px_policy px_mdrange5(int64_t b0, int64_t e0, int64_t b1, int64_t e1, int64_t b2,
                                    int64_t e2, int64_t b3, int64_t e3, int64_t b4, int64_t e4)
{
    const int64_t b[5] = {b0, b1, b2, b3, b4}, e[5] = {e0, e1, e2, e3, e4};
    return px_mdrange(5, b, e);
}

/** The 6-D range [b0, e0) x ... x [b5, e5), the last index fastest. */
static inline px_policy px_mdrange6(int64_t b0, int64_t e0, int64_t b1, int64_t e1, int64_t b2,
                                    int64_t e2, int64_t b3, int64_t e3, int64_t b4, int64_t e4,
                                    int64_t b5, int64_t e5)
{
    const int64_t b[6] = {b0, b1, b2, b3, b4, b5}, e[6] = {e0, e1, e2, e3, e4, e5};
    return px_mdrange(6, b, e);
}

/** p in tiles of t0 x t1 x t2 in its first three dimensions (0: the backend chooses that
 * dimension's; the others are left as they are: px_policy_tile_dim sets any one). */
static inline px_policy px_policy_tile(px_policy p, int64_t t0, int64_t t1, int64_t t2)
{
    p.tile[0] = t0;
    p.tile[1] = t1;
    p.tile[2] = t2;
    return p;
}

/** p in tiles of `extent` in dimension d (0: the backend chooses). The host backends honour
 * every dimension's tile; CUDA, from 4 dimensions on, those of the two fastest only. */
static inline px_policy px_policy_tile_dim(px_policy p, int d, int64_t extent)
{
    if (d >= 0 && d < PX_POLICY_MAX_RANK) p.tile[d] = extent;
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
