/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* compaction: the kernel's arguments and declaration, shared by the kernel file and main.
 * Included by C and (with CUDA on) by CUDA C++: keep it valid in both. */
#ifndef COMPACTION_KERNELS_H
#define COMPACTION_KERNELS_H

#include <portex.h>

typedef struct compact_args {
    double threshold;
    px_span_f64_1d in;  /* n values */
    px_span_f64_1d out; /* room for n values; the kept ones go first, in their order */
} compact_args;

/* Keeps in(i) > threshold: an exclusive scan of the 0/1 "keep" flags gives each kept
 * value its place in out; the scan's total is the number kept. */
PX_DECLARE_KERNEL(compact);

#endif
