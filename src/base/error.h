/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: recording errors with the public function they belong to.
 *
 * Every message starts with the name of the public function the user called
 * ("px_deep_copy: extents differ: ..."): functions below the public entry points take
 * that name as a `func` argument and pass it on, so that no message names an internal
 * function. */
#ifndef PX_BASE_ERROR_H
#define PX_BASE_ERROR_H

#include "portex/core.h"

/* Records "func: message" as this thread's last error and returns status. */
px_status px__error(px_status status, const char *func, const char *fmt, ...) PX_PRINTF(3, 4);

/* In a public function: the message names that function. */
#define PX__FAIL(status, ...) px__error((status), __func__, __VA_ARGS__)

/* In a public function: PX_ERR_INVALID_ARGUMENT with a message unless cond holds. */
#define PX__ARG(cond, ...)                                                             \
    do {                                                                               \
        if (!(cond)) return px__error(PX_ERR_INVALID_ARGUMENT, __func__, __VA_ARGS__); \
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
