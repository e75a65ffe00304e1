/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Includes the kernel body LA_BODY (a file name) once per index type of libportex_linalg's
 * matrices, with LA_I and LA_IT (i32 int32_t, or i64 int64_t) defined around each. Included
 * directly, it defines LA_NAME(a), the name a_<index>, and undefines it and LA_BODY after;
 * included by for_each_pair.h, it uses that file's LA_NAME and leaves both to it. */

#ifndef LA_NAME
#define LA_EACH_INDEX_NAMES 1
#define LA_PASTE_(a, i) a##_##i
#define LA_PASTE(a, i) LA_PASTE_(a, i) /* LA_I expands first */
#define LA_NAME(a) LA_PASTE(a, LA_I)
#endif

#define LA_I i32
#define LA_IT int32_t
#include LA_BODY
#undef LA_I
#undef LA_IT
#define LA_I i64
#define LA_IT int64_t
#include LA_BODY
#undef LA_I
#undef LA_IT

#ifdef LA_EACH_INDEX_NAMES
#undef LA_EACH_INDEX_NAMES
#undef LA_NAME
#undef LA_PASTE
#undef LA_PASTE_
#undef LA_BODY
#endif
