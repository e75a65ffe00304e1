/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/** @file
 * portex — slicing spans inside kernels (Kokkos' subview in device code): a row, a block,
 * every other element, taken from a span in the kernel's arguments without going back to
 * the host. Each macro is a statement that fills `dst` from `src`; both are spans of one
 * element type (a mismatch is the compiler's incompatible-pointer diagnostic: an error in
 * C++ and CUDA, and in C with -Werror), and nothing is allocated or copied: dst addresses
 * src's memory. dst may be src (narrowing a span in place); both are named more than once,
 * so pass spans, not expressions with side effects.
 * @code
 *   PX_FOR(row_sums, sums_args, a, i) {
 *       px_span_f64_1d row;
 *       PX_SLICE(row, a->m, 0, i);                  // row i of a 2-D _right span
 *       double s = 0;
 *       for (int64_t j = 0; j < row.extent[0]; ++j) s += PX_AT1(row, j);
 *       PX_AT1(a->sums, i) = s;
 *   }
 * @endcode
 *
 * @code{.unparsed}
 *   PX_SUBSPAN(dst, src, d, begin, end)         src's elements [begin, end) of dimension d,
 *                                               the other dimensions whole: same rank
 *   PX_SUBSPAN_STEP(dst, src, d, begin, end, step)
 *                                               every step-th of them (step >= 1): extent
 *                                               (end - begin + step - 1) / step
 *   PX_SLICE(dst, src, d, i)                    dimension d fixed at index i: one
 *                                               dimension fewer (a row of a 2-D span is
 *                                               d = 0, a column d = 1)
 * @endcode
 * A block is two PX_SUBSPANs. dst's type must keep its promise of a unit stride: a _1d
 * span gets a dimension of stride 1 (a row of a _right span, a column of a _left one), a
 * _right span keeps the last dimension whole and unstepped; anything else (a column of a
 * _right span, a stepped range of the unit-stride dimension) goes into a strided span
 * (px_span_f64 and its kin), whose accessors multiply every index by its stride. With PX_BOUNDS_CHECK
 * defined, bounds (0 <= begin <= end <= extent, 0 <= i < extent) and that promise are
 * checked as PX_AT's indices are; without it they are not. */
#ifndef PORTEX_SUBSPAN_H
#define PORTEX_SUBSPAN_H

#include "portex/view.h"

/** @cond PX_INTERNAL */
/* How many dimensions span type S holds (1 for the _1d forms, PX_MAX_RANK otherwise). */
#define PX__SPAN_DIMS(s) ((int)(sizeof((s).extent) / sizeof((s).extent[0])))

/* src's shape, read whole before dst is written: dst may be src (a span narrowed in place). */
typedef struct px__span_shape {
    int32_t rank;
    int64_t extent[PX_MAX_RANK];
    int64_t stride[PX_MAX_RANK];
} px__span_shape;

#define PX__SHAPE_OF(sh, src)                                                          \
    do {                                                                               \
        (sh).rank = (src).rank < PX__SPAN_DIMS(src) ? (src).rank : PX__SPAN_DIMS(src); \
        for (int px__k = 0; px__k < PX_MAX_RANK; ++px__k) {                            \
            (sh).extent[px__k] = px__k < (sh).rank ? (src).extent[px__k] : 0;          \
            (sh).stride[px__k] = px__k < (sh).rank ? (src).stride[px__k] : 0;          \
        }                                                                              \
    } while (0)

/* dst's extents, strides and rank from sh, dimension `skip` left out (-1: none); every
   entry of dst's arrays set (the compiler then sees no field read unset). */
#define PX__SHAPE_TO(dst, sh, skip)                                        \
    do {                                                                   \
        int px__to = 0;                                                    \
        for (int px__k = 0; px__k < PX__SPAN_DIMS(dst); ++px__k) {         \
            (dst).extent[px__k] = 0;                                       \
            (dst).stride[px__k] = 0;                                       \
        }                                                                  \
        for (int px__k = 0; px__k < (sh).rank; ++px__k) {                  \
            if (px__k == (skip) || px__to >= PX__SPAN_DIMS(dst)) continue; \
            (dst).extent[px__to] = (sh).extent[px__k];                     \
            (dst).stride[px__to] = (sh).stride[px__k];                     \
            ++px__to;                                                      \
        }                                                                  \
        (dst).rank = (int32_t)px__to;                                      \
    } while (0)

#ifdef PX_BOUNDS_CHECK
/* Dimension d of a rank-r span, kept whole (dropped 0) or dropped (1), into a span type of
   `room` dimensions; [b, e) within [0, n), e == n allowed; step at least 1. A failure is
   reported as PX_AT's are: d as an index of the dimensions, a bound as an index of d (an
   end before its begin as the negative index e - b, a step below 1 as step - 1). */
PX_FUNCTION void px__check_slice(int d, int r, int dropped, int room, int64_t b, int64_t e,
                                 int64_t step)
{
    if (d < 0 || d >= r) {
        (void)px__checked(d, r, 0);
        return;
    }
    if (r - dropped > room) (void)px__checked(r - dropped, room + 1, d);
    if (b < 0) (void)px__checked(b, 1, d);
    if (e < b) (void)px__checked(e - b, 1, d);
    if (step < 1) (void)px__checked(step - 1, 1, d);
}
#define PX__CHECK_RANGE(sh, d, dropped, room, b, e, step)                              \
    do {                                                                               \
        px__check_slice((d), (sh).rank, (dropped), (room), (b), (e), (step));          \
        if ((d) >= 0 && (d) < (sh).rank) {                                             \
            if ((b) > (sh).extent[d]) (void)px__checked((b), (sh).extent[d] + 1, (d)); \
            if ((e) > (sh).extent[d]) (void)px__checked((e), (sh).extent[d] + 1, (d)); \
        }                                                                              \
    } while (0)
/* A unit-stride dimension of dst's type has stride 1 (else reported as index `stride` of
   that dimension, whose extent 1 it exceeds). */
#define PX__CHECK_UNIT(s)                                                          \
    do {                                                                           \
        if (PX__LAYOUT(s) == PX__SPAN_1D || PX__LAYOUT(s) == PX__SPAN_LEFT)        \
            if ((s).stride[0] != 1) (void)px__checked((s).stride[0], 1, 0);        \
        if (PX__LAYOUT(s) == PX__SPAN_RIGHT && (s).rank > 0)                       \
            if ((s).stride[(s).rank - 1] != 1)                                     \
                (void)px__checked((s).stride[(s).rank - 1], 1, (int)(s).rank - 1); \
    } while (0)
#else
#define PX__CHECK_RANGE(sh, d, dropped, room, b, e, step) ((void)0)
#define PX__CHECK_UNIT(s) ((void)0)
#endif
/** @endcond */

/** dst = src's elements [begin, end) of dimension d (see the file's comment). */
#define PX_SUBSPAN(dst, src, d, begin, end) PX_SUBSPAN_STEP(dst, src, d, begin, end, 1)

/** dst = every step-th element of src's [begin, end) of dimension d. */
#define PX_SUBSPAN_STEP(dst, src, d, begin, end, step)                                \
    do {                                                                              \
        const int px__d = (d);                                                        \
        const int64_t px__b = (begin), px__e = (end), px__s = (step);                 \
        px__span_shape px__sh;                                                        \
        PX__SHAPE_OF(px__sh, src);                                                    \
        PX__CHECK_RANGE(px__sh, px__d, 0, PX__SPAN_DIMS(dst), px__b, px__e, px__s);   \
        const bool px__ok = px__d >= 0 && px__d < PX_MAX_RANK;                        \
        (dst).data = (src).data + px__b * (px__ok ? px__sh.stride[px__d] : 0);        \
        if (px__ok) {                                                                 \
            px__sh.extent[px__d] =                                                    \
                px__e > px__b && px__s > 0 ? (px__e - px__b + px__s - 1) / px__s : 0; \
            px__sh.stride[px__d] *= px__s;                                            \
        }                                                                             \
        PX__SHAPE_TO(dst, px__sh, -1);                                                \
        PX__CHECK_UNIT(dst);                                                          \
    } while (0)

/** dst = src with dimension d fixed at index i: rank one less. */
#define PX_SLICE(dst, src, d, i)                                                                 \
    do {                                                                                         \
        const int px__d = (d);                                                                   \
        const int64_t px__i = (i);                                                               \
        px__span_shape px__sh;                                                                   \
        PX__SHAPE_OF(px__sh, src);                                                               \
        PX__CHECK_RANGE(px__sh, px__d, 1, PX__SPAN_DIMS(dst), px__i, px__i + 1, 1);              \
        (dst).data =                                                                             \
            (src).data + px__i * (px__d >= 0 && px__d < PX_MAX_RANK ? px__sh.stride[px__d] : 0); \
        PX__SHAPE_TO(dst, px__sh, px__d);                                                        \
        PX__CHECK_UNIT(dst);                                                                     \
    } while (0)

#endif /* PORTEX_SUBSPAN_H */
