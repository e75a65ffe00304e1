/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/** @file
 * portex — export macro and the few compiler helpers every public header needs. */
#ifndef PORTEX_EXPORT_H
#define PORTEX_EXPORT_H

/** @def PX_API
 * The library is built with hidden visibility; only PX_API symbols are exported.
 * A static build defines PX_STATIC_BUILD so nothing is decorated. */
#if defined(PX_BUILDING_LIBRARY) && !defined(PX_STATIC_BUILD) && \
    (defined(__GNUC__) || defined(__clang__))
#define PX_API __attribute__((visibility("default")))
#else
#define PX_API
#endif

/** @def PX_EXTERN_C_BEGIN
 * Opens a block of C-linkage declarations in C++ (`extern "C" {`); nothing in C. */
/** @def PX_EXTERN_C_END
 * Closes a PX_EXTERN_C_BEGIN block. */
/** @def PX_EXTERN_C
 * C linkage for one definition in C++ (a kernel's descriptor); nothing in C. */
/** @def PX_EXTERN_DECL
 * A declaration with C linkage: `extern "C"` in C++, `extern` in C; defines nothing. */
/** @def PX_RESTRICT
 * `restrict` in C, `__restrict__` in C++ (kernel files compiled as CUDA are C++). */
#ifdef __cplusplus
#define PX_EXTERN_C_BEGIN extern "C" {
#define PX_EXTERN_C_END }
#define PX_EXTERN_C extern "C"
#define PX_EXTERN_DECL extern "C" /* a declaration: extern "C" T x; defines nothing */
#define PX_RESTRICT __restrict__
#else
#define PX_EXTERN_C_BEGIN
#define PX_EXTERN_C_END
#define PX_EXTERN_C
#define PX_EXTERN_DECL extern
#define PX_RESTRICT restrict
#endif

/** @def PX_FUNCTION
 * Functions that kernels call: host and device under nvcc, plain inline in C. */
#ifdef __CUDACC__
#define PX_FUNCTION __host__ __device__ static inline
#else
#define PX_FUNCTION static inline
#endif

/** @def PX_PRINTF(fmt, args)
 * Marks a printf-like function (format string at parameter `fmt`, arguments from `args`)
 * so that GCC and Clang check its calls. */
/** @def PX_NODISCARD
 * Makes GCC and Clang warn when the function's result is ignored. */
#if defined(__GNUC__) || defined(__clang__)
#define PX_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#define PX_NODISCARD __attribute__((warn_unused_result))
#else
#define PX_PRINTF(fmt, args)
#define PX_NODISCARD
#endif

#endif /* PORTEX_EXPORT_H */
