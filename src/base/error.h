/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: recording errors with the public function they belong to.
 *
 * Every message starts with the name of the public function the user called
 * ("px_deep_copy: extents differ: ..."), whatever depth the failure happened at. The name
 * is recorded once, when the call enters the library, and nothing below the entry points
 * carries it:
 *
 *   PX__ENTER;              the first statement of every public function: this thread's
 *                           caller becomes __func__, unless a public call is in progress on
 *                           it already (the library's own nested public calls keep the
 *                           outer name), and is put back on every way out of the function
 *   PX__ENTER_AS(name)      the same with another name: a public function named otherwise
 *                           in messages, a worker thread doing a public call's work (name
 *                           from px__caller() when the work was queued), an entry from
 *                           foreign code (a DLPack deleter, a tool's fence)
 *   px__error(st, fmt, ...) records "caller: message", "portex: message" outside any call
 *
 * The way out is a cleanup attribute (GCC, Clang; nvcc hands host code to GCC) on a local
 * that holds the previous caller: every return, PX__TRY and PX__ARG restores it without a
 * line of its own, and a function cannot forget to. Cost: one thread-local address, one
 * read and a write when nothing was recorded at entry; one write at exit. Nothing is
 * formatted until an error happens. */
#ifndef PX_BASE_ERROR_H
#define PX_BASE_ERROR_H

#include "portex/core.h"

/* The public call in progress on this thread (NULL: none). The default TLS model: the
   library may be loaded with dlopen (Python through ctypes), where an initial-exec variable
   would need the module's whole thread-local block (the last error's 1 KiB with it) in the
   C library's small static reserve, and the load fails. __thread rather than
   _Thread_local: the CUDA files include this header as C++, where an extern thread_local
   is reached through a wrapper function. */
extern __thread const char *px__caller_name;

/* What PX__ENTER keeps: the slot's address, computed once (a call to __tls_get_addr in a
   shared library; the empty asm keeps the compiler from computing it again at exit), and
   the name to put back. */
typedef struct px__entry {
    const char **slot;
    const char *outer;
} px__entry;

static inline px__entry px__enter(const char *name)
{
    px__entry e = {&px__caller_name, NULL};
    __asm__("" : "+r"(e.slot));
    e.outer = *e.slot;
    if (e.outer == NULL) *e.slot = name;
    return e;
}

static inline void px__leave(const px__entry *e) { *e->slot = e->outer; }

#define PX__ENTER_AS(name) \
    const px__entry px__entry_ __attribute__((cleanup(px__leave), unused)) = px__enter(name)
#define PX__ENTER PX__ENTER_AS(__func__)

/* The name messages carry now ("portex" outside any public call): for a message that
   names it in its text, and for work handed to another thread (PX__ENTER_AS there). */
static inline const char *px__caller(void)
{
    return px__caller_name != NULL ? px__caller_name : "portex";
}

/* Around a call into the user's code that may call portex itself (px_graph_add_captured's
   callback, a DLPack deleter): the public calls it makes are outermost and name
   themselves. */
static inline const char *px__caller_suspend(void)
{
    const char *was = px__caller_name;
    px__caller_name = NULL;
    return was;
}

static inline void px__caller_resume(const char *was) { px__caller_name = was; }

/* Records "caller: message" as this thread's last error and returns status. */
px_status px__error(px_status status, const char *fmt, ...) PX_PRINTF(2, 3);

/* The public functions' own refusals: status with a message, and PX_ERR_INVALID_ARGUMENT
   with a message unless cond holds. */
#define PX__FAIL(status, ...) px__error((status), __VA_ARGS__)
#define PX__ARG(cond, ...)                                                   \
    do {                                                                     \
        if (!(cond)) return px__error(PX_ERR_INVALID_ARGUMENT, __VA_ARGS__); \
    } while (0)

#define PX__TRY(expr)                         \
    do {                                      \
        px_status px__st_ = (expr);           \
        if (px__st_ != PX_OK) return px__st_; \
    } while (0)

/* The current message, copied, so that cleanup that records errors of its own cannot
   replace the one the caller must see. */
typedef struct px__saved_error {
    char text[1024];
} px__saved_error;
void px__error_save(px__saved_error *s);
void px__error_restore(const px__saved_error *s);

#endif /* PX_BASE_ERROR_H */
