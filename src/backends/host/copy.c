/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Host copies and fills: memcpy where memory is contiguous, else an odometer over the
 * outer dimensions with a tight loop over the innermost one (the destination's smallest
 * stride, so that writes stream). */
#include "backends/host/copy.h"

#include <stdint.h>
#include <string.h>

void px__dims_by_stride(int rank, const int64_t *stride, int order[PX_MAX_RANK])
{
    for (int d = 0; d < rank; ++d) order[d] = d;
    for (int a = 1; a < rank; ++a) /* insertion sort: rank <= 8 */
        for (int b = a; b > 0 && stride[order[b]] < stride[order[b - 1]]; --b) {
            const int t = order[b];
            order[b] = order[b - 1];
            order[b - 1] = t;
        }
}

/* Copies n elements of size es from src (stride ss elements) to dst (stride ds). The
   common element sizes get typed loops the compiler can vectorise, when both sides are
   aligned for the type (wrapped user memory need not be). */
static void copy_line(char *dst, int64_t ds, const char *src, int64_t ss, int64_t n, size_t es)
{
#define PX__COPY_LINE(T)                                       \
    do {                                                       \
        T *d = (T *)(void *)dst;                               \
        const T *s = (const T *)(const void *)src;             \
        for (int64_t i = 0; i < n; ++i) d[i * ds] = s[i * ss]; \
        return;                                                \
    } while (0)
    const bool aligned = (((uintptr_t)dst | (uintptr_t)src) & (es - 1)) == 0;
    switch (aligned ? es : 0) {
    case 1: PX__COPY_LINE(uint8_t);
    case 2: PX__COPY_LINE(uint16_t);
    case 4: PX__COPY_LINE(uint32_t);
    case 8: PX__COPY_LINE(uint64_t);
    default: break;
    }
#undef PX__COPY_LINE
    if (ds == 1 && ss == 1) {
        memcpy(dst, src, (size_t)n * es);
        return;
    }
    for (int64_t i = 0; i < n; ++i)
        memcpy(dst + (size_t)(i * ds) * es, src + (size_t)(i * ss) * es, es);
}

/* Calls line(offset of dst's line, offset of src's line) in elements for every line of
   the odometer over op's outer dimensions; returns the inner dimension. */
#define PX__ODOMETER(op, order, inner, body)              \
    do {                                                  \
        int64_t idx_[PX_MAX_RANK] = {0};                  \
        for (;;) {                                        \
            int64_t doff = 0, soff = 0;                   \
            for (int d_ = 0; d_ < (op)->rank; ++d_) {     \
                doff += idx_[d_] * (op)->dst.stride[d_];  \
                soff += idx_[d_] * (op)->src.stride[d_];  \
            }                                             \
            body;                                         \
            int k_ = 1;                                   \
            for (; k_ < (op)->rank; ++k_) {               \
                const int d_ = (order)[k_];               \
                if (++idx_[d_] < (op)->extent[d_]) break; \
                idx_[d_] = 0;                             \
            }                                             \
            if (k_ == (op)->rank) break;                  \
        }                                                 \
    } while (0)

void px__host_copy(const px__copy_op *op)
{
    const size_t es = op->elem_size;
    if (op->count == 0) return;
    if (op->flat) {
        if (op->dst.data != op->src.data) memmove(op->dst.data, op->src.data, op->bytes);
        return;
    }
    if (op->rank == 0) {
        memcpy(op->dst.data, op->src.data, es);
        return;
    }
    int order[PX_MAX_RANK];
    px__dims_by_stride(op->rank, op->dst.stride, order);
    const int inner = order[0];
    PX__ODOMETER(op, order, inner,
                 copy_line(op->dst.data + doff * (int64_t)es, op->dst.stride[inner],
                           op->src.data + soff * (int64_t)es, op->src.stride[inner],
                           op->extent[inner], es));
}

/* Fills count elements of elem_size bytes at dst with *value. */
static void fill_bytes(void *dst, size_t count, size_t elem_size, const void *value)
{
    const unsigned char *v = value;
    bool uniform = true;
    for (size_t b = 1; b < elem_size && uniform; ++b) uniform = v[b] == v[0];
    if (uniform) {
        memset(dst, v[0], count * elem_size);
        return;
    }
    /* Doubling: each memcpy copies everything filled so far. */
    char *d = dst;
    memcpy(d, value, elem_size);
    size_t done = 1;
    while (done < count) {
        const size_t n = done < count - done ? done : count - done;
        memcpy(d + done * elem_size, d, n * elem_size);
        done += n;
    }
}

void px__host_fill(const px__copy_op *op)
{
    const size_t es = op->elem_size;
    if (op->count == 0) return;
    if (op->flat) {
        fill_bytes(op->dst.data, (size_t)op->count, es, op->value);
        return;
    }
    int order[PX_MAX_RANK];
    px__dims_by_stride(op->rank, op->dst.stride, order);
    const int inner = order[0];
    PX__ODOMETER(op, order, inner, {
        (void)soff;
        char *line = op->dst.data + doff * (int64_t)es;
        for (int64_t i = 0; i < op->extent[inner]; ++i)
            memcpy(line + (size_t)(i * op->dst.stride[inner]) * es, op->value, es);
    });
}
