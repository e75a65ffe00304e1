/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* bench_sort: px_sort on each host backend compiled in (serial, OpenMP, threads; their
 * default instances, all their threads) against the C library's qsort on one thread, on
 * the same keys, in one process:
 *
 *   u32            2^26 random uint32_t keys
 *   u64, i64       2^26 random 64-bit keys (every bit random; i64 half negative)
 *   f64            2^26 doubles of random sign, exponent (2^-30 .. 2^30) and mantissa
 *   u64 + u64      2^26 random uint64_t keys, each with a uint64_t value (its index):
 *                  px_sort with values, qsort on 16-byte pairs
 *
 * Each sort starts from a copy of the same keys (the copy is not timed). The target: px_sort
 * at least 4 times as fast as qsort with 16 threads (the machine's thread count is printed;
 * on fewer threads a "yes" is a stronger claim, a "NO" no verdict).
 *
 *   bench_sort [--quick] [--reps N]
 *
 * Every portex result is checked: keys the same bits as qsort's, and with values, each the
 * index of its key, every index once, equal keys in index order (stable). Times are medians
 * of N runs (default 3; --quick: 2^20 keys); portex runs once untimed first. Exit status:
 * 0; 1 when a result is wrong; 2 on an error. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <math.h>
#include <stdint.h>

#include "bench_util.h"

typedef enum { U32, U64, I64, F64, KV } key_case;

static const struct {
    const char *name;
    px_dtype dtype;
    size_t size; /* of a key */
} cases[] = {
    [U32] = {"u32", PX_U32, 4}, [U64] = {"u64", PX_U64, 8},      [I64] = {"i64", PX_I64, 8},
    [F64] = {"f64", PX_F64, 8}, [KV] = {"u64 + u64", PX_U64, 8},
};
enum { NCASES = sizeof cases / sizeof cases[0] };

/* A key and its value, as qsort sorts them. */
typedef struct pair {
    uint64_t key, value;
} pair;

#define CMP(T)                                        \
    static int by_##T(const void *a, const void *b)   \
    {                                                 \
        const T x = *(const T *)a, y = *(const T *)b; \
        return (x > y) - (x < y);                     \
    }
CMP(uint32_t)
CMP(uint64_t)
CMP(int64_t)
CMP(double) /* the keys hold no NaN (bench_util.h has a cmp_double of its own) */

static int (*const compare[NCASES])(const void *, const void *) = {
    [U32] = by_uint32_t,
    [U64] = by_uint64_t,
    [I64] = by_int64_t,
    [F64] = by_double,
    [KV] = by_uint64_t /* a pair starts with its key */};

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static void make_keys(key_case k, int64_t n, void *keys)
{
    uint64_t s = 20261127 + (uint64_t)k;
    for (int64_t i = 0; i < n; ++i) {
        const uint64_t r = splitmix(&s);
        if (k == U32) {
            ((uint32_t *)keys)[i] = (uint32_t)r;
        } else if (k == F64) {
            const double m = 1.0 + (double)(r >> 12) * 0x1p-52;
            const int e = (int)(r % 61) - 30;
            ((double *)keys)[i] = (r & 2048 ? -1.0 : 1.0) * ldexp(m, e);
        } else {
            ((uint64_t *)keys)[i] = r;
        }
    }
}

typedef struct ctx {
    key_case k;
    int64_t n;
    const void *orig;  /* the keys as made */
    void *keys, *vals; /* what px_sort sorts */
    pair *pairs;       /* what qsort sorts (the keys alone, or pairs) */
    px_instance *inst;
    px_view *vkeys, *vvals;
} ctx;

/* Copies the keys (and the values: their indices) into place for a sort. */
static void reset(ctx *c, bool for_qsort)
{
    const size_t ks = cases[c->k].size;
    if (for_qsort && c->k == KV) {
        for (int64_t i = 0; i < c->n; ++i)
            c->pairs[i] = (pair){((const uint64_t *)c->orig)[i], (uint64_t)i};
    } else if (for_qsort) {
        memcpy(c->pairs, c->orig, (size_t)c->n * ks);
    } else {
        memcpy(c->keys, c->orig, (size_t)c->n * ks);
        if (c->k == KV)
            for (int64_t i = 0; i < c->n; ++i) ((uint64_t *)c->vals)[i] = (uint64_t)i;
    }
}

static double time_qsort(ctx *c)
{
    reset(c, true);
    const size_t es = c->k == KV ? sizeof(pair) : cases[c->k].size;
    const double t0 = now_ms();
    qsort(c->pairs, (size_t)c->n, es, compare[c->k]);
    return now_ms() - t0;
}

static double time_portex(ctx *c)
{
    reset(c, false);
    const double t0 = now_ms();
    CHECK(px_sort(c->inst, c->vkeys, c->vvals, PX_SORT_ASCENDING));
    CHECK(px_instance_fence(c->inst));
    return now_ms() - t0;
}

/* portex's result against qsort's (c->pairs, sorted last); prints what is wrong. */
static bool check(const ctx *c, const char *backend)
{
    const size_t ks = cases[c->k].size;
    const char *what = NULL;
    if (c->k != KV) {
        if (memcmp(c->keys, c->pairs, (size_t)c->n * ks) != 0) what = "keys differ from qsort's";
    } else {
        const uint64_t *keys = c->keys, *vals = c->vals, *orig = c->orig;
        unsigned char *seen = calloc((size_t)c->n, 1);
        if (!seen) exit(2);
        for (int64_t i = 0; i < c->n && !what; ++i) {
            const uint64_t v = vals[i];
            if (keys[i] != c->pairs[i].key)
                what = "keys differ from qsort's";
            else if (v >= (uint64_t)c->n || seen[v] || orig[v] != keys[i])
                what = "a value is not its key's index, or twice there";
            else if (i > 0 && keys[i] == keys[i - 1] && v < vals[i - 1])
                what = "equal keys out of index order (not stable)";
            else
                seen[v] = 1;
        }
        free(seen);
    }
    if (what) printf("bench_sort: %s on %s: %s\n", cases[c->k].name, backend, what);
    return what == NULL;
}

typedef struct row {
    px_exec_space exec;
    key_case k;
    int threads;
    double qsort_ms, portex_ms;
} row;

int main(int argc, char **argv)
{
    int reps = 3;
    const bool quick = bench_options(argc, argv, &reps);
    if (reps < 1) reps = 1;
    CHECK(px_init(NULL));
    const int64_t n = (int64_t)1 << (quick ? 20 : 26);
    ctx c = {.n = n};
    void *orig = malloc((size_t)n * 8);
    c.keys = malloc((size_t)n * 8);
    c.vals = malloc((size_t)n * 8);
    c.pairs = malloc((size_t)n * sizeof(pair));
    double *t = malloc((size_t)reps * sizeof *t);
    if (!orig || !c.keys || !c.vals || !c.pairs || !t) {
        fprintf(stderr, "bench_sort: out of memory\n");
        return 2;
    }
    c.orig = orig;
    const px_exec_space execs[] = {PX_EXEC_SERIAL, PX_EXEC_OPENMP, PX_EXEC_THREADS};
    row rows[3 * NCASES];
    int nrows = 0;
    bool ok = true;
    for (int k = 0; k < NCASES; ++k) {
        c.k = (key_case)k;
        make_keys(c.k, n, orig);
        c.vkeys = bench_host_wrap("keys", cases[k].dtype, 1, n, 0, c.keys);
        c.vvals = k == KV ? bench_host_wrap("values", PX_U64, 1, n, 0, c.vals) : NULL;
        for (int r = 0; r < reps; ++r) t[r] = time_qsort(&c);
        const double qsort_ms = median(t, reps); /* c.pairs: qsort's result, for check() */
        for (size_t e = 0; e < sizeof execs / sizeof execs[0]; ++e) {
            if (px_exec_space_check(execs[e]) != PX_OK) continue;
            row *w = &rows[nrows++];
            w->exec = execs[e];
            w->k = c.k;
            w->qsort_ms = qsort_ms;
            CHECK(px_instance_default(execs[e], 0, &c.inst));
            CHECK(px_instance_concurrency(c.inst, &w->threads));
            (void)time_portex(&c);
            ok = check(&c, px_exec_space_string(w->exec)) && ok;
            for (int r = 0; r < reps; ++r) t[r] = time_portex(&c);
            w->portex_ms = median(t, reps);
        }
        CHECK(px_view_release(&c.vkeys));
        if (c.vvals) CHECK(px_view_release(&c.vvals));
    }

    printf("bench_sort: %lld keys, px_sort against qsort (one thread); %s\n", (long long)n,
           BENCH_BUILD);
    printf("| backend | threads | keys      | qsort ms | portex ms | speedup | target             "
           "| met?               |\n");
    printf("|---------|--------:|-----------|---------:|----------:|--------:|--------------------"
           "|--------------------|\n");
    for (int i = 0; i < nrows; ++i) {
        const row *w = &rows[i];
        const double speedup = w->qsort_ms / w->portex_ms;
        char met[32] = "";
        const bool team = w->exec != PX_EXEC_SERIAL;
        if (team && w->threads >= 16)
            snprintf(met, sizeof met, "%s", speedup >= 4.0 ? "yes" : "NO");
        else if (team)
            snprintf(met, sizeof met, "%s (%d threads)", speedup >= 4.0 ? "yes" : "NO", w->threads);
        printf("| %-7s | %7d | %-9s | %8.1f | %9.1f | %6.1fx | %-18s | %-18s |\n",
               px_exec_space_string(w->exec), w->threads, cases[w->k].name, w->qsort_ms,
               w->portex_ms, speedup, team ? ">= 4x, 16 threads" : "", met);
    }
    free(orig);
    free(c.keys);
    free(c.vals);
    free(c.pairs);
    free(t);
    CHECK(px_finalize());
    return ok ? 0 : 1;
}
