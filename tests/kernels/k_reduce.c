/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernel file: parallel_reduce kernels of the tests (valid C11 and CUDA C++). */
#include "kernels.h"

/* Built-in joins: every op folds x[i] with the join itself. */
#define TK_RED(T, op)                                            \
    PX_REDUCE(red_##op##_##T, red_args_##T, args, i, T, op, acc) \
    {                                                            \
        px_join_##op##_##T(acc, &PX_AT1(args->x, i));            \
    }
#define TK_RED_ALL(T) TK_RED(T, sum) TK_RED(T, prod) TK_RED(T, min) TK_RED(T, max)

TK_RED_ALL(float)
TK_RED_ALL(double)
TK_RED_ALL(int32_t)
TK_RED_ALL(int64_t)
TK_RED_ALL(uint32_t)
TK_RED_ALL(uint64_t)

/* minloc / maxloc: the value with its index. */
#define TK_LOC(sfx, T, op)                                                               \
    PX_REDUCE(red_##op##loc_##sfx, red_args_##T, args, i, px_valloc_##sfx, op##loc, acc) \
    {                                                                                    \
        px_valloc_##sfx c;                                                               \
        c.val = PX_AT1(args->x, i);                                                      \
        c.loc = i;                                                                       \
        px_join_##op##loc_px_valloc_##sfx(acc, &c);                                      \
    }

TK_LOC(f32, float, min)
TK_LOC(f32, float, max)
TK_LOC(f64, double, min)
TK_LOC(f64, double, max)
TK_LOC(i32, int32_t, min)
TK_LOC(i32, int32_t, max)
TK_LOC(i64, int64_t, min)
TK_LOC(i64, int64_t, max)

/* Custom join over a struct. */
PX_JOIN(stats, tk_stats, d, s)
{
    d->sum += s->sum;
    d->count += s->count;
}
PX_IDENTITY(stats, tk_stats, v)
{
    v->sum = 0.0;
    v->count = 0;
}

PX_REDUCE(red_stats, red_args_double, args, i, tk_stats, stats, acc)
{
    double x = PX_AT1(args->x, i);
    if (x > 0.0) {
        acc->sum += x;
        acc->count += 1;
    }
}

/* Custom join: complex product (associative, identity 1 + 0i). */
PX_JOIN(cmul, tk_cplx, d, s)
{
    double re = d->re * s->re - d->im * s->im;
    double im = d->re * s->im + d->im * s->re;
    d->re = re;
    d->im = im;
}
PX_IDENTITY(cmul, tk_cplx, v)
{
    v->re = 1.0;
    v->im = 0.0;
}

PX_REDUCE(red_cprod, cplx_args, args, i, tk_cplx, cmul, acc)
{
    tk_cplx c;
    c.re = PX_AT1(args->re, i);
    c.im = PX_AT1(args->im, i);
    px_join_cmul_tk_cplx(acc, &c);
}

PX_REDUCE_2D(red2_sum, red_args_double, args, i, j, double, sum, acc)
{
    *acc += PX_AT2(args->x, i, j);
}

PX_REDUCE_3D(red3_sum, red_args_int64_t, args, i, j, k, int64_t, sum, acc)
{
    *acc += PX_AT3(args->x, i, j, k);
}

PX_REDUCE_2D(count2, count_args, args, i, j, int64_t, sum, acc)
{
    (void)args;
    (void)i;
    (void)j;
    *acc += 1;
}

PX_REDUCE_3D(count3, count_args, args, i, j, k, int64_t, sum, acc)
{
    (void)args;
    (void)i;
    (void)j;
    (void)k;
    *acc += 1;
}
