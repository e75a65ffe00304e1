/* Host copies and fills: memcpy where memory is contiguous, else an odometer over the
 * outer dimensions with a tight loop over the innermost one (the destination's smallest
 * stride, so that writes stream). */
#include <stdint.h>
#include <string.h>

#include "spaces/copy_host.h"
#include "spaces/view_internal.h"

void px__host_copy_contiguous(px_view *dst, const px_view *src)
{
    size_t bytes = (size_t)px__view_size(dst) * dst->elem_size;
    if (dst->data != src->data) memmove(dst->data, src->data, bytes);
}

/* Copies n elements of size es from src (stride ss elements) to dst (stride ds). The
   common element sizes get typed loops the compiler can vectorise, when both sides are
   aligned for the type (wrapped user memory need not be). */
static void copy_line(char *dst, int64_t ds, const char *src, int64_t ss, int64_t n, size_t es)
{
#define PX__COPY_LINE(T)                                                                   \
    do {                                                                                   \
        T *d = (T *)(void *)dst;                                                           \
        const T *s = (const T *)(const void *)src;                                         \
        for (int64_t i = 0; i < n; ++i) d[i * ds] = s[i * ss];                             \
        return;                                                                            \
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

void px__host_copy_strided(px_view *dst, const px_view *src)
{
    const int rank = dst->rank;
    const size_t es = dst->elem_size;
    if (rank == 0) {
        memcpy(dst->data, src->data, es);
        return;
    }
    int order[PX_MAX_RANK];
    px__view_dims_by_stride(dst, order);
    const int inner = order[0];
    int64_t idx[PX_MAX_RANK] = {0};
    for (;;) {
        int64_t doff = 0, soff = 0;
        for (int d = 0; d < rank; ++d) {
            doff += idx[d] * dst->stride[d];
            soff += idx[d] * src->stride[d];
        }
        copy_line(dst->data + doff * (int64_t)es, dst->stride[inner],
                  src->data + soff * (int64_t)es, src->stride[inner], dst->extent[inner], es);
        /* Advance the odometer over every dimension but the inner one. */
        int k = 1;
        for (; k < rank; ++k) {
            int d = order[k];
            if (++idx[d] < dst->extent[d]) break;
            idx[d] = 0;
        }
        if (k == rank) return;
    }
}

void px__fill_bytes(void *dst, size_t count, size_t elem_size, const void *value)
{
    if (count == 0) return;
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
        size_t n = done < count - done ? done : count - done;
        memcpy(d + done * elem_size, d, n * elem_size);
        done += n;
    }
}

void px__host_fill(px_view *dst, const void *value)
{
    const size_t es = dst->elem_size;
    if (px__view_contiguous(dst)) {
        px__fill_bytes(dst->data, (size_t)px__view_size(dst), es, value);
        return;
    }
    int order[PX_MAX_RANK];
    px__view_dims_by_stride(dst, order);
    const int inner = order[0];
    int64_t idx[PX_MAX_RANK] = {0};
    for (;;) {
        int64_t off = 0;
        for (int d = 0; d < dst->rank; ++d) off += idx[d] * dst->stride[d];
        char *line = dst->data + off * (int64_t)es;
        for (int64_t i = 0; i < dst->extent[inner]; ++i)
            memcpy(line + (size_t)(i * dst->stride[inner]) * es, value, es);
        int k = 1;
        for (; k < dst->rank; ++k) {
            int d = order[k];
            if (++idx[d] < dst->extent[d]) break;
            idx[d] = 0;
        }
        if (k == dst->rank) return;
    }
}
