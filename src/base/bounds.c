/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The PX_AT* bounds violations of host kernels: thread-local, the first one kept. */
#include "base/bounds.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static _Thread_local bool hit;
static _Thread_local char message[PX__BOUNDS_MSG];

void px__bounds_violation(int dim, int64_t index, int64_t extent)
{
    if (hit) return; /* keep the first */
    hit = true;
    snprintf(message, sizeof message, "index %lld out of bounds [0, %lld) in dimension %d",
             (long long)index, (long long)extent, dim);
}

bool px__bounds_take(char *msg)
{
    if (!hit) return false;
    hit = false;
    memcpy(msg, message, sizeof message);
    return true;
}

void px__bounds_put(const char *msg)
{
    if (hit) return;
    hit = true;
    snprintf(message, sizeof message, "%s", msg);
}
