/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* A kernel file that is valid C but not valid CUDA (its bodies call a host function), for
 * check_error_line.py: as C it compiles; as CUDA each error is on the line marked CUDA
 * ERROR, the user's own line. Never built. */
#include "portex.h"

typedef struct broken_args {
    px_span_f64_1d x;
} broken_args;

static double host_only(double v) { return 2.0 * v; }

PX_FOR(broken_device_for, broken_args, args, i)
{
    PX_AT1(args->x, i) = host_only(1.0); /* CUDA ERROR */
}

PX_REDUCE(broken_device_reduce, broken_args, args, i, double, sum, acc)
{
    *acc += host_only(PX_AT1(args->x, i)); /* CUDA ERROR */
}
