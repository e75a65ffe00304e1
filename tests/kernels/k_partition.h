/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernels of the partition suite (k_partition.c): argument structs and declarations.
 * Valid C11 and CUDA C++, like kernels.h. */
#ifndef PX_TESTS_K_PARTITION_H
#define PX_TESTS_K_PARTITION_H

#include "portex/kernel.h"
#include "portex/view.h"

/* Every thread sets seen(s) = 1 for the SM s it runs on (%smid; 0 on the host), after
   busy-waiting spin_ns nanoseconds on the GPU (nothing on the host), so that the kernels
   of different partitions run at the same time. seen has one element per possible SM id;
   ids beyond it set overflow(0) = 1 instead. */
typedef struct smid_args {
    px_span_i32 seen;
    px_span_i32 overflow;
    int64_t spin_ns;
} smid_args;
PX_DECLARE_KERNEL(mark_smid);

#endif /* PX_TESTS_K_PARTITION_H */
