/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Helpers shared by the Check suites.
 *
 * Every test body is written once and runs for the backend named by the environment
 * variable PX_TEST_BACKEND ("serial", the default, or "cuda"). Views that kernels touch
 * live in tk_space() (HOST for serial, DEVICE(0) for cuda); results come back through
 * HOST mirrors with px_deep_copy, so the same body checks both backends.
 *
 * A test program registers its tests by suite (tk_case, TK_ADD) and returns tk_run(),
 * which runs the suite named by CK_RUN_SUITE (or all of them). A suite may require
 * something (tk_require): where that is missing, the suite is not run and says why. A
 * test that finds at run time that it cannot check what it is about ends with TK_SKIP.
 * When nothing applicable ran, the program exits 77, which Meson reports as SKIP. */
#ifndef PX_TESTS_COMMON_H
#define PX_TESTS_COMMON_H

#include <check.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "portex.h"

#if defined(__GNUC__)
#define TK_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define TK_PRINTF(f, a)
#endif

/* ---- Backend under test -------------------------------------------------------------- */

px_exec_space tk_exec(void);
/* The memory space kernels of the backend under test use: HOST or DEVICE(0). */
px_space tk_space(void);
bool tk_is_cuda(void);
/* The backend under test runs a kernel's indices one after another, in order (serial). */
bool tk_in_order(void);
/* Whether the process runs under valgrind (PX_TEST_UNDER_VALGRIND set by the setup). */
bool tk_under_valgrind(void);
/* The default instance of the backend under test. */
px_instance *tk_inst(void);
/* The family of device code the backend under test runs (portex/impl/targets.h). */
px__kernel_target tk_target(void);
/* The most entries tk_without_entries keeps. */
#define TK_MAX_ENTRIES 16
/* A copy of kernel k without its entries for the backend under test (those of other
   targets kept, in `rows`): dispatching it there is PX_ERR_NOT_COMPILED. */
px_kernel tk_without_entries(px_kernel k, px__kernel_entry rows[TK_MAX_ENTRIES]);
/* How many entries of `kind` kernel k has for `target`. */
int tk_entries_of(const px_kernel *k, px__kernel_target target, px__entry_kind kind);
/* Kernel k's host RANGE entry (portex/impl/host/family.h), to run it on threads of a
   test's own; fails the test where it has none. */
px__host_range_fn tk_host_range(const px_kernel *k);

/* A whole-number environment variable within [lo, hi], else dflt. */
long long tk_env_ll(const char *name, long long lo, long long hi, long long dflt);

/* ---- Registering and running tests ------------------------------------------------------ */

/* A test case of `suite` (the suite is made at the first use of its name) with the fixture
 * (px_init before each test; after it, no view memory left and px_finalize succeeds) and a
 * 30 s timeout. */
TCase *tk_case(const char *suite, const char *name);
/* As tk_case without a fixture: the tests manage px_init/px_finalize, or the caller adds
 * a fixture of its own. */
TCase *tk_case_bare(const char *suite, const char *name);

/* TK_ADD(tc, test_a, test_b, ...): adds the START_TEST tests to a test case. */
#define TK_ADD(tc, ...) tk_add_tests((tc), (const TTest *const[]){__VA_ARGS__, NULL})
void tk_add_tests(TCase *tc, const TTest *const *tests);

/* A requirement returns NULL where the suite can run, else why it cannot. */
typedef const char *(*tk_requirement)(void);
void tk_require(const char *suite, tk_requirement why_not);
/* The backend under test is CUDA. */
const char *tk_need_cuda(void);

/* Runs the suites asked for (CK_RUN_SUITE, else all) whose requirements hold, and returns
 * the exit status: 0, 1 when a test failed, 77 (skip) when no applicable test ran: the
 * backend under test is not available here, every suite asked for lacks a requirement, or
 * every test that ran ended with TK_SKIP. The caller's main is `return tk_run();`. */
int tk_run(void);

/* The older form, for programs that build their suites themselves: a test case with the
 * fixture (not yet in a suite), and a main that runs the suites (CK_RUN_SUITE picks one),
 * exiting 77 where the backend is not available or every test skipped. */
TCase *tk_tcase(const char *name);
typedef Suite *(*tk_suite_fn)(void);
int tk_main(const tk_suite_fn *suites, int nsuites);

/* Ends the current test as skipped, saying why (printf format). Only in the body of a
 * START_TEST: it returns from it. */
#define TK_SKIP(...)               \
    do {                           \
        tk_skip_note(__VA_ARGS__); \
        return;                    \
    } while (0)
void tk_skip_note(const char *fmt, ...) TK_PRINTF(1, 2);

/* ---- Assertions ------------------------------------------------------------------------ */

/* ck_assert_msg without its per-call bookkeeping (a mark point each time, a pipe write
 * when forked): cheap enough for per-element checks. The format must be a literal. */
#define TK_ASSERT(cond, ...)                                           \
    do {                                                               \
        if (!(cond)) ck_abort_msg("'" #cond "' failed: " __VA_ARGS__); \
    } while (0)

/* expr must return PX_OK; on failure the message carries px_last_error(). */
#define TK_OK(expr)                                                                     \
    do {                                                                                \
        px_status tk_st_ = (expr);                                                      \
        TK_ASSERT(tk_st_ == PX_OK, "%s returned %s: %s", #expr, px_status_name(tk_st_), \
                  px_last_error());                                                     \
    } while (0)

/* expr must fail with `want`, and px_last_error() must name `func`. */
#define TK_FAIL(expr, want, func) TK_FAIL2(expr, want, want, func)

/* As TK_FAIL where the headers allow either of two statuses. */
#define TK_FAIL2(expr, want1, want2, func)                                                        \
    do {                                                                                          \
        px_clear_error();                                                                         \
        px_status tk_st_ = (expr);                                                                \
        if (tk_st_ != (want1) && tk_st_ != (want2))                                               \
            ck_abort_msg("%s returned %s, expected %s%s%s (last error: '%s')", #expr,             \
                         px_status_name(tk_st_), px_status_name(want1),                           \
                         (want1) == (want2) ? "" : " or ",                                        \
                         (want1) == (want2) ? "" : px_status_name(want2), px_last_error());       \
        if (strstr(px_last_error(), (func)) == NULL)                                              \
            ck_abort_msg("%s: last error '%s' does not name %s", #expr, px_last_error(), (func)); \
    } while (0)

/* The last error contains `needle` (case-insensitive). */
#define TK_ERROR_HAS(needle)                                                                      \
    TK_ASSERT(tk_contains_ci(px_last_error(), (needle)), "last error '%s' does not mention '%s'", \
              px_last_error(), (needle))

bool tk_contains_ci(const char *haystack, const char *needle);

/* Whether the last error names the public function `func` as the one that failed: it
 * starts with "func: " (the library's "function: message" form). Stricter than TK_FAIL's
 * substring test, which "px_partition_ex: ..." passes for "px_partition". */
bool tk_error_from(const char *func);

/* What px_print_configuration prints, as one string (free it). */
char *tk_configuration(void);

/* ---- Deterministic random inputs -------------------------------------------------------- */

typedef struct tk_rng {
    uint64_t s;
} tk_rng;

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

/* Uniform integer in [lo, hi] (any lo <= hi, the whole int64_t range included). */
static inline int64_t tk_int(tk_rng *r, int64_t lo, int64_t hi)
{
    const uint64_t span = (uint64_t)hi - (uint64_t)lo + 1u; /* 0: the whole range */
    const uint64_t x = span ? tk_next(r) % span : tk_next(r);
    return (int64_t)((uint64_t)lo + x);
}

/* Fills `bytes` with random bytes. */
void tk_random_bytes(tk_rng *r, void *dst, size_t bytes);
/* malloc'ed buffers (asserting success; free() them): n random bytes, and a copy of n bytes. */
unsigned char *tk_rand_buf(size_t n, uint64_t seed);
unsigned char *tk_dup_buf(const void *p, size_t n);

/* ---- Views ------------------------------------------------------------------------------ */

/* A zeroed descriptor of a rank-`rank` view of `dtype` in `space`; extents from the array. */
px_view_desc tk_desc(const char *label, px_space space, px_dtype dtype, int rank,
                     const int64_t *extent);

/* New views (each asserts success). elem_size is used for PX_USER only. */
px_view *tk_view(const char *label, px_space space, px_dtype dtype, int rank,
                 const int64_t *extent);
px_view *tk_view1(const char *label, px_space space, px_dtype dtype, int64_t n);
px_view *tk_view_ex(const char *label, px_space space, px_dtype dtype, size_t elem_size,
                    px_layout layout, int rank, const int64_t *extent, unsigned flags);
/* tk_view_ex filled with random bytes from `seed` (tk_fill_random). */
px_view *tk_view_random(const char *label, px_space space, px_dtype dtype, size_t elem_size,
                        px_layout layout, int rank, const int64_t *extent, uint64_t seed);
/* A view over the caller's memory. */
px_view *tk_wrap(const char *label, px_space space, px_dtype dtype, size_t elem_size,
                 px_layout layout, int rank, const int64_t *extent, void *data);
/* [off, off + n) of a 1-D view; rows [r0, r1) x columns [c0, c1) of a 2-D view. */
px_view *tk_sub1(px_view *v, int64_t off, int64_t n);
px_view *tk_sub2(px_view *v, int64_t r0, int64_t r1, int64_t c0, int64_t c1);

/* Releases every non-NULL view of the list: TK_RELEASE(a, b, c). */
#define TK_RELEASE(...)                                              \
    do {                                                             \
        px_view *tk_rel_[] = {__VA_ARGS__};                          \
        tk_release_all(tk_rel_, sizeof tk_rel_ / sizeof tk_rel_[0]); \
    } while (0)
void tk_release_all(px_view **views, size_t n);

px_view_info tk_info(const px_view *v);
/* Host pointer of a HOST or HOST_PINNED view. */
void *tk_data(const px_view *v);
bool tk_on_host(const px_view *v);

/* A HOST copy of any view (same extents and layout), made with px_deep_copy. */
px_view *tk_to_host(px_view *v);
/* v itself (one more reference) when the host can read it, else a HOST copy. */
px_view *tk_readable(px_view *v);
/* Copies host data (a HOST view with the same extents) into v. */
void tk_upload(px_view *dst, px_view *host_src);
/* A view in tk_space() holding a copy of the HOST view `host`. */
px_view *tk_on_space(px_view *host, const char *label);

/* Address of element number `flat`, counted in LAYOUT_RIGHT order of the extents, of a
 * view the host can read (any rank, strides and element size). */
unsigned char *tk_elem(const px_view_info *in, int64_t flat);

/* Random bytes in every element of a host view (any strides). */
void tk_randomize(px_view *v, uint64_t seed);
/* The same for a view of any space (a DEVICE view gets them through a HOST view). */
void tk_fill_random(px_view *v, uint64_t seed);

/* Views of any spaces hold the same elements (same rank, extents and element size). */
#define TK_SAME(a, b) tk_same((a), (b), __LINE__)
void tk_same(px_view *a, px_view *b, int line);
/* Every element of v (any space) is the element-size bytes at `value`. */
#define TK_ALL_ARE(v, value) tk_all_are((v), (value), __LINE__)
void tk_all_are(px_view *v, const void *value, int line);
/* A 2-D view `big` (any space) holds `block` at (r0, c0) and `before` everywhere else. */
#define TK_BLOCK_IN(big, before, block, r0, c0) \
    tk_block_in((big), (before), (block), (r0), (c0), __LINE__)
void tk_block_in(px_view *big, px_view *before, px_view *block, int64_t r0, int64_t c0, int line);

/* ---- Copies and fills, with the path they take ------------------------------------------- */

/* "Whatever px_deep_copy_query predicts" as the wanted path of TK_COPY. */
#define TK_ANY_PATH PX_COPY_PATH_COUNT

void tk_counts(uint64_t counts[PX_COPY_PATH_COUNT]);
/* Exactly `times` more of path `p` since `before`, nothing else. */
void tk_counted(const uint64_t *before, px_copy_path p, uint64_t times, int line);

/* Copies src into dst (blocking with inst NULL, else asynchronous on inst and a fence) and
 * checks that px_deep_copy_query predicts `want` (TK_ANY_PATH: any path), that the copy
 * takes and reports the predicted path, and that its counter alone goes up by one. Returns
 * the path. */
#define TK_COPY(inst, dst, src, want) tk_copy((inst), (dst), (src), (want), __LINE__)
px_copy_path tk_copy(px_instance *inst, px_view *dst, px_view *src, px_copy_path want, int line);
/* As TK_COPY for a fill of the element at `value`. */
#define TK_FILL(inst, dst, value, want) tk_fill((inst), (dst), (value), (want), __LINE__)
px_copy_path tk_fill(px_instance *inst, px_view *dst, const void *value, px_copy_path want,
                     int line);

/* ---- Instances -------------------------------------------------------------------------- */

/* A new instance of the backend under test on device 0, or of `exec` on `device`. */
px_instance *tk_instance(const char *label);
px_instance *tk_instance_on(px_exec_space exec, int device, const char *label);
/* Destroys n instances, checking that each handle is cleared. */
void tk_destroy_all(px_instance **insts, int n);

/* ---- Work in threads of the test ----------------------------------------------------------- */

/* Check's assertions are for the main thread. A thread records its first failure in a
 * tk_werr instead (later steps are skipped), and the main thread asserts on it. */
typedef struct tk_werr {
    bool failed;
    char msg[512];
} tk_werr;

/* expr (a px_status) must be PX_OK; not evaluated after a failure. */
#define TK_W_OK(w, expr)                                                                       \
    do {                                                                                       \
        if (!(w)->failed) {                                                                    \
            px_status tk_wst_ = (expr);                                                        \
            if (tk_wst_ != PX_OK)                                                              \
                tk_w_fail((w), "%s: %s: %s", #expr, px_status_name(tk_wst_), px_last_error()); \
        }                                                                                      \
    } while (0)
#define TK_W_CHECK(w, cond, ...)                                  \
    do {                                                          \
        if (!(w)->failed && !(cond)) tk_w_fail((w), __VA_ARGS__); \
    } while (0)
void tk_w_fail(tk_werr *w, const char *fmt, ...) TK_PRINTF(2, 3);

/* ---- Hangs fail instead of blocking ------------------------------------------------------- */

/* From tk_watchdog_start until tk_watchdog_stop: when no tk_watch call comes for `seconds`,
 * prints "hang: " and the last tk_watch description to stderr and exits the process with
 * status 1 (in a forked test that fails the test; unforked, the program). SIGALRM. */
void tk_watchdog_start(unsigned seconds);
void tk_watchdog_stop(void);
/* Marks progress and says what runs now (printf format, kept for the report). */
void tk_watch(const char *fmt, ...) TK_PRINTF(1, 2);

/* ---- Fixtures ------------------------------------------------------------------------------- */

/* The fixture of tk_case: px_init (no topology) before, and after: no view memory left in
 * HOST or tk_space(), px_finalize succeeds (so nothing is alive). */
void tk_setup(void);
void tk_teardown(void);

#endif /* PX_TESTS_COMMON_H */
