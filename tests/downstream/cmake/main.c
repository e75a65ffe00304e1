/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* A program built against an installed (or subproject) portex: a PX_FOR and a PX_REDUCE on
 * the default execution space (the GPU where portex has CUDA and there is one, else the
 * host's cores or the serial backend). The sum of the first n odd numbers is n * n. */
#include <stdio.h>

#include "kernels.h"

#define CHECK(call)                                                              \
    do {                                                                         \
        if ((call) != PX_OK) {                                                   \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, px_last_error()); \
            return 1;                                                            \
        }                                                                        \
    } while (0)

int main(void)
{
    const int64_t n = 100000;
    px_exec_space exec;
    px_instance *inst;
    px_space where;
    px_view *x;
    odd_args args;
    int64_t sum = 0;

    CHECK(px_init(NULL));
    CHECK(px_default_exec_space(&exec));
    CHECK(px_default_instance(&inst));
    CHECK(px_default_space(&where));
    CHECK(px_view_create_1d(&x, "x", where, PX_I64, n));
    CHECK(px_view_get_span(x, &args.x));
    CHECK(px_parallel_for(inst, "odd_fill", px_range(0, n), PX_KERNEL(odd_fill), &args));
    CHECK(px_parallel_reduce(inst, "odd_sum", px_range(0, n), PX_KERNEL(odd_sum), &args, &sum));
    CHECK(px_view_release(&x));
    CHECK(px_finalize());

    printf("downstream: portex %s on %s: sum = %lld (expected %lld): %s\n", px_version_string(),
           px_exec_space_string(exec), (long long)sum, (long long)(n * n),
           sum == n * n ? "OK" : "MISMATCH");
    return sum == n * n ? 0 : 1;
}
