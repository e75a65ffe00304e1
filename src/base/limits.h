/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: fixed bounds of the library's tables. */
#ifndef PX_BASE_LIMITS_H
#define PX_BASE_LIMITS_H

/* Devices per execution space (the GPUs of one node). */
#define PX__MAX_DEVICES 64

#endif /* PX_BASE_LIMITS_H */
