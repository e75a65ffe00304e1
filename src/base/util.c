/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Small helpers shared by every layer; see util.h. */
#include "base/util.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

static atomic_uint_fast64_t fault_at;    /* 0: disarmed; else the countdown */
static atomic_uint_fast64_t fault_count; /* allocations seen since the last arming */

bool px__fault_hit(void)
{
    if (atomic_load_explicit(&fault_at, memory_order_relaxed) == 0) return false;
    atomic_fetch_add_explicit(&fault_count, 1, memory_order_relaxed);
    /* Exactly one caller sees the countdown go from 1 to 0. */
    uint_fast64_t left = atomic_load_explicit(&fault_at, memory_order_relaxed);
    while (left != 0 && !atomic_compare_exchange_weak(&fault_at, &left, left - 1)) {}
    return left == 1;
}

uint64_t px__fault_inject(uint64_t n)
{
    const uint64_t seen = atomic_exchange(&fault_count, 0);
    atomic_store(&fault_at, n);
    return seen;
}

void *px__malloc(size_t bytes) { return px__fault_hit() ? NULL : malloc(bytes); }

void *px__calloc(size_t count, size_t size) { return px__fault_hit() ? NULL : calloc(count, size); }

void *px__realloc(void *p, size_t bytes) { return px__fault_hit() ? NULL : realloc(p, bytes); }

void *px__grow(void *items, int n, int *cap, int first, size_t elem)
{
    if (n < *cap) return items;
    const int more = *cap ? 2 * *cap : first;
    void *grown = px__realloc(items, (size_t)more * elem);
    if (grown != NULL) *cap = more;
    return grown;
}

void *px__aligned_alloc(size_t alignment, size_t bytes)
{
    const size_t rounded = (bytes + alignment - 1) & ~(alignment - 1);
    if (rounded < bytes || px__fault_hit()) return NULL;
    return aligned_alloc(alignment, rounded ? rounded : alignment);
}

char *px__strdup(const char *s)
{
    if (!s) s = "";
    const size_t n = strlen(s) + 1;
    char *d = px__malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

void *px__calloc_labelled(size_t size, const char *label, char **label_copy)
{
    void *block = px__calloc(1, size);
    char *copy = block ? px__strdup(label) : NULL;
    if (!copy) {
        free(block);
        block = NULL;
    }
    *label_copy = copy;
    return block;
}

char *px__concat(const char *a, const char *b)
{
    const size_t na = strlen(a), nb = strlen(b);
    char *d = px__malloc(na + nb + 1);
    if (!d) return NULL;
    memcpy(d, a, na);
    memcpy(d + na, b, nb + 1);
    return d;
}
