/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The observers that are on (base/profiling.h). */
#include "base/profiling.h"

unsigned px__prof_mask;
