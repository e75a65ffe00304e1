/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernel file: COO to CSR (coo_kernels.h), each step written once (coo_index_body.h,
 * coo_sum_body.h) and made for each type it depends on. Compiled as C, or as CUDA with the CUDA backend on
 * (docs/kernels.md). */
#include "coo_kernels.h"

PX_FOR(la_coo_heads, la_coo_heads_args, a, i)
{
    PX_AT1(a->head, i) =
        i == 0 || PX_AT1(a->key, PX_AT1(a->perm, i)) != PX_AT1(a->key, PX_AT1(a->perm, i - 1));
}

#define LA_BODY "coo_index_body.h"
#include "for_each_index.h"

#define LA_BODY "coo_sum_body.h"
#include "for_each_pair.h"
