/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: the serial backend, the reference every other backend is tested against. */
#ifndef PX_BACKENDS_SERIAL_BACKEND_H
#define PX_BACKENDS_SERIAL_BACKEND_H

#include "backends/backend.h"

extern const px__backend px__backend_serial;

#endif /* PX_BACKENDS_SERIAL_BACKEND_H */
