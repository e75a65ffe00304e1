/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The host backends' sort: a stable radix sort, one byte of the key a pass, on the calling
 * thread or on a team's threads (job.h).
 *
 * Order. Keys are compared as unsigned numbers made from their bits (sort_keys.h); the
 * number is computed where a digit is read, and the bits moved are the key's own (-0.0
 * stays -0.0). Descending order complements the number, which keeps equal keys in order.
 *
 * Passes. A first job surveys the range: each part ANDs and ORs its share's keys, and a
 * digit on which all keys agree, which would move nothing, gets no pass; after the barrier
 * each part counts the first pass's digit in its share. Each pass is then a job: each part
 * counts the pass's digit in its share (the first pass has those counts already), then,
 * after the barrier, finds where its keys go (after the keys of smaller digits, and the
 * same digit's in earlier parts) and moves them in order, so the sort is stable whatever
 * the team's size. On one thread, a pass counts the next pass's digit as it moves the keys.
 * The passes alternate between the output and a temporary buffer and end in the output (a
 * source that is the first pass's destination is copied to the other buffer first).
 *
 * Ranges larger than the caches (SPLIT_BYTES) are split first: one pass on their highest
 * digit that differs, then each digit's keys (a bucket) sorted alone, most of them in a
 * cache, on the digits below. Every key then crosses main memory three times or so rather
 * than twice a pass. Buckets, like segments, are shared among the parts by where they start
 * (part p takes those that start in its share of the range), each sorted on the part's
 * thread; the largest are sorted one after another by the whole team.
 *
 * Fewer than PARALLEL_MIN keys stay on the calling thread; up to INSERTION_MAX a key byte
 * are insertion sorted. Values of 1, 2, 4 or 8 bytes move with their keys as integers; others
 * (and misaligned ones) through a permutation: the keys are sorted with their indices
 * (4 bytes each below 2^31 keys, else 8), then the values are gathered by them. Made-up
 * values (values_in NULL) are the indices, written by the first pass. */
#define _DEFAULT_SOURCE /* MADV_HUGEPAGE */
#include "backends/host/sort.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "backends/host/sort_keys.h"
#include "backends/services.h"

#define RADIX 256
/* Below this many keys a team's barriers cost more than its threads save. */
#define PARALLEL_MIN ((int64_t)1 << 16)
/* Up to this many keys a key byte, an insertion sort beats the radix passes (one a byte, each
   with RADIX steps of bookkeeping whatever the keys): measured on random keys, the two cross
   near 100 keys of 8 bytes, 70 of 4. */
#define INSERTION_MAX 16
/* Ranges of more bytes (keys and values) are split on their highest digit first. */
#define SPLIT_BYTES ((size_t)1 << 23)
/* The temporary buffers each start on a cache line. */
#define LINE 64

/* ---- A sort's buffers ------------------------------------------------------------------- */

/* One array of a sort: where it comes from (NULL: values made up), where it goes, and a
   temporary buffer of the same size for the passes in between. */
typedef struct lane {
    const char *in;
    char *out, *tmp;
} lane;

typedef struct sorter {
    const px__host_runner *r;
    px__key_kind kind;
    size_t width; /* key bytes */
    uint64_t flip;
    lane keys, values;
    px__value_kind vk; /* of values.in */
    size_t vsize;      /* bytes of a value of the values lane */
    size_t area_words; /* of each part's area (pass_ctx) */
    /* Values moved through a permutation (the values lane, then): gathered from in (or
       from copy, where in is out) into out, size bytes each. */
    struct {
        const char *in;
        char *out, *copy;
        size_t size;
    } gather;
} sorter;

/* Where a range's keys and values are read from: the inputs, or a buffer of the lanes. */
typedef struct source {
    const char *keys, *values;
    px__value_kind vk;
} source;

/* Runs pass0 on every part, then pass1 (if any) on every part: on the team when nparts
   > 1, else on the calling thread. */
static void run(const sorter *s, int nparts, void (*pass0)(void *, int), void (*pass1)(void *, int),
                void *ctx)
{
    if (nparts == 1) {
        pass0(ctx, 0);
        if (pass1) pass1(ctx, 0);
        return;
    }
    const px__host_job job = {.nparts = nparts, .pass = {pass0, pass1}, .ctx = ctx};
    s->r->run(s->r->team, &job);
}

/* Part `part` of nparts of [a, b). */
static void share(int64_t a, int64_t b, int part, int nparts, int64_t *lo, int64_t *hi)
{
    px__host_share(b - a, part, nparts, lo, hi);
    *lo += a;
    *hi += a;
}

/* ---- Copies ----------------------------------------------------------------------------- */

/* Keys and values of [a, b) from `from` into kdst and vdst: a destination NULL, or that
   is its source, leaves that array as it is; made-up values are written. */
typedef struct copy_ctx {
    const sorter *s;
    int64_t a, b;
    int nparts;
    source from;
    char *kdst, *vdst;
} copy_ctx;

static void copy_part(void *vc, int part)
{
    const copy_ctx *c = vc;
    const size_t w = c->s->width, vs = c->s->vsize;
    int64_t lo, hi;
    share(c->a, c->b, part, c->nparts, &lo, &hi);
    const size_t n = (size_t)(hi - lo);
    if (c->kdst && c->kdst != c->from.keys)
        memcpy(c->kdst + (size_t)lo * w, c->from.keys + (size_t)lo * w, n * w);
    if (!c->vdst || c->vdst == c->from.values) return;
    if (c->from.vk == PX__VAL_IOTA4 || c->from.vk == PX__VAL_IOTA8) {
        for (int64_t i = lo; i < hi; ++i) px__value_store(c->vdst, i, c->from.vk, (uint64_t)i);
        return;
    }
    memcpy(c->vdst + (size_t)lo * vs, c->from.values + (size_t)lo * vs, n * vs);
}

static void copy_range(const sorter *s, int nparts, int64_t a, int64_t b, const source *from,
                       char *kdst, char *vdst)
{
    copy_ctx c = {
        .s = s, .a = a, .b = b, .nparts = nparts, .from = *from, .kdst = kdst, .vdst = vdst};
    run(s, nparts, copy_part, NULL, &c);
}

/* ---- Short ranges ------------------------------------------------------------------------ */

PX__SORT_INLINE void insertion_loop(px__key_kind k, px__value_kind v, char *keys, char *vals,
                                    int64_t a, int64_t b, uint64_t flip)
{
    for (int64_t i = a + 1; i < b; ++i) {
        const uint64_t kb = px__key_load(keys, i, k), t = px__key_order(kb, k, flip);
        const uint64_t vb = px__value_load(vals, i, v);
        int64_t j = i;
        for (; j > a; --j) {
            const uint64_t prev = px__key_load(keys, j - 1, k);
            if (px__key_order(prev, k, flip) <= t) break; /* equal keys stay behind: stable */
            px__key_store(keys, j, k, prev);
            px__value_store(vals, j, v, px__value_load(vals, j - 1, v));
        }
        px__key_store(keys, j, k, kb);
        px__value_store(vals, j, v, vb);
    }
}

/* [a, b) from `from` into the outputs, insertion sorted there. */
static void sort_short(const sorter *s, int64_t a, int64_t b, const source *from)
{
    copy_range(s, 1, a, b, from, s->keys.out, s->values.out);
    PX__BY_KEY_VALUE(insertion_loop, s->kind, px__value_stored(s->vk), s->keys.out, s->values.out,
                     a, b, s->flip);
}

/* ---- Radix passes ----------------------------------------------------------------------- */

/* One job of a radix sort of [a, b). Each part has an area of its own (area_of): its
   counts of the pass's digit, a second set of counts (on one part, the next pass's), then
   the AND and the OR of its share's keys (in the keys' order) that the survey finds. */
typedef struct pass_ctx {
    const sorter *s;
    int64_t a, b;
    int nparts;
    int shift; /* of the pass's digit */
    source from;
    char *kdst, *vdst;
    int64_t *area;
    const int64_t *counts; /* part p's: counts + p * s->area_words */
    /* On one part: the next pass's counts, made as this pass moves the keys. */
    int64_t *next;
    int next_shift;
} pass_ctx;

static int64_t *area_of(const pass_ctx *c, int part)
{
    return c->area + (size_t)part * c->s->area_words;
}

PX__SORT_INLINE void count_loop(px__key_kind k, px__value_kind v, const char *keys, int64_t lo,
                                int64_t hi, uint64_t flip, int shift, int64_t *h)
{
    (void)v;
    for (int64_t i = lo; i < hi; ++i) h[px__key_digit(px__key_load(keys, i, k), k, flip, shift)]++;
}

/* The part's counts of the digit at `shift`. */
static void count_digit(const pass_ctx *c, int part, int shift)
{
    int64_t lo, hi;
    share(c->a, c->b, part, c->nparts, &lo, &hi);
    int64_t *h = area_of(c, part);
    memset(h, 0, RADIX * sizeof *h);
    PX__BY_KEY(count_loop, c->s->kind, c->from.keys, lo, hi, c->s->flip, shift, h);
}

static void count_part(void *vc, int part)
{
    const pass_ctx *c = vc;
    count_digit(c, part, c->shift);
}

/* ---- The survey: which digits to sort on ----------------------------------------------- */

PX__SORT_INLINE void survey_loop(px__key_kind k, px__value_kind v, const char *keys, int64_t lo,
                                 int64_t hi, uint64_t flip, int64_t *out)
{
    (void)v;
    uint64_t all = ~(uint64_t)0, any = 0;
    for (int64_t i = lo; i < hi; ++i) {
        const uint64_t t = px__key_order(px__key_load(keys, i, k), k, flip);
        all &= t;
        any |= t;
    }
    out[0] = (int64_t)all;
    out[1] = (int64_t)any;
}

static void survey_part(void *vc, int part)
{
    const pass_ctx *c = vc;
    int64_t lo, hi;
    share(c->a, c->b, part, c->nparts, &lo, &hi);
    PX__BY_KEY(survey_loop, c->s->kind, c->from.keys, lo, hi, c->s->flip,
               area_of(c, part) + 2 * RADIX);
}

/* A range's plan: the digits on which its keys differ (each other digit would move
   nothing), lowest first, and whether it is split on the highest of them first. */
typedef struct plan {
    int digits[8], npass;
    bool split;
} plan;

/* The plan from every part's survey; each part of the second pass makes it alike. */
static plan plan_of(const pass_ctx *c)
{
    uint64_t all = ~(uint64_t)0, any = 0;
    for (int q = 0; q < c->nparts; ++q) {
        all &= (uint64_t)area_of(c, q)[2 * RADIX];
        any |= (uint64_t)area_of(c, q)[2 * RADIX + 1];
    }
    const uint64_t differ = all ^ any;
    plan p = {.npass = 0};
    for (int d = 0; d < (int)c->s->width; ++d)
        if ((differ >> (8 * d)) & 0xff) p.digits[p.npass++] = d;
    p.split = p.npass > 2 && (size_t)(c->b - c->a) * (c->s->width + c->s->vsize) > SPLIT_BYTES;
    return p;
}

/* The counts of the plan's first pass: the highest digit for a split, else the lowest. */
static void first_count_part(void *vc, int part)
{
    const pass_ctx *c = vc;
    const plan p = plan_of(c);
    if (p.npass > 0) count_digit(c, part, 8 * p.digits[p.split ? p.npass - 1 : 0]);
}

/* Where part `part`'s first key of each digit goes: after every key of a smaller digit and
   the keys of the same digit in the parts before it. */
static void part_offsets(const pass_ctx *c, int part, int64_t pos[RADIX])
{
    int64_t at = c->a;
    for (int d = 0; d < RADIX; ++d) {
        int64_t before = 0, total = 0;
        for (int q = 0; q < c->nparts; ++q) {
            const int64_t n = c->counts[(size_t)q * c->s->area_words + d];
            before += q < part ? n : 0;
            total += n;
        }
        pos[d] = at + before;
        at += total;
    }
}

PX__SORT_INLINE void scatter_loop(px__key_kind k, px__value_kind v, const pass_ctx *c, int64_t lo,
                                  int64_t hi, int64_t *pos, bool count_next)
{
    const char *ks = c->from.keys, *vs = c->from.values;
    char *kd = c->kdst, *vd = c->vdst;
    int64_t *next = c->next;
    const uint64_t flip = c->s->flip;
    const int shift = c->shift, next_shift = c->next_shift;
    for (int64_t i = lo; i < hi; ++i) {
        const uint64_t bits = px__key_load(ks, i, k);
        const int64_t p = pos[px__key_digit(bits, k, flip, shift)]++;
        px__key_store(kd, p, k, bits);
        px__value_store(vd, p, v, px__value_load(vs, i, v));
        if (count_next) next[px__key_digit(bits, k, flip, next_shift)]++;
    }
}

static void scatter_part(void *vc, int part)
{
    const pass_ctx *c = vc;
    int64_t pos[RADIX], lo, hi;
    part_offsets(c, part, pos);
    share(c->a, c->b, part, c->nparts, &lo, &hi);
    if (c->next) {
        memset(c->next, 0, RADIX * sizeof *c->next);
        PX__BY_KEY_VALUE(scatter_loop, c->s->kind, c->from.vk, c, lo, hi, pos, true);
    } else {
        PX__BY_KEY_VALUE(scatter_loop, c->s->kind, c->from.vk, c, lo, hi, pos, false);
    }
}

/* The passes on `digits` (npass of them, lowest first) from c->from into the outputs. */
static void sort_lsd(const sorter *s, pass_ctx *c, const int *digits, int npass)
{
    source from = c->from;
    char *kfirst = npass % 2 ? s->keys.out : s->keys.tmp;
    char *vfirst = npass % 2 ? s->values.out : s->values.tmp;
    const bool kmove = from.keys == kfirst;
    const bool vmove = from.vk != PX__VAL_NONE && from.values == vfirst;
    if (kmove || vmove) {
        char *kother = kfirst == s->keys.out ? s->keys.tmp : s->keys.out;
        char *vother = vfirst == s->values.out ? s->values.tmp : s->values.out;
        copy_range(s, c->nparts, c->a, c->b, &from, kmove ? kother : NULL, vmove ? vother : NULL);
        from.keys = kmove ? kother : from.keys;
        from.values = vmove ? vother : from.values;
    }
    const bool fused = c->nparts == 1;
    int64_t *counts[2] = {c->area, c->area + RADIX};
    for (int j = 0; j < npass; ++j) {
        const bool to_out = (npass - 1 - j) % 2 == 0;
        c->from = from;
        c->shift = 8 * digits[j];
        c->kdst = to_out ? s->keys.out : s->keys.tmp;
        c->vdst = to_out ? s->values.out : s->values.tmp;
        /* The first pass's counts are the survey's job's (the same shares of the same
           keys). On one part, each pass counts the next one's digit as it moves the keys,
           in the other set of counts; on more, each pass counts its own first. */
        c->counts = fused ? counts[j % 2] : c->area;
        c->next = fused && j + 1 < npass ? counts[(j + 1) % 2] : NULL;
        c->next_shift = c->next ? 8 * digits[j + 1] : 0;
        if (j == 0 || fused)
            run(s, c->nparts, scatter_part, NULL, c);
        else
            run(s, c->nparts, count_part, scatter_part, c);
        from = (source){c->kdst, c->vdst, px__value_stored(from.vk)};
    }
}

/* ---- Ranges and their pieces (buckets, segments) ----------------------------------------- */

/* Pieces [at(i), at(i + 1)) of a range, i < count: offsets of offset_size bytes. */
typedef struct pieces {
    const void *offsets;
    size_t offset_size;
    int64_t count;
} pieces;

static int64_t piece_at(const pieces *p, int64_t i)
{
    return p->offset_size == 4 ? ((const int32_t *)p->offsets)[i]
                               : ((const int64_t *)p->offsets)[i];
}

static void sort_pieces(const sorter *s, int nparts, int64_t a, int64_t b, const pieces *p,
                        const source *from, int64_t *area, bool gather);

static void sort_long(const sorter *s, int nparts, int64_t a, int64_t b, int64_t *area,
                      const source *from);

/* [a, b) from `from`, sorted, into the outputs. */
static void sort_range(const sorter *s, int nparts, int64_t a, int64_t b, int64_t *area,
                       const source *from)
{
    if (b - a <= INSERTION_MAX * (int64_t)s->width)
        sort_short(s, a, b, from);
    else
        sort_long(s, nparts, a, b, area, from);
}

/* c's range on its highest digit that differs (counted by the survey's job) into the
   buffers its source is not, then each digit's keys from there into the outputs. */
static void split(const sorter *s, pass_ctx *c, int digit)
{
    c->shift = 8 * digit;
    c->kdst = c->from.keys == s->keys.tmp ? s->keys.out : s->keys.tmp;
    c->vdst = c->from.values == s->values.tmp ? s->values.out : s->values.tmp;
    c->counts = c->area;
    run(s, c->nparts, scatter_part, NULL, c);
    int64_t bounds[RADIX + 1];
    bounds[0] = c->a;
    for (int x = 0; x < RADIX; ++x) {
        int64_t total = 0;
        for (int q = 0; q < c->nparts; ++q) total += area_of(c, q)[x];
        bounds[x + 1] = bounds[x] + total;
    }
    /* The areas are free again: the buckets' sorts take them. */
    const source buckets = {c->kdst, c->vdst, px__value_stored(c->from.vk)};
    const pieces p = {bounds, sizeof bounds[0], RADIX};
    sort_pieces(s, c->nparts, c->a, c->b, &p, &buckets, c->area, false);
}

static void sort_long(const sorter *s, int nparts, int64_t a, int64_t b, int64_t *area,
                      const source *from)
{
    pass_ctx c = {.s = s, .a = a, .b = b, .nparts = nparts, .from = *from, .area = area};
    run(s, nparts, survey_part, first_count_part, &c);
    const plan p = plan_of(&c);
    if (p.npass == 0)
        copy_range(s, nparts, a, b, from, s->keys.out, s->values.out);
    else if (p.split)
        split(s, &c, p.digits[p.npass - 1]);
    else
        sort_lsd(s, &c, p.digits, p.npass);
}

/* ---- Values through a permutation ------------------------------------------------------ */

typedef struct gather_ctx {
    const sorter *s;
    int64_t a, b;
    int nparts;
} gather_ctx;

/* Keeps the share's values, which the gather overwrites. */
static void save_part(void *vc, int part)
{
    const gather_ctx *c = vc;
    const size_t sz = c->s->gather.size;
    int64_t lo, hi;
    share(c->a, c->b, part, c->nparts, &lo, &hi);
    memcpy(c->s->gather.copy + (size_t)lo * sz, c->s->gather.in + (size_t)lo * sz,
           (size_t)(hi - lo) * sz);
}

/* sz a constant where it can be: memcpy of a known size is a move or two. */
PX__SORT_INLINE void gather_loop(char *out, const char *src, const char *perm, px__value_kind pk,
                                 int64_t lo, int64_t hi, size_t sz)
{
    for (int64_t i = lo; i < hi; ++i)
        memcpy(out + (size_t)i * sz, src + (size_t)px__value_load(perm, i, pk) * sz, sz);
}

static void gather_part(void *vc, int part)
{
    const gather_ctx *c = vc;
    const sorter *s = c->s;
    const char *src = s->gather.copy ? s->gather.copy : s->gather.in;
    const px__value_kind pk = px__value_stored(s->vk);
    int64_t lo, hi;
    share(c->a, c->b, part, c->nparts, &lo, &hi);
    switch (s->gather.size) {
    case 12: gather_loop(s->gather.out, src, s->values.out, pk, lo, hi, 12); break;
    case 16: gather_loop(s->gather.out, src, s->values.out, pk, lo, hi, 16); break;
    default: gather_loop(s->gather.out, src, s->values.out, pk, lo, hi, s->gather.size); break;
    }
}

/* The values of [a, b) into their places, by the permutation the sort left. */
static void gather_range(const sorter *s, int nparts, int64_t a, int64_t b)
{
    const int np = b - a < PARALLEL_MIN ? 1 : nparts;
    gather_ctx g = {.s = s, .a = a, .b = b, .nparts = np};
    if (s->gather.copy)
        run(s, np, save_part, gather_part, &g);
    else
        run(s, np, gather_part, NULL, &g);
}

/* ---- Pieces ---------------------------------------------------------------------------- */

typedef struct pieces_ctx {
    const sorter *s;
    const pieces *p;
    int64_t a, b;
    int nparts;
    int64_t large; /* pieces this long are not the job's */
    int64_t *area;
    const source *from;
    bool gather;
} pieces_ctx;

/* The pieces that start in the part's share of the range, each on this thread. */
static void pieces_part(void *vc, int part)
{
    const pieces_ctx *c = vc;
    int64_t lo, hi;
    share(c->a, c->b, part, c->nparts, &lo, &hi);
    int64_t i = 0, end = c->p->count; /* the first piece starting at lo or later */
    while (i < end) {
        const int64_t mid = i + (end - i) / 2;
        if (piece_at(c->p, mid) < lo)
            i = mid + 1;
        else
            end = mid;
    }
    int64_t *area = c->area + (size_t)part * c->s->area_words;
    for (; i < c->p->count; ++i) {
        const int64_t a = piece_at(c->p, i), b = piece_at(c->p, i + 1);
        if (a >= hi) break;
        if (b == a || b - a >= c->large) continue;
        sort_range(c->s, 1, a, b, area, c->from);
        if (c->gather) gather_range(c->s, 1, a, b);
    }
}

/* Each piece of [a, b) from `from` into the outputs (gather: and its values by the
   permutation); the keys outside every piece are left as they are. */
static void sort_pieces(const sorter *s, int nparts, int64_t a, int64_t b, const pieces *p,
                        const source *from, int64_t *area, bool gather)
{
    /* A piece of a quarter of a part's share or more would hold the others up: the whole
       team sorts it. */
    const int64_t quarter = (b - a) / (4 * nparts);
    const int64_t large = nparts == 1 ? INT64_MAX : quarter > PARALLEL_MIN ? quarter : PARALLEL_MIN;
    pieces_ctx c = {.s = s, .p = p, .a = a, .b = b, .nparts = nparts, .area = area, .from = from};
    c.large = large;
    c.gather = gather;
    run(s, nparts, pieces_part, NULL, &c);
    if (nparts == 1) return;
    for (int64_t i = 0; i < p->count; ++i) {
        const int64_t pa = piece_at(p, i), pb = piece_at(p, i + 1);
        if (pb - pa < large) continue;
        sort_range(s, nparts, pa, pb, area, from);
        if (gather) gather_range(s, nparts, pa, pb);
    }
}

static px_status check_offsets(const px__sort_op *op)
{
    if (op->offset_size != 4 && op->offset_size != 8)
        return px__error(PX_ERR_INVALID_ARGUMENT,
                         "segment offsets of %zu bytes: they must be int32_t or int64_t",
                         op->offset_size);
    const pieces p = {op->offsets, op->offset_size, op->segments};
    int64_t prev = 0;
    for (int64_t i = 0; i <= op->segments; ++i) {
        const int64_t o = piece_at(&p, i);
        if (i == 0 && o < 0)
            return px__error(PX_ERR_INVALID_ARGUMENT,
                             "segment offsets[0] is %lld: offsets must not be negative",
                             (long long)o);
        if (o < prev)
            return px__error(PX_ERR_INVALID_ARGUMENT,
                             "segment offsets[%lld] is %lld, below offsets[%lld] (%lld): "
                             "offsets must be nondecreasing",
                             (long long)i, (long long)o, (long long)(i - 1), (long long)prev);
        if (o > op->n)
            return px__error(PX_ERR_INVALID_ARGUMENT,
                             "segment offsets[%lld] is %lld, past the end of the %lld keys",
                             (long long)i, (long long)o, (long long)op->n);
        prev = o;
    }
    return PX_OK;
}

/* ---- The hook -------------------------------------------------------------------------- */

static bool key_kind_of(px_dtype t, px__key_kind *k, uint64_t *sign)
{
    *sign = t == PX_I32 ? (uint64_t)1 << 31 : t == PX_I64 ? (uint64_t)1 << 63 : 0;
    switch (t) {
    case PX_U8: *k = PX__KEY_U8; return true;
    case PX_I32:
    case PX_U32: *k = PX__KEY_INT32; return true;
    case PX_I64:
    case PX_U64: *k = PX__KEY_INT64; return true;
    case PX_F32: *k = PX__KEY_F32; return true;
    case PX_F64: *k = PX__KEY_F64; return true;
    default: return false;
    }
}

static px__value_kind value_kind_of(size_t size)
{
    switch (size) {
    case 1: return PX__VAL_1;
    case 2: return PX__VAL_2;
    case 4: return PX__VAL_4;
    case 8: return PX__VAL_8;
    default: return PX__VAL_NONE;
    }
}

/* Temporary buffers this large ask for huge pages where the system gives them on request
   (Linux's transparent huge pages in their "madvise" mode): faulting in a gigabyte 4 KiB at
   a time costs a fifth of the sort's time, and each call's buffers are new pages. */
#define HUGE_PAGES_MIN ((size_t)1 << 23)

static void ask_huge_pages(char *p, size_t bytes)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    const uintptr_t page = 4096;
    const uintptr_t lo = ((uintptr_t)p + page - 1) & ~(page - 1);
    const uintptr_t hi = ((uintptr_t)p + bytes) & ~(page - 1);
    if (bytes >= HUGE_PAGES_MIN && hi > lo) (void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
#else
    (void)p;
    (void)bytes;
#endif
}

/* The temporary buffers in one allocation: each reserve() an offset in it. */
typedef struct layout {
    size_t total;
    bool overflow;
} layout;

static size_t reserve(layout *l, size_t count, size_t size)
{
    size_t bytes, end;
    const size_t at = l->total;
    if (px__mul_overflows(count, size, &bytes) || px__add_overflows(at, bytes + LINE, &end))
        l->overflow = true;
    else
        l->total = end / LINE * LINE;
    return at;
}

px_status px__host_sort(const px__host_runner *r, const px__sort_op *op)
{
    sorter s = {.r = r};
    uint64_t sign;
    if (!key_kind_of(op->key_dtype, &s.kind, &sign))
        return px__error(PX_ERR_INVALID_ARGUMENT, "keys of element type %d cannot be sorted",
                         (int)op->key_dtype);
    const size_t vs = op->value_size;
    if (!op->values_in && vs != 0 && vs != 4 && vs != 8)
        return px__error(PX_ERR_INVALID_ARGUMENT,
                         "indices made up as values must be of 4 or 8 bytes, not %zu", vs);
    if (op->segments >= 0) PX__TRY(check_offsets(op));
    const int64_t n = op->n;
    if (n <= 0) return PX_OK;
    const size_t un = (size_t)n;
    const int team = r && r->nthreads > 1 ? r->nthreads : 1;
    const int nparts = n >= PARALLEL_MIN ? team : 1;
    s.width = px__key_width(s.kind);
    const uint64_t all = s.width == 8 ? ~(uint64_t)0 : ((uint64_t)1 << (8 * s.width)) - 1;
    s.flip = sign ^ (op->descending ? all : 0);

    /* Where each buffer goes in one allocation. */
    layout l = {0};
    const size_t ktmp = reserve(&l, un, s.width);
    const size_t kout = op->keys_out ? 0 : reserve(&l, un, s.width);
    /* Made-up values go to a view of indices, aligned as its type is. */
    const uintptr_t addresses = (uintptr_t)op->values_in | (uintptr_t)op->values_out;
    const bool as_integers =
        value_kind_of(vs) != PX__VAL_NONE && (!op->values_in || (addresses & (vs - 1)) == 0);
    size_t vtmp = 0, perm = 0, copy = 0;
    if (vs && as_integers) {
        s.vk = op->values_in ? value_kind_of(vs) : vs == 4 ? PX__VAL_IOTA4 : PX__VAL_IOTA8;
        s.vsize = vs;
        vtmp = reserve(&l, un, vs);
    } else if (vs) {
        s.gather.size = vs;
        s.vk = n <= INT32_MAX ? PX__VAL_IOTA4 : PX__VAL_IOTA8;
        s.vsize = px__value_width(s.vk);
        perm = reserve(&l, un, s.vsize);
        vtmp = reserve(&l, un, s.vsize);
        if (op->values_in == op->values_out) copy = reserve(&l, un, vs);
    }
    /* A part's area: two sets of counts of a digit, and its survey, on cache lines of
       their own. */
    s.area_words = 2 * RADIX + LINE / sizeof(int64_t);
    const size_t areas = reserve(&l, (size_t)team * s.area_words, sizeof(int64_t));
    char *mem = l.overflow ? NULL : px__aligned_alloc(LINE, l.total);
    if (!mem)
        return px__error(PX_ERR_OUT_OF_MEMORY,
                         "out of host memory for the sort's temporary buffers (%zu bytes for "
                         "%lld keys)",
                         l.total, (long long)n);
    ask_huge_pages(mem, l.total);

    s.keys = (lane){
        .in = op->keys_in, .out = op->keys_out ? op->keys_out : mem + kout, .tmp = mem + ktmp};
    if (s.gather.size) {
        s.values = (lane){.in = NULL, .out = mem + perm, .tmp = mem + vtmp};
        s.gather.in = op->values_in;
        s.gather.out = op->values_out;
        s.gather.copy = copy ? mem + copy : NULL;
    } else if (vs) {
        s.values = (lane){.in = op->values_in, .out = op->values_out, .tmp = mem + vtmp};
    }
    int64_t *area = (int64_t *)(void *)(mem + areas);
    const source input = {s.keys.in, s.values.in, s.vk};
    if (op->segments >= 0) {
        const pieces p = {op->offsets, op->offset_size, op->segments};
        sort_pieces(&s, nparts, 0, n, &p, &input, area, s.gather.size != 0);
    } else {
        sort_range(&s, nparts, 0, n, area, &input);
        if (s.gather.size) gather_range(&s, nparts, 0, n);
    }
    free(mem);
    return PX_OK;
}
