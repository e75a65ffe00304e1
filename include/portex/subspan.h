/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/** @file
 * portex — slicing spans inside kernels (Kokkos' subview in device code): a row, a block,
 * every other element, taken from a span in the kernel's arguments without going back to
 * the host. Each macro is a statement that fills `dst` from `src`; both are spans of one
 * element type (a mismatch does not compile), and nothing is allocated or copied: dst
 * addresses src's memory.
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

#include <string.h>

#include "portex/view.h"

/** @cond PX_INTERNAL */
/* How many dimensions span type S holds (1 for the _1d forms, PX_MAX_RANK otherwise). */
#define PX__SPAN_DIMS(s) ((int)(sizeof((s).extent) / sizeof((s).extent[0])))

#ifdef PX_BOUNDS_CHECK
/* [b, e) within [0, n) of dimension d, e == n allowed; the failure is reported as PX_AT's. */
PX_FUNCTION void px__check_range(int64_t b, int64_t e, int64_t n, int d)
{
    if (b < 0 || b > n) (void)px__checked(b, n, d);
    if (e < b || e > n) (void)px__checked(e, n, d);
}
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
#define px__check_range(b, e, n, d) ((void)0)
#define PX__CHECK_UNIT(s) ((void)0)
#endif

/* dst's extents and strides from src's, dimension `skip` left out (-1: none); the rest of
   dst zero (the compiler then knows every field is set, and drops the stores it can). */
#define PX__SPAN_COPY_DIMS(dst, src, skip)                                 \
    do {                                                                   \
        memset(&(dst), 0, sizeof(dst));                                    \
        int px__to = 0;                                                    \
        for (int px__k = 0; px__k < (src).rank; ++px__k) {                 \
            if (px__k == (skip) || px__to >= PX__SPAN_DIMS(dst)) continue; \
            (dst).extent[px__to] = (src).extent[px__k];                    \
            (dst).stride[px__to] = (src).stride[px__k];                    \
            ++px__to;                                                      \
        }                                                                  \
        (dst).rank = (int32_t)px__to;                                      \
    } while (0)
/** @endcond */

/** dst = src's elements [begin, end) of dimension d (see the file's comment). */
#define PX_SUBSPAN(dst, src, d, begin, end) PX_SUBSPAN_STEP(dst, src, d, begin, end, 1)

/** dst = every step-th element of src's [begin, end) of dimension d. */
#define PX_SUBSPAN_STEP(dst, src, d, begin, end, step)                                 \
    do {                                                                               \
        const int px__d = (d);                                                         \
        const int64_t px__b = (begin), px__e = (end), px__s = (step);                  \
        px__check_range(px__b, px__e, (src).extent[px__d], px__d);                     \
        PX__SPAN_COPY_DIMS(dst, src, -1);                                              \
        (dst).extent[px__d] = px__e > px__b ? (px__e - px__b + px__s - 1) / px__s : 0; \
        (dst).stride[px__d] = (src).stride[px__d] * px__s;                             \
        (dst).data = (src).data + px__b * (src).stride[px__d];                         \
        PX__CHECK_UNIT(dst);                                                           \
    } while (0)

/** dst = src with dimension d fixed at index i: rank one less. */
#define PX_SLICE(dst, src, d, i)                                       \
    do {                                                               \
        const int px__d = (d);                                         \
        const int64_t px__i = (i);                                     \
        px__check_range(px__i, px__i + 1, (src).extent[px__d], px__d); \
        PX__SPAN_COPY_DIMS(dst, src, px__d);                           \
        (dst).data = (src).data + px__i * (src).stride[px__d];         \
        PX__CHECK_UNIT(dst);                                           \
    } while (0)

#endif /* PORTEX_SUBSPAN_H */
