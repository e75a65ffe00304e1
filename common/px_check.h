/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* CHECK(call): a portex call (a px_status) that must return PX_OK. Where it does not, the
 * program prints where it stopped, the call, the status and px_last_error() to stderr,
 * and exits with PX_CHECK_EXIT_STATUS: 1, unless the including file defines another value
 * before it (the benchmarks' 2, "could not run", apart from a wrong result).
 *
 * One macro for the programs of this tree that stop at their first failed call: the
 * examples (examples/example.h), the benchmarks (bench/bench_util.h), the documentation's
 * snippet harnesses (docs/snippets/snippet.h) and the test programs that are not Check
 * suites (tests/observability/nvtx/nvtx_program.c). Each includes this file by its path
 * relative to itself, so it needs no include directory. Check suites use TK_OK
 * (tests/support/common.h), which fails the test instead of ending the program.
 *
 * Three programs keep a macro of their own on purpose:
 *   - examples/quickstart.c: the README shows it whole, one file to copy and build alone;
 *   - tests/downstream/: projects of their own, built against an installed portex outside
 *     this tree, as a user's would be;
 *   - tests/mpi/test_mpi.c: its CHECK counts a failed condition on each rank and goes on,
 *     so that every rank reports: another meaning, under its own definition. */
#ifndef PX_CHECK_H
#define PX_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#include <portex.h>

#ifndef PX_CHECK_EXIT_STATUS
#define PX_CHECK_EXIT_STATUS 1
#endif

#define CHECK(call)                                                           \
    do {                                                                      \
        const px_status check_st_ = (call);                                   \
        if (check_st_ != PX_OK) {                                             \
            fprintf(stderr, "%s:%d: %s: %s: %s\n", __FILE__, __LINE__, #call, \
                    px_status_name(check_st_), px_last_error());              \
            exit(PX_CHECK_EXIT_STATUS);                                       \
        }                                                                     \
    } while (0)

#endif /* PX_CHECK_H */
