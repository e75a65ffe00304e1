/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The staging engine's one object (staging/state.h). */
#include "backends/cuda/staging/state.h"

#include "backends/services.h"

px__stg_state px__stg = {
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .work = PTHREAD_COND_INITIALIZER,
    .done = PTHREAD_COND_INITIALIZER,
    .setup = PTHREAD_MUTEX_INITIALIZER,
};

_Static_assert(sizeof px__stg.no_memops / sizeof px__stg.no_memops[0] == PX__MAX_DEVICES,
               "one flag per device");
