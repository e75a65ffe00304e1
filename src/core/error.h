/* Internal: recording errors with context. */
#ifndef PX_CORE_ERROR_H
#define PX_CORE_ERROR_H

#include "portex/core.h"

/* Records "func: message" as this thread's last error and returns status. */
px_status px__error(px_status status, const char *func, const char *fmt, ...) PX_PRINTF(3, 4);

#define PX__FAIL(status, ...) px__error((status), __func__, __VA_ARGS__)

/* Return PX_ERR_INVALID_ARGUMENT with a message unless cond holds. */
#define PX__ARG(cond, ...)                                                                 \
    do {                                                                                   \
        if (!(cond)) return px__error(PX_ERR_INVALID_ARGUMENT, __func__, __VA_ARGS__);    \
    } while (0)

#define PX__TRY(expr)                                                                      \
    do {                                                                                   \
        px_status px__st_ = (expr);                                                        \
        if (px__st_ != PX_OK) return px__st_;                                              \
    } while (0)

#endif /* PX_CORE_ERROR_H */
