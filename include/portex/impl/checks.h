/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* portex — the compile-time checks of kernels (not API): a kernel's kind as dispatch's
 * check sees it (PX_KERNEL, PX_DECLARE_KERNEL_*, the dispatch macros of portex/parallel.h
 * and portex/team.h), and a join that does not exist, refused by name. Whatever the
 * family of device code: portex/kernel.h includes it. */
#ifndef PORTEX_IMPL_CHECKS_H
#define PORTEX_IMPL_CHECKS_H

#include <stddef.h>

#include "portex/view.h" /* PX__UNIQUE */

#ifdef __cplusplus
#define PX__STATIC_ASSERT(c, m) static_assert(c, m)
#else
#define PX__STATIC_ASSERT(c, m) _Static_assert(c, m)
#endif

/* A kernel's kind as compile-time checks know it. Each kernel `name` has a marker,
   px__kernel_kind_<name>: an array of char that is only ever declared, never defined nor
   read. PX_DECLARE_KERNEL declares it without a bound (kind unknown); the kernel macros and
   PX_DECLARE_KERNEL_<KIND> declare it with 1 + the kind as its bound. A bound may be added
   to an array declared without one, in C and C++, so the two kinds of declaration live
   together in one file, and the marker's type says the kind wherever one with a bound is
   in sight. PX_KERNEL's expression is an array of as many descriptors as the marker's
   bound (1 when unknown), which decays to the descriptor's address; its sizeof says the
   kind to dispatch's check. */
#define PX__KIND_FOR 1
#define PX__KIND_REDUCE 2
#define PX__KIND_SCAN 3
#define PX__KIND_TEAM_FOR 4
#define PX__KIND_TEAM_REDUCE 5
#define PX__KIND_WORDS_FOR "a for kernel (PX_FOR*)"
#define PX__KIND_WORDS_REDUCE "a reduce kernel (PX_REDUCE*)"
#define PX__KIND_WORDS_SCAN "a scan kernel (PX_SCAN)"
#define PX__KIND_WORDS_TEAM_FOR "a team kernel (PX_TEAM_FOR)"
#define PX__KIND_WORDS_TEAM_REDUCE "a team reduce kernel (PX_TEAM_REDUCE)"

#define PX__DECLARE_KERNEL_OF_KIND(name, k)                    \
    PX_EXTERN_DECL const char px__kernel_kind_##name[1 + (k)]; \
    PX_EXTERN_DECL const px_kernel px_kernel_##name

/* The bound of a marker: 1 + its kind, or 1 when it has none. */
#ifdef __cplusplus
/* (Overloads read through sizeof, not a class template on decltype(m): nvcc's front end
   writes the host code out again for the host compiler, and there it spelled decltype of
   one unbounded marker as decltype of another, the first of that type, whose bound had
   come since.) */
template <size_t N> char (&px__mark_size(const char (&)[N]))[N];
char (&px__mark_size(...))[1];
#define PX__MARK_SIZE(m) sizeof(px__mark_size(m))
#else
/* A marker without a bound is compatible with every bound: with 7, which no kind has. */
#define PX__MARK_SIZE(m) \
    sizeof(*_Generic(&(m), const char(*)[7] : (const char(*)[1])0, default : &(m)))
#endif

/* The marker of a kernel being defined, after checking it against a declaration of
   another kind. The declaration without a bound first: the check needs a marker to read
   when nothing declared the kernel before (GCC's -Wredundant-decls counts both as
   redundant: silenced here, and nowhere else). */
#if defined(__GNUC__) && !defined(__CUDACC__)
#define PX__REDECL_BEGIN \
    _Pragma("GCC diagnostic push") _Pragma("GCC diagnostic ignored \"-Wredundant-decls\"")
#define PX__REDECL_END _Pragma("GCC diagnostic pop")
#else
#define PX__REDECL_BEGIN
#define PX__REDECL_END
#endif
#define PX__DEFINE_KIND(name, KIND)                                                     \
    PX__REDECL_BEGIN                                                                    \
    PX_EXTERN_DECL const char px__kernel_kind_##name[];                                 \
    PX__STATIC_ASSERT(PX__MARK_SIZE(px__kernel_kind_##name) == 1 ||                     \
                          PX__MARK_SIZE(px__kernel_kind_##name) == 1 + PX__KIND_##KIND, \
                      "kernel " #name " is defined here as " PX__KIND_WORDS_##KIND      \
                      " but declared as another kind (PX_DECLARE_KERNEL_*)");           \
    PX_EXTERN_DECL const char px__kernel_kind_##name[1 + PX__KIND_##KIND];              \
    PX__REDECL_END

/* Dispatch's check: `kernel` as it is, after refusing to compile when its type says a kind
   other than WANT. `kstr` is the argument as written, `fn` the function. The kernel
   expression is named once, as the constant `k`, its size (a pointer's; one descriptor's
   for an unknown kind; 1 + the kind descriptors' for PX_KERNEL of a known one), because a
   macro that stringizes the call after expanding it gets the whole expansion as one string
   (ISO C's -Woverlength-strings past 4095 characters). */
#define PX__KIND_SIZE(KIND) sizeof(const px_kernel[1 + PX__KIND_##KIND])
#define PX__KIND_ASSERT(k, kstr, fn, WANT, KIND)                                      \
    PX__STATIC_ASSERT(PX__KIND_##WANT == PX__KIND_##KIND || k != PX__KIND_SIZE(KIND), \
                      fn ": kernel " kstr " is " PX__KIND_WORDS_##KIND                \
                      ", not " PX__KIND_WORDS_##WANT);
#define PX__KIND_ASSERTS(k, kstr, fn, WANT)      \
    PX__KIND_ASSERT(k, kstr, fn, WANT, FOR)      \
    PX__KIND_ASSERT(k, kstr, fn, WANT, REDUCE)   \
    PX__KIND_ASSERT(k, kstr, fn, WANT, SCAN)     \
    PX__KIND_ASSERT(k, kstr, fn, WANT, TEAM_FOR) \
    PX__KIND_ASSERT(k, kstr, fn, WANT, TEAM_REDUCE)
#ifdef __cplusplus
/* (A lambda: the one place in a C++ expression that takes static assertions. It captures
   nothing: sizeof does not use the variables it names.) */
#define PX__KERNEL_EXPECT(kernel, kstr, fn, WANT)   \
    (                                               \
        []() {                                      \
            enum { px__k = sizeof(kernel) };        \
            PX__KIND_ASSERTS(px__k, kstr, fn, WANT) \
        }(),                                        \
        (kernel))
#elif defined(PX__UNIQUE)
#define PX__KERNEL_EXPECT(kernel, kstr, fn, WANT) \
    PX__KERNEL_EXPECT_AS(kernel, kstr, fn, WANT, PX__UNIQUE(px__kernel_kind_is_))
#define PX__KERNEL_EXPECT_AS(kernel, kstr, fn, WANT, k) \
    ((void)sizeof(struct {                              \
         enum { k = sizeof(kernel) } px__k;             \
         PX__KIND_ASSERTS(k, kstr, fn, WANT)            \
     }),                                                \
     (kernel))
#else
/* (Without a unique name for the constant: one assertion, the kernel named once.) */
#define PX__KERNEL_EXPECT(kernel, kstr, fn, WANT)                                               \
    ((void)sizeof(struct {                                                                      \
         _Static_assert(sizeof(kernel) < PX__KIND_SIZE(FOR) ||                                  \
                            sizeof(kernel) == PX__KIND_SIZE(WANT),                              \
                        fn ": kernel " kstr " is of another kind, not " PX__KIND_WORDS_##WANT); \
         char px__ok;                                                                           \
     }),                                                                                        \
     (kernel))
#endif

/* An unknown join (a misspelt op, or a built-in op for a type it has no form for) is
   refused by name before anything uses it. In C++, a probe template that finds
   px_join_<op>_<T> or not (the call's arguments depend on the template's parameter, so an
   undeclared name is no error until instantiation, where it fails the substitution). In
   C, a call to an undeclared function declares it, returning int (implicit declaration,
   silenced for the generated code, where the assertion then fails): a join returns void. */
#define PX__JOIN_WORDS(T, op)                                                               \
    "unknown join " #op " for value type " #T " (no px_join_" #op "_" #T "): the built-in " \
    "joins are sum, prod, min, max (float, double, int32_t, int64_t, uint32_t, uint64_t), " \
    "minloc, maxloc (px_valloc_f32, _f64, _i32, _i64); define others with PX_JOIN and "     \
    "PX_IDENTITY before the kernel"
#ifdef __cplusplus
#define PX__JOIN_CHECK_DECL(name, T, op)                                                        \
    template <class V, class = void> struct px__join_probe_##name {                             \
        enum { value = 0 };                                                                     \
    };                                                                                          \
    template <class V>                                                                          \
    struct px__join_probe_##name<V, decltype((void)px_join_##op##_##T((V *)0, (const V *)0))> { \
        enum { value = 1 };                                                                     \
    };                                                                                          \
    static_assert(px__join_probe_##name<T>::value, PX__JOIN_WORDS(T, op));
#define PX__JOIN_CHECK_STMT(T, op)
#define PX__JOIN_USES_BEGIN
#define PX__JOIN_USES_END
#else
#define PX__JOIN_CHECK_DECL(name, T, op)
#define PX__JOIN_CHECK_STMT(T, op)                                                           \
    _Static_assert(_Generic(px_join_##op##_##T((T *)0, (const T *)0), int : 0, default : 1), \
                   PX__JOIN_WORDS(T, op));
#if defined(__GNUC__) || defined(__clang__)
#define PX__JOIN_USES_BEGIN        \
    _Pragma("GCC diagnostic push") \
        _Pragma("GCC diagnostic ignored \"-Wimplicit-function-declaration\"")
#define PX__JOIN_USES_END _Pragma("GCC diagnostic pop")
#else
#define PX__JOIN_USES_BEGIN
#define PX__JOIN_USES_END
#endif
#endif

#endif /* PORTEX_IMPL_CHECKS_H */
