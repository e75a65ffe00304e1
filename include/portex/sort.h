/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/** @file
 * portex — sorting views (Kokkos' sort, sort_by_key and BinSort's permutation, and
 * segmented sorts), on every backend from one call:
 * @code
 *   px_sort(inst, keys, NULL, PX_SORT_ASCENDING);        // keys in place
 *   px_sort(inst, keys, values, PX_SORT_DESCENDING);     // values follow their keys
 *   px_sort_permutation(inst, perm, keys, 0);            // perm[i]: where the i-th key was
 *   px_sort_segments(inst, keys, NULL, offsets, 0);      // each [offsets[s], offsets[s+1])
 * @endcode
 *
 * Every sort is stable: equal keys keep their order (descending too: equal keys are not
 * reversed). Keys are a contiguous rank-1 view of a built-in element type (u8, i32, i64,
 * u32, u64, f32, f64), ordered as numbers; floating-point -0.0 and +0.0 are equal keys (so
 * they keep their order), NaNs with the sign bit clear sort after +infinity and those with
 * it set before -infinity. Values are a contiguous rank-1 view of the same extent, of any
 * element type (PX_USER included), in the same space; they move with their keys.
 *
 * Where it runs: on `inst`, ordered after the instance's earlier work and before its later
 * work (on CUDA, queued on the instance's stream: the call returns before the sort ends; on
 * the host backends, done when the call returns), on views the instance's kernels reach.
 * With inst NULL, on the default instance of the keys' space (device memory: the CUDA
 * backend; host memory: the backend whose threads run host work), finished when the call
 * returns. How: CUDA sorts with CUB's DeviceRadixSort (segments: two of them, by key then by
 * segment);
 * the host backends with a radix sort of portex's own, split among the instance's threads.
 * Both give the same order for the same keys.
 *
 * What it allocates beyond the views (docs/sort.md has the detail): on the host backends,
 * per call, one more copy of the keys and of the values (a permutation: two of the keys and
 * one of the indices); values of 1, 2, 4 or 8 bytes move as words, others through indices.
 * On CUDA, in the instance's scratch (grown in stream order, kept until the instance is
 * destroyed): one more copy of the keys and of 4- or 8-byte values, CUB's temporary storage;
 * other values move through indices (and a copy of the values when sorted in place); a
 * segmented sort takes two copies of the keys and two arrays of segment numbers (keys of 4
 * or 8 bytes alone) or five index arrays.
 *
 * Not while the instance is captured into a graph (PX_ERR_CAPTURING). */
#ifndef PORTEX_SORT_H
#define PORTEX_SORT_H

#include "portex/export.h"
#include "portex/instance.h"
#include "portex/view.h"

PX_EXTERN_C_BEGIN

/** Flags of a sort. */
typedef enum px_sort_flags {
    PX_SORT_ASCENDING = 0,       /**< smallest key first (the default) */
    PX_SORT_DESCENDING = 1u << 0 /**< largest key first; equal keys keep their order */
} px_sort_flags;

/** Sorts `keys` in place, and `values` (NULL: none) with them. */
PX_API px_status px_sort(px_instance *inst, px_view *keys, px_view *values, unsigned flags);

/** Writes `keys` sorted into `keys_out`, and `values` (NULL: none) into `values_out`
 * (NULL exactly when values is); the inputs are left as they are. Outputs have their
 * input's element type and extent and live in the same space; an output may be its input
 * (that pair is then sorted in place), and must not otherwise overlap another view given. */
PX_API px_status px_sort_into(px_instance *inst, px_view *keys_out, px_view *values_out,
                              const px_view *keys, const px_view *values, unsigned flags);

/** The stable sorting permutation of `keys`, which are left as they are: perm[i] is the
 * index in keys of the i-th key in sorted order, so that keys[perm[0]], keys[perm[1]], ...
 * is sorted. `perm`: an i32 or i64 view of the keys' extent in their space (i32 needs
 * fewer than 2^31 keys). Apply it in a kernel: out[i] = in[perm[i]]. */
PX_API px_status px_sort_permutation(px_instance *inst, px_view *perm, const px_view *keys,
                                     unsigned flags);

/** Sorts each segment [offsets[s], offsets[s + 1]) of `keys` in place, and `values` (NULL:
 * none) with them; the elements outside every segment are left as they are. `offsets`: an
 * i32 or i64 view of nsegments + 1 entries (nsegments >= 0) in the keys' space,
 * nondecreasing, within [0, extent of keys]: the host backends check them
 * (PX_ERR_INVALID_ARGUMENT, nothing sorted); on CUDA the GPU reads them and they are
 * checked for their view's type and size only. */
PX_API px_status px_sort_segments(px_instance *inst, px_view *keys, px_view *values,
                                  const px_view *offsets, unsigned flags);

PX_EXTERN_C_END

#endif /* PORTEX_SORT_H */
