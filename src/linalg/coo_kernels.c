/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernel file: COO to CSR (coo_kernels.h), written once per step (coo_body.h) and made for
 * each value and index type. Compiled as C, or as CUDA with the CUDA backend on
 * (docs/kernels.md). */
#include "coo_kernels.h"

PX_FOR(la_coo_heads, la_coo_heads_args, a, i)
{
    PX_AT1(a->head, i) =
        i == 0 || PX_AT1(a->key, PX_AT1(a->perm, i)) != PX_AT1(a->key, PX_AT1(a->perm, i - 1));
}

#define LA_I i32
#define LA_IT int32_t
#include "coo_index_body.h"

#define LA_I i64
#define LA_IT int64_t
#include "coo_index_body.h"

#define LA_V f32
#define LA_VT float
#define LA_I i32
#define LA_IT int32_t
#include "coo_sum_body.h"

#define LA_V f32
#define LA_VT float
#define LA_I i64
#define LA_IT int64_t
#include "coo_sum_body.h"

#define LA_V f64
#define LA_VT double
#define LA_I i32
#define LA_IT int32_t
#include "coo_sum_body.h"

#define LA_V f64
#define LA_VT double
#define LA_I i64
#define LA_IT int64_t
#include "coo_sum_body.h"
