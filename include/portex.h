/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/** @file
 * portex — performance-portable parallel C. The one header most users need.
 * CUDA interop (streams in and out) is in the opt-in portex/cuda.h, DLPack interop
 * (tensors of other libraries) in the opt-in portex/dlpack.h. */
#ifndef PORTEX_H
#define PORTEX_H

#include "portex/export.h"
#include "portex/core.h"
#include "portex/space.h"
#include "portex/view.h"
#include "portex/subspan.h"
#include "portex/instance.h"
#include "portex/policy.h"
#include "portex/kernel.h"
#include "portex/parallel.h"
#include "portex/team.h"
#include "portex/random.h"
#include "portex/copy.h"
#include "portex/dual_view.h"
#include "portex/prefix_sum.h"
#include "portex/sort.h"
#include "portex/scatter.h"
#include "portex/graph.h"
#include "portex/tools.h"

#endif /* PORTEX_H */
