/* Helpers shared by the Check suites.
 *
 * Every test body is written once and runs for the backend named by the environment
 * variable PX_TEST_BACKEND ("serial", the default, or "cuda"). Views that kernels touch
 * live in tk_space() (HOST for serial, DEVICE(0) for cuda); results come back through
 * HOST mirrors with px_deep_copy, so the same body checks both backends. */
#ifndef PX_TESTS_COMMON_H
#define PX_TESTS_COMMON_H

#include <check.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "portex.h"

/* ---- Backend under test -------------------------------------------------------------- */

px_exec_space tk_exec(void);
/* The memory space kernels of the backend under test use: HOST or DEVICE(0). */
px_space tk_space(void);
bool tk_is_cuda(void);
/* Whether the process runs under valgrind (PX_TEST_UNDER_VALGRIND set by the setup). */
bool tk_under_valgrind(void);
/* The default instance of the backend under test. */
px_instance *tk_inst(void);

/* ---- Assertions ------------------------------------------------------------------------ */

/* ck_assert_msg without its per-call bookkeeping (a mark point each time, a pipe write
 * when forked): cheap enough for per-element checks. The format must be a literal. */
#define TK_ASSERT(cond, ...)                                                               \
    do {                                                                                   \
        if (!(cond)) ck_abort_msg("'" #cond "' failed: " __VA_ARGS__);                     \
    } while (0)

/* expr must return PX_OK; on failure the message carries px_last_error(). */
#define TK_OK(expr)                                                                        \
    do {                                                                                   \
        px_status tk_st_ = (expr);                                                         \
        TK_ASSERT(tk_st_ == PX_OK, "%s returned %s: %s", #expr, px_status_name(tk_st_), \
                      px_last_error());                                                    \
    } while (0)

/* expr must fail with `want`, and px_last_error() must name `func`. */
#define TK_FAIL(expr, want, func)                                                          \
    do {                                                                                   \
        px_clear_error();                                                                  \
        px_status tk_st_ = (expr);                                                         \
        TK_ASSERT(tk_st_ == (want), "%s returned %s, expected %s (last error: '%s')",  \
                      #expr, px_status_name(tk_st_), px_status_name(want), px_last_error()); \
        TK_ASSERT(strstr(px_last_error(), (func)) != NULL,                             \
                      "%s: last error '%s' does not name %s", #expr, px_last_error(), (func)); \
    } while (0)

/* As TK_FAIL where the headers allow either of two statuses. */
#define TK_FAIL2(expr, want1, want2, func)                                                 \
    do {                                                                                   \
        px_clear_error();                                                                  \
        px_status tk_st_ = (expr);                                                         \
        TK_ASSERT(tk_st_ == (want1) || tk_st_ == (want2),                              \
                      "%s returned %s, expected %s or %s (last error: '%s')", #expr,       \
                      px_status_name(tk_st_), px_status_name(want1), px_status_name(want2), \
                      px_last_error());                                                    \
        TK_ASSERT(strstr(px_last_error(), (func)) != NULL,                             \
                      "%s: last error '%s' does not name %s", #expr, px_last_error(), (func)); \
    } while (0)

/* The last error contains `needle` (case-insensitive). */
#define TK_ERROR_HAS(needle)                                                               \
    TK_ASSERT(tk_contains_ci(px_last_error(), (needle)),                               \
                  "last error '%s' does not mention '%s'", px_last_error(), (needle))

bool tk_contains_ci(const char *haystack, const char *needle);

/* ---- Deterministic random inputs -------------------------------------------------------- */

typedef struct tk_rng { uint64_t s; } tk_rng;

static inline tk_rng tk_rng_seed(uint64_t seed)
{
    tk_rng r;
    r.s = seed * 0x9e3779b97f4a7c15ull + 0x2545f4914f6cdd1dull;
    if (r.s == 0) r.s = 1;
    return r;
}

static inline uint64_t tk_next(tk_rng *r) /* xorshift64* */
{
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return r->s * 0x2545f4914f6cdd1dull;
}

/* Uniform in [lo, hi). */
static inline double tk_uniform(tk_rng *r, double lo, double hi)
{
    return lo + (hi - lo) * (double)(tk_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

/* Uniform integer in [lo, hi]. */
static inline int64_t tk_int(tk_rng *r, int64_t lo, int64_t hi)
{
    return lo + (int64_t)(tk_next(r) % (uint64_t)(hi - lo + 1));
}

/* Fills `bytes` with random bytes. */
void tk_random_bytes(tk_rng *r, void *dst, size_t bytes);

/* ---- Views ------------------------------------------------------------------------------ */

/* A zeroed descriptor of a rank-`rank` view of `dtype` in `space`; extents from the array. */
px_view_desc tk_desc(const char *label, px_space space, px_dtype dtype, int rank,
                     const int64_t *extent);

/* A 1-D view of n elements in `space` (asserts success). */
px_view *tk_view1(const char *label, px_space space, px_dtype dtype, int64_t n);
px_view *tk_view(const char *label, px_space space, px_dtype dtype, int rank,
                 const int64_t *extent);

px_view_info tk_info(const px_view *v);
/* Host pointer of a HOST view. */
void *tk_data(const px_view *v);

/* A HOST copy of any view (same extents and layout), made with px_deep_copy. */
px_view *tk_to_host(px_view *v);
/* Copies host data (a HOST view with the same extents) into v. */
void tk_upload(px_view *dst, px_view *host_src);
/* A view in tk_space() holding a copy of the HOST view `host`. */
px_view *tk_on_space(px_view *host, const char *label);

/* ---- Fixtures and main -------------------------------------------------------------------- */

/* Checked fixture: px_init (no topology) before, and after: no view memory left in HOST or
 * tk_space(), px_finalize succeeds (so nothing is alive). */
void tk_setup(void);
void tk_teardown(void);
/* A test case with the fixture and a timeout. */
TCase *tk_tcase(const char *name);

/* Runs the suites; exits 77 when the backend under test is not available here.
 * The caller's main is `return tk_main(argc, argv, suites, n);`. */
typedef Suite *(*tk_suite_fn)(void);
int tk_main(const tk_suite_fn *suites, int nsuites);

#endif /* PX_TESTS_COMMON_H */
