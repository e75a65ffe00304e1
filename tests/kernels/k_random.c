/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernels of test_random (k_random.h). Compiled as C, or as CUDA when CUDA is on. */
#include "k_random.h"

PX_FOR(rd_draw, rd_args, a, i)
{
    const rd_draws d = rd_draws_of(a, i);
    for (int k = 0; k < RD_U32; ++k) PX_AT1(a->raw, i * RD_U32 + k) = d.raw[k];
    PX_AT1(a->u64, i) = d.u64;
    PX_AT1(a->f32, i) = d.f32;
    PX_AT1(a->f64, i) = d.f64;
    PX_AT1(a->r32, i) = d.r32;
    PX_AT1(a->r64, i) = d.r64;
    PX_AT1(a->ri64, i) = d.ri64;
    for (int k = 0; k < 3; ++k) PX_AT1(a->nrm, i * 3 + k) = d.nrm[k];
    PX_AT1(a->nrm32, i) = d.nrm32;
}

PX_FOR(rd_hist, rd_hist_args, a, i)
{
    px_philox g = px_philox_init(a->seed, (uint64_t)i, 0);
    int64_t c[RD_BINS] = {0};
    for (int k = 0; k < RD_DRAWS; ++k) c[px_rand_range_u32(&g, RD_BINS)]++;
    for (int b = 0; b < RD_BINS; ++b) PX_AT1(a->counts, i * RD_BINS + b) = c[b];
}
