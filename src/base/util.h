/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: small helpers every layer uses: checked arithmetic, strings, and the host
 * allocations of the library itself.
 *
 * Every allocation portex makes for its own bookkeeping goes through px__malloc and
 * friends, so that a test can make the n-th of them fail (px__fault_inject) and check that
 * each failure is reported and leaks nothing. Disarmed, the check is one relaxed atomic
 * load. */
#ifndef PX_BASE_UTIL_H
#define PX_BASE_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* a * b into *out unless it overflows size_t. */
static inline bool px__mul_overflows(size_t a, size_t b, size_t *out)
{
    if (a != 0 && b > SIZE_MAX / a) return true;
    *out = a * b;
    return false;
}

/* a + b into *out unless it overflows size_t. */
static inline bool px__add_overflows(size_t a, size_t b, size_t *out)
{
    if (b > SIZE_MAX - a) return true;
    *out = a + b;
    return false;
}

void *px__malloc(size_t bytes);
void *px__calloc(size_t count, size_t size);
void *px__realloc(void *p, size_t bytes);
/* aligned_alloc with any size (rounded up to the alignment, a power of two). */
void *px__aligned_alloc(size_t alignment, size_t bytes);

/* An array of `elem`-byte items with room for item n (n items used, *cap allocated),
   doubling from `first`: the array, moved or not, with *cap updated; NULL when memory
   runs out (items and *cap unchanged). */
void *px__grow(void *items, int n, int *cap, int first, size_t elem);

/* A copy of s ("" for NULL); NULL when memory runs out. */
char *px__strdup(const char *s);
/* A handle's zeroed block of `size` bytes with *label_copy a copy of label, both or
   neither: NULL when memory runs out. */
void *px__calloc_labelled(size_t size, const char *label, char **label_copy);
/* a followed by b in a new string; NULL when memory runs out. */
char *px__concat(const char *a, const char *b);

/* Tests: make the n-th library allocation from now on fail (n >= 1), or none (n = 0);
   returns how many allocations were made since the last call. Also a fault point for
   the backends' own allocations (pinned memory, streams), which call px__fault_hit. */
uint64_t px__fault_inject(uint64_t n);
/* True when the armed fault point is reached now (counts one allocation). */
bool px__fault_hit(void);

#endif /* PX_BASE_UTIL_H */
