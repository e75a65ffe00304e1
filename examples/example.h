/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* What the examples share: stopping on an error, the default backend, random numbers.
 * Plain C, used by the examples' main files only (never by kernel files). */
#ifndef PORTEX_EXAMPLE_H
#define PORTEX_EXAMPLE_H

#include <portex.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* CHECK(call): every portex call returns a px_status; the example stops, saying where and
   what px_last_error() says, at the first that fails. */
#include "../common/px_check.h"


/* Where an example runs: portex's default execution space, chosen by px_init (a GPU when
 * CUDA is compiled in and a device is there, else OpenMP when it is compiled in, else
 * threads, else serial; PX_DEFAULT_EXEC=serial, openmp, threads or cuda names one,
 * PX_DEVICE=n a GPU other than the first), the memory space that goes with it and its
 * default instance. */
typedef struct example_backend {
    px_exec_space exec;
    px_space space;    /* DEVICE(n) on CUDA (n: 0, or PX_DEVICE), HOST otherwise */
    px_instance *inst; /* the execution space's default instance */
} example_backend;

static inline example_backend example_default(const char *example)
{
    example_backend b;
    CHECK(px_default_exec_space(&b.exec));
    CHECK(px_default_space(&b.space));
    CHECK(px_default_instance(&b.inst));
    if (b.space.kind == PX_SPACE_DEVICE)
        printf("%s: %s backend, data in DEVICE(%d)\n", example, px_exec_space_string(b.exec),
               b.space.device);
    else
        printf("%s: %s backend, data in %s\n", example, px_exec_space_string(b.exec),
               px_space_kind_string(b.space.kind));
    return b;
}

/* A reproducible random double in (0, 1] (splitmix64): never zero. */
static inline double example_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    z ^= z >> 31;
    return (double)((z >> 11) + 1) * 0x1.0p-53;
}

#endif /* PORTEX_EXAMPLE_H */
