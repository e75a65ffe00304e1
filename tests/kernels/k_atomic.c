/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernel file: the kernels of test_atomic (valid C11 and CUDA C++; portex macros only).
 * What each computes is in k_atomic.h. The generic names (px_atomic_add, ...) are used
 * throughout: _Generic in C, overloads under nvcc. */
#include "k_atomic.h"

PX_FOR(at_hist, at_hist_args, args, i)
{
    const int64_t b = at_bin(i, args->nbins);
    px_atomic_add(&PX_AT1(args->c32, b), 1);
    (void)px_atomic_fetch_add(&PX_AT1(args->u32, b), 1u);
    px_atomic_add(&PX_AT1(args->s64, b), i);
    px_atomic_sub(&PX_AT1(args->u64, b), 1u);
    px_atomic_add(&PX_AT1(args->f32, b), 1.0f);
    px_atomic_add(&PX_AT1(args->f64, b), (double)i);
}

PX_FOR(at_scatter, at_scatter_args, args, i)
{
    const int64_t k = PX_AT1(args->idx, i);
    const double x = PX_AT1(args->x, i);
    px_atomic_add(&PX_AT1(args->y, k), x);
    px_atomic_sub(&PX_AT1(args->z, k), (float)x);
}

PX_FOR(at_seq, at_seq_args, args, i)
{
    if (i != 0) return;
    at_seq_i32(args->i32.data);
    at_seq_u32(args->u32.data);
    at_seq_i64(args->i64.data);
    at_seq_u64(args->u64.data);
    at_seq_f32(args->f32.data);
    at_seq_f64(args->f64.data);
}

#define AT_KERNELS(s, T)                                                                        \
    PX_FOR(at_tickets_##s, at_tickets_args_##s, args, i)                                        \
    {                                                                                           \
        (void)i;                                                                                \
        const int64_t up = (int64_t)px_atomic_fetch_add(&PX_AT1(args->counter, 0), (T)1);       \
        if (up >= 0 && up < args->n)                                                            \
            px_atomic_add(&PX_AT2(args->seen, 0, up), 1);                                       \
        else                                                                                    \
            px_atomic_add(&PX_AT1(args->bad, 0), 1);                                            \
        const int64_t down = (int64_t)px_atomic_fetch_sub(&PX_AT1(args->counter, 1), (T)1) - 1; \
        if (down >= 0 && down < args->n)                                                        \
            px_atomic_add(&PX_AT2(args->seen, 1, down), 1);                                     \
        else                                                                                    \
            px_atomic_add(&PX_AT1(args->bad, 0), 1);                                            \
    }                                                                                           \
    PX_FOR(at_minmax_##s, at_minmax_args_##s, args, i)                                          \
    {                                                                                           \
        const T v = at_value_##s(i, args->nan_at);                                              \
        PX_AT2(args->rets, 0, i) = px_atomic_fetch_min(&PX_AT1(args->ext, 0), v);               \
        PX_AT2(args->rets, 1, i) = px_atomic_fetch_max(&PX_AT1(args->ext, 1), v);               \
        px_atomic_min(&PX_AT1(args->ext, 2), v);                                                \
        px_atomic_max(&PX_AT1(args->ext, 3), v);                                                \
        px_atomic_min(&PX_AT1(args->ext, 4), v);                                                \
        px_atomic_max(&PX_AT1(args->ext, 5), v);                                                \
    }                                                                                           \
    PX_FOR(at_claim_##s, at_claim_args_##s, args, i)                                            \
    {                                                                                           \
        const int64_t slot = i % args->nslots;                                                  \
        const T c = px_atomic_compare_exchange(&PX_AT1(args->owner, slot), args->empty, (T)i);  \
        PX_AT1(args->cas, i) = c;                                                               \
        PX_AT1(args->xchg, i) = px_atomic_exchange(&PX_AT1(args->last, slot), (T)i);            \
        px_atomic_store(&PX_AT1(args->copy, i), px_atomic_load(&PX_AT1(args->cas, i)));         \
    }

#define AT_KERNELS_INT(s, T)                                                          \
    AT_KERNELS(s, T)                                                                  \
    PX_FOR(at_bits_##s, at_bits_args_##s, args, i)                                    \
    {                                                                                 \
        const T bit = (T)((uint64_t)1 << (i % (int64_t)(8 * sizeof(T))));             \
        PX_AT2(args->rets, 0, i) = px_atomic_fetch_or(&PX_AT1(args->m, 0), bit);      \
        PX_AT2(args->rets, 1, i) = px_atomic_fetch_and(&PX_AT1(args->m, 1), (T)~bit); \
        PX_AT2(args->rets, 2, i) = px_atomic_fetch_xor(&PX_AT1(args->m, 2), bit);     \
        px_atomic_or(&PX_AT1(args->m, 3), bit);                                       \
        px_atomic_and(&PX_AT1(args->m, 4), (T)~bit);                                  \
        px_atomic_xor(&PX_AT1(args->m, 5), bit);                                      \
    }

AT_KERNELS_INT(i32, int32_t)
AT_KERNELS_INT(u32, uint32_t)
AT_KERNELS_INT(i64, int64_t)
AT_KERNELS_INT(u64, uint64_t)
AT_KERNELS(f32, float)
AT_KERNELS(f64, double)
