/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernel file: the graph iteration's own kernels (the product and the dot products are
 * libportex_linalg's nodes). Compiled as C, or as CUDA when the CUDA backend is on. */
#include "cg_kernels.h"

PX_FOR(cg_update_xr, cg_xr_args, a, i)
{
    const double alpha = PX_AT1(a->s.rr, 0) / PX_AT1(a->s.pap, 0);
    PX_AT1(a->x, i) += alpha * PX_AT1(a->p, i);
    PX_AT1(a->r, i) -= alpha * PX_AT1(a->ap, i);
}

PX_FOR(cg_update_p, cg_p_args, a, i)
{
    const double beta = PX_AT1(a->s.rr_next, 0) / PX_AT1(a->s.rr, 0);
    PX_AT1(a->p, i) = PX_AT1(a->r, i) + beta * PX_AT1(a->p, i);
}

PX_FOR(cg_step, cg_step_args, a, i)
{
    (void)i; /* a range of one index */
    const double rr = PX_AT1(a->s.rr_next, 0), it = PX_AT1(a->s.it, 0) + 1;
    PX_AT1(a->s.rr, 0) = rr;
    PX_AT1(a->s.it, 0) = it;
    px_cond_set(a->more, rr > a->stop && it < a->max_it);
}
