/* What the examples share: stopping on an error, picking the backend, random numbers.
 * Plain C, used by the examples' main files only (never by kernel files). */
#ifndef PORTEX_EXAMPLE_H
#define PORTEX_EXAMPLE_H

#include <portex.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* Every portex call returns a px_status; px_last_error() says what went wrong. */
#define CHECK(call)                                                                        \
    do {                                                                                   \
        px_status check_st_ = (call);                                                      \
        if (check_st_ != PX_OK) {                                                          \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, px_status_name(check_st_), \
                    px_last_error());                                                      \
            exit(1);                                                                       \
        }                                                                                  \
    } while (0)

/* Where an example runs: a GPU when CUDA is compiled in and a device is there, else the
 * serial backend. Data lives where the execution space can reach it fastest. */
typedef struct example_backend {
    px_exec_space exec;
    px_space space;      /* DEVICE(0) on CUDA, HOST on serial */
    px_instance *inst;   /* the execution space's default instance */
} example_backend;

static inline example_backend example_backend_pick(const char *example)
{
    example_backend b;
    if (px_exec_space_available(PX_EXEC_CUDA) == PX_OK) {
        b.exec = PX_EXEC_CUDA;
        b.space = px_device(0);
    } else {
        b.exec = PX_EXEC_SERIAL;
        b.space = px_host();
    }
    px_clear_error(); /* "CUDA not available" is not an error here */
    CHECK(px_instance_default(b.exec, 0, &b.inst));
    printf("%s: %s backend, data in %s%s\n", example, px_exec_space_string(b.exec),
           px_space_kind_string(b.space.kind), b.exec == PX_EXEC_CUDA ? "(0)" : "");
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
