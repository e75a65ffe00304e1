/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/** @file
 * portex — deep_copy and fill: portex picks the path and says which it took.
 *
 * Two forms, as in Kokkos:
 * @code{.unparsed}
 *   px_deep_copy(dst, src, &path)              orders after all work issued so far on every
 *                                              instance and has finished when it returns;
 *   px_deep_copy_async(inst, dst, src, &path)  is ordered on `inst` only: it sees the
 *                                              instance's earlier work, later work on the
 *                                              instance sees it, and nothing else is fenced.
 * @endcode
 * Views must have the same rank, extents and element size; layouts and strides may
 * differ. `path` may be NULL. */
#ifndef PORTEX_COPY_H
#define PORTEX_COPY_H

#include <stdint.h>

#include "portex/core.h"
#include "portex/instance.h"
#include "portex/view.h"

PX_EXTERN_C_BEGIN

/** The paths a copy or fill takes, generated from one list: X(NAME, description). */
#define PX_COPY_PATH_MAP(X)                                                                   \
    X(NONE, "nothing to move (no element, or the same memory)")                               \
    X(HOST_MEMCPY, "host memcpy of contiguous memory")                                        \
    X(HOST_STRIDED, "host element-wise copy (strided views or differing layouts)")            \
    X(HOST_FILL, "host fill")                                                                 \
    X(CUDA_DMA,                                                                               \
      "cudaMemcpyAsync between pinned host memory and a device, on the instance's stream")    \
    X(CUDA_D2D, "cudaMemcpyAsync within one device, on the instance's stream")                \
    X(CUDA_PAGEABLE, "the driver's copy to or from pageable host memory (blocks the caller)") \
    X(CUDA_FILL, "fill on the device, on the instance's stream")                              \
    X(CUDA_STAGED, "pageable host memory staged through portex's pinned buffers in chunks: "  \
                   "host threads copy, DMA pipelined behind them")                            \
    X(CUDA_PEER, "copy between two GPUs (peer access where the hardware allows), ordered "    \
                 "after the pending work of both")                                            \
    X(CUDA_STRIDED, "a copy kernel for non-contiguous views or differing layouts, in device " \
                    "or pinned memory")                                                       \
    X(CUDA_STRIDED_STAGED, "pageable memory with a differing layout: element-wise host copy " \
                           "through a pinned buffer, then to or from the device")

/** The path a copy or fill took: one value per entry of PX_COPY_PATH_MAP (PX_COPY_NAME);
 * px_copy_path_description gives its description. */
typedef enum px_copy_path {
#define PX__COPY_PATH_ENUM(name, desc) PX_COPY_##name,
    PX_COPY_PATH_MAP(PX__COPY_PATH_ENUM)
#undef PX__COPY_PATH_ENUM
        PX_COPY_PATH_COUNT /**< the number of paths (not a path) */
} px_copy_path;
/** @var PX_COPY_NONE
 * nothing to move (no element, or the same memory) */
/** @var PX_COPY_HOST_MEMCPY
 * host memcpy of contiguous memory */
/** @var PX_COPY_HOST_STRIDED
 * host element-wise copy (strided views or differing layouts) */
/** @var PX_COPY_HOST_FILL
 * host fill */
/** @var PX_COPY_CUDA_DMA
 * cudaMemcpyAsync between pinned host memory and a device, on the instance's stream */
/** @var PX_COPY_CUDA_D2D
 * cudaMemcpyAsync within one device, on the instance's stream */
/** @var PX_COPY_CUDA_PAGEABLE
 * the driver's copy to or from pageable host memory (blocks the caller) */
/** @var PX_COPY_CUDA_FILL
 * fill on the device, on the instance's stream */
/** @var PX_COPY_CUDA_STAGED
 * pageable host memory staged through portex's pinned buffers in chunks: host threads
 * copy, DMA pipelined behind them */
/** @var PX_COPY_CUDA_PEER
 * copy between two GPUs (peer access where the hardware allows), ordered after the
 * pending work of both */
/** @var PX_COPY_CUDA_STRIDED
 * a copy kernel for non-contiguous views or differing layouts, in device or pinned
 * memory */
/** @var PX_COPY_CUDA_STRIDED_STAGED
 * pageable memory with a differing layout: element-wise host copy through a pinned
 * buffer, then to or from the device */

/** "HOST_MEMCPY" etc.; never NULL. */
PX_API const char *px_copy_path_string(px_copy_path path);
/** One sentence on what the path does; never NULL. */
PX_API const char *px_copy_path_description(px_copy_path path);

/** Copies src into dst after all work issued so far on every instance; finished when it
 * returns. The path taken goes to *path (path may be NULL). */
PX_API px_status px_deep_copy(px_view *dst, const px_view *src, px_copy_path *path);
/** Copies src into dst in order on inst: after inst's earlier work, before its later work;
 * nothing else is fenced. The path taken goes to *path (path may be NULL). */
PX_API px_status px_deep_copy_async(px_instance *inst, px_view *dst, const px_view *src,
                                    px_copy_path *path);

/** The path a copy from src to dst would take now, without copying. */
PX_API px_status px_deep_copy_query(const px_view *dst, const px_view *src, px_copy_path *path);

/** @{ */
/** Every element of dst becomes *value (dst's element size bytes). */
PX_API px_status px_fill(px_view *dst, const void *value, px_copy_path *path);
PX_API px_status px_fill_async(px_instance *inst, px_view *dst, const void *value,
                               px_copy_path *path);
/** @} */

/** Staging of pageable host memory (path CUDA_STAGED): pinned buffers of `chunk_bytes`
 * each, at most `buffers` of them, made as copies need them (at most 3 per copy in flight),
 * filled and drained by `threads` host threads placed on the cores nearest the GPU. All the
 * pinned memory staging holds (default 12 x 32 MiB = 384 MiB at most) counts in
 * HOST_PINNED's library_bytes. Zeros in px_staging_set keep the current value. */
typedef struct px_staging_config {
    size_t chunk_bytes; /**< default 32 MiB; at least 64 KiB */
    int buffers;        /**< default 12; at least 2 */
    int threads; /**< default the machine's cores, at most 16 (8 without a topology); 1 to 64 */
} px_staging_config;

/** The staging configuration in effect. */
PX_API px_status px_staging_get(px_staging_config *out);
/** Takes effect at once when no staged copy is in flight, else PX_ERR_BUSY (fence the
 * instances first); it never waits. */
PX_API px_status px_staging_set(const px_staging_config *config);

/** Kokkos' create_mirror_view_and_copy: `src` itself (one more reference) when it lives in
 * `space`; else a new contiguous view there with src's element type and extents
 * (px_view_create_mirror), holding a copy of src's elements, finished on return. */
PX_API px_status px_view_create_mirror_view_and_copy(px_view **out, px_space space, px_view *src);

/** @{ */
/** Copies between a view and plain host memory of exactly the view's size (`bytes`: its
 * element count times its element size; aligned for its element type; NULL only for an
 * empty view), the elements in the order of a contiguous view of its extents:
 * column-major for LAYOUT_LEFT, row-major otherwise. As px_deep_copy: after all
 * work issued so far on every instance, finished on return, the path chosen as for a view
 * of that memory (staged when the view is on a GPU). Kokkos' deep_copy between a view and
 * a host scalar or array:
 *
 *   double sum;
 *   px_deep_copy_to_host(&sum, sizeof sum, sum_view);   // a 1-element view, any space */
PX_API px_status px_deep_copy_to_host(void *dst, size_t bytes, const px_view *src);
PX_API px_status px_deep_copy_from_host(px_view *dst, const void *src, size_t bytes);
/** @} */

/** How many copies and fills took each path since px_init (indexed by px_copy_path). */
PX_API px_status px_copy_path_counts(uint64_t counts[PX_COPY_PATH_COUNT]);

PX_EXTERN_C_END

#endif /* PORTEX_COPY_H */
