/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Helpers shared by the Check suites; see common.h. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */

#include "common.h"

#include <ctype.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

/* ---- Backend under test ------------------------------------------------------------------ */

static int backend_cached = -1;

px_exec_space tk_exec(void)
{
    if (backend_cached < 0) {
        const char *b = getenv("PX_TEST_BACKEND");
        backend_cached = !b                              ? PX_EXEC_SERIAL
                         : strcmp(b, "cuda") == 0        ? PX_EXEC_CUDA
                         : strncmp(b, "openmp", 6) == 0  ? PX_EXEC_OPENMP
                         : strncmp(b, "threads", 7) == 0 ? PX_EXEC_THREADS
                                                         : PX_EXEC_SERIAL;
    }
    return (px_exec_space)backend_cached;
}

bool tk_is_cuda(void) { return tk_exec() == PX_EXEC_CUDA; }

bool tk_in_order(void) { return tk_exec() == PX_EXEC_SERIAL; }

px_space tk_space(void) { return tk_is_cuda() ? px_device(0) : px_host(); }

px__kernel_target tk_target(void) { return tk_is_cuda() ? PX__TARGET_CUDA : PX__TARGET_HOST; }

px_kernel tk_without_entries(px_kernel k, px__kernel_entry rows[TK_MAX_ENTRIES])
{
    ck_assert_int_le(k.entry_count, TK_MAX_ENTRIES);
    int n = 0;
    for (int i = 0; i < k.entry_count; ++i)
        if (k.entries[i].target != tk_target()) rows[n++] = k.entries[i];
    k.entries = rows;
    k.entry_count = n;
    return k;
}

px__host_range_fn tk_host_range(const px_kernel *k)
{
    for (int i = 0; i < k->entry_count; ++i)
        if (k->entries[i].target == PX__TARGET_HOST && k->entries[i].kind == PX__ENTRY_RANGE)
            return (px__host_range_fn)k->entries[i].fn;
    ck_abort_msg("kernel '%s' has no host entry", k->name);
    return NULL;
}

int tk_entries_of(const px_kernel *k, px__kernel_target target, px__entry_kind kind)
{
    int n = 0;
    for (int i = 0; i < k->entry_count; ++i)
        n += k->entries[i].target == target && k->entries[i].kind == kind;
    return n;
}

bool tk_under_valgrind(void)
{
    const char *v = getenv("PX_TEST_UNDER_VALGRIND");
    return v && *v && strcmp(v, "0") != 0;
}

px_instance *tk_inst(void)
{
    px_instance *inst = NULL;
    TK_OK(px_instance_default(tk_exec(), 0, &inst));
    ck_assert_ptr_nonnull(inst);
    return inst;
}

long long tk_env_ll(const char *name, long long lo, long long hi, long long dflt)
{
    const char *v = getenv(name);
    if (!v || !*v) return dflt;
    char *end = NULL;
    const long long x = strtoll(v, &end, 10);
    return (end && *end == '\0' && x >= lo && x <= hi) ? x : dflt;
}

/* ---- Registering and running tests ---------------------------------------------------------- */

enum { MAX_SUITES = 16 };

typedef struct tk_suite_entry {
    const char *name;
    Suite *suite;
    tk_requirement why_not;
} tk_suite_entry;

/* Suites that are not run stay reachable from here (Check cannot free a suite alone). */
static tk_suite_entry suites[MAX_SUITES];
static int nsuites;

static tk_suite_entry *suite_named(const char *name)
{
    for (int i = 0; i < nsuites; ++i)
        if (strcmp(suites[i].name, name) == 0) return &suites[i];
    if (nsuites == MAX_SUITES) {
        fprintf(stderr, "tests: more than %d suites in one program\n", MAX_SUITES);
        exit(EXIT_FAILURE);
    }
    tk_suite_entry *e = &suites[nsuites++];
    e->name = name;
    e->suite = suite_create(name);
    e->why_not = NULL;
    return e;
}

TCase *tk_case_bare(const char *suite, const char *name)
{
    TCase *tc = tcase_create(name);
    tcase_set_timeout(tc, 30);
    suite_add_tcase(suite_named(suite)->suite, tc);
    return tc;
}

TCase *tk_case(const char *suite, const char *name)
{
    TCase *tc = tk_case_bare(suite, name);
    tcase_add_checked_fixture(tc, tk_setup, tk_teardown);
    return tc;
}

void tk_add_tests(TCase *tc, const TTest *const *tests)
{
    for (; *tests; ++tests) tcase_add_test(tc, *tests);
}

void tk_require(const char *suite, tk_requirement why_not)
{
    suite_named(suite)->why_not = why_not;
}

const char *tk_need_cuda(void)
{
    return tk_is_cuda() ? NULL : "the suite runs on the CUDA backend only (PX_TEST_BACKEND=cuda)";
}

/* Skips noted by tests. Shared with the forked child that runs each test, so that the
 * parent can count them. */
typedef struct skip_record {
    int count;
    char first[512];
} skip_record;

static skip_record skip_local;
static skip_record *skips = &skip_local;

void tk_skip_note(const char *fmt, ...)
{
    char why[384];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    fprintf(stderr, "skip: %s: %s\n", tcase_name(), why);
    if (skips->count++ == 0)
        snprintf(skips->first, sizeof skips->first, "%s: %s", tcase_name(), why);
}

/* 77 when the backend under test cannot run here, else 0. */
static int backend_unavailable(void)
{
    if (!tk_is_cuda()) return 0;
    if (tk_under_valgrind()) {
        fprintf(stderr,
                "skip: the CUDA suites do not run under valgrind (use compute-sanitizer)\n");
        return 77;
    }
    /* No fork for CUDA: a context made before fork() is unusable in the child. */
    px_status st = px_init(NULL);
    if (st == PX_OK) {
        st = px_exec_space_check(PX_EXEC_CUDA);
        if (px_finalize() != PX_OK) st = PX_ERR_BUSY;
    }
    if (st != PX_OK) {
        fprintf(stderr, "skip: CUDA is not available here: %s (%s)\n", px_status_name(st),
                px_last_error());
        return 77;
    }
    return 0;
}

/* Runs what sr holds; the exit status as tk_run says. */
static int run_runner(SRunner *sr)
{
    void *shared =
        mmap(NULL, sizeof(skip_record), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (shared != MAP_FAILED) skips = shared;
    skips->count = 0;
    if (tk_is_cuda()) srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_NORMAL);
    const int failed = srunner_ntests_failed(sr), ran = srunner_ntests_run(sr);
    srunner_free(sr);
    const int skipped = skips->count;
    char first[sizeof skips->first];
    snprintf(first, sizeof first, "%s", skips->first);
    if (shared != MAP_FAILED) munmap(shared, sizeof(skip_record));
    skips = &skip_local;

    if (failed) return EXIT_FAILURE;
    if (skipped > 0 && skipped >= ran) {
        fprintf(stderr, "skip: all %d tests skipped (%s)\n", ran, first);
        return 77;
    }
    if (skipped > 0) fprintf(stderr, "note: %d of %d tests skipped (%s)\n", skipped, ran, first);
    return EXIT_SUCCESS;
}

int tk_run(void)
{
    const char *only = getenv("CK_RUN_SUITE");
    if (only && !*only) only = NULL;
    bool found = only == NULL;
    for (int i = 0; i < nsuites && !found; ++i) found = strcmp(suites[i].name, only) == 0;
    if (!found) {
        fprintf(stderr, "error: this program has no suite named '%s'\n", only);
        return EXIT_FAILURE;
    }
    const int unavailable = backend_unavailable();
    if (unavailable) return unavailable;

    SRunner *sr = NULL;
    for (int i = 0; i < nsuites; ++i) {
        if (only && strcmp(suites[i].name, only) != 0) continue;
        const char *why = suites[i].why_not ? suites[i].why_not() : NULL;
        if (why) {
            fprintf(stderr, "skip: suite %s: %s\n", suites[i].name, why);
            continue;
        }
        if (!sr)
            sr = srunner_create(suites[i].suite);
        else
            srunner_add_suite(sr, suites[i].suite);
    }
    return sr ? run_runner(sr) : 77;
}

TCase *tk_tcase(const char *name)
{
    TCase *tc = tcase_create(name);
    tcase_add_checked_fixture(tc, tk_setup, tk_teardown);
    tcase_set_timeout(tc, 30);
    return tc;
}

int tk_main(const tk_suite_fn *fns, int n)
{
    const int unavailable = backend_unavailable();
    if (unavailable) return unavailable;
    SRunner *sr = srunner_create(fns[0]());
    for (int i = 1; i < n; ++i) srunner_add_suite(sr, fns[i]());
    return run_runner(sr);
}

/* ---- Assertions ------------------------------------------------------------------------------- */

bool tk_contains_ci(const char *h, const char *n)
{
    if (!h || !n) return false;
    size_t hn = strlen(h), nn = strlen(n);
    if (nn == 0) return true;
    for (size_t i = 0; i + nn <= hn; ++i) {
        size_t k = 0;
        while (k < nn && tolower((unsigned char)h[i + k]) == tolower((unsigned char)n[k])) ++k;
        if (k == nn) return true;
    }
    return false;
}

bool tk_error_from(const char *func)
{
    const char *e = px_last_error();
    const size_t n = strlen(func);
    return strncmp(e, func, n) == 0 && e[n] == ':' && e[n + 1] == ' ';
}

char *tk_configuration(void)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    ck_assert_ptr_nonnull(f);
    TK_OK(px_print_configuration(f));
    ck_assert_int_eq(fclose(f), 0);
    return buf;
}

/* ---- Random inputs ------------------------------------------------------------------------------ */

void tk_random_bytes(tk_rng *r, void *dst, size_t bytes)
{
    unsigned char *p = (unsigned char *)dst;
    while (bytes > 0) {
        uint64_t x = tk_next(r);
        size_t n = bytes < 8 ? bytes : 8;
        memcpy(p, &x, n);
        p += n;
        bytes -= n;
    }
}

unsigned char *tk_rand_buf(size_t n, uint64_t seed)
{
    unsigned char *p = malloc(n);
    ck_assert_ptr_nonnull(p);
    tk_rng r = tk_rng_seed(seed);
    tk_random_bytes(&r, p, n);
    return p;
}

unsigned char *tk_dup_buf(const void *p, size_t n)
{
    unsigned char *q = malloc(n);
    ck_assert_ptr_nonnull(q);
    memcpy(q, p, n);
    return q;
}

/* ---- Views ----------------------------------------------------------------------------------- */

px_view_desc tk_desc(const char *label, px_space space, px_dtype dtype, int rank,
                     const int64_t *extent)
{
    px_view_desc d;
    memset(&d, 0, sizeof d);
    d.label = label;
    d.space = space;
    d.dtype = dtype;
    d.rank = rank;
    for (int k = 0; k < rank && k < PX_MAX_RANK; ++k) d.extent[k] = extent[k];
    return d;
}

px_view *tk_view_ex(const char *label, px_space space, px_dtype dtype, size_t elem_size,
                    px_layout layout, int rank, const int64_t *extent, unsigned flags)
{
    px_view_desc d = tk_desc(label, space, dtype, rank, extent);
    d.elem_size = dtype == PX_USER ? elem_size : 0;
    d.layout = layout;
    d.flags = flags;
    px_view *v = NULL;
    TK_OK(px_view_create(&v, &d));
    ck_assert_ptr_nonnull(v);
    return v;
}

px_view *tk_view_random(const char *label, px_space space, px_dtype dtype, size_t elem_size,
                        px_layout layout, int rank, const int64_t *extent, uint64_t seed)
{
    px_view *v = tk_view_ex(label, space, dtype, elem_size, layout, rank, extent, 0);
    tk_fill_random(v, seed);
    return v;
}

px_view *tk_view(const char *label, px_space space, px_dtype dtype, int rank, const int64_t *extent)
{
    return tk_view_ex(label, space, dtype, 0, PX_LAYOUT_RIGHT, rank, extent, 0);
}

px_view *tk_view1(const char *label, px_space space, px_dtype dtype, int64_t n)
{
    return tk_view(label, space, dtype, 1, &n);
}

px_view *tk_wrap(const char *label, px_space space, px_dtype dtype, size_t elem_size,
                 px_layout layout, int rank, const int64_t *extent, void *data)
{
    px_view_desc d = tk_desc(label, space, dtype, rank, extent);
    d.elem_size = dtype == PX_USER ? elem_size : 0;
    d.layout = layout;
    px_view *v = NULL;
    TK_OK(px_view_wrap(&v, &d, data));
    ck_assert_ptr_nonnull(v);
    return v;
}

px_view *tk_sub1(px_view *v, int64_t off, int64_t n)
{
    px_slice s = px_slice_range(off, off + n);
    px_view *out = NULL;
    TK_OK(px_view_subview(&out, v, &s, 1));
    return out;
}

px_view *tk_sub2(px_view *v, int64_t r0, int64_t r1, int64_t c0, int64_t c1)
{
    px_slice sl[2] = {px_slice_range(r0, r1), px_slice_range(c0, c1)};
    px_view *s = NULL;
    TK_OK(px_view_subview(&s, v, sl, 2));
    return s;
}

void tk_release_all(px_view **v, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        if (v[i]) TK_OK(px_view_release(&v[i]));
}

px_view_info tk_info(const px_view *v)
{
    px_view_info info;
    memset(&info, 0, sizeof info);
    TK_OK(px_view_info_get(v, &info));
    return info;
}

bool tk_on_host(const px_view *v) { return tk_info(v).space.kind != PX_SPACE_DEVICE; }

void *tk_data(const px_view *v)
{
    px_view_info info = tk_info(v);
    TK_ASSERT(info.space.kind != PX_SPACE_DEVICE, "tk_data on a DEVICE view");
    return info.data;
}

px_view *tk_to_host(px_view *v)
{
    px_view *h = NULL;
    TK_OK(px_view_create_mirror(&h, px_host(), v));
    TK_OK(px_deep_copy(h, v, NULL));
    return h;
}

px_view *tk_readable(px_view *v)
{
    if (tk_on_host(v)) {
        TK_OK(px_view_retain(v));
        return v;
    }
    return tk_to_host(v);
}

void tk_upload(px_view *dst, px_view *host_src) { TK_OK(px_deep_copy(dst, host_src, NULL)); }

px_view *tk_on_space(px_view *host, const char *label)
{
    px_view_info hi = tk_info(host);
    px_view *v = tk_view_ex(label, tk_space(), hi.dtype, hi.elem_size,
                            hi.layout == PX_LAYOUT_LEFT ? PX_LAYOUT_LEFT : PX_LAYOUT_RIGHT, hi.rank,
                            hi.extent, PX_VIEW_NO_INIT);
    TK_OK(px_deep_copy(v, host, NULL));
    return v;
}

unsigned char *tk_elem(const px_view_info *in, int64_t flat)
{
    int64_t off = 0;
    for (int d = in->rank - 1; d >= 0; --d) {
        const int64_t e = in->extent[d];
        off += (flat % e) * in->stride[d];
        flat /= e;
    }
    return (unsigned char *)in->data + off * (int64_t)in->elem_size;
}

void tk_randomize(px_view *v, uint64_t seed)
{
    px_view_info in = tk_info(v);
    TK_ASSERT(in.space.kind != PX_SPACE_DEVICE, "tk_randomize on a DEVICE view");
    tk_rng r = tk_rng_seed(seed);
    if (in.contiguous) {
        tk_random_bytes(&r, in.data, in.bytes);
        return;
    }
    for (int64_t i = 0; i < in.size; ++i) tk_random_bytes(&r, tk_elem(&in, i), in.elem_size);
}

void tk_fill_random(px_view *v, uint64_t seed)
{
    if (tk_on_host(v)) {
        tk_randomize(v, seed);
        return;
    }
    px_view *h = NULL;
    TK_OK(px_view_create_mirror(&h, px_host(), v));
    tk_randomize(h, seed);
    TK_OK(px_deep_copy(v, h, NULL));
    TK_OK(px_view_release(&h));
}

static void same_host(const px_view *a, const px_view *b, int line)
{
    px_view_info ia = tk_info(a), ib = tk_info(b);
    TK_ASSERT(ia.rank == ib.rank && ia.elem_size == ib.elem_size && ia.size == ib.size,
              "line %d: '%s' and '%s' differ in shape", line, ia.label, ib.label);
    for (int d = 0; d < ia.rank; ++d)
        TK_ASSERT(ia.extent[d] == ib.extent[d], "line %d: extent %d differs", line, d);
    bool flat = ia.contiguous && ib.contiguous;
    for (int d = 0; d < ia.rank && flat; ++d)
        if (ia.extent[d] > 1 && ia.stride[d] != ib.stride[d]) flat = false;
    if (flat && (ia.bytes == 0 || memcmp(ia.data, ib.data, ia.bytes) == 0)) return;
    for (int64_t i = 0; i < ia.size; ++i)
        TK_ASSERT(memcmp(tk_elem(&ia, i), tk_elem(&ib, i), ia.elem_size) == 0,
                  "line %d: element %lld of '%s' and '%s' differs (of %lld)", line, (long long)i,
                  ia.label, ib.label, (long long)ia.size);
}

void tk_same(px_view *a, px_view *b, int line)
{
    px_view *ha = tk_readable(a), *hb = tk_readable(b);
    same_host(ha, hb, line);
    TK_RELEASE(ha, hb);
}

void tk_all_are(px_view *v, const void *value, int line)
{
    px_view *h = tk_readable(v);
    px_view_info in = tk_info(h);
    for (int64_t i = 0; i < in.size; ++i)
        TK_ASSERT(memcmp(tk_elem(&in, i), value, in.elem_size) == 0,
                  "line %d: element %lld of '%s'", line, (long long)i, in.label);
    TK_RELEASE(h);
}

void tk_block_in(px_view *big, px_view *before, px_view *block, int64_t r0, int64_t c0, int line)
{
    px_view *hb = tk_readable(big), *hs = tk_readable(before), *hk = tk_readable(block);
    px_view_info ib = tk_info(hb), is = tk_info(hs), ik = tk_info(hk);
    const size_t es = ib.elem_size;
    for (int64_t i = 0; i < ib.extent[0]; ++i)
        for (int64_t j = 0; j < ib.extent[1]; ++j) {
            const bool in = i >= r0 && i < r0 + ik.extent[0] && j >= c0 && j < c0 + ik.extent[1];
            const unsigned char *got = tk_elem(&ib, i * ib.extent[1] + j);
            const unsigned char *want = in ? tk_elem(&ik, (i - r0) * ik.extent[1] + (j - c0))
                                           : tk_elem(&is, i * is.extent[1] + j);
            TK_ASSERT(memcmp(got, want, es) == 0, "line %d: (%lld,%lld) %s the block is wrong",
                      line, (long long)i, (long long)j, in ? "inside" : "outside");
        }
    TK_RELEASE(hb, hs, hk);
}

/* ---- Copies and fills ------------------------------------------------------------------------ */

void tk_counts(uint64_t c[PX_COPY_PATH_COUNT]) { TK_OK(px_copy_path_counts(c)); }

void tk_counted(const uint64_t *before, px_copy_path p, uint64_t times, int line)
{
    uint64_t after[PX_COPY_PATH_COUNT];
    tk_counts(after);
    for (int k = 0; k < PX_COPY_PATH_COUNT; ++k) {
        const uint64_t want = before[k] + ((int)p == k ? times : 0);
        TK_ASSERT(after[k] == want, "line %d: count of %s went %llu -> %llu, expected %llu", line,
                  px_copy_path_string((px_copy_path)k), (unsigned long long)before[k],
                  (unsigned long long)after[k], (unsigned long long)want);
    }
}

px_copy_path tk_copy(px_instance *inst, px_view *dst, px_view *src, px_copy_path want, int line)
{
    px_copy_path q = PX_COPY_PATH_COUNT, p = PX_COPY_PATH_COUNT;
    TK_OK(px_deep_copy_query(dst, src, &q));
    TK_ASSERT(q < PX_COPY_PATH_COUNT && (want == TK_ANY_PATH || q == want),
              "line %d: query of '%s' <- '%s' says %s, expected %s", line, tk_info(dst).label,
              tk_info(src).label, px_copy_path_string(q),
              want == TK_ANY_PATH ? "a path" : px_copy_path_string(want));
    uint64_t before[PX_COPY_PATH_COUNT];
    tk_counts(before);
    if (inst) {
        TK_OK(px_deep_copy_async(inst, dst, src, &p));
        TK_OK(px_instance_fence(inst));
    } else {
        TK_OK(px_deep_copy(dst, src, &p));
    }
    TK_ASSERT(p == q, "line %d: copy '%s' <- '%s' took %s, the query said %s", line,
              tk_info(dst).label, tk_info(src).label, px_copy_path_string(p),
              px_copy_path_string(q));
    tk_counted(before, q, 1, line);
    return p;
}

px_copy_path tk_fill(px_instance *inst, px_view *dst, const void *value, px_copy_path want,
                     int line)
{
    uint64_t before[PX_COPY_PATH_COUNT];
    tk_counts(before);
    px_copy_path p = PX_COPY_PATH_COUNT;
    if (inst) {
        TK_OK(px_fill_async(inst, dst, value, &p));
        TK_OK(px_instance_fence(inst));
    } else {
        TK_OK(px_fill(dst, value, &p));
    }
    TK_ASSERT(p == want, "line %d: fill of '%s' took %s, expected %s", line, tk_info(dst).label,
              px_copy_path_string(p), px_copy_path_string(want));
    tk_counted(before, want, 1, line);
    return p;
}

/* ---- Instances --------------------------------------------------------------------------------- */

px_instance *tk_instance_on(px_exec_space exec, int device, const char *label)
{
    px_instance_desc d;
    memset(&d, 0, sizeof d);
    d.exec = exec;
    d.device = device;
    d.label = label;
    px_instance *in = NULL;
    TK_OK(px_instance_create(&in, &d));
    ck_assert_ptr_nonnull(in);
    return in;
}

px_instance *tk_instance(const char *label) { return tk_instance_on(tk_exec(), 0, label); }

void tk_destroy_all(px_instance **insts, int n)
{
    for (int i = 0; i < n; ++i) {
        TK_OK(px_instance_destroy(&insts[i]));
        ck_assert_ptr_null(insts[i]);
    }
}

/* ---- Threads ------------------------------------------------------------------------------------- */

void tk_w_fail(tk_werr *w, const char *fmt, ...)
{
    if (w->failed) return;
    w->failed = true;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->msg, sizeof w->msg, fmt, ap);
    va_end(ap);
}

/* ---- Watchdog ---------------------------------------------------------------------------------- */

static atomic_ulong wd_progress;
static unsigned long wd_seen;
static unsigned wd_seconds;
static char wd_what[1024];
static struct sigaction wd_saved;

static void wd_alarm(int sig)
{
    (void)sig;
    const unsigned long now = atomic_load_explicit(&wd_progress, memory_order_relaxed);
    if (now != wd_seen) {
        wd_seen = now;
        alarm(wd_seconds);
        return;
    }
    static const char head[] = "hang: no progress in the watchdog's time; last running: ";
    size_t n = 0;
    while (n < sizeof wd_what && wd_what[n]) ++n;
    if (write(STDERR_FILENO, head, sizeof head - 1) < 0 || write(STDERR_FILENO, wd_what, n) < 0 ||
        write(STDERR_FILENO, "\n", 1) < 0)
        _exit(EXIT_FAILURE);
    _exit(EXIT_FAILURE);
}

void tk_watchdog_start(unsigned seconds)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = wd_alarm;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, &wd_saved);
    wd_seconds = seconds ? seconds : 1;
    wd_seen = atomic_load(&wd_progress) - 1; /* the first alarm sees progress */
    snprintf(wd_what, sizeof wd_what, "%s", "(nothing yet)");
    alarm(wd_seconds);
}

void tk_watchdog_stop(void)
{
    alarm(0);
    sigaction(SIGALRM, &wd_saved, NULL);
}

void tk_watch(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(wd_what, sizeof wd_what, fmt, ap);
    va_end(ap);
    atomic_fetch_add_explicit(&wd_progress, 1, memory_order_relaxed);
}

/* ---- Fixtures ------------------------------------------------------------------------------ */

/* After a failed test (no fork: the same process runs the next test) portex may still be
 * initialised with the failed test's objects alive. The next tests then measure against
 * what was left instead of failing in turn. */
static bool dirty;
static size_t base_host, base_space;

static size_t bytes_in_use(px_space sp)
{
    px_memory_stats ms;
    TK_OK(px_space_memory(sp, &ms));
    return ms.bytes_in_use;
}

void tk_setup(void)
{
    px_init_options o;
    memset(&o, 0, sizeof o);
    o.skip_topology = true;
    dirty = px_is_initialized();
    TK_OK(px_init(&o));
    base_host = bytes_in_use(px_host());
    base_space = tk_is_cuda() ? bytes_in_use(tk_space()) : base_host;
    px_clear_error();
}

void tk_teardown(void)
{
    size_t host = bytes_in_use(px_host());
    size_t space = tk_is_cuda() ? bytes_in_use(tk_space()) : host;
    px_status st = px_finalize();
    TK_ASSERT(host == base_host, "%zu bytes of HOST views left by the test", host - base_host);
    TK_ASSERT(space == base_space, "%zu bytes of DEVICE views left by the test",
              space - base_space);
    if (!dirty) {
        TK_ASSERT(st == PX_OK, "px_finalize: %s: %s", px_status_name(st), px_last_error());
        ck_assert(!px_is_initialized());
    }
}
