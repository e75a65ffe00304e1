/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The observers that are on (observability/profiling.h). */
#include "observability/profiling.h"

unsigned px__prof_mask;
