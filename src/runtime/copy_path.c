/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* How often each copy path was taken. */
#include "runtime/copy_path.h"

#include <stdatomic.h>

#include "base/error.h"

static atomic_uint_fast64_t path_counts[PX_COPY_PATH_COUNT];

void px__copy_count(px_copy_path path)
{
    atomic_fetch_add_explicit(&path_counts[path], 1, memory_order_relaxed);
}

void px__copy_counts_reset(void)
{
    for (int p = 0; p < PX_COPY_PATH_COUNT; ++p) atomic_store(&path_counts[p], 0);
}

px_status px_copy_path_counts(uint64_t counts[PX_COPY_PATH_COUNT])
{
    PX__ENTER;
    PX__ARG(counts, "counts must not be NULL");
    for (int p = 0; p < PX_COPY_PATH_COUNT; ++p)
        counts[p] = (uint64_t)atomic_load_explicit(&path_counts[p], memory_order_relaxed);
    return PX_OK;
}
