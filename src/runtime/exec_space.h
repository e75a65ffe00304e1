/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: the default execution space, chosen by px_init. */
#ifndef PX_RUNTIME_EXEC_SPACE_H
#define PX_RUNTIME_EXEC_SPACE_H

#include <stdbool.h>

#include "portex.h"

/* first (the first px_init): the default execution space is opts->default_exec, else the
   environment's PX_DEFAULT_EXEC; a name that is unknown or whose space is not available
   here is an error. Without a name, the first px_default_* call chooses what is here (CUDA
   with a device, OpenMP compiled in, serial), so that px_init asks CUDA nothing unless CUDA
   is named (then its device count only). The default device is opts->device when
   opts->use_device, else the environment's PX_DEVICE, else 0; one asked for is checked
   against the default execution space's devices here (choosing that space now when it was
   not named). Later px_init calls: an opts->default_exec other than the space in effect,
   or an opts->device (use_device) other than the device in effect, is an error. */
px_status px__default_exec_init(const px_init_options *opts, bool first);

#endif /* PX_RUNTIME_EXEC_SPACE_H */
