/* portex — export macro and the few compiler helpers every public header needs. */
#ifndef PORTEX_EXPORT_H
#define PORTEX_EXPORT_H

/* The library is built with hidden visibility; only PX_API symbols are exported.
 * A static build defines PX_STATIC_BUILD so nothing is decorated. */
#if defined(PX_BUILDING_LIBRARY) && !defined(PX_STATIC_BUILD) && (defined(__GNUC__) || defined(__clang__))
#  define PX_API __attribute__((visibility("default")))
#else
#  define PX_API
#endif

#ifdef __cplusplus
#  define PX_EXTERN_C_BEGIN extern "C" {
#  define PX_EXTERN_C_END   }
#  define PX_EXTERN_C       extern "C"
#  define PX_EXTERN_DECL    extern "C"   /* a declaration: extern "C" T x; defines nothing */
#  define PX_RESTRICT       __restrict__
#else
#  define PX_EXTERN_C_BEGIN
#  define PX_EXTERN_C_END
#  define PX_EXTERN_C
#  define PX_EXTERN_DECL    extern
#  define PX_RESTRICT       restrict
#endif

/* Functions that kernels call: host and device under nvcc, plain inline in C. */
#ifdef __CUDACC__
#  define PX_FUNCTION __host__ __device__ static inline
#else
#  define PX_FUNCTION static inline
#endif

#if defined(__GNUC__) || defined(__clang__)
#  define PX_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#  define PX_NODISCARD         __attribute__((warn_unused_result))
#else
#  define PX_PRINTF(fmt, args)
#  define PX_NODISCARD
#endif

#endif /* PORTEX_EXPORT_H */
