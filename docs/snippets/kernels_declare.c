/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* docs/kernels.md, "Mistakes the compiler names": a header that declares a kernel with its
 * kind (dot_kernels.h, the block as shown, a file of its own here). The kernel file below
 * includes it and defines the kernel as that kind, and a reduction dispatches it. */
#include "snippet.h"

#include "dot_kernels.h"

typedef struct dot_args {
    px_span_f64_1d x;
} dot_args;

PX_REDUCE(dot, dot_args, args, i, double, sum, acc) { *acc += PX_AT1(args->x, i); }

int main(void)
{
    const int64_t n = 1000;
    const double one = 1.0;
    px_instance *inst;
    px_space where;
    px_view *x;
    dot_args args;
    double total = 0.0;
    CHECK(px_init(NULL));
    CHECK(px_default_instance(&inst));
    CHECK(px_default_space(&where));
    CHECK(px_view_create_1d(&x, "x", where, PX_F64, n));
    CHECK(px_fill(x, &one, NULL));
    CHECK(px_view_get_span(x, &args.x));
    CHECK(px_parallel_reduce(inst, "dot", px_range(0, n), PX_KERNEL(dot), &args, &total));
    EXPECT(total == (double)n);
    CHECK(px_view_release(&x));
    CHECK(px_finalize());
    return 0;
}
