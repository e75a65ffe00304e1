/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* A kernel file with an error in every kind of kernel body, for check_error_line.py: the
 * compiler must report each error on the line marked ERROR, the user's own line, and no
 * error elsewhere (the macros' lines included). Never built. */
#include "portex.h"

typedef struct broken_args {
    px_span_f64_1d x;
    px_span_f64_right m;
} broken_args;

PX_FOR(broken_for, broken_args, args, i) { PX_AT1(args->x, i) = 2.0 * not_declared_1; /* ERROR */ }

PX_FOR_2D(broken_for2, broken_args, args, i, j)
{
    const double v = PX_AT2(args->m, i, j);
    PX_AT2(args->m, i, j) = v + not_declared_2; /* ERROR */
}

PX_FOR_3D(broken_for3, broken_args, args, i, j, k)
{
    (void)k;
    PX_AT2(args->m, i, j) = not_declared_3; /* ERROR */
}

PX_REDUCE(broken_reduce, broken_args, args, i, double, sum, acc)
{
    *acc += PX_AT1(args->x, i) * not_declared_4; /* ERROR */
}

PX_REDUCE_2D(broken_reduce2, broken_args, args, i, j, double, max, acc)
{
    px_join_max_double(acc, &PX_AT2(args->m, i, not_declared_5)); /* ERROR */
    (void)j;
}

PX_SCAN(broken_scan, broken_args, args, i, double, sum, update, final)
{
    if (final) PX_AT1(args->x, i) = *update;
    *update += not_declared_6; /* ERROR */
}
