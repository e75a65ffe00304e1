/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The harness of the seeded random API tests (test_fuzz, test_fuzz_graph): the random
 * stream, the call about to be made (for the trace, the watchdog and reports), checking a
 * call's status against what the test's model predicts, and findings: what calls did that
 * they should not, grouped by function and kind, the first of each kind with the seed and
 * call number that reproduce it.
 *
 * Environment, the same for every such test:
 *   PX_FUZZ_SEED   the first seed (default 1)
 *   PX_FUZZ_SEEDS  how many seeds, from the first (default: the test's)
 *   PX_FUZZ_ITERS  calls per seed (default: the test's)
 *   PX_FUZZ_TRACE  1: print every call to stderr, with its arguments, then the status it
 *                  returned and its error message (beside the findings, in order)
 *   PX_FUZZ_STOP   1: a seed ends at its first finding
 *   PX_FUZZ_OPS    the kinds of calls to make, names separated by commas (the test's
 *                  kinds[]); default all
 * Every finding names its seed and call number: rerun with that seed, PX_FUZZ_SEEDS=1,
 * the same PX_FUZZ_ITERS (or fewer: the calls before a finding do not depend on the
 * number), PX_FUZZ_STOP=1 and PX_FUZZ_TRACE=1 to see the calls that led to it. */
#ifndef PX_TESTS_FUZZ_H
#define PX_TESTS_FUZZ_H

#include <stdbool.h>
#include <stdint.h>

#include "common.h"

/* What a call must do: succeed, fail (any status but PX_OK), either; EXP_SKIP: not made. */
enum { EXP_OK, EXP_FAIL, EXP_ANY, EXP_SKIP };

/* The seed being run and the number of the call being made. */
extern uint64_t g_seed, g_call;

/* ---- A run ------------------------------------------------------------------------------- */

/* Seed number i of this run (PX_FUZZ_SEED + i), how many seeds (PX_FUZZ_SEEDS, else dflt)
   and the calls per seed (PX_FUZZ_ITERS, else dflt; a twentieth under valgrind unless set). */
uint64_t fuzz_seed(int i);
int fuzz_seeds(int dflt);
long long fuzz_iters(long long dflt);
/* Starts a seed: the random stream from it, no findings, the trace as the environment says;
   prints how to repeat it. */
void fuzz_start(uint64_t seed, long long iters);
/* Whether the seed is to end now: PX_FUZZ_STOP=1 and a finding was made. */
bool fuzz_stopped(void);
/* Fails the current test (Check) when there were findings, listing them. */
void fuzz_report(void);
/* A fuzz program's main: `test` run once per seed (fuzz_seeds(seeds)), in test case `tcase`
   of suite `suite`, each run within `timeout` seconds; returns tk_run's status. */
int fuzz_main(const char *suite, const char *tcase, const TTest *test, int seeds, int timeout);

/* ---- Random choices ------------------------------------------------------------------------ */

tk_rng *fuzz_rng(void);
bool chance(int percent);
int64_t rnd(int64_t lo, int64_t hi);
#define PICK(arr) ((arr)[rnd(0, (int64_t)(sizeof(arr) / sizeof((arr)[0])) - 1)])

/* The kinds of calls a test makes, by how often they come: fuzz_choose reads PX_FUZZ_OPS
   (false when it names none), fuzz_one runs one call of a kind chosen by weight. */
typedef struct fuzz_kind {
    const char *name;
    int weight;
    void (*run)(void);
} fuzz_kind;
bool fuzz_choose(const fuzz_kind *kinds, int n);
void fuzz_one(const fuzz_kind *kinds, int n);

/* ---- Calls and findings -------------------------------------------------------------------- */

/* The call about to be made (printf format): for reports, the trace and the watchdog
   (tk_watch); clears the last error. */
void op(const char *fmt, ...) TK_PRINTF(1, 2);
/* As op, keeping the last error: says again which call is judged after a callback of it
   made calls of its own. */
void op_again(const char *fmt, ...) TK_PRINTF(1, 2);
/* With PX_FUZZ_TRACE=1, a line about the call being made (printf format), after its own
   line: what the model knows that the call's arguments do not say. */
bool fuzz_tracing(void);
void trace(const char *fmt, ...) TK_PRINTF(1, 2);
/* Records that `func` did `kind` (grouped by both), with details of the first time. */
void found(const char *func, const char *kind, const char *fmt, ...) TK_PRINTF(3, 4);
/* Checks a status against what was expected (`why` says why input is invalid): a status of
   the list, a failure naming func in a non-empty last error, valid input not refused and
   invalid input not accepted. Returns whether the call succeeded. */
bool judge(const char *func, px_status st, int exp, const char *why);
/* As judge, and a failure must be `want` (a px_status other than PX_OK). */
bool judge_status(const char *func, px_status st, px_status want, const char *why);

#endif /* PX_TESTS_FUZZ_H */
