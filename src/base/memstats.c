/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Memory accounting per space and device; see memstats.h. */
#include "base/memstats.h"

#include <pthread.h>

#include "base/limits.h"

static pthread_mutex_t stats_lock = PTHREAD_MUTEX_INITIALIZER;
static px_memory_stats stats[PX_SPACE_KIND_COUNT][PX__MAX_DEVICES];

void px__memory_account(px_space space, size_t bytes, bool add)
{
    pthread_mutex_lock(&stats_lock);
    px_memory_stats *s = &stats[space.kind][space.device];
    if (add) {
        s->bytes_in_use += bytes;
        s->allocations++;
        if (s->bytes_in_use > s->high_water) s->high_water = s->bytes_in_use;
    } else {
        s->bytes_in_use -= bytes;
    }
    pthread_mutex_unlock(&stats_lock);
}

void px__memory_account_library(px_space space, size_t bytes, bool add)
{
    pthread_mutex_lock(&stats_lock);
    px_memory_stats *s = &stats[space.kind][space.device];
    if (add)
        s->library_bytes += bytes;
    else
        s->library_bytes -= bytes;
    pthread_mutex_unlock(&stats_lock);
}

px_memory_stats px__memory_stats(px_space space)
{
    pthread_mutex_lock(&stats_lock);
    const px_memory_stats s = stats[space.kind][space.device];
    pthread_mutex_unlock(&stats_lock);
    return s;
}
