/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The host backends' prefix sum: reduce, then scan. The elements are cut into parts (one a
 * thread, at most MAX_PARTS, none smaller than MIN_PART elements); each part sums its
 * elements, then, after the team's barrier, adds up the sums of the parts before it (in part
 * order) and writes its own prefix sums from there. The input is read twice and the output
 * written once, and the order of the additions depends on the element count and the team's
 * size only. Integers add as unsigned numbers of their width, so that overflow wraps. */
#include "backends/host/prefix_sum.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "backends/services.h"


#define MAX_PARTS 256
#define MIN_PART ((int64_t)1 << 13)

/* One element type's loops: sum [lo, hi) of in into *acc; write the prefix sums of
   [lo, hi) from `start` into out; add *x to *acc. Sums are held in 8 bytes. */
typedef struct ps_type {
    void (*sum)(const void *in, int64_t lo, int64_t hi, void *acc);
    void (*scan)(const void *in, void *out, int64_t lo, int64_t hi, const void *start,
                 bool exclusive);
    void (*add)(void *acc, const void *x);
} ps_type;

/* T the element type, A the type it adds in, of T's size: a sum is stored as its bits, so an
   unsigned sum in a signed element is its two's complement, with no conversion. An
   exclusive sum reads each element before it writes that index's sum, so in and out may be
   the same memory. */
#define PS_TYPE(name, T, A)                                                                       \
    static void sum_##name(const void *in, int64_t lo, int64_t hi, void *acc)                     \
    {                                                                                             \
        const T *x = in;                                                                          \
        A s = 0;                                                                                  \
        for (int64_t i = lo; i < hi; ++i) s += (A)x[i];                                           \
        memcpy(acc, &s, sizeof s);                                                                \
    }                                                                                             \
    static void scan_##name(const void *in, void *out, int64_t lo, int64_t hi, const void *start, \
                            bool exclusive)                                                       \
    {                                                                                             \
        const T *x = in;                                                                          \
        T *y = out;                                                                               \
        A s;                                                                                      \
        memcpy(&s, start, sizeof s);                                                              \
        if (exclusive) {                                                                          \
            for (int64_t i = lo; i < hi; ++i) {                                                   \
                const A v = (A)x[i];                                                              \
                memcpy(&y[i], &s, sizeof s);                                                      \
                s += v;                                                                           \
            }                                                                                     \
        } else {                                                                                  \
            for (int64_t i = lo; i < hi; ++i) {                                                   \
                s += (A)x[i];                                                                     \
                memcpy(&y[i], &s, sizeof s);                                                      \
            }                                                                                     \
        }                                                                                         \
    }                                                                                             \
    static void add_##name(void *acc, const void *x)                                              \
    {                                                                                             \
        A a, b;                                                                                   \
        memcpy(&a, acc, sizeof a);                                                                \
        memcpy(&b, x, sizeof b);                                                                  \
        a += b;                                                                                   \
        memcpy(acc, &a, sizeof a);                                                                \
    }

PS_TYPE(i32, int32_t, uint32_t)
PS_TYPE(i64, int64_t, uint64_t)
PS_TYPE(u32, uint32_t, uint32_t)
PS_TYPE(u64, uint64_t, uint64_t)
PS_TYPE(f32, float, float)
PS_TYPE(f64, double, double)

static const ps_type *type_of(px_dtype t)
{
    static const ps_type types[] = {{sum_i32, scan_i32, add_i32}, {sum_i64, scan_i64, add_i64},
                                    {sum_u32, scan_u32, add_u32}, {sum_u64, scan_u64, add_u64},
                                    {sum_f32, scan_f32, add_f32}, {sum_f64, scan_f64, add_f64}};
    switch (t) {
    case PX_I32: return &types[0];
    case PX_I64: return &types[1];
    case PX_U32: return &types[2];
    case PX_U64: return &types[3];
    case PX_F32: return &types[4];
    case PX_F64: return &types[5];
    default: return NULL;
    }
}

typedef struct ps_ctx {
    const px__prefix_sum_op *op;
    const ps_type *type;
    int nparts;
    uint64_t sums[MAX_PARTS]; /* each part's sum, in its adding type's bytes */
} ps_ctx;

static void sum_part(void *vc, int part)
{
    ps_ctx *c = vc;
    int64_t lo, hi;
    px__host_share(c->op->n, part, c->nparts, &lo, &hi);
    c->type->sum(c->op->in, lo, hi, &c->sums[part]);
}

static void scan_part(void *vc, int part)
{
    const ps_ctx *c = vc;
    int64_t lo, hi;
    px__host_share(c->op->n, part, c->nparts, &lo, &hi);
    uint64_t start = 0; /* zero bits: 0 in every adding type */
    for (int p = 0; p < part; ++p) c->type->add(&start, &c->sums[p]);
    c->type->scan(c->op->in, c->op->out, lo, hi, &start, c->op->exclusive);
}

px_status px__host_prefix_sum(const px__host_runner *r, const px__prefix_sum_op *op)
{
    const ps_type *type = type_of(op->dtype);
    if (!type) /* the core passes summable types only */
        return px__error(PX_ERR_UNSUPPORTED, "no prefix sum of element type %d", (int)op->dtype);
    int64_t nparts = r ? r->nthreads : 1;
    if (nparts > MAX_PARTS) nparts = MAX_PARTS;
    if (nparts > op->n / MIN_PART) nparts = op->n / MIN_PART;
    if (nparts <= 1) {
        const uint64_t zero = 0;
        type->scan(op->in, op->out, 0, op->n, &zero, op->exclusive);
        return PX_OK;
    }
    ps_ctx c = {.op = op, .type = type, .nparts = (int)nparts};
    const px__host_job job = {.nparts = c.nparts, .pass = {sum_part, scan_part}, .ctx = &c};
    r->run(r->team, &job);
    return PX_OK;
}
