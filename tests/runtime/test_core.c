/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Library lifetime, status codes, errors, version, configuration report, execution spaces
 * and the default execution space. */
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv */
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "common.h"

/* ---- init / finalize ------------------------------------------------------------------------ */

START_TEST(init_refcount)
{
    ck_assert(!px_is_initialized());
    /* Not initialised: refused, harmless. */
    TK_FAIL(px_finalize(), PX_ERR_NOT_INITIALIZED, "px_finalize");
    ck_assert(!px_is_initialized());

    TK_OK(px_init(NULL));
    ck_assert(px_is_initialized());
    TK_OK(px_init(NULL)); /* a second init is one more reference */
    ck_assert(px_is_initialized());
    TK_OK(px_finalize());
    ck_assert(px_is_initialized());
    TK_OK(px_finalize());
    ck_assert(!px_is_initialized());
    TK_FAIL(px_finalize(), PX_ERR_NOT_INITIALIZED, "px_finalize");

    /* Again after a full teardown, with options. */
    px_init_options o;
    memset(&o, 0, sizeof o);
    o.skip_topology = true;
    TK_OK(px_init(&o));
    ck_assert(px_is_initialized());
    px_view *v = tk_view1("after_reinit", px_host(), PX_F64, 3);
    px_view_release(&v);
    TK_OK(px_finalize());
    ck_assert(!px_is_initialized());
}
END_TEST

/* Objects cannot be made before px_init. */
START_TEST(not_initialized)
{
    ck_assert(!px_is_initialized());
    px_view *v = NULL;
    int64_t n = 4;
    px_view_desc d = tk_desc("early", px_host(), PX_F64, 1, &n);
    TK_FAIL(px_view_create(&v, &d), PX_ERR_NOT_INITIALIZED, "px_view_create");
    ck_assert_ptr_null(v);
    double buf[4];
    TK_FAIL(px_view_wrap(&v, &d, buf), PX_ERR_NOT_INITIALIZED, "px_view_wrap");
    ck_assert_ptr_null(v);
    px_instance *inst = NULL;
    px_instance_desc id;
    memset(&id, 0, sizeof id);
    id.exec = PX_EXEC_SERIAL;
    TK_FAIL(px_instance_create(&inst, &id), PX_ERR_NOT_INITIALIZED, "px_instance_create");
    TK_FAIL(px_instance_default(PX_EXEC_SERIAL, 0, &inst), PX_ERR_NOT_INITIALIZED,
            "px_instance_default");
    TK_FAIL(px_fence_all(), PX_ERR_NOT_INITIALIZED, "px_fence_all");
    ck_assert_ptr_null(inst);
    ck_assert(!px_is_initialized());
}
END_TEST

/* px_finalize refuses while objects live, names them, and succeeds once they are gone. */
START_TEST(finalize_busy_names_objects)
{
    TK_OK(px_init(NULL));
    px_view *v = tk_view1("leaky_view", tk_space(), PX_F64, 100);
    px_slice sl = px_slice_range(1, 5);
    px_view *sub = NULL;
    TK_OK(px_view_subview(&sub, v, &sl, 1));
    px_instance *inst = tk_instance("leaky_inst");
    px_event *ev = NULL;
    TK_OK(px_event_create(&ev, inst, 0));

    TK_FAIL(px_finalize(), PX_ERR_BUSY, "px_finalize");
    /* "px_finalize: still alive: ...", the function first as in every message (the
       substring test above is also met by "... call px_finalize again"). */
    TK_ASSERT(tk_error_from("px_finalize"), "'%s' does not start with 'px_finalize: '",
              px_last_error());
    TK_ERROR_HAS("leaky_view");
    TK_ERROR_HAS("leaky_inst");
    TK_ERROR_HAS("event");
    ck_assert(px_is_initialized());

    /* Nothing was torn down: the objects still work. */
    px_view_info info = tk_info(v);
    ck_assert_int_eq(info.extent[0], 100);
    TK_OK(px_instance_fence(inst));
    TK_OK(px_event_record(ev, inst));
    TK_OK(px_event_synchronize(ev));

    px_view_release(&v);
    px_view_release(&sub);
    TK_FAIL(px_finalize(), PX_ERR_BUSY, "px_finalize");
    TK_ASSERT(!tk_contains_ci(px_last_error(), "leaky_view"), "released view still named: %s",
              px_last_error());
    TK_ERROR_HAS("leaky_inst");

    TK_OK(px_event_destroy(&ev));
    TK_OK(px_instance_destroy(&inst));
    TK_OK(px_finalize());
    ck_assert(!px_is_initialized());
}
END_TEST

/* The live-object registry (what px_finalize names) from several threads at once: views,
 * instances and events made and released in varying orders. Every list update must hold
 * the registry's lock; ThreadSanitizer (the CI build) reports any access that does not. */
typedef struct registry_job {
    int id;
    tk_werr err;
} registry_job;

static void *registry_worker(void *arg)
{
    registry_job *j = arg;
    const int64_t n = 3;
    px_view_desc d = tk_desc("registry_view", px_host(), PX_U8, 1, &n);
    px_instance_desc id;
    memset(&id, 0, sizeof id);
    id.exec = PX_EXEC_SERIAL;
    id.label = "registry_instance";
    for (int k = 0; k < 2000 && !j->err.failed; ++k) {
        px_view *v[3] = {NULL, NULL, NULL};
        px_instance *in = NULL;
        px_event *ev = NULL;
        for (int i = 0; i < 3; ++i) TK_W_OK(&j->err, px_view_create(&v[i], &d));
        TK_W_OK(&j->err, px_instance_create(&in, &id));
        if (in) TK_W_OK(&j->err, px_event_create(&ev, in, 0));
        /* Released in an order that depends on the round: first, middle or last of the list. */
        const int first = (k + j->id) % 3;
        for (int i = 0; i < 3; ++i)
            if (v[(first + i) % 3]) TK_W_OK(&j->err, px_view_release(&v[(first + i) % 3]));
        if (ev) TK_W_OK(&j->err, px_event_destroy(&ev));
        if (in) TK_W_OK(&j->err, px_instance_destroy(&in));
    }
    return NULL;
}

START_TEST(registry_from_threads)
{
    TK_OK(px_init(NULL));
    enum { NT = 4 };
    pthread_t th[NT];
    registry_job jobs[NT];
    for (int t = 0; t < NT; ++t) {
        memset(&jobs[t], 0, sizeof jobs[t]);
        jobs[t].id = t;
        ck_assert_int_eq(pthread_create(&th[t], NULL, registry_worker, &jobs[t]), 0);
    }
    for (int t = 0; t < NT; ++t) ck_assert_int_eq(pthread_join(th[t], NULL), 0);
    for (int t = 0; t < NT; ++t)
        TK_ASSERT(!jobs[t].err.failed, "thread %d: %s", t, jobs[t].err.msg);
    TK_OK(px_finalize()); /* nothing left alive */
}
END_TEST

/* ---- status codes --------------------------------------------------------------------------- */

typedef struct status_row {
    px_status st;
    const char *name;
    const char *msg;
} status_row;
static const status_row status_rows[] = {
#define ROW(name, value, msg) {PX_##name, "PX_" #name, msg},
    PX_STATUS_MAP(ROW)
#undef ROW
};
#define NSTATUS ((int)(sizeof status_rows / sizeof status_rows[0]))

START_TEST(status_strings)
{
    ck_assert_int_eq(PX_OK, 0);
    for (int i = 0; i < NSTATUS; ++i) {
        const status_row *r = &status_rows[i];
        if (r->st != PX_OK) ck_assert_int_lt(r->st, 0);
        ck_assert_str_eq(px_status_string(r->st), r->msg);
        ck_assert_str_eq(px_status_name(r->st), r->name);
        for (int k = 0; k < i; ++k) ck_assert_int_ne(status_rows[k].st, r->st);
    }
    ck_assert_str_eq(px_status_name(PX_ERR_INVALID_ARGUMENT), "PX_ERR_INVALID_ARGUMENT");
    ck_assert_str_eq(px_status_string(PX_OK), "success");
}
END_TEST

START_TEST(status_strings_invalid)
{
    const int bad[] = {1, 2, 100, -17, -18, -1000, INT_MIN, INT_MAX};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        const char *s = px_status_string((px_status)bad[i]);
        const char *n = px_status_name((px_status)bad[i]);
        ck_assert_ptr_nonnull(s);
        ck_assert_ptr_nonnull(n);
        ck_assert_str_eq(s, "unknown status");
        for (int k = 0; k < NSTATUS; ++k) ck_assert_str_ne(n, status_rows[k].name);
    }
}
END_TEST

/* ---- last error --------------------------------------------------------------------------- */

static void *thread_errors(void *arg)
{
    int *ok = (int *)arg;
    /* A new thread starts without an error, whatever the main thread has. */
    *ok = strcmp(px_last_error(), "") == 0;
    px_view *v = NULL;
    *ok = *ok && px_view_create(&v, NULL) == PX_ERR_INVALID_ARGUMENT;
    *ok = *ok && strstr(px_last_error(), "px_view_create") != NULL;
    return NULL;
}

/* px_set_error, for add-on modules: "func: message", returned status, cut at the capacity. */
START_TEST(set_error)
{
    px_clear_error();
    ck_assert_int_eq(px_set_error(PX_ERR_COMM, "px_mpi_send", "rank %d: %s", 7, "invalid rank"),
                     PX_ERR_COMM);
    ck_assert_str_eq(px_last_error(), "px_mpi_send: rank 7: invalid rank");
    ck_assert_int_eq(px_set_error(PX_ERR_BACKEND, NULL, "%s", "x"), PX_ERR_BACKEND);
    ck_assert_str_eq(px_last_error(), "portex: x");
    /* A NULL format gives the status's message (called through a pointer: the format
       attribute would flag a literal NULL). */
    px_status (*set)(px_status, const char *, const char *, ...) = px_set_error;
    ck_assert_int_eq(set(PX_ERR_COMM, "mod_f", NULL), PX_ERR_COMM);
    ck_assert_str_eq(px_last_error(), "mod_f: communication error (MPI)");
    char big[3000];
    memset(big, 'a', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    ck_assert_int_eq(px_set_error(PX_ERR_COMM, "f", "%s", big), PX_ERR_COMM);
    ck_assert_uint_eq(strlen(px_last_error()), 1023);
    px_clear_error();
    ck_assert_str_eq(px_last_error(), "");
}
END_TEST

START_TEST(last_error)
{
    TK_OK(px_init(NULL));
    px_clear_error();
    ck_assert_ptr_nonnull(px_last_error());
    ck_assert_str_eq(px_last_error(), "");

    px_view *v = NULL;
    ck_assert_int_eq(px_view_create(&v, NULL), PX_ERR_INVALID_ARGUMENT);
    ck_assert_ptr_nonnull(strstr(px_last_error(), "px_view_create"));

    /* The newest error replaces the older one. */
    ck_assert_int_eq(px_instance_fence(NULL), PX_ERR_INVALID_ARGUMENT);
    ck_assert_ptr_nonnull(strstr(px_last_error(), "px_instance_fence"));
    ck_assert_ptr_null(strstr(px_last_error(), "px_view_create"));

    /* The message has context: the extents that differ. */
    px_view *a = tk_view1("a", px_host(), PX_F64, 100);
    px_view *b = tk_view1("b", px_host(), PX_F64, 99);
    ck_assert_int_eq(px_deep_copy(a, b, NULL), PX_ERR_EXTENTS_MISMATCH);
    TK_ERROR_HAS("px_deep_copy");
    TK_ERROR_HAS("100");
    TK_ERROR_HAS("99");
    px_view_release(&a);
    px_view_release(&b);

    /* Per thread. */
    char saved[512];
    snprintf(saved, sizeof saved, "%s", px_last_error());
    int ok = 0;
    pthread_t th;
    ck_assert_int_eq(pthread_create(&th, NULL, thread_errors, &ok), 0);
    ck_assert_int_eq(pthread_join(th, NULL), 0);
    TK_ASSERT(ok, "the last error is not per thread");
    ck_assert_str_eq(px_last_error(), saved);

    px_clear_error();
    ck_assert_str_eq(px_last_error(), "");
    TK_OK(px_finalize());
}
END_TEST

/* ---- version and configuration ------------------------------------------------------------- */

START_TEST(version)
{
    int ma = -1, mi = -1, pa = -1;
    TK_OK(px_version(&ma, &mi, &pa));
    ck_assert_int_eq(ma, PX_VERSION_MAJOR);
    ck_assert_int_eq(mi, PX_VERSION_MINOR);
    ck_assert_int_eq(pa, PX_VERSION_PATCH);
    char want[64];
    snprintf(want, sizeof want, "%d.%d.%d", PX_VERSION_MAJOR, PX_VERSION_MINOR, PX_VERSION_PATCH);
    ck_assert_ptr_nonnull(px_version_string());
    ck_assert_str_eq(px_version_string(), want);
    TK_FAIL(px_version(NULL, NULL, NULL), PX_ERR_INVALID_ARGUMENT, "px_version");
    TK_FAIL(px_version(&ma, NULL, &pa), PX_ERR_INVALID_ARGUMENT, "px_version");
}
END_TEST

static char *print_config(px_status *st)
{
    FILE *f = tmpfile();
    ck_assert_ptr_nonnull(f);
    *st = px_print_configuration(f);
    long n = ftell(f);
    ck_assert_int_ge(n, 0);
    rewind(f);
    char *buf = (char *)calloc((size_t)n + 1, 1);
    ck_assert_ptr_nonnull(buf);
    ck_assert_int_eq(fread(buf, 1, (size_t)n, f), n);
    fclose(f);
    return buf;
}

START_TEST(print_configuration)
{
    /* Before px_init: works, without topology. */
    ck_assert(!px_is_initialized());
    px_status st;
    char *before = print_config(&st);
    TK_ASSERT(st == PX_OK, "%s", px_last_error());
    TK_ASSERT(strstr(before, px_version_string()) != NULL, "no version in:\n%s", before);
    TK_ASSERT(tk_contains_ci(before, "serial"), "no serial backend in:\n%s", before);

    /* After px_init (with the topology). */
    TK_OK(px_init(NULL));
    char *after = print_config(&st);
    TK_ASSERT(st == PX_OK, "%s", px_last_error());
    TK_ASSERT(strstr(after, px_version_string()) != NULL, "no version in:\n%s", after);
    TK_ASSERT(tk_contains_ci(after, "serial"), "no serial backend in:\n%s", after);
    TK_ASSERT(tk_contains_ci(after, "core"), "no cores in:\n%s", after);
    TK_ASSERT(strlen(after) > strlen(before), "no topology after px_init:\n%s", after);

    TK_FAIL(px_print_configuration(NULL), PX_ERR_INVALID_ARGUMENT, "px_print_configuration");
    /* A stream that cannot be written. */
    FILE *ro = fopen("/dev/null", "r");
    ck_assert_ptr_nonnull(ro);
    px_clear_error();
    st = px_print_configuration(ro);
    TK_ASSERT(st != PX_OK, "writing to a read-only stream succeeded");
    ck_assert_ptr_nonnull(strstr(px_last_error(), "px_print_configuration"));
    fclose(ro);
    TK_OK(px_finalize());
    free(before);
    free(after);
}
END_TEST

/* Names of enumerations: exact for the documented ones, never NULL for any value. */
START_TEST(enum_strings)
{
    ck_assert_str_eq(px_space_kind_string(PX_SPACE_HOST), "HOST");
    ck_assert_str_eq(px_space_kind_string(PX_SPACE_HOST_PINNED), "HOST_PINNED");
    ck_assert_str_eq(px_space_kind_string(PX_SPACE_DEVICE), "DEVICE");
    ck_assert_ptr_nonnull(px_space_kind_string(PX_SPACE_KIND_COUNT));
    ck_assert_ptr_nonnull(px_space_kind_string((px_space_kind)-1));
    for (int e = 0; e < PX_EXEC_COUNT; ++e) {
        ck_assert_ptr_nonnull(px_exec_space_string((px_exec_space)e));
        ck_assert_int_gt(strlen(px_exec_space_string((px_exec_space)e)), 0);
    }
    ck_assert(tk_contains_ci(px_exec_space_string(PX_EXEC_SERIAL), "serial"));
    ck_assert(tk_contains_ci(px_exec_space_string(PX_EXEC_CUDA), "cuda"));
    ck_assert_ptr_nonnull(px_exec_space_string(PX_EXEC_COUNT));
    ck_assert_ptr_nonnull(px_exec_space_string((px_exec_space)-7));
    for (int d = 0; d <= PX_DTYPE_COUNT; ++d) ck_assert_ptr_nonnull(px_dtype_string((px_dtype)d));
    ck_assert_ptr_nonnull(px_dtype_string((px_dtype)-1));
    ck_assert_ptr_nonnull(px_layout_string(PX_LAYOUT_RIGHT));
    ck_assert_ptr_nonnull(px_layout_string(PX_LAYOUT_LEFT));
    ck_assert_ptr_nonnull(px_layout_string(PX_LAYOUT_STRIDE));
    ck_assert_ptr_nonnull(px_layout_string((px_layout)99));
    ck_assert_str_ne(px_layout_string(PX_LAYOUT_RIGHT), px_layout_string(PX_LAYOUT_LEFT));
}
END_TEST

/* ---- execution and memory spaces ---------------------------------------------------------- */

START_TEST(spaces_available)
{
    TK_OK(px_init(NULL));
    /* The bool forms answer true for what is there, and leave the last error alone. */
    px_clear_error();
    ck_assert(px_space_available(px_host()));
    ck_assert(px_exec_space_available(PX_EXEC_SERIAL));
    ck_assert(!px_exec_space_available(PX_EXEC_COUNT));
    ck_assert(!px_exec_space_available((px_exec_space)-1));
    ck_assert(!px_space_available(px_device(-1)));
    ck_assert_str_eq(px_last_error(), "");
    TK_OK(px_space_check(px_host()));
    TK_OK(px_exec_space_check(PX_EXEC_SERIAL));
    int n = -1;
    TK_OK(px_exec_space_device_count(PX_EXEC_SERIAL, &n));
    ck_assert_int_eq(n, 1);
    TK_FAIL(px_exec_space_device_count(PX_EXEC_SERIAL, NULL), PX_ERR_INVALID_ARGUMENT,
            "px_exec_space_device_count");
    TK_FAIL(px_exec_space_device_count(PX_EXEC_COUNT, &n), PX_ERR_INVALID_ARGUMENT,
            "px_exec_space_device_count");
    TK_FAIL(px_exec_space_check(PX_EXEC_COUNT), PX_ERR_INVALID_ARGUMENT, "px_exec_space_check");
    TK_FAIL(px_exec_space_check((px_exec_space)-1), PX_ERR_INVALID_ARGUMENT, "px_exec_space_check");
    /* An earlier error survives a question. */
    TK_FAIL(px_exec_space_check(PX_EXEC_COUNT), PX_ERR_INVALID_ARGUMENT, "px_exec_space_check");
    ck_assert(!px_exec_space_available(PX_EXEC_COUNT));
    ck_assert(!px_space_available(px_device(-1)));
    (void)px_exec_space_available(PX_EXEC_CUDA);
    TK_ERROR_HAS("px_exec_space_check");
    ck_assert(!tk_contains_ci(px_last_error(), "_available"));

    px_space bad = {PX_SPACE_KIND_COUNT, 0};
    TK_FAIL(px_space_check(bad), PX_ERR_INVALID_ARGUMENT, "px_space_check");
    ck_assert(!px_space_available(bad));
    bad.kind = (px_space_kind)-3;
    TK_FAIL(px_space_check(bad), PX_ERR_INVALID_ARGUMENT, "px_space_check");
    ck_assert(!px_space_available(bad));

    /* Every execution space: the bool and the status agree; compiled-out spaces say so. */
    for (int e = 0; e < PX_EXEC_COUNT; ++e) {
        const px_exec_space x = (px_exec_space)e;
        const px_status st = px_exec_space_check(x);
        ck_assert(st == PX_OK || st == PX_ERR_UNSUPPORTED || st == PX_ERR_NO_DEVICE);
        TK_ASSERT(px_exec_space_available(x) == (st == PX_OK), "%s: available %d, check %s",
                  px_exec_space_string(x), (int)px_exec_space_available(x), px_status_name(st));
    }

    /* CUDA's spaces: usable exactly when the CUDA execution space is. */
    const bool cuda = px_exec_space_available(PX_EXEC_CUDA);
    ck_assert(px_space_available(px_device(0)) == cuda);
    ck_assert(px_space_available(px_host_pinned()) == cuda);
    if (cuda) {
        TK_OK(px_space_check(px_device(0)));
        TK_OK(px_space_check(px_host_pinned()));
        TK_OK(px_exec_space_device_count(PX_EXEC_CUDA, &n));
        ck_assert_int_ge(n, 1);
        TK_FAIL(px_space_check(px_device(n)), PX_ERR_NO_DEVICE, "px_space_check");
        ck_assert(!px_space_available(px_device(n)));
    } else {
        px_status st = px_exec_space_check(PX_EXEC_CUDA);
        ck_assert(st == PX_ERR_UNSUPPORTED || st == PX_ERR_NO_DEVICE);
        TK_ASSERT(strstr(px_last_error(), "px_exec_space_check") != NULL,
                  "last error '%s' does not name px_exec_space_check", px_last_error());
        st = px_space_check(px_device(0));
        TK_ASSERT(st == PX_ERR_UNSUPPORTED || st == PX_ERR_NO_DEVICE, "DEVICE(0): %s",
                  px_status_name(st));
    }
    px_status st = px_space_check(px_device(-1));
    TK_ASSERT(st == PX_ERR_INVALID_ARGUMENT || st == PX_ERR_NO_DEVICE ||
                  (!cuda && st == PX_ERR_UNSUPPORTED),
              "DEVICE(-1): %s", px_status_name(st));
    TK_OK(px_finalize());
}
END_TEST

/* ---- the default execution space ---------------------------------------------------------- */

/* PX_DEFAULT_EXEC and PX_DEVICE as the process had them, unset during each test and put
 * back after it (CUDA runs do not fork). */
static const char *const env_names[] = {"PX_DEFAULT_EXEC", "PX_DEVICE"};
#define NENV ((int)(sizeof env_names / sizeof env_names[0]))
static char env_saved[NENV][256];
static bool env_had[NENV];

static void env_save(void)
{
    for (int k = 0; k < NENV; ++k) {
        const char *v = getenv(env_names[k]);
        env_had[k] = v != NULL;
        snprintf(env_saved[k], sizeof env_saved[k], "%s", v ? v : "");
        ck_assert_int_eq(unsetenv(env_names[k]), 0);
    }
}

static void env_restore(void)
{
    for (int k = 0; k < NENV; ++k) {
        if (env_had[k])
            ck_assert_int_eq(setenv(env_names[k], env_saved[k], 1), 0);
        else
            ck_assert_int_eq(unsetenv(env_names[k]), 0);
    }
}

static void env_set(const char *v) { ck_assert_int_eq(setenv("PX_DEFAULT_EXEC", v, 1), 0); }

static px_init_options opts_exec(const char *name)
{
    return (px_init_options){.skip_topology = true, .default_exec = name};
}

/* The default space, its memory space and instance agree with `want`, on `device`. */
static void default_is_on(px_exec_space want, int device)
{
    px_exec_space e = PX_EXEC_COUNT;
    TK_OK(px_default_exec_space(&e));
    TK_ASSERT(e == want, "default execution space %s, expected %s", px_exec_space_string(e),
              px_exec_space_string(want));
    px_space s = {PX_SPACE_KIND_COUNT, 7};
    TK_OK(px_default_space(&s));
    const px_space ws = want == PX_EXEC_CUDA ? px_device(device) : px_host();
    ck_assert_int_eq(s.kind, ws.kind);
    ck_assert_int_eq(s.device, ws.device);
    ck_assert(px_space_available(s));
    px_instance *inst = NULL, *again = NULL, *named = NULL;
    TK_OK(px_default_instance(&inst));
    TK_OK(px_default_instance(&again));
    TK_OK(px_instance_default(want, device, &named));
    ck_assert_ptr_eq(inst, again);
    ck_assert_ptr_eq(inst, named);
    TK_OK(px_instance_exec_space(inst, &e));
    ck_assert_int_eq(e, want);
    int dev = -1;
    TK_OK(px_instance_device(inst, &dev));
    ck_assert_int_eq(dev, device);
    px_space is = {PX_SPACE_KIND_COUNT, 7};
    TK_OK(px_instance_space(inst, &is));
    ck_assert_int_eq(is.kind, ws.kind);
    ck_assert_int_eq(is.device, ws.device);
    /* Portex's own: it cannot be destroyed. */
    TK_FAIL(px_instance_destroy(&inst), PX_ERR_INVALID_ARGUMENT, "px_instance_destroy");
}

/* The same on device 0. */
static void default_is(px_exec_space want) { default_is_on(want, 0); }

/* Nothing here makes a view or queues work: the default space's instance only. A CUDA
 * build on a machine with a GPU chooses CUDA, and its instance is a stream. */
START_TEST(default_exec_auto)
{
    env_save();
    px_exec_space e;
    px_space s;
    px_instance *inst = (px_instance *)&e;
    TK_FAIL(px_default_exec_space(&e), PX_ERR_NOT_INITIALIZED, "px_default_exec_space");
    TK_FAIL(px_default_space(&s), PX_ERR_NOT_INITIALIZED, "px_default_space");
    TK_FAIL(px_default_instance(&inst), PX_ERR_NOT_INITIALIZED, "px_default_instance");
    ck_assert_ptr_null(inst);

    TK_OK(px_init(NULL));
    const px_exec_space want = px_exec_space_available(PX_EXEC_CUDA)      ? PX_EXEC_CUDA
                               : px_exec_space_available(PX_EXEC_OPENMP)  ? PX_EXEC_OPENMP
                               : px_exec_space_available(PX_EXEC_THREADS) ? PX_EXEC_THREADS
                                                                          : PX_EXEC_SERIAL;
    default_is(want);
    TK_FAIL(px_default_exec_space(NULL), PX_ERR_INVALID_ARGUMENT, "px_default_exec_space");
    TK_FAIL(px_default_space(NULL), PX_ERR_INVALID_ARGUMENT, "px_default_space");
    TK_FAIL(px_default_instance(NULL), PX_ERR_INVALID_ARGUMENT, "px_default_instance");
    TK_OK(px_finalize());
    TK_FAIL(px_default_exec_space(&e), PX_ERR_NOT_INITIALIZED, "px_default_exec_space");

    /* An empty PX_DEFAULT_EXEC is no choice. */
    env_set("");
    TK_OK(px_init(NULL));
    default_is(want);
    TK_OK(px_finalize());
    env_restore();
}
END_TEST

/* The environment chooses when the options do not; the options beat it; any case. */
START_TEST(default_exec_env_and_option)
{
    env_save();
    env_set("serial");
    TK_OK(px_init(NULL));
    default_is(PX_EXEC_SERIAL);
    TK_OK(px_finalize());

    env_set("SeRiAl");
    TK_OK(px_init(NULL));
    default_is(PX_EXEC_SERIAL);
    TK_OK(px_finalize());

    /* The option beats the environment, a bad or an unavailable one alike. */
    px_init_options o = opts_exec("Serial");
    const char *const envs[] = {"not-a-space", "cuda", "openmp", "threads", "serial"};
    for (size_t k = 0; k < sizeof envs / sizeof envs[0]; ++k) {
        env_set(envs[k]);
        TK_OK(px_init(&o));
        default_is(PX_EXEC_SERIAL);
        TK_OK(px_finalize());
    }

    /* Every space available here can be named, in the option or the environment. */
    for (int e = 0; e < PX_EXEC_COUNT; ++e) {
        const px_exec_space x = (px_exec_space)e;
        if (!px_exec_space_available(x)) continue;
        char name[16];
        snprintf(name, sizeof name, "%s", px_exec_space_string(x)); /* "CUDA": any case */
        o = opts_exec(name);
        env_set("serial");
        TK_OK(px_init(&o));
        default_is(x);
        TK_OK(px_finalize());
        env_set(name);
        TK_OK(px_init(NULL));
        default_is(x);
        TK_OK(px_finalize());
    }
    env_restore();
}
END_TEST

/* A name that is no execution space: px_init fails, naming the value, where it came from
 * and the accepted names; nothing is initialised. */
START_TEST(default_exec_bad_names)
{
    env_save();
    env_set("gpu");
    TK_FAIL(px_init(NULL), PX_ERR_INVALID_ARGUMENT, "px_init");
    TK_ERROR_HAS("PX_DEFAULT_EXEC");
    TK_ERROR_HAS("\"gpu\"");
    TK_ERROR_HAS("\"serial\"");
    TK_ERROR_HAS("\"openmp\"");
    TK_ERROR_HAS("\"threads\"");
    TK_ERROR_HAS("\"cuda\"");
    ck_assert(!px_is_initialized());

    env_restore();
    const char *const bad[] = {"", "cuda ", "seria", "serial0", "omp", "host"};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; ++k) {
        px_init_options o = opts_exec(bad[k]);
        TK_FAIL(px_init(&o), PX_ERR_INVALID_ARGUMENT, "px_init");
        TK_ERROR_HAS("default_exec");
        TK_ERROR_HAS("\"serial\", \"cuda\", \"openmp\" or \"threads\"");
        char quoted[32];
        snprintf(quoted, sizeof quoted, "\"%s\"", bad[k]);
        TK_ERROR_HAS(quoted);
        ck_assert(!px_is_initialized());
    }
    /* Still usable afterwards. */
    TK_OK(px_init(NULL));
    TK_OK(px_finalize());
}
END_TEST

/* A named space that is not available here is an error, never a fall back: CUDA without a
 * GPU (or without the CUDA backend), OpenMP or threads without their backends. */
START_TEST(default_exec_unavailable)
{
    env_save();
    int refused = 0;
    const char *const names[] = {"cuda", "openmp", "threads"};
    const px_exec_space spaces[] = {PX_EXEC_CUDA, PX_EXEC_OPENMP, PX_EXEC_THREADS};
    for (int k = 0; k < 3; ++k) {
        const px_status why = px_exec_space_check(spaces[k]);
        if (why == PX_OK) continue;
        ++refused;
        px_init_options o = opts_exec(names[k]);
        TK_FAIL(px_init(&o), why, "px_init");
        TK_ERROR_HAS(names[k]);
        TK_ASSERT(tk_contains_ci(px_last_error(), "not compiled") ||
                      tk_contains_ci(px_last_error(), "no device"),
                  "no reason in '%s'", px_last_error());
        ck_assert(!px_is_initialized());
        env_set(names[k]);
        TK_FAIL(px_init(NULL), why, "px_init");
        TK_ERROR_HAS("PX_DEFAULT_EXEC");
        TK_ERROR_HAS(names[k]);
        ck_assert(!px_is_initialized());
        ck_assert_int_eq(unsetenv("PX_DEFAULT_EXEC"), 0);
    }
    env_restore();
    if (refused == 0) TK_SKIP("CUDA, OpenMP and threads are all available here");
}
END_TEST

/* The first px_init chooses; a later one may repeat the choice but not change it. */
START_TEST(default_exec_nested_init)
{
    env_save();
    px_init_options o = opts_exec("serial");
    TK_OK(px_init(&o));
    TK_OK(px_init(NULL));
    TK_OK(px_init(&o));
    o.default_exec = "SERIAL";
    TK_OK(px_init(&o));
    o.default_exec = "cuda";
    TK_FAIL(px_init(&o), PX_ERR_INVALID_ARGUMENT, "px_init");
    TK_ERROR_HAS("SERIAL");
    o.default_exec = "nope";
    TK_FAIL(px_init(&o), PX_ERR_INVALID_ARGUMENT, "px_init");
    TK_ERROR_HAS("\"nope\"");
    /* A later PX_DEFAULT_EXEC changes nothing either. */
    env_set("cuda");
    TK_OK(px_init(NULL));
    default_is(PX_EXEC_SERIAL);
    for (int k = 0; k < 5; ++k) TK_OK(px_finalize()); /* the refused calls took no reference */
    ck_assert(!px_is_initialized());
    env_restore();
}
END_TEST

/* ---- the default device ----------------------------------------------------------------------- */

static void device_env_set(const char *v) { ck_assert_int_eq(setenv("PX_DEVICE", v, 1), 0); }

static px_init_options opts_device(const char *exec, int device)
{
    px_init_options o = opts_exec(exec);
    o.use_device = true;
    o.device = device;
    return o;
}

/* The backend under test's execution space, named: every device it has can be the default
 * one, by the option or by PX_DEVICE; the option beats the environment; device 0 is the
 * default; one past the last is refused (PX_ERR_NO_DEVICE), saying where it came from, the
 * space and its devices, and nothing is initialised. On serial and OpenMP only device 0
 * exists; a machine with one GPU takes PX_DEVICE=0 and refuses PX_DEVICE=1. */
START_TEST(default_device)
{
    env_save();
    const px_exec_space x = tk_exec();
    const char *name = px_exec_space_string(x);
    int n = 0;
    TK_OK(px_exec_space_device_count(x, &n));
    ck_assert_int_ge(n, 1);
    for (int d = 0; d < n; ++d) {
        px_init_options o = opts_device(name, d);
        TK_OK(px_init(&o));
        default_is_on(x, d);
        /* The configuration report says where the default's data is. */
        px_status st;
        char *report = print_config(&st);
        char want[64];
        if (x == PX_EXEC_CUDA)
            snprintf(want, sizeof want, "default execution space: %s, data in DEVICE(%d)", name, d);
        else
            snprintf(want, sizeof want, "default execution space: %s, data in HOST", name);
        TK_ASSERT(st == PX_OK && strstr(report, want) != NULL, "no '%s' in:\n%s", want, report);
        free(report);
        TK_OK(px_finalize());
        char v[16];
        snprintf(v, sizeof v, "%d", d);
        device_env_set(v);
        o = opts_exec(name);
        TK_OK(px_init(&o));
        default_is_on(x, d);
        TK_OK(px_finalize());
        ck_assert_int_eq(unsetenv("PX_DEVICE"), 0);
    }
    /* Unset, empty, or use_device false (whatever `device` holds): device 0. */
    px_init_options o = opts_exec(name);
    o.device = n + 3;
    TK_OK(px_init(&o));
    default_is_on(x, 0);
    TK_OK(px_finalize());
    device_env_set("");
    TK_OK(px_init(&o));
    default_is_on(x, 0);
    TK_OK(px_finalize());
    /* The option beats the environment, a bad or a missing device alike. */
    const char *const envs[] = {"not-a-device", "-1", "999"};
    for (size_t k = 0; k < sizeof envs / sizeof envs[0]; ++k) {
        device_env_set(envs[k]);
        o = opts_device(name, n - 1);
        TK_OK(px_init(&o));
        default_is_on(x, n - 1);
        TK_OK(px_finalize());
    }
    ck_assert_int_eq(unsetenv("PX_DEVICE"), 0);

    /* One past the last device. */
    char past[16];
    snprintf(past, sizeof past, "%d", n);
    o = opts_device(name, n);
    TK_FAIL(px_init(&o), PX_ERR_NO_DEVICE, "px_init");
    ck_assert(tk_error_from("px_init"));
    TK_ERROR_HAS("px_init_options.device");
    TK_ERROR_HAS(name);
    TK_ERROR_HAS(n == 1 ? "has device 0" : "devices 0 to");
    if (x != PX_EXEC_CUDA) TK_ERROR_HAS("device 0 alone");
    ck_assert(!px_is_initialized());
    device_env_set(past);
    o = opts_exec(name);
    TK_FAIL(px_init(&o), PX_ERR_NO_DEVICE, "px_init");
    TK_ERROR_HAS("PX_DEVICE");
    TK_ERROR_HAS(past);
    ck_assert(!px_is_initialized());
    /* Without naming the space: it is chosen at px_init then, and checked. */
    const px_exec_space automatic = px_exec_space_available(PX_EXEC_CUDA)      ? PX_EXEC_CUDA
                                    : px_exec_space_available(PX_EXEC_OPENMP)  ? PX_EXEC_OPENMP
                                    : px_exec_space_available(PX_EXEC_THREADS) ? PX_EXEC_THREADS
                                                                               : PX_EXEC_SERIAL;
    int na = 0;
    TK_OK(px_exec_space_device_count(automatic, &na));
    snprintf(past, sizeof past, "%d", na);
    device_env_set(past);
    TK_FAIL(px_init(NULL), PX_ERR_NO_DEVICE, "px_init");
    TK_ERROR_HAS("PX_DEVICE");
    ck_assert(!px_is_initialized());
    device_env_set("0");
    TK_OK(px_init(NULL));
    default_is_on(automatic, 0);
    TK_OK(px_finalize());
    env_restore();
}
END_TEST

/* A PX_DEVICE that is not a decimal ordinal, and a negative option, are refused
 * (PX_ERR_INVALID_ARGUMENT), quoting the value; nothing is initialised. */
START_TEST(default_device_bad_values)
{
    env_save();
    const char *const bad[] = {
        "-1", "x", "1x", " 1", "1 ", "0x1", "+1", "1.0", "99999999999999999999"};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; ++k) {
        device_env_set(bad[k]);
        TK_FAIL(px_init(NULL), PX_ERR_INVALID_ARGUMENT, "px_init");
        TK_ERROR_HAS("PX_DEVICE");
        char quoted[64];
        snprintf(quoted, sizeof quoted, "\"%s\"", bad[k]);
        TK_ERROR_HAS(quoted);
        ck_assert(!px_is_initialized());
    }
    ck_assert_int_eq(unsetenv("PX_DEVICE"), 0);
    const int negative[] = {-1, -1000, INT_MIN};
    for (size_t k = 0; k < sizeof negative / sizeof negative[0]; ++k) {
        px_init_options o = opts_device(NULL, negative[k]);
        TK_FAIL(px_init(&o), PX_ERR_INVALID_ARGUMENT, "px_init");
        TK_ERROR_HAS("px_init_options.device");
        ck_assert(!px_is_initialized());
    }
    /* Still usable afterwards. */
    TK_OK(px_init(NULL));
    TK_OK(px_finalize());
    env_restore();
}
END_TEST

/* The first px_init chooses the device; a later one may repeat it but not change it, and a
 * later PX_DEVICE changes nothing. */
START_TEST(default_device_nested_init)
{
    env_save();
    px_init_options o = opts_device(px_exec_space_string(tk_exec()), 0);
    TK_OK(px_init(&o));
    TK_OK(px_init(&o));
    TK_OK(px_init(NULL));
    o.device = 1;
    TK_FAIL(px_init(&o), PX_ERR_INVALID_ARGUMENT, "px_init");
    TK_ERROR_HAS("default device 0");
    o.device = -1;
    TK_FAIL(px_init(&o), PX_ERR_INVALID_ARGUMENT, "px_init");
    device_env_set("7");
    TK_OK(px_init(NULL));
    default_is_on(tk_exec(), 0);
    for (int k = 0; k < 4; ++k) TK_OK(px_finalize()); /* the refused calls took no reference */
    ck_assert(!px_is_initialized());
    env_restore();
}
END_TEST

int main(void)
{
    TCase *tc = tk_case_bare("core", "core"); /* lifetime is what these tests are about */
    TK_ADD(tc, init_refcount, not_initialized, finalize_busy_names_objects, registry_from_threads,
           status_strings, status_strings_invalid, set_error, last_error, version,
           print_configuration, enum_strings, spaces_available, default_exec_auto,
           default_exec_env_and_option, default_exec_bad_names, default_exec_unavailable,
           default_exec_nested_init, default_device, default_device_bad_values,
           default_device_nested_init);
    return tk_run();
}
