/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernel file of test_limits (valid C11 and CUDA C++). */
#include "k_limits.h"

/* The offset of (i, j, k) in the range, or -1 when it is outside. */
PX_FUNCTION int64_t lim_offset(const lim_args *a, int64_t i, int64_t j, int64_t k)
{
    const uint64_t o0 = (uint64_t)i - (uint64_t)a->begin[0];
    const uint64_t o1 = (uint64_t)j - (uint64_t)a->begin[1];
    const uint64_t o2 = (uint64_t)k - (uint64_t)a->begin[2];
    if (o0 >= (uint64_t)a->n[0] || o1 >= (uint64_t)a->n[1] || o2 >= (uint64_t)a->n[2]) return -1;
    return (int64_t)((o0 * (uint64_t)a->n[1] + o1) * (uint64_t)a->n[2] + o2);
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

PX_FUNCTION void lim_visit(const lim_args *a, int64_t i, int64_t j, int64_t k)
{
    const int64_t o = lim_offset(a, i, j, k);
    if (o < 0)
        PX_AT1(a->bad, 0) = 1;
    else
        lim_add(&PX_AT1(a->hits, o));
}

PX_FOR(lim_for1, lim_args, args, i) { lim_visit(args, i, args->begin[1], args->begin[2]); }
PX_FOR_2D(lim_for2, lim_args, args, i, j) { lim_visit(args, i, j, args->begin[2]); }
PX_FOR_3D(lim_for3, lim_args, args, i, j, k) { lim_visit(args, i, j, k); }

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

PX_FUNCTION void lim_fold(const lim_args *a, int64_t i, int64_t j, int64_t k, lim_seen *acc)
{
    const int64_t o = lim_offset(a, i, j, k);
    if (o < 0) {
        acc->bad += 1;
    } else {
        acc->hash_sum += lim_hash((uint64_t)o);
        acc->count += 1;
    }
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
