/* Helpers shared by the Check suites; see common.h. */
#include "common.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>

static int backend_cached = -1;

px_exec_space tk_exec(void)
{
    if (backend_cached < 0) {
        const char *b = getenv("PX_TEST_BACKEND");
        backend_cached = (b && strcmp(b, "cuda") == 0) ? PX_EXEC_CUDA : PX_EXEC_SERIAL;
    }
    return (px_exec_space)backend_cached;
}

bool tk_is_cuda(void) { return tk_exec() == PX_EXEC_CUDA; }

px_space tk_space(void) { return tk_is_cuda() ? px_device(0) : px_host(); }

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

px_view *tk_view(const char *label, px_space space, px_dtype dtype, int rank,
                 const int64_t *extent)
{
    px_view_desc d = tk_desc(label, space, dtype, rank, extent);
    px_view *v = NULL;
    TK_OK(px_view_create(&v, &d));
    ck_assert_ptr_nonnull(v);
    return v;
}

px_view *tk_view1(const char *label, px_space space, px_dtype dtype, int64_t n)
{
    return tk_view(label, space, dtype, 1, &n);
}

px_view_info tk_info(const px_view *v)
{
    px_view_info info;
    memset(&info, 0, sizeof info);
    TK_OK(px_view_info_get(v, &info));
    return info;
}

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

void tk_upload(px_view *dst, px_view *host_src) { TK_OK(px_deep_copy(dst, host_src, NULL)); }

px_view *tk_on_space(px_view *host, const char *label)
{
    px_view_info hi = tk_info(host);
    px_view_desc d;
    memset(&d, 0, sizeof d);
    d.label = label;
    d.space = tk_space();
    d.dtype = hi.dtype;
    d.elem_size = hi.elem_size;
    d.rank = hi.rank;
    for (int k = 0; k < hi.rank; ++k) d.extent[k] = hi.extent[k];
    d.layout = hi.layout == PX_LAYOUT_LEFT ? PX_LAYOUT_LEFT : PX_LAYOUT_RIGHT;
    d.flags = PX_VIEW_NO_INIT;
    px_view *v = NULL;
    TK_OK(px_view_create(&v, &d));
    TK_OK(px_deep_copy(v, host, NULL));
    return v;
}

/* ---- Fixtures -------------------------------------------------------------------------- */

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
    TK_ASSERT(host == base_host, "%zu bytes of HOST views left by the test",
                  host - base_host);
    TK_ASSERT(space == base_space, "%zu bytes of DEVICE views left by the test",
                  space - base_space);
    if (!dirty) {
        TK_ASSERT(st == PX_OK, "px_finalize: %s: %s", px_status_name(st), px_last_error());
        ck_assert(!px_is_initialized());
    }
}

TCase *tk_tcase(const char *name)
{
    TCase *tc = tcase_create(name);
    tcase_add_checked_fixture(tc, tk_setup, tk_teardown);
    tcase_set_timeout(tc, 30);
    return tc;
}

/* ---- main --------------------------------------------------------------------------------- */

int tk_main(const tk_suite_fn *suites, int nsuites)
{
    if (tk_is_cuda()) {
        if (tk_under_valgrind()) {
            fprintf(stderr, "skip: the CUDA suites do not run under valgrind "
                            "(use compute-sanitizer)\n");
            return 77;
        }
        /* No fork for CUDA: a context made before fork() is unusable in the child. */
        px_status st = px_init(NULL);
        if (st == PX_OK) {
            st = px_exec_space_available(PX_EXEC_CUDA);
            if (px_finalize() != PX_OK) st = PX_ERR_BUSY;
        }
        if (st != PX_OK) {
            fprintf(stderr, "skip: CUDA is not available here: %s (%s)\n",
                    px_status_name(st), px_last_error());
            return 77;
        }
    }

    SRunner *sr = srunner_create(suites[0]());
    for (int i = 1; i < nsuites; ++i) srunner_add_suite(sr, suites[i]());
    if (tk_is_cuda()) srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
