/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Status strings (generated from PX_STATUS_MAP), the thread-local last error and the public
 * call it names. */
#include "base/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Room for a function name, a sentence of context and a CUDA message. */
#define PX__ERROR_CAPACITY 1024

static _Thread_local char last_error[PX__ERROR_CAPACITY];

__thread const char *px__caller_name;

_Static_assert(sizeof(((px__saved_error *)0)->text) == PX__ERROR_CAPACITY,
               "a saved error holds a whole one");

const char *px_status_string(px_status status)
{
    switch (status) {
#define PX__STATUS_STRING(name, value, msg) \
    case PX_##name: return msg;
        PX_STATUS_MAP(PX__STATUS_STRING)
#undef PX__STATUS_STRING
    }
    return "unknown status";
}

const char *px_status_name(px_status status)
{
    switch (status) {
#define PX__STATUS_NAME(name, value, msg) \
    case PX_##name: return "PX_" #name;
        PX_STATUS_MAP(PX__STATUS_NAME)
#undef PX__STATUS_NAME
    }
    return "PX_UNKNOWN_STATUS";
}

const char *px_last_error(void) { return last_error; }

void px_clear_error(void) { last_error[0] = '\0'; }

px_status px__error(px_status status, const char *fmt, ...)
{
    int n = snprintf(last_error, sizeof last_error, "%s: ", px__caller());
    if (n < 0 || (size_t)n >= sizeof last_error) return status;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error + n, sizeof last_error - (size_t)n, fmt, ap);
    va_end(ap);
    return status;
}

px_status px_set_error(px_status status, const char *func, const char *fmt, ...)
{
    int n = snprintf(last_error, sizeof last_error, "%s: ", func ? func : "portex");
    if (n < 0 || (size_t)n >= sizeof last_error) return status;
    if (fmt == NULL) {
        snprintf(last_error + n, sizeof last_error - (size_t)n, "%s", px_status_string(status));
        return status;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error + n, sizeof last_error - (size_t)n, fmt, ap);
    va_end(ap);
    return status;
}

void px__error_save(px__saved_error *s) { memcpy(s->text, last_error, sizeof s->text); }

void px__error_restore(const px__saved_error *s) { memcpy(last_error, s->text, sizeof last_error); }
