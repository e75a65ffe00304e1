/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: the keys and values of the host backends' sort (sort.c) as the inner loops see
 * them: loads and stores by width, and a key's bits read as an unsigned number in the
 * keys' order. Every function is forced inline and takes its kinds as arguments, so that a
 * loop written once and called through BY_KEY_VALUE becomes one specialised loop per pair
 * of kinds, with no test of a kind left inside. */
#ifndef PX_BACKENDS_HOST_SORT_KEYS_H
#define PX_BACKENDS_HOST_SORT_KEYS_H

#include <stddef.h>
#include <stdint.h>

#define PX__SORT_INLINE static inline __attribute__((always_inline))

/* How a key's bits are ordered: the key types by width and kind. */
typedef enum px__key_kind {
    PX__KEY_U8,
    PX__KEY_INT32, /* i32 and u32: flip (below) tells them apart */
    PX__KEY_F32,
    PX__KEY_INT64, /* i64 and u64 */
    PX__KEY_F64
} px__key_kind;

/* How values move: none; as integers of 1, 2, 4 or 8 bytes; or made up where the input
   has none, as the keys' indices (int32_t or int64_t). */
typedef enum px__value_kind {
    PX__VAL_NONE,
    PX__VAL_1,
    PX__VAL_2,
    PX__VAL_4,
    PX__VAL_8,
    PX__VAL_IOTA4,
    PX__VAL_IOTA8
} px__value_kind;

PX__SORT_INLINE size_t px__key_width(px__key_kind k)
{
    return k == PX__KEY_U8 ? 1 : k <= PX__KEY_F32 ? 4 : 8;
}

PX__SORT_INLINE uint64_t px__key_load(const char *p, int64_t i, px__key_kind k)
{
    switch (px__key_width(k)) {
    case 1: return ((const uint8_t *)p)[i];
    case 4: return ((const uint32_t *)(const void *)p)[i];
    default: return ((const uint64_t *)(const void *)p)[i];
    }
}

PX__SORT_INLINE void px__key_store(char *p, int64_t i, px__key_kind k, uint64_t bits)
{
    switch (px__key_width(k)) {
    case 1: ((uint8_t *)p)[i] = (uint8_t)bits; break;
    case 4: ((uint32_t *)(void *)p)[i] = (uint32_t)bits; break;
    default: ((uint64_t *)(void *)p)[i] = bits; break;
    }
}

/* The key's bits as an unsigned number whose order is the keys': floating-point -0.0 as
   +0.0 (equal keys, as CUB has them), then negative numbers complemented and the others
   with the sign bit set. flip: the sign bit for signed integers, all the width's bits for
   descending order, or both. */
PX__SORT_INLINE uint64_t px__key_order(uint64_t bits, px__key_kind k, uint64_t flip)
{
    if (k == PX__KEY_F32) {
        uint32_t b = (uint32_t)bits;
        b = b == 0x80000000u ? 0 : b;
        b ^= (0u - (b >> 31)) | 0x80000000u;
        return b ^ flip;
    }
    if (k == PX__KEY_F64) {
        const uint64_t sign = (uint64_t)1 << 63;
        uint64_t b = bits == sign ? 0 : bits;
        b ^= ((uint64_t)0 - (b >> 63)) | sign;
        return b ^ flip;
    }
    return bits ^ flip;
}

/* Digit `shift / 8` of the key in the keys' order. */
PX__SORT_INLINE unsigned px__key_digit(uint64_t bits, px__key_kind k, uint64_t flip, int shift)
{
    return (unsigned)(px__key_order(bits, k, flip) >> shift) & 0xff;
}

PX__SORT_INLINE size_t px__value_width(px__value_kind v)
{
    switch (v) {
    case PX__VAL_1: return 1;
    case PX__VAL_2: return 2;
    case PX__VAL_4:
    case PX__VAL_IOTA4: return 4;
    case PX__VAL_8:
    case PX__VAL_IOTA8: return 8;
    default: return 0;
    }
}

/* Value i of p; a made-up one is i itself. */
PX__SORT_INLINE uint64_t px__value_load(const char *p, int64_t i, px__value_kind v)
{
    switch (v) {
    case PX__VAL_1: return ((const uint8_t *)p)[i];
    case PX__VAL_2: return ((const uint16_t *)(const void *)p)[i];
    case PX__VAL_4: return ((const uint32_t *)(const void *)p)[i];
    case PX__VAL_8: return ((const uint64_t *)(const void *)p)[i];
    case PX__VAL_IOTA4:
    case PX__VAL_IOTA8: return (uint64_t)i;
    default: return 0;
    }
}

PX__SORT_INLINE void px__value_store(char *p, int64_t i, px__value_kind v, uint64_t x)
{
    switch (px__value_width(v)) {
    case 1: ((uint8_t *)p)[i] = (uint8_t)x; break;
    case 2: ((uint16_t *)(void *)p)[i] = (uint16_t)x; break;
    case 4: ((uint32_t *)(void *)p)[i] = (uint32_t)x; break;
    case 8: ((uint64_t *)(void *)p)[i] = x; break;
    default: break;
    }
}

/* What made-up values are once written: indices of their width. */
static inline px__value_kind px__value_stored(px__value_kind v)
{
    return v == PX__VAL_IOTA4 ? PX__VAL_4 : v == PX__VAL_IOTA8 ? PX__VAL_8 : v;
}

/* F(key kind, value kind, args...) called with constant kinds, chosen by k and v. */
#define PX__BY_VALUE(F, K, v, ...)                               \
    switch (v) {                                                 \
    case PX__VAL_NONE: F(K, PX__VAL_NONE, __VA_ARGS__); break;   \
    case PX__VAL_1: F(K, PX__VAL_1, __VA_ARGS__); break;         \
    case PX__VAL_2: F(K, PX__VAL_2, __VA_ARGS__); break;         \
    case PX__VAL_4: F(K, PX__VAL_4, __VA_ARGS__); break;         \
    case PX__VAL_8: F(K, PX__VAL_8, __VA_ARGS__); break;         \
    case PX__VAL_IOTA4: F(K, PX__VAL_IOTA4, __VA_ARGS__); break; \
    case PX__VAL_IOTA8: F(K, PX__VAL_IOTA8, __VA_ARGS__); break; \
    }
#define PX__BY_KEY_VALUE(F, k, v, ...)                                         \
    switch (k) {                                                               \
    case PX__KEY_U8: PX__BY_VALUE(F, PX__KEY_U8, v, __VA_ARGS__); break;       \
    case PX__KEY_INT32: PX__BY_VALUE(F, PX__KEY_INT32, v, __VA_ARGS__); break; \
    case PX__KEY_F32: PX__BY_VALUE(F, PX__KEY_F32, v, __VA_ARGS__); break;     \
    case PX__KEY_INT64: PX__BY_VALUE(F, PX__KEY_INT64, v, __VA_ARGS__); break; \
    case PX__KEY_F64: PX__BY_VALUE(F, PX__KEY_F64, v, __VA_ARGS__); break;     \
    }
/* The same for loops over keys alone (the value kind passed is NONE). */
#define PX__BY_KEY(F, k, ...)                                               \
    switch (k) {                                                            \
    case PX__KEY_U8: F(PX__KEY_U8, PX__VAL_NONE, __VA_ARGS__); break;       \
    case PX__KEY_INT32: F(PX__KEY_INT32, PX__VAL_NONE, __VA_ARGS__); break; \
    case PX__KEY_F32: F(PX__KEY_F32, PX__VAL_NONE, __VA_ARGS__); break;     \
    case PX__KEY_INT64: F(PX__KEY_INT64, PX__VAL_NONE, __VA_ARGS__); break; \
    case PX__KEY_F64: F(PX__KEY_F64, PX__VAL_NONE, __VA_ARGS__); break;     \
    }

#endif /* PX_BACKENDS_HOST_SORT_KEYS_H */
