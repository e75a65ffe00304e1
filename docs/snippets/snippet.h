/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* What the harnesses of docs/snippets share. A harness is a program that gives a fragment
 * of the documentation its context (check_snippets.py splices the fragment in): it makes
 * what the fragment uses, runs it, and checks what it did.
 *
 * A fragment calls portex as prose shows it, without checking statuses. Every call that
 * fails sets this thread's px_last_error, so SNIPPET_BEGIN clears it and SNIPPET_END fails
 * the run if it is set: no failing call goes unseen.
 *
 * snippet_host_copy and snippet_f64 read what a fragment computed, in any space. */
#ifndef SNIPPET_H
#define SNIPPET_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <portex.h>

/* The harness's own calls: CHECK(call) ends the run at a failure, with portex's message. */
#include "../../common/px_check.h"

/* What the fragment must have done. */
#define EXPECT(cond)                                                           \
    do {                                                                       \
        if (!(cond)) {                                                         \
            fprintf(stderr, "%s:%d: not so: %s\n", __FILE__, __LINE__, #cond); \
            exit(1);                                                           \
        }                                                                      \
    } while (0)

/* A view's elements where the host reads them: a host mirror of v holding a copy (v
 * itself, with one more reference, where v is host memory already). Release it. */
static inline px_view *snippet_host_copy(px_view *v)
{
    px_view *h;
    CHECK(px_view_create_mirror_view(&h, px_host(), v));
    CHECK(px_deep_copy(h, v, NULL));
    return h;
}

/* Element i of a 1-D F64 view of any space, read through a host mirror. */
static inline double snippet_f64(px_view *v, int64_t i)
{
    px_view *h = snippet_host_copy(v);
    px_span_f64_1d s;
    CHECK(px_view_get_span(h, &s));
    const double x = PX_AT1(s, i);
    CHECK(px_view_release(&h));
    return x;
}

#define SNIPPET_BEGIN() px_clear_error()
#define SNIPPET_END()                                                                        \
    do {                                                                                     \
        if (px_last_error()[0] != '\0') {                                                    \
            fprintf(stderr, "%s:%d: a call of the snippet failed: %s\n", __FILE__, __LINE__, \
                    px_last_error());                                                        \
            exit(1);                                                                         \
        }                                                                                    \
    } while (0)

/* Skips the run (exit 77) unless the default execution space is `exec`: for a snippet
 * about one backend. */
#define SNIPPET_REQUIRE_EXEC(exec)                                           \
    do {                                                                     \
        px_exec_space have_;                                                 \
        CHECK(px_default_exec_space(&have_));                                \
        if (have_ != (exec)) {                                               \
            printf("needs %s as the default execution space, not %s\n",      \
                   px_exec_space_string(exec), px_exec_space_string(have_)); \
            exit(77);                                                        \
        }                                                                    \
    } while (0)

#endif /* SNIPPET_H */
