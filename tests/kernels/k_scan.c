/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernel file: parallel_scan kernels of the tests (valid C11 and CUDA C++).
 * Bodies store only when `final`: they may run more than once per index. */
#include "kernels.h"

PX_SCAN(scan_excl_i64, scan_i64_args, args, i, int64_t, sum, update, final)
{
    if (final) PX_AT1(args->out, i) = *update;
    *update += PX_AT1(args->in, i);
}

PX_SCAN(scan_incl_i64, scan_i64_args, args, i, int64_t, sum, update, final)
{
    *update += PX_AT1(args->in, i);
    if (final) PX_AT1(args->out, i) = *update;
}

PX_SCAN(scan_incl_f64, scan_f64_args, args, i, double, sum, update, final)
{
    *update += PX_AT1(args->in, i);
    if (final) PX_AT1(args->out, i) = *update;
}

PX_SCAN(scan_max_i32, scan_i32_args, args, i, int32_t, max, update, final)
{
    int32_t x = PX_AT1(args->in, i);
    if (x > *update) *update = x;
    if (final) PX_AT1(args->out, i) = *update;
}
