/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* cg: the kernels of the iteration that runs in a graph (a WHILE node's body), where the
 * scalars live in one-element views on the device instead of host variables. Shared by
 * the kernel file and main; valid C and CUDA C++. */
#ifndef CG_KERNELS_H
#define CG_KERNELS_H

#include <portex.h>

/* The scalars of the iteration, element 0 of each: r.r before the step (rr) and after it
   (rr_next), p.Ap (pap), the iterations done (it). */
typedef struct cg_scalars {
    px_span_f64_1d rr, rr_next, pap, it;
} cg_scalars;

/* x += alpha p, r -= alpha Ap, alpha = rr / pap. */
typedef struct cg_xr_args {
    px_span_f64_1d x, r, p, ap;
    cg_scalars s;
} cg_xr_args;

/* p = r + beta p, beta = rr_next / rr. */
typedef struct cg_p_args {
    px_span_f64_1d p, r;
    cg_scalars s;
} cg_p_args;

/* One index: rr = rr_next, it += 1, and the loop goes on while rr > stop and it < max_it. */
typedef struct cg_step_args {
    cg_scalars s;
    double stop, max_it;
    px_cond more;
} cg_step_args;

PX_DECLARE_KERNEL(cg_update_xr);
PX_DECLARE_KERNEL(cg_update_p);
PX_DECLARE_KERNEL(cg_step);

#endif
