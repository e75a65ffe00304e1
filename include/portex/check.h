/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/** @file
 * portex — PX_CHECK, for programs: examples, tests, small tools. Opt-in (portex.h does not
 * include it, so the library's headers pull in no stdio):
 *
 * @code
 *   PX_CHECK(px_init(NULL));   // on failure: "file.c:12: px_init: <why>" on stderr, exit 1
 * @endcode
 *
 * A call that fails prints px_last_error(), which names the call and says why, after the
 * file and line, and exits with EXIT_FAILURE. Code that others call (a library built on
 * portex) returns the status instead: portex itself never prints or exits. */
#ifndef PORTEX_CHECK_H
#define PORTEX_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#include "portex/core.h"

/** Evaluates `call` (a px_status) once; anything but PX_OK prints and exits. */
#define PX_CHECK(call)                                                           \
    do {                                                                         \
        const px_status px_check_status_ = (call);                               \
        if (px_check_status_ != PX_OK) {                                         \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, px_last_error()); \
            exit(EXIT_FAILURE);                                                  \
        }                                                                        \
    } while (0)

#endif /* PORTEX_CHECK_H */
