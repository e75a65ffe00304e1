/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* quickstart.c: saxpy and a dot product on the default execution space. Kernels and main
 * in one file, compiled as C, or as CUDA from a .cu copy when portex has CUDA. */
#include <stdio.h>
#include <portex.h>

#define CHECK(call)                                   \
    do {                                              \
        if ((call) != PX_OK) {                        \
            fprintf(stderr, "%s\n", px_last_error()); \
            return 1;                                 \
        }                                             \
    } while (0)

typedef struct saxpy_args {
    double a;
    px_span_f64_1d x, y;
} saxpy_args;

PX_FOR(init, saxpy_args, s, i)
{
    PX_AT1(s->x, i) = (double)(i + 1);
    PX_AT1(s->y, i) = 1.0;
}
PX_FOR(axpy, saxpy_args, s, i) { PX_AT1(s->y, i) += s->a * PX_AT1(s->x, i); }
PX_REDUCE(dot, saxpy_args, s, i, double, sum, acc) { *acc += PX_AT1(s->x, i) * PX_AT1(s->y, i); }

int main(void)
{
    const int64_t n = 1000;
    const double expect = n * (n + 1) * (4 * n + 5) / 6.0; /* the sum of i (2i + 1) */
    px_exec_space exec;
    px_instance *inst;
    px_space where;
    px_view *x, *y;
    saxpy_args s;
    double dot;
    CHECK(px_init(NULL));
    CHECK(px_default_exec_space(&exec)); /* CUDA with a GPU, else OpenMP, threads or serial */
    CHECK(px_default_instance(&inst));
    CHECK(px_default_space(&where)); /* where its data lives */
    CHECK(px_view_create_1d(&x, "x", where, PX_F64, n));
    CHECK(px_view_create_1d(&y, "y", where, PX_F64, n));
    CHECK(px_view_get_span(x, &s.x));
    CHECK(px_view_get_span(y, &s.y));
    s.a = 2.0;
    CHECK(px_parallel_for(inst, "init", px_range(0, n), PX_KERNEL(init), &s)); /* x = 1..n, y = 1 */
    CHECK(px_parallel_for(inst, "axpy", px_range(0, n), PX_KERNEL(axpy), &s)); /* y = 2x + y */
    CHECK(px_parallel_reduce(inst, "dot", px_range(0, n), PX_KERNEL(dot), &s, &dot));
    printf("%s: x.y = %.0f (expected %.0f)\n", px_exec_space_string(exec), dot, expect);
    CHECK(px_view_release(&x));
    CHECK(px_view_release(&y));
    return px_finalize() == PX_OK && dot == expect ? 0 : 1;
}
