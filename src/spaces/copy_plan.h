/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: turning a deep_copy or fill of views into a px__copy_op with its path chosen.
 *
 * Where the CPU reaches both sides (HOST, HOST_PINNED) the path is a host one; otherwise
 * the backend that owns the memory off the host (the DEVICE side) chooses, as FFmpeg's
 * hwcontext asks the device side's backend to transfer. The op carries a hold on each
 * side's memory (released with px__copy_op_release), so that a backend may keep using it
 * after the call returns. */
#ifndef PX_SPACES_COPY_PLAN_H
#define PX_SPACES_COPY_PLAN_H

#include "backends/backend.h"

/* What runs a planned op. */
typedef struct px__copy_plan_info {
    /* The backend whose instances may run op's path; PX_EXEC_COUNT: any instance (a host
       path runs after that instance's earlier work). */
    px_exec_space owner;
    /* The sides share memory (and the copy is not a no-op): the copy must go through a
       temporary, since no path promises an element order. */
    bool overlap;
} px__copy_plan_info;

/* dst and src validated (live, same rank, extents and element size), op filled and its
   path chosen. On success the caller must px__copy_op_release(op). */
px_status px__copy_plan(px__copy_op *op, px__copy_plan_info *info, px_view *dst,
                        const px_view *src);
/* As px__copy_plan for a fill of dst with *value (one element of dst's size). */
px_status px__fill_plan(px__copy_op *op, px__copy_plan_info *info, px_view *dst, const void *value);
/* Drops the holds the backend did not keep. */
void px__copy_op_release(px__copy_op *op);

#endif /* PX_SPACES_COPY_PLAN_H */
