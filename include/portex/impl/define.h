/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* portex — how a kernel macro assembles a kernel from its body (not API), whatever the
 * families compiled in: every family's code for the body (portex/impl/targets.h), the join
 * on the host, and the descriptor px_kernel_<name> with its table of entries. The kernel
 * macros of portex/kernel.h and portex/team.h are each the body's declaration, one
 * PX__DEFINE_<SHAPE> below, and the body's definition. */
#ifndef PORTEX_IMPL_DEFINE_H
#define PORTEX_IMPL_DEFINE_H

#include <stdint.h>

#include "portex/impl/abi.h"
#include "portex/impl/checks.h"
#include "portex/impl/targets.h"

/* The body px__body_<name>, with the parameters each family's code calls it with, by shape:
     FOR       (const Args *, int64_t i[, int64_t j ...])  (an index per dimension, 1 to 6)
     REDUCE    as FOR, then T *acc
     SCAN      (const Args *, int64_t i, T *update, bool final)
     TEAM_FOR  (const Args *, const px_team *)
     TEAM_REDUCE  (const Args *, const px_team *, T *acc) */
#define PX__BODY(name) PX_FUNCTION void px__body_##name

/* The join of a reduction or scan on the host, for the descriptor: the library folds
   partial results with it. The join is checked first (between PX__JOIN_USES_BEGIN and
   _END, as every host use of the join: see PX__JOIN_CHECK_STMT). */
#define PX__JOIN_ON_HOST(name, T, op)                   \
    PX__JOIN_CHECK_DECL(name, T, op)                    \
    static void px__identity_##name(void *v)            \
    {                                                   \
        PX__JOIN_CHECK_STMT(T, op)                      \
        px_identity_##op##_##T((T *)v);                 \
    }                                                   \
    static void px__join_##name(void *d, const void *s) \
    {                                                   \
        px_join_##op##_##T((T *)d, (const T *)s);       \
    }

/* The descriptor of kernel `name` of SHAPE (the kind its marker records), KIND (FOR,
   REDUCE, SCAN) and rank R, TEAM 1 for a team kernel; its entries are the rows of every
   family's code, then a row of zeros (so that the table is never empty). */
#define PX__DESCRIPTOR(name, SHAPE, KIND, R, TEAM, Args, vsize, identity, join)  \
    PX__DEFINE_KIND(name, SHAPE)                                                 \
    static const px__kernel_entry px__entries_##name[] = {                       \
        PX__FAMILIES_ROWS(SHAPE, name){0, 0, 0}};                                \
    PX_EXTERN_C const px_kernel px_kernel_##name = {                             \
        PX_KERNEL_MAGIC,                                                         \
        #name,                                                                   \
        PX_KERNEL_##KIND,                                                        \
        R,                                                                       \
        TEAM,                                                                    \
        (int32_t)(sizeof px__entries_##name / sizeof px__entries_##name[0]) - 1, \
        sizeof(Args),                                                            \
        vsize,                                                                   \
        identity,                                                                \
        join,                                                                    \
        px__entries_##name};

/* ---- One per shape (T and op: void for kernels without a join) --------------------------- */

#define PX__DEFINE_FOR(name, Args, R)                 \
    PX__FAMILIES_CODE(FOR, name, Args, R, void, void) \
    PX__DESCRIPTOR(name, FOR, FOR, R, 0, Args, 0, 0, 0)

#define PX__DEFINE_REDUCE(name, Args, R, T, op)                                      \
    PX__JOIN_USES_BEGIN                                                              \
    PX__JOIN_ON_HOST(name, T, op)                                                    \
    PX__FAMILIES_CODE(REDUCE, name, Args, R, T, op)                                  \
    PX__JOIN_USES_END                                                                \
    PX__DESCRIPTOR(name, REDUCE, REDUCE, R, 0, Args, sizeof(T), px__identity_##name, \
                   px__join_##name)

#define PX__DEFINE_SCAN(name, Args, T, op)        \
    PX__JOIN_USES_BEGIN                           \
    PX__JOIN_ON_HOST(name, T, op)                 \
    PX__FAMILIES_CODE(SCAN, name, Args, 1, T, op) \
    PX__JOIN_USES_END                             \
    PX__DESCRIPTOR(name, SCAN, SCAN, 1, 0, Args, sizeof(T), px__identity_##name, px__join_##name)

#define PX__DEFINE_TEAM_FOR(name, Args)                    \
    PX__FAMILIES_CODE(TEAM_FOR, name, Args, 1, void, void) \
    PX__DESCRIPTOR(name, TEAM_FOR, FOR, 1, 1, Args, 0, 0, 0)

#define PX__DEFINE_TEAM_REDUCE(name, Args, T, op)                                         \
    PX__JOIN_USES_BEGIN                                                                   \
    PX__JOIN_ON_HOST(name, T, op)                                                         \
    PX__FAMILIES_CODE(TEAM_REDUCE, name, Args, 1, T, op)                                  \
    PX__JOIN_USES_END                                                                     \
    PX__DESCRIPTOR(name, TEAM_REDUCE, REDUCE, 1, 1, Args, sizeof(T), px__identity_##name, \
                   px__join_##name)

#endif /* PORTEX_IMPL_DEFINE_H */
