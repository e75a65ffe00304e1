/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The harness of the seeded random API tests: see fuzz.h. */
#include "fuzz.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

enum { NFINDINGS = 64 };

typedef struct finding {
    char key[192];
    uint64_t count, seed, call;
    char first[768];
} finding;

static finding findings[NFINDINGS];
static int nfindings;
static char g_op[640];
static bool g_trace, g_stop;
static tk_rng g_rng;
uint64_t g_seed, g_call;

/* ---- A run ------------------------------------------------------------------------------- */

uint64_t fuzz_seed(int i)
{
    return (uint64_t)tk_env_ll("PX_FUZZ_SEED", 0, LLONG_MAX, 1) + (uint64_t)i;
}

int fuzz_seeds(int dflt) { return (int)tk_env_ll("PX_FUZZ_SEEDS", 1, 1 << 20, dflt); }

long long fuzz_iters(long long dflt)
{
    long long iters = tk_env_ll("PX_FUZZ_ITERS", 1, LLONG_MAX, dflt);
    if (tk_under_valgrind() && !getenv("PX_FUZZ_ITERS")) iters = iters / 20 > 0 ? iters / 20 : 1;
    return iters;
}

void fuzz_start(uint64_t seed, long long iters)
{
    g_trace = tk_env_ll("PX_FUZZ_TRACE", 0, 1, 0) == 1;
    g_stop = tk_env_ll("PX_FUZZ_STOP", 0, 1, 0) == 1;
    g_seed = seed;
    g_call = 0;
    nfindings = 0;
    g_rng = tk_rng_seed(seed);
    printf("fuzz: seed %llu, %lld calls (PX_FUZZ_SEED=%llu PX_FUZZ_ITERS=%lld to repeat)\n",
           (unsigned long long)seed, iters, (unsigned long long)seed, iters);
    fflush(stdout);
}

bool fuzz_stopped(void) { return g_stop && nfindings > 0; }

void fuzz_report(void)
{
    char summary[4096] = "";
    for (int i = 0; i < nfindings; ++i) {
        char line[1024];
        snprintf(line, sizeof line, "\n  %.190s: %llu times; first at seed %llu, call %llu: %.760s",
                 findings[i].key, (unsigned long long)findings[i].count,
                 (unsigned long long)findings[i].seed, (unsigned long long)findings[i].call,
                 findings[i].first);
        strncat(summary, line, sizeof summary - strlen(summary) - 1);
    }
    TK_ASSERT(nfindings == 0, "seed %llu: %d kinds of findings:%s", (unsigned long long)g_seed,
              nfindings, summary);
}

int fuzz_main(const char *suite, const char *tcase, const TTest *test, int seeds, int timeout)
{
    TCase *tc = tk_case(suite, tcase);
    tcase_set_timeout(tc, timeout);
    tcase_add_loop_test(tc, test, 0, fuzz_seeds(seeds));
    return tk_run();
}

/* ---- Random choices ------------------------------------------------------------------------ */

tk_rng *fuzz_rng(void) { return &g_rng; }
bool chance(int percent) { return tk_int(&g_rng, 0, 99) < percent; }
int64_t rnd(int64_t lo, int64_t hi) { return tk_int(&g_rng, lo, hi); }

enum { KINDS_MAX = 64 };
static bool kind_on[KINDS_MAX];
static int weight_on;

bool fuzz_choose(const fuzz_kind *kinds, int n)
{
    /* A kind past the table would never run, and fuzz_one would read past kind_on. */
    TK_ASSERT(n <= KINDS_MAX, "%d kinds of calls, more than the harness's %d", n, KINDS_MAX);
    const char *only = getenv("PX_FUZZ_OPS");
    weight_on = 0;
    for (int k = 0; k < n; ++k) {
        kind_on[k] = true;
        if (only && *only) {
            const size_t len = strlen(kinds[k].name);
            kind_on[k] = false;
            for (const char *p = only; (p = strstr(p, kinds[k].name)) != NULL; p += len)
                if ((p == only || p[-1] == ',') && (p[len] == ',' || p[len] == '\0'))
                    kind_on[k] = true;
        }
        if (kind_on[k]) weight_on += kinds[k].weight;
    }
    return weight_on > 0;
}

void fuzz_one(const fuzz_kind *kinds, int n)
{
    int r = (int)rnd(0, weight_on - 1), k = 0;
    for (; k < n; ++k) {
        if (!kind_on[k]) continue;
        if (r < kinds[k].weight) break;
        r -= kinds[k].weight;
    }
    kinds[k].run();
}

/* ---- Calls and findings -------------------------------------------------------------------- */

bool fuzz_tracing(void) { return g_trace; }

void trace(const char *fmt, ...)
{
    if (!g_trace) return;
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    fprintf(stderr, "[%llu]   %s\n", (unsigned long long)g_call, line);
}

void found(const char *func, const char *kind, const char *fmt, ...)
{
    char key[192];
    snprintf(key, sizeof key, "%s: %s", func, kind);
    for (int i = 0; i < nfindings; ++i)
        if (strcmp(findings[i].key, key) == 0) {
            findings[i].count++;
            return;
        }
    if (nfindings == NFINDINGS) return;
    finding *f = &findings[nfindings++];
    snprintf(f->key, sizeof f->key, "%s", key);
    f->count = 1;
    f->seed = g_seed;
    f->call = g_call;
    char details[384];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(details, sizeof details, fmt, ap);
    va_end(ap);
    snprintf(f->first, sizeof f->first, "%.370s; call: %.370s", details, g_op);
    fprintf(stderr, "finding: %s (seed %llu, call %llu): %s\n", key, (unsigned long long)g_seed,
            (unsigned long long)g_call, f->first);
}

static void say(const char *fmt, va_list ap)
{
    vsnprintf(g_op, sizeof g_op, fmt, ap);
    tk_watch("seed %llu, call %llu: %s", (unsigned long long)g_seed, (unsigned long long)g_call,
             g_op);
    if (g_trace) fprintf(stderr, "[%llu] %s\n", (unsigned long long)g_call, g_op);
}

void op(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say(fmt, ap);
    va_end(ap);
    px_clear_error();
}

void op_again(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say(fmt, ap);
    va_end(ap);
}

static bool status_listed(px_status st)
{
    return strcmp(px_status_name(st), "PX_UNKNOWN_STATUS") != 0;
}

/* The status a call returned, its message, and what the model expected: `want`, else
   exp (PX_FUZZ_TRACE). */
static void trace_status(px_status st, int exp, const char *want)
{
    static const char *const expected[] = {"PX_OK", "a failure", "either", "-"};
    trace("-> %s%s%.400s%s (the model expected %s)", px_status_name(st), st == PX_OK ? "" : ": '",
          st == PX_OK ? "" : px_last_error(), st == PX_OK ? "" : "'", want ? want : expected[exp]);
}

static bool judge_as(const char *func, px_status st, int exp, const char *why, const char *want)
{
    char kind[160];
    trace_status(st, exp, want);
    if (!status_listed(st)) found(func, "returned a status outside the list", "%d", (int)st);
    if (st == PX_OK) {
        if (exp == EXP_FAIL) {
            snprintf(kind, sizeof kind, "accepted invalid input (%s)", why);
            found(func, kind, "returned PX_OK");
        }
        return true;
    }
    const char *e = px_last_error();
    if (!e[0])
        found(func, "failed with an empty last error", "%s", px_status_name(st));
    else if (!tk_error_from(func))
        found(func, "failed naming another function", "%s: '%s'", px_status_name(st), e);
    if (exp == EXP_OK) found(func, "refused valid input", "%s: '%s'", px_status_name(st), e);
    return false;
}

bool judge(const char *func, px_status st, int exp, const char *why)
{
    return judge_as(func, st, exp, why, NULL);
}

bool judge_status(const char *func, px_status st, px_status want, const char *why)
{
    const bool ok =
        judge_as(func, st, want == PX_OK ? EXP_OK : EXP_FAIL, why, px_status_name(want));
    if (!ok && want != PX_OK && st != want) {
        char kind[200];
        snprintf(kind, sizeof kind, "refused with another status than %s (%s)",
                 px_status_name(want), why);
        found(func, kind, "%s: '%s'", px_status_name(st), px_last_error());
    }
    return ok;
}
