/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernel file: kernels of the partition suite (valid C11 and CUDA C++). */
#include "k_partition.h"

#include "gpu_spin.h"

/* The SM the calling thread runs on; 0 on the host. */
PX_FUNCTION int32_t tk_smid(void)
{
#ifdef __CUDA_ARCH__
    unsigned int id;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
    return (int32_t)id;
#else
    return 0;
#endif
}

PX_FOR(mark_smid, smid_args, args, i)
{
    (void)i;
    gpu_spin_ns(args->spin_ns);
    const int32_t id = tk_smid();
    if (id >= 0 && (int64_t)id < args->seen.extent[0])
        args->seen.data[id] = 1;
    else
        args->overflow.data[0] = 1;
}
