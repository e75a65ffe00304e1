/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/** @file
 * portex — prefix sums of views (Kokkos' inclusive_scan and exclusive_scan of a view), on
 * every backend from one call:
 * @code
 *   px_prefix_sum(inst, out, in, PX_PREFIX_SUM_INCLUSIVE); // out[i] = in[0] + ... + in[i]
 *   px_prefix_sum(inst, out, in, PX_PREFIX_SUM_EXCLUSIVE); // out[i] = in[0] + ... + in[i-1]
 *   px_prefix_sum(inst, v, v, 0);                          // in place
 * @endcode
 *
 * When the value a scan adds is an element of a view, this is the call to make: it is a
 * library scan over plain loads (on CUDA, CUB's DeviceScan; its figures are the library's),
 * where a PX_SCAN kernel is for contributions a body computes (portex/parallel.h), which the
 * body then writes where it likes. An exclusive sum starts from 0.
 *
 * Views: `in` and `out` are contiguous rank-1 views of one element type among i32, i64,
 * u32, u64, f32 and f64, of one extent, in one space; `out` may be `in` (in place) and must
 * not otherwise overlap it. Integers wrap around on overflow (two's complement); floating
 * point adds in an order that depends on the backend, its thread count and the element
 * count, so sums of the same values may differ in their last bits between backends
 * (integers never do).
 *
 * Where it runs: on `inst`, ordered after the instance's earlier work and before its later
 * work (on CUDA, queued on the instance's stream: the call returns before the sum ends; on
 * the host backends, done when the call returns), on views the instance's kernels reach.
 * With inst NULL, on the default instance of the views' space, finished when the call
 * returns. Not while the instance is captured into a graph (PX_ERR_CAPTURING).
 *
 * What it allocates beyond the views: nothing on the host backends (with several threads
 * each sums its share, then writes it offset by the shares before; one thread makes one
 * pass); on CUDA, CUB's temporary storage (a
 * few bytes per 4096 elements) in the instance's scratch, kept until the instance is
 * destroyed. */
#ifndef PORTEX_PREFIX_SUM_H
#define PORTEX_PREFIX_SUM_H

#include "portex/export.h"
#include "portex/instance.h"
#include "portex/view.h"

PX_EXTERN_C_BEGIN

/** Flags of a prefix sum. */
typedef enum px_prefix_sum_flags {
    PX_PREFIX_SUM_INCLUSIVE = 0,      /**< out[i] sums in[0..i] (the default) */
    PX_PREFIX_SUM_EXCLUSIVE = 1u << 0 /**< out[i] sums in[0..i-1]; out[0] = 0 */
} px_prefix_sum_flags;

/** Writes the prefix sums of `in` into `out` (which may be `in`). */
PX_API px_status px_prefix_sum(px_instance *inst, px_view *out, const px_view *in, unsigned flags);

PX_EXTERN_C_END

#endif /* PORTEX_PREFIX_SUM_H */
