/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* tensor_nd.c: a 4-D tensor x(b, c, h, w) permuted to y(b, h, w, c) by a 4-D kernel, then
 * each (batch, channel) plane of y summed by a kernel that slices it out of y itself (a
 * strided 2-D span, no view), and the whole tensor summed by a 4-D reduction; checked
 * against the closed forms. */
#include <stdio.h>
#include <string.h>
#include <portex.h>
#include <portex/check.h>

enum { B = 3, C = 4, H = 5, W = 6 };

typedef struct nd_args {
    px_span_f64_right x, y; /* x(b, c, h, w), y(b, h, w, c) */
    px_span_f64_right sums; /* sums(b, c) */
} nd_args;

PX_FUNCTION double value(int64_t b, int64_t c, int64_t h, int64_t w)
{
    return (double)(1000 * b + 100 * c + 10 * h + w);
}
PX_FOR_4D(fill, nd_args, a, b, c, h, w) { PX_AT4(a->x, b, c, h, w) = value(b, c, h, w); }
PX_FOR_4D(permute, nd_args, a, b, c, h, w) { PX_AT4(a->y, b, h, w, c) = PX_AT4(a->x, b, c, h, w); }
PX_FOR_2D(plane_sums, nd_args, a, b, c)
{
    px_span_f64_right image; /* y(b, :, :, :): the last dimension still unit-stride */
    px_span_f64 plane;       /* y(b, :, :, c): strided */
    PX_SLICE(image, a->y, 0, b);
    PX_SLICE(plane, image, 2, c);
    double s = 0.0;
    for (int64_t h = 0; h < H; ++h)
        for (int64_t w = 0; w < W; ++w) s += PX_AT2(plane, h, w);
    PX_AT2(a->sums, b, c) = s;
}
PX_REDUCE_4D(total, nd_args, a, b, h, w, c, double, sum, acc) { *acc += PX_AT4(a->y, b, h, w, c); }

/* A zero-filled row-major 4-D view of doubles (px_view_create_2d and _3d stop at 3-D). */
static px_view *tensor(const char *label, px_space where, const int64_t extent[4])
{
    px_view_desc d;
    memset(&d, 0, sizeof d);
    d.label = label;
    d.space = where;
    d.dtype = PX_F64;
    d.rank = 4;
    for (int k = 0; k < 4; ++k) d.extent[k] = extent[k];
    px_view *v;
    PX_CHECK(px_view_create(&v, &d));
    return v;
}

int main(void)
{
    PX_CHECK(px_init(NULL));
    px_instance *inst;
    PX_CHECK(px_default_instance(&inst));
    const int64_t xe[4] = {B, C, H, W}, ye[4] = {B, H, W, C};
    px_space where;
    PX_CHECK(px_default_space(&where));
    px_view *x = tensor("x", where, xe), *y = tensor("y", where, ye), *sums;
    PX_CHECK(px_view_create_2d(&sums, "sums", where, PX_F64, B, C));
    nd_args a;
    PX_CHECK(px_view_get_span(x, &a.x));
    PX_CHECK(px_view_get_span(y, &a.y));
    PX_CHECK(px_view_get_span(sums, &a.sums));
    const px_policy bchw = px_mdrange4(0, B, 0, C, 0, H, 0, W);
    PX_CHECK(px_parallel_for(inst, "fill", bchw, PX_KERNEL(fill), &a));
    PX_CHECK(px_parallel_for(inst, "permute", bchw, PX_KERNEL(permute), &a));
    PX_CHECK(
        px_parallel_for(inst, "plane_sums", px_mdrange2(0, B, 0, C), PX_KERNEL(plane_sums), &a));
    double got_total = 0.0, s[B][C];
    PX_CHECK(px_parallel_reduce(inst, "total", px_mdrange4(0, B, 0, H, 0, W, 0, C),
                                PX_KERNEL(total), &a, &got_total));
    PX_CHECK(px_deep_copy_to_host(s, sizeof s, sums));
    /* A plane's sum: H W (1000 b + 100 c) + W 10 H (H - 1) / 2 + H W (W - 1) / 2. */
    int wrong = 0;
    double want_total = 0.0;
    for (int b = 0; b < B; ++b)
        for (int c = 0; c < C; ++c) {
            const double want = H * W * (1000.0 * b + 100.0 * c) + W * 10.0 * H * (H - 1) / 2 +
                                H * W * (W - 1) / 2.0;
            wrong += s[b][c] != want;
            want_total += want;
        }
    printf(
        "tensor_nd: %d x %d x %d x %d permuted; %d plane sums wrong; total %.0f (expected %.0f)\n",
        B, C, H, W, wrong, got_total, want_total);
    PX_CHECK(px_view_release(&x));
    PX_CHECK(px_view_release(&y));
    PX_CHECK(px_view_release(&sums));
    return px_finalize() == PX_OK && wrong == 0 && got_total == want_total ? 0 : 1;
}
