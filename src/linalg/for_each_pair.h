/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Includes the kernel body LA_BODY (a file name) once per value and index type pair of
 * libportex_linalg's matrices: f32 and f64 values with i32 and i64 indices. Around each,
 * LA_V and LA_VT (f32 float, or f64 double), LA_I and LA_IT (i32 int32_t, or i64 int64_t)
 * and LA_NAME(a), the name a_<value>_<index>, are defined; the body defines its kernels
 * with them. No include guard: a kernel file includes it once per body. */

#define LA_PASTE_(a, v, i) a##_##v##_##i
#define LA_PASTE(a, v, i) LA_PASTE_(a, v, i) /* LA_V and LA_I expand first */
#define LA_NAME(a) LA_PASTE(a, LA_V, LA_I)

#define LA_V f32
#define LA_VT float
#include "for_each_index.h"
#undef LA_V
#undef LA_VT
#define LA_V f64
#define LA_VT double
#include "for_each_index.h"
#undef LA_V
#undef LA_VT

#undef LA_NAME
#undef LA_PASTE
#undef LA_PASTE_
#undef LA_BODY
