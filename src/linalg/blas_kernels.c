/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The BLAS-1 and GEMV kernels (blas_kernels.h): a kernel file, compiled as C, or as CUDA
 * from a .cu copy, so it is written in the common subset of C11 and C++17
 * (docs/kernels.md). Each element type's kernels and dispatching calls come from one body,
 * blas_kernels_typed.h, included once for float and once for double. */
#include "blas_kernels.h"

#include <string.h>

#include "portex/kernel.h"
#include "portex/parallel.h"
#include "portex/team.h"

/* Names of the typed body: LA_NAME(la_dot) is la_dot_f64 for LA_S f64; LA_SPAN(_1d) is
   px_span_f64_1d. PX_KERNEL and PX_JOIN paste their arguments, so LA_KERNEL and LA_JOIN
   expand a pasted name before handing it on. */
#define LA_CAT_(a, b) a##_##b
#define LA_CAT(a, b) LA_CAT_(a, b)
#define LA_CAT3_(a, b, c) a##b##c
#define LA_CAT3(a, b, c) LA_CAT3_(a, b, c)
#define LA_NAME(base) LA_CAT(base, LA_S)
#define LA_SPAN(form) LA_CAT3(px_span_, LA_S, form)
#define LA_KERNEL_(name) PX_KERNEL(name)
#define LA_KERNEL(base) LA_KERNEL_(LA_NAME(base))
#define LA_JOIN(op, T, d, s) PX_JOIN(op, T, d, s)
#define LA_IDENTITY(op, T, v) PX_IDENTITY(op, T, v)

/* The Euclidean norm from the three sums of squares of Blue's algorithm (LAPACK 3.10's
   dnrm2), for either element type: `sml` holds the squares of the small values times
   ssml^2, `big` those of the big ones times sbig^2, `med` the others' unscaled. Where big
   values exist, small ones cannot change the result (they were kept apart only so that they
   do not underflow) and the medium ones are scaled down to join them; small and medium
   values together are combined from their square roots, so that neither overflows nor
   underflows. A NaN anywhere (it lands in `med`) gives NaN. */
PX_FUNCTION double la_blue_norm(double sml, double med, double big, double ssml, double sbig)
{
    const bool have_med = med > 0 || med != med;
    if (big > 0) {
        if (have_med) big += (med * sbig) * sbig;
        return sqrt(big) / sbig;
    }
    if (sml > 0) {
        if (!have_med) return sqrt(sml) / ssml;
        const double m = sqrt(med), s = sqrt(sml) / ssml;
        const double hi = m > s ? m : s, lo = m > s ? s : m;
        return hi * sqrt(1 + (lo / hi) * (lo / hi));
    }
    return sqrt(med);
}

/* nrm2 into a view: the values a team sums (128 per thread and lane), and its threads of
   PX_TEAM_MAX_VECTOR lanes on a GPU. */
#define LA_NRM2_CHUNK 32768
#define LA_NRM2_TEAM_THREADS 8

/* GEMV with contiguous rows on a GPU: short rows get lanes for about LA_GEMV_LANE_ELEMENTS
   elements each (at most 32) and a team of LA_GEMV_TEAM_THREADS threads times lanes, a row
   per thread; rows of LA_GEMV_LONG_ROW elements or more a team each, of
   LA_GEMV_LONG_ROW_THREADS, or PX_TEAM_MAX_THREADS where fewer than LA_GEMV_FEW_TEAMS rows
   would leave most of the GPU idle. */
#define LA_GEMV_LANE_ELEMENTS 4
#define LA_GEMV_TEAM_THREADS 128
#define LA_GEMV_LONG_ROW 1024
#define LA_GEMV_LONG_ROW_THREADS 256
#define LA_GEMV_FEW_TEAMS 128
/* GEMV with contiguous columns on a GPU: the columns a team thread takes, about. */
#define LA_GEMV_THREAD_COLUMNS 8

/* GEMV on the host with contiguous columns: an index takes a multiple of this many rows
   (512 bytes of a column in f64). */
#define LA_GEMV_HOST_ROWS 64

/* Fills the 2-D span `s` (of any form) with op(A) (la_op_matrix): the view's own strides,
   of which the span's form leaves the unit one unread. */
#define LA_SET_OP_SPAN(s, A)             \
    do {                                 \
        (s).data = (LA_T *)(A)->data;    \
        (s).extent[0] = (A)->rows;       \
        (s).extent[1] = (A)->cols;       \
        (s).stride[0] = (A)->row_stride; \
        (s).stride[1] = (A)->col_stride; \
        (s).rank = 2;                    \
    } while (0)

/* The lanes for n consecutive elements (a row's, or the rows a team takes): n rounded up to
   a power of two, at most a warp (PX_TEAM_MAX_VECTOR), so that few elements leave no lane
   idle. */
static int32_t la_gemv_lanes(int64_t n)
{
    int32_t lanes = 1;
    while (lanes < PX_TEAM_MAX_VECTOR && lanes < n) lanes *= 2;
    return lanes;
}

/* Blue's thresholds and scales, from LAPACK 3.10's formulas for radix 2 (Fortran's
   minexponent, maxexponent and digits: -125, 128, 24 for float; -1021, 1024, 53 for
   double): values below tsml = 2^ceil((minexp - 1) / 2) are small and scaled up by
   ssml = 2^-floor((minexp - digits) / 2), values above tbig = 2^floor((maxexp - digits + 1)
   / 2) big and scaled down by sbig = 2^-ceil((maxexp + digits - 1) / 2): every square and
   every sum of squares then stays within range. */
#define LA_S f32
#define LA_T float
#define LA_BLUE_TSML 0x1p-63
#define LA_BLUE_TBIG 0x1p52
#define LA_BLUE_SSML 0x1p75
#define LA_BLUE_SBIG 0x1p-76
#include "blas_kernels_typed.h"

#define LA_S f64
#define LA_T double
#define LA_BLUE_TSML 0x1p-511
#define LA_BLUE_TBIG 0x1p486
#define LA_BLUE_SSML 0x1p537
#define LA_BLUE_SBIG 0x1p-538
#include "blas_kernels_typed.h"
