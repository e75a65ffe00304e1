/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernel file of test_limits (valid C11 and CUDA C++). */
#include "k_limits.h"

/* The offset of index x (6 dimensions; those past the rank at their begin) in the range, or
   -1 when it is outside. */
PX_FUNCTION int64_t lim_offset6(const lim_args *a, const int64_t x[6])
{
    uint64_t o = 0;
    for (int d = 0; d < 6; ++d) {
        const uint64_t od = (uint64_t)x[d] - (uint64_t)a->begin[d];
        if (od >= (uint64_t)a->n[d]) return -1;
        o = o * (uint64_t)a->n[d] + od;
    }
    return (int64_t)o;
}

PX_FUNCTION int64_t lim_offset(const lim_args *a, int64_t i, int64_t j, int64_t k)
{
    const int64_t x[6] = {i, j, k, a->begin[3], a->begin[4], a->begin[5]};
    return lim_offset6(a, x);
}

/* Atomic on the GPU, so that two visits of one index count two. */
PX_FUNCTION void lim_add(int32_t *p)
{
#ifdef __CUDA_ARCH__
    atomicAdd(p, 1);
#else
    *p += 1;
#endif
}

PX_FUNCTION void lim_visit_at(const lim_args *a, int64_t o)
{
    if (o < 0)
        PX_AT1(a->bad, 0) = 1;
    else
        lim_add(&PX_AT1(a->hits, o));
}

PX_FUNCTION void lim_visit(const lim_args *a, int64_t i, int64_t j, int64_t k)
{
    lim_visit_at(a, lim_offset(a, i, j, k));
}

PX_FOR(lim_for1, lim_args, args, i) { lim_visit(args, i, args->begin[1], args->begin[2]); }
PX_FOR_2D(lim_for2, lim_args, args, i, j) { lim_visit(args, i, j, args->begin[2]); }
PX_FOR_3D(lim_for3, lim_args, args, i, j, k) { lim_visit(args, i, j, k); }
PX_FOR_4D(lim_for4, lim_args, args, i, j, k, l)
{
    const int64_t x[6] = {i, j, k, l, args->begin[4], args->begin[5]};
    lim_visit_at(args, lim_offset6(args, x));
}
PX_FOR_5D(lim_for5, lim_args, args, i, j, k, l, m)
{
    const int64_t x[6] = {i, j, k, l, m, args->begin[5]};
    lim_visit_at(args, lim_offset6(args, x));
}
PX_FOR_6D(lim_for6, lim_args, args, i, j, k, l, m, n)
{
    const int64_t x[6] = {i, j, k, l, m, n};
    lim_visit_at(args, lim_offset6(args, x));
}

PX_JOIN(seen, lim_seen, d, s)
{
    d->hash_sum += s->hash_sum;
    d->count += s->count;
    d->bad += s->bad;
}
PX_IDENTITY(seen, lim_seen, v)
{
    v->hash_sum = 0;
    v->count = 0;
    v->bad = 0;
}

PX_FUNCTION void lim_fold_at(int64_t o, lim_seen *acc)
{
    if (o < 0) {
        acc->bad += 1;
    } else {
        acc->hash_sum += lim_hash((uint64_t)o);
        acc->count += 1;
    }
}

PX_FUNCTION void lim_fold(const lim_args *a, int64_t i, int64_t j, int64_t k, lim_seen *acc)
{
    lim_fold_at(lim_offset(a, i, j, k), acc);
}

PX_REDUCE(lim_red1, lim_args, args, i, lim_seen, seen, acc)
{
    lim_fold(args, i, args->begin[1], args->begin[2], acc);
}
PX_REDUCE_2D(lim_red2, lim_args, args, i, j, lim_seen, seen, acc)
{
    lim_fold(args, i, j, args->begin[2], acc);
}
PX_REDUCE_3D(lim_red3, lim_args, args, i, j, k, lim_seen, seen, acc)
{
    lim_fold(args, i, j, k, acc);
}
PX_REDUCE_4D(lim_red4, lim_args, args, i, j, k, l, lim_seen, seen, acc)
{
    const int64_t x[6] = {i, j, k, l, args->begin[4], args->begin[5]};
    lim_fold_at(lim_offset6(args, x), acc);
}
PX_REDUCE_5D(lim_red5, lim_args, args, i, j, k, l, m, lim_seen, seen, acc)
{
    const int64_t x[6] = {i, j, k, l, m, args->begin[5]};
    lim_fold_at(lim_offset6(args, x), acc);
}
PX_REDUCE_6D(lim_red6, lim_args, args, i, j, k, l, m, n, lim_seen, seen, acc)
{
    const int64_t x[6] = {i, j, k, l, m, n};
    lim_fold_at(lim_offset6(args, x), acc);
}

PX_SCAN(lim_scan, lim_args, args, i, int64_t, sum, update, final)
{
    const int64_t o = lim_offset(args, i, args->begin[1], args->begin[2]);
    if (o < 0) {
        if (final) PX_AT1(args->bad, 0) = 1;
        return;
    }
    if (final) PX_AT1(args->out, o) = *update;
    *update += 1;
}
