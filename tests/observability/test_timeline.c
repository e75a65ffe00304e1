/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The timeline (px_init_options.timeline, PX_TIMELINE): the trace px_finalize writes is read
 * back with a small JSON parser and checked: every operation is there with its lane, kind,
 * label, copy path and bytes; times are non-negative and in order on an in-order instance;
 * labels that need escaping stay valid JSON; PX_TIMELINE_MAX bounds the records and the
 * dropped count is reported; several threads at once lose nothing; a path that cannot be
 * written makes px_init fail. Suite "timeline", on every backend. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#include "kernels.h"
#include "portex/tools.h"

/* ---- A small JSON parser (RFC 8259, strict: the whole file must parse) ------------------ */

typedef enum jtype { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ } jtype;

typedef struct jval {
    jtype t;
    bool b;
    double num;
    char *str; /* J_STR, unescaped UTF-8 */
    size_t n;  /* J_ARR, J_OBJ: items */
    struct jval *items;
    char **keys; /* J_OBJ */
} jval;

typedef struct jparser {
    const char *p, *end;
    const char *error;
} jparser;

static void jfree(jval *v)
{
    free(v->str);
    for (size_t i = 0; i < v->n; ++i) {
        jfree(&v->items[i]);
        if (v->keys) free(v->keys[i]);
    }
    free(v->items);
    free(v->keys);
    memset(v, 0, sizeof *v);
}

static void jws(jparser *j)
{
    while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r'))
        ++j->p;
}

static bool jfail(jparser *j, const char *why)
{
    if (!j->error) j->error = why;
    return false;
}

static void put_utf8(char *out, size_t *n, unsigned cp)
{
    if (cp < 0x80) {
        out[(*n)++] = (char)cp;
    } else if (cp < 0x800) {
        out[(*n)++] = (char)(0xc0 | (cp >> 6));
        out[(*n)++] = (char)(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
        out[(*n)++] = (char)(0xe0 | (cp >> 12));
        out[(*n)++] = (char)(0x80 | ((cp >> 6) & 0x3f));
        out[(*n)++] = (char)(0x80 | (cp & 0x3f));
    } else {
        out[(*n)++] = (char)(0xf0 | (cp >> 18));
        out[(*n)++] = (char)(0x80 | ((cp >> 12) & 0x3f));
        out[(*n)++] = (char)(0x80 | ((cp >> 6) & 0x3f));
        out[(*n)++] = (char)(0x80 | (cp & 0x3f));
    }
}

static bool jhex4(jparser *j, unsigned *out)
{
    if (j->end - j->p < 4) return jfail(j, "short \\u escape");
    unsigned v = 0;
    for (int i = 0; i < 4; ++i) {
        const char c = *j->p++;
        v <<= 4;
        if (c >= '0' && c <= '9')
            v |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            v |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            v |= (unsigned)(c - 'A' + 10);
        else
            return jfail(j, "bad \\u escape");
    }
    *out = v;
    return true;
}

static bool jstring(jparser *j, char **out)
{
    ++j->p; /* the opening quote */
    char *s = malloc((size_t)(j->end - j->p) + 1);
    ck_assert_ptr_nonnull(s);
    size_t n = 0;
    while (true) {
        if (j->p >= j->end) {
            free(s);
            return jfail(j, "unterminated string");
        }
        const unsigned char c = (unsigned char)*j->p++;
        if (c == '"') break;
        if (c < 0x20) {
            free(s);
            return jfail(j, "raw control character in a string");
        }
        if (c != '\\') {
            s[n++] = (char)c;
            continue;
        }
        if (j->p >= j->end) {
            free(s);
            return jfail(j, "unterminated escape");
        }
        const char e = *j->p++;
        unsigned cp = 0;
        switch (e) {
        case '"': s[n++] = '"'; break;
        case '\\': s[n++] = '\\'; break;
        case '/': s[n++] = '/'; break;
        case 'b': s[n++] = '\b'; break;
        case 'f': s[n++] = '\f'; break;
        case 'n': s[n++] = '\n'; break;
        case 'r': s[n++] = '\r'; break;
        case 't': s[n++] = '\t'; break;
        case 'u':
            if (!jhex4(j, &cp)) {
                free(s);
                return false;
            }
            if (cp >= 0xd800 && cp < 0xdc00) {
                unsigned lo = 0;
                if (j->end - j->p < 6 || j->p[0] != '\\' || j->p[1] != 'u') {
                    free(s);
                    return jfail(j, "lone surrogate");
                }
                j->p += 2;
                if (!jhex4(j, &lo) || lo < 0xdc00 || lo > 0xdfff) {
                    free(s);
                    return jfail(j, "bad surrogate pair");
                }
                cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
            }
            put_utf8(s, &n, cp);
            break;
        default: free(s); return jfail(j, "unknown escape");
        }
    }
    s[n] = '\0';
    *out = s;
    return true;
}

static bool jvalue(jparser *j, jval *v, int depth);

static bool jcontainer(jparser *j, jval *v, bool object, int depth)
{
    v->t = object ? J_OBJ : J_ARR;
    ++j->p;
    jws(j);
    size_t cap = 0;
    if (j->p < j->end && *j->p == (object ? '}' : ']')) {
        ++j->p;
        return true;
    }
    while (true) {
        if (v->n == cap) {
            cap = cap ? 2 * cap : 8;
            v->items = realloc(v->items, cap * sizeof *v->items);
            ck_assert_ptr_nonnull(v->items);
            if (object) {
                v->keys = realloc(v->keys, cap * sizeof *v->keys);
                ck_assert_ptr_nonnull(v->keys);
            }
        }
        jval *item = &v->items[v->n];
        memset(item, 0, sizeof *item);
        if (object) {
            jws(j);
            if (j->p >= j->end || *j->p != '"') return jfail(j, "object key expected");
            char *key = NULL;
            if (!jstring(j, &key)) return false;
            jws(j);
            if (j->p >= j->end || *j->p != ':') {
                free(key);
                return jfail(j, "':' expected");
            }
            ++j->p;
            v->keys[v->n] = key;
        }
        v->n++; /* counted now, so that jfree frees a half-parsed item */
        if (!jvalue(j, item, depth + 1)) return false;
        jws(j);
        if (j->p < j->end && *j->p == ',') {
            ++j->p;
            continue;
        }
        if (j->p < j->end && *j->p == (object ? '}' : ']')) {
            ++j->p;
            return true;
        }
        return jfail(j, "',' or a closing bracket expected");
    }
}

static bool jnumber(jparser *j, jval *v)
{
    const char *s = j->p;
    if (*s == '-') ++s;
    if (s >= j->end || !(*s >= '0' && *s <= '9')) return jfail(j, "bad number");
    if (*s == '0')
        ++s;
    else
        while (s < j->end && *s >= '0' && *s <= '9') ++s;
    if (s < j->end && *s == '.') {
        ++s;
        if (s >= j->end || !(*s >= '0' && *s <= '9')) return jfail(j, "bad fraction");
        while (s < j->end && *s >= '0' && *s <= '9') ++s;
    }
    if (s < j->end && (*s == 'e' || *s == 'E')) {
        ++s;
        if (s < j->end && (*s == '+' || *s == '-')) ++s;
        if (s >= j->end || !(*s >= '0' && *s <= '9')) return jfail(j, "bad exponent");
        while (s < j->end && *s >= '0' && *s <= '9') ++s;
    }
    char buf[64];
    const size_t len = (size_t)(s - j->p);
    if (len >= sizeof buf) return jfail(j, "number too long");
    memcpy(buf, j->p, len);
    buf[len] = '\0';
    v->t = J_NUM;
    v->num = strtod(buf, NULL);
    j->p = s;
    return true;
}

static bool jword(jparser *j, const char *w)
{
    const size_t n = strlen(w);
    if ((size_t)(j->end - j->p) < n || memcmp(j->p, w, n) != 0) return jfail(j, "unknown literal");
    j->p += n;
    return true;
}

static bool jvalue(jparser *j, jval *v, int depth)
{
    if (depth > 64) return jfail(j, "nested too deep");
    jws(j);
    if (j->p >= j->end) return jfail(j, "value expected");
    switch (*j->p) {
    case '{': return jcontainer(j, v, true, depth);
    case '[': return jcontainer(j, v, false, depth);
    case '"': v->t = J_STR; return jstring(j, &v->str);
    case 't':
        v->t = J_BOOL;
        v->b = true;
        return jword(j, "true");
    case 'f': v->t = J_BOOL; return jword(j, "false");
    case 'n': v->t = J_NULL; return jword(j, "null");
    default: return jnumber(j, v);
    }
}

static const jval *jget(const jval *obj, const char *key)
{
    if (!obj || obj->t != J_OBJ) return NULL;
    for (size_t i = 0; i < obj->n; ++i)
        if (strcmp(obj->keys[i], key) == 0) return &obj->items[i];
    return NULL;
}

static const char *jstr(const jval *obj, const char *key)
{
    const jval *v = jget(obj, key);
    return v && v->t == J_STR ? v->str : NULL;
}

static double jnum(const jval *obj, const char *key)
{
    const jval *v = jget(obj, key);
    return v && v->t == J_NUM ? v->num : NAN;
}

/* ---- The trace ---------------------------------------------------------------------------- */

static char trace_path[64];

static void new_trace_path(void)
{
    strcpy(trace_path, "/tmp/px_timeline_XXXXXX");
    const int fd = mkstemp(trace_path);
    ck_assert_int_ge(fd, 0);
    close(fd);
}

static void clear_env(void)
{
    unsetenv("PX_TIMELINE");
    unsetenv("PX_TIMELINE_MAX");
    unsetenv("PX_TOOLS_LIBS");
    unsetenv("KOKKOS_TOOLS_LIBS");
}

/* px_init recording to a fresh temporary file. */
static void init_timeline(void)
{
    clear_env();
    new_trace_path();
    px_init_options o;
    memset(&o, 0, sizeof o);
    o.skip_topology = true;
    o.timeline = trace_path;
    TK_OK(px_init(&o));
    px_tools_info info;
    TK_OK(px_tools_info_get(&info));
    TK_ASSERT(info.timeline && strcmp(info.timeline, trace_path) == 0,
              "px_tools_info_get: timeline '%s'", info.timeline ? info.timeline : "(null)");
}

/* The trace px_finalize wrote, parsed (the file is removed). */
typedef struct trace {
    jval root;
    const jval *events; /* traceEvents */
    const jval *other;  /* otherData */
} trace;

static void read_trace(trace *t)
{
    FILE *f = fopen(trace_path, "rb");
    TK_ASSERT(f != NULL, "no trace at %s", trace_path);
    fseek(f, 0, SEEK_END);
    const long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    ck_assert_int_gt(size, 0);
    char *text = malloc((size_t)size + 1);
    ck_assert_ptr_nonnull(text);
    ck_assert_uint_eq(fread(text, 1, (size_t)size, f), (size_t)size);
    text[size] = '\0';
    fclose(f);
    memset(t, 0, sizeof *t);
    jparser j = {text, text + size, NULL};
    const bool ok = jvalue(&j, &t->root, 0);
    jws(&j);
    TK_ASSERT(ok && j.p == j.end, "the trace is not valid JSON (%s at byte %ld):\n%.2000s",
              j.error ? j.error : "trailing text", (long)(j.p - text), text);
    free(text);
    unlink(trace_path);
    t->events = jget(&t->root, "traceEvents");
    t->other = jget(&t->root, "otherData");
    TK_ASSERT(t->events && t->events->t == J_ARR, "no traceEvents array");
    TK_ASSERT(t->other && t->other->t == J_OBJ, "no otherData object");
    const char *unit = jstr(&t->root, "displayTimeUnit");
    TK_ASSERT(unit && strcmp(unit, "ms") == 0, "displayTimeUnit '%s'", unit ? unit : "(none)");

    /* Every complete event is well formed. */
    for (size_t i = 0; i < t->events->n; ++i) {
        const jval *e = &t->events->items[i];
        const char *ph = jstr(e, "ph");
        TK_ASSERT(ph != NULL, "event %zu has no ph", i);
        if (strcmp(ph, "X") != 0) continue;
        TK_ASSERT(jstr(e, "name") && jstr(e, "cat"), "event %zu lacks name or cat", i);
        TK_ASSERT(jnum(e, "ts") >= 0.0 && jnum(e, "dur") >= 0.0, "event %zu ('%s'): ts %g, dur %g",
                  i, jstr(e, "name"), jnum(e, "ts"), jnum(e, "dur"));
        TK_ASSERT(jnum(e, "pid") == 1.0 && jnum(e, "tid") >= 1.0, "event %zu: pid %g tid %g", i,
                  jnum(e, "pid"), jnum(e, "tid"));
        TK_ASSERT(jget(e, "args") && jget(e, "args")->t == J_OBJ, "event %zu has no args", i);
    }
}

static size_t count_x(const trace *t)
{
    size_t n = 0;
    for (size_t i = 0; i < t->events->n; ++i) {
        const char *ph = jstr(&t->events->items[i], "ph");
        n += ph && strcmp(ph, "X") == 0;
    }
    return n;
}

/* The first complete event named `name` (and of kind `cat` unless NULL). */
static const jval *find_x(const trace *t, const char *name, const char *cat)
{
    for (size_t i = 0; i < t->events->n; ++i) {
        const jval *e = &t->events->items[i];
        const char *ph = jstr(e, "ph"), *n = jstr(e, "name"), *c = jstr(e, "cat");
        if (ph && strcmp(ph, "X") == 0 && n && strcmp(n, name) == 0 &&
            (!cat || (c && strcmp(c, cat) == 0)))
            return e;
    }
    return NULL;
}

/* A kind is `kind`, or `kind` and a qualifier ("deep_copy_h2d", "deep_copy H2D"). */
static bool kind_is(const char *cat, const char *kind)
{
    const size_t n = strlen(kind);
    return cat && strncmp(cat, kind, n) == 0 && (cat[n] == '\0' || cat[n] == '_' || cat[n] == ' ');
}

/* The first complete event of kind `cat` on the lane of instance `inst` (args.instance). */
static const jval *find_kind(const trace *t, const char *cat, const char *inst)
{
    for (size_t i = 0; i < t->events->n; ++i) {
        const jval *e = &t->events->items[i];
        const char *ph = jstr(e, "ph"), *in = jstr(jget(e, "args"), "instance");
        if (ph && strcmp(ph, "X") == 0 && kind_is(jstr(e, "cat"), cat) && in &&
            strcmp(in, inst) == 0)
            return e;
    }
    return NULL;
}

/* The name of lane `tid` (its thread_name metadata). */
/* A copy or fill (cat "deep_copy" or "fill") on the lane of instance tl-inst, with the path
   it took and the bytes it moved. */
static void check_moved(const trace *t, const char *cat, px_copy_path path, double bytes)
{
    const jval *r = find_kind(t, cat, "tl-inst");
    TK_ASSERT(r != NULL, "no %s on tl-inst", cat);
    const char *p = jstr(jget(r, "args"), "path");
    TK_ASSERT(p && strcmp(p, px_copy_path_string(path)) == 0, "%s path '%s', want %s", cat,
              p ? p : "(none)", px_copy_path_string(path));
    TK_ASSERT(jnum(jget(r, "args"), "bytes") == bytes, "%s bytes %g, want %g", cat,
              jnum(jget(r, "args"), "bytes"), bytes);
}

static const char *lane_name(const trace *t, double tid)
{
    for (size_t i = 0; i < t->events->n; ++i) {
        const jval *e = &t->events->items[i];
        const char *ph = jstr(e, "ph"), *n = jstr(e, "name");
        if (ph && strcmp(ph, "M") == 0 && n && strcmp(n, "thread_name") == 0 &&
            jnum(e, "tid") == tid)
            return jstr(jget(e, "args"), "name");
    }
    return NULL;
}

/* On one in-order lane, in the order they were begun, each record starts after the one
   before ended (or inside it: a nested record), within `tol_us`. */
static void check_in_order(const trace *t, double tid, double tol_us)
{
    double prev_ts = -1.0, prev_end = -1.0;
    const char *prev = NULL;
    for (size_t i = 0; i < t->events->n; ++i) {
        const jval *e = &t->events->items[i];
        const char *ph = jstr(e, "ph");
        if (!ph || strcmp(ph, "X") != 0 || jnum(e, "tid") != tid) continue;
        const double ts = jnum(e, "ts"), end = ts + jnum(e, "dur");
        if (prev) {
            const bool after = ts >= prev_end - tol_us;
            const bool nested = ts >= prev_ts - tol_us && end <= prev_end + tol_us;
            TK_ASSERT(after || nested,
                      "'%s' [%.3f, %.3f] overlaps '%s' [%.3f, %.3f] before it on lane %g",
                      jstr(e, "name"), ts, end, prev, prev_ts, prev_end, tid);
        }
        if (!prev || end > prev_end) {
            prev = jstr(e, "name");
            prev_ts = ts;
            prev_end = end;
        }
    }
}

static void finalize_and_read(trace *t)
{
    TK_OK(px_finalize());
    ck_assert(!px_is_initialized());
    read_trace(t);
}

/* ---- Tests ---------------------------------------------------------------------------------- */

START_TEST(records_every_operation)
{
    init_timeline();
    px_instance *inst = tk_instance("tl-inst");
    const int64_t n = 4096;
    px_view *h = tk_view1("tl_host", px_host(), PX_F64, n);
    double *hd = (double *)tk_data(h);
    for (int64_t i = 0; i < n; ++i) hd[i] = (double)i;
    px_view *x = tk_view1("tl_x", tk_space(), PX_F64, n);
    px_view *y = tk_view1("tl_y", tk_space(), PX_F64, n);

    const double one = 1.0;
    px_copy_path fill_path = PX_COPY_PATH_COUNT, copy_path = PX_COPY_PATH_COUNT;
    TK_OK(px_fill_async(inst, y, &one, &fill_path));
    TK_OK(px_deep_copy_async(inst, x, h, &copy_path));
    axpy_args a;
    a.a = 2.0;
    TK_OK(px_view_span_f64(x, &a.x));
    TK_OK(px_view_span_f64(y, &a.y));
    TK_OK(px_parallel_for(inst, "tl_axpy", px_range(0, n), PX_KERNEL(axpy), &a));
    red_args_double r;
    TK_OK(px_view_span_f64(y, &r.x));
    double sum = 0.0;
    TK_OK(px_parallel_reduce(inst, "tl_sum", px_range(0, n), PX_KERNEL(red_sum_double), &r, &sum));
    TK_OK(px_instance_fence(inst));
    ck_assert(sum == (double)n + 2.0 * (double)(n * (n - 1) / 2));
    TK_RELEASE(h, x, y);
    TK_OK(px_instance_destroy(&inst));

    trace t;
    finalize_and_read(&t);
    const size_t nx = count_x(&t);
    TK_ASSERT(jnum(t.other, "records") == (double)nx, "otherData.records %g, %zu complete events",
              jnum(t.other, "records"), nx);
    TK_ASSERT(jnum(t.other, "dropped") == 0.0, "dropped %g", jnum(t.other, "dropped"));
    TK_ASSERT(jnum(t.other, "unresolved") == 0.0, "unresolved %g", jnum(t.other, "unresolved"));
    TK_ASSERT(jstr(t.other, "portex_version") &&
                  strcmp(jstr(t.other, "portex_version"), px_version_string()) == 0,
              "portex_version");
    bool named = false;
    for (size_t i = 0; i < t.events->n; ++i) {
        const jval *e = &t.events->items[i];
        if (strcmp(jstr(e, "ph"), "M") == 0 && strcmp(jstr(e, "name"), "process_name") == 0)
            named = strcmp(jstr(jget(e, "args"), "name"), "portex") == 0;
    }
    ck_assert_msg(named, "no process_name 'portex'");

    /* The kernels, by label and kind, on the instance's lane. */
    const jval *k = find_x(&t, "tl_axpy", "parallel_for");
    TK_ASSERT(k != NULL, "no parallel_for 'tl_axpy'");
    const char *in = jstr(jget(k, "args"), "instance");
    TK_ASSERT(in && strcmp(in, "tl-inst") == 0, "tl_axpy on instance '%s'", in ? in : "(none)");
    const double tid = jnum(k, "tid");
    const char *lane = lane_name(&t, tid);
    TK_ASSERT(lane && strstr(lane, "tl-inst"), "lane of tl_axpy named '%s'",
              lane ? lane : "(none)");
    char space[32];
    snprintf(space, sizeof space, "%s",
             tk_is_cuda()                   ? "cuda:0"
             : tk_exec() == PX_EXEC_OPENMP  ? "openmp"
             : tk_exec() == PX_EXEC_THREADS ? "threads"
                                            : "serial");
    const char *sp = jstr(jget(k, "args"), "space");
    TK_ASSERT(sp && strcmp(sp, space) == 0, "space '%s', want '%s'", sp ? sp : "(none)", space);
    TK_ASSERT(!jget(jget(k, "args"), "path") && !jget(jget(k, "args"), "bytes"),
              "a kernel with a path or bytes");
    const jval *red = find_x(&t, "tl_sum", "parallel_reduce");
    TK_ASSERT(red != NULL && jnum(red, "tid") == tid, "no parallel_reduce 'tl_sum' on the lane");

    /* The copy and the fill, with their paths and bytes. */
    check_moved(&t, "deep_copy", copy_path, (double)n * 8.0);
    check_moved(&t, "fill", fill_path, (double)n * 8.0);

    /* The fence: the calling thread's wait, on a host thread's lane, naming the instance. */
    const jval *fe = NULL;
    for (size_t i = 0; i < t.events->n && !fe; ++i) {
        const jval *e = &t.events->items[i];
        const char *cat = jstr(e, "cat"), *name = jstr(e, "name");
        if (kind_is(cat, "fence") && name && strstr(name, "tl-inst")) fe = e;
    }
    TK_ASSERT(fe != NULL, "no fence naming tl-inst");
    const char *fl_lane = lane_name(&t, jnum(fe, "tid"));
    TK_ASSERT(fl_lane && strstr(fl_lane, "host thread"), "the fence is on lane '%s'",
              fl_lane ? fl_lane : "(none)");

    /* In order on the instance: fill, copy, axpy, sum, each after the one before. */
    const char *want[] = {"fill", "deep_copy", "parallel_for", "parallel_reduce"};
    size_t w = 0;
    for (size_t i = 0; i < t.events->n && w < 4; ++i) {
        const jval *e = &t.events->items[i];
        if (strcmp(jstr(e, "ph"), "X") == 0 && jnum(e, "tid") == tid &&
            kind_is(jstr(e, "cat"), want[w]))
            ++w;
    }
    TK_ASSERT(
        w == 4,
        "the instance's records are not fill, deep_copy, parallel_for, parallel_reduce in order");
    check_in_order(&t, tid, 2.0);
    jfree(&t.root);
    clear_env();
}
END_TEST

/* A label or an instance name with quotes, backslashes, newlines, control characters and
   non-ASCII text comes back as it was, and the file stays valid JSON. */
START_TEST(labels_escaped)
{
    static const char label[] = "q\"uote\\back\nnew\ttab\x01"
                                "ctl/na\xc3\xafve \xe2\x9c\x93";
    static const char inst_label[] = "inst \"x\"\\\n";
    init_timeline();
    px_instance *inst = tk_instance(inst_label);
    px_view *v = tk_view1("tl_v", tk_space(), PX_F64, 64);
    axpy_args a;
    a.a = 1.0;
    TK_OK(px_view_span_f64(v, &a.x));
    TK_OK(px_view_span_f64(v, &a.y));
    TK_OK(px_parallel_for(inst, label, px_range(0, 64), PX_KERNEL(axpy), &a));
    TK_OK(px_region_push(label));
    TK_OK(px_region_pop());
    TK_OK(px_instance_fence(inst));
    TK_RELEASE(v);
    TK_OK(px_instance_destroy(&inst));
    TK_OK(px_finalize());

    /* Python's parser too, where there is one. */
    if (system("command -v python3 >/dev/null 2>&1") == 0) {
        char cmd[256];
        snprintf(
            cmd, sizeof cmd,
            "python3 -c \"import json, sys; json.load(open(sys.argv[1], encoding='utf-8'))\" %s",
            trace_path);
        TK_ASSERT(system(cmd) == 0, "python3's json refuses %s", trace_path);
    }
    trace t;
    read_trace(&t);
    const jval *k = find_x(&t, label, "parallel_for");
    TK_ASSERT(k != NULL, "the kernel's label did not come back unchanged");
    const char *in = jstr(jget(k, "args"), "instance");
    TK_ASSERT(in && strcmp(in, inst_label) == 0,
              "the instance's label did not come back unchanged");
    const char *lane = lane_name(&t, jnum(k, "tid"));
    TK_ASSERT(lane && strncmp(lane, inst_label, strlen(inst_label)) == 0, "lane name '%s'",
              lane ? lane : "(none)");
    const jval *r = find_x(&t, label, "region");
    TK_ASSERT(r != NULL, "the region's label did not come back unchanged");
    TK_ASSERT(jstr(jget(r, "args"), "thread") != NULL, "the region is not on a host thread's lane");
    jfree(&t.root);
    clear_env();
}
END_TEST

/* PX_TIMELINE_MAX: the first records are kept, the others counted as dropped. */
START_TEST(max_records)
{
    clear_env();
    new_trace_path();
    setenv("PX_TIMELINE_MAX", "3", 1); /* read at px_init */
    px_init_options o;
    memset(&o, 0, sizeof o);
    o.skip_topology = true;
    o.timeline = trace_path;
    TK_OK(px_init(&o));
    unsetenv("PX_TIMELINE_MAX");
    px_instance *inst = tk_instance("tl-max");
    px_view *v = tk_view1("tl_v", tk_space(), PX_F64, 64);
    axpy_args a;
    a.a = 1.0;
    TK_OK(px_view_span_f64(v, &a.x));
    TK_OK(px_view_span_f64(v, &a.y));
    for (int i = 0; i < 6; ++i) {
        char label[32];
        snprintf(label, sizeof label, "tl_max %d", i);
        TK_OK(px_parallel_for(inst, label, px_range(0, 64), PX_KERNEL(axpy), &a));
    }
    TK_OK(px_instance_fence(inst));
    TK_RELEASE(v);
    TK_OK(px_instance_destroy(&inst));
    trace t;
    finalize_and_read(&t);
    TK_ASSERT(count_x(&t) == 3 && jnum(t.other, "records") == 3.0,
              "%zu complete events, records %g", count_x(&t), jnum(t.other, "records"));
    TK_ASSERT(jnum(t.other, "max_records") == 3.0, "max_records %g", jnum(t.other, "max_records"));
    TK_ASSERT(jnum(t.other, "dropped") >= 4.0, "dropped %g, want at least 4 (3 kernels, a fence)",
              jnum(t.other, "dropped"));
    for (int i = 0; i < 3; ++i) {
        char label[32];
        snprintf(label, sizeof label, "tl_max %d", i);
        TK_ASSERT(find_x(&t, label, "parallel_for") != NULL, "'%s' was not kept", label);
    }
    jfree(&t.root);
    clear_env();
}
END_TEST

/* Several threads, each on an instance of its own, at once: every record is there, on its
   instance's lane, in order. */
#define TL_THREADS 3
#define TL_PER_THREAD 40

typedef struct tl_worker {
    px_instance *inst;
    px_view *v;
    int id;
    tk_werr err;
} tl_worker;

static void *tl_work(void *p)
{
    tl_worker *w = p;
    axpy_args a;
    a.a = 0.5;
    TK_W_OK(&w->err, px_view_span_f64(w->v, &a.x));
    TK_W_OK(&w->err, px_view_span_f64(w->v, &a.y));
    for (int i = 0; i < TL_PER_THREAD; ++i) {
        char label[32];
        snprintf(label, sizeof label, "tl_thread %d", w->id);
        TK_W_OK(&w->err, px_parallel_for(w->inst, label, px_range(0, 256), PX_KERNEL(axpy), &a));
    }
    TK_W_OK(&w->err, px_instance_fence(w->inst));
    return NULL;
}

START_TEST(threads)
{
    init_timeline();
    tl_worker w[TL_THREADS];
    pthread_t th[TL_THREADS];
    for (int i = 0; i < TL_THREADS; ++i) {
        char label[32];
        snprintf(label, sizeof label, "tl-thread-%d", i);
        memset(&w[i], 0, sizeof w[i]);
        w[i].inst = tk_instance(label);
        w[i].v = tk_view1("tl_v", tk_space(), PX_F64, 256);
        w[i].id = i;
    }
    for (int i = 0; i < TL_THREADS; ++i)
        ck_assert_int_eq(pthread_create(&th[i], NULL, tl_work, &w[i]), 0);
    for (int i = 0; i < TL_THREADS; ++i) pthread_join(th[i], NULL);
    for (int i = 0; i < TL_THREADS; ++i) {
        TK_ASSERT(!w[i].err.failed, "thread %d: %s", i, w[i].err.msg);
        TK_RELEASE(w[i].v);
        TK_OK(px_instance_destroy(&w[i].inst));
    }
    trace t;
    finalize_and_read(&t);
    TK_ASSERT(jnum(t.other, "dropped") == 0.0 && jnum(t.other, "unresolved") == 0.0,
              "dropped %g, unresolved %g", jnum(t.other, "dropped"), jnum(t.other, "unresolved"));
    for (int i = 0; i < TL_THREADS; ++i) {
        char label[32], inst[32];
        snprintf(label, sizeof label, "tl_thread %d", i);
        snprintf(inst, sizeof inst, "tl-thread-%d", i);
        int count = 0;
        double tid = -1.0;
        for (size_t e = 0; e < t.events->n; ++e) {
            const jval *ev = &t.events->items[e];
            const char *name = jstr(ev, "name");
            if (strcmp(jstr(ev, "ph"), "X") != 0 || !name || strcmp(name, label) != 0) continue;
            const char *in = jstr(jget(ev, "args"), "instance");
            TK_ASSERT(in && strcmp(in, inst) == 0, "'%s' on instance '%s'", label,
                      in ? in : "(none)");
            if (tid < 0) tid = jnum(ev, "tid");
            TK_ASSERT(jnum(ev, "tid") == tid, "'%s' on two lanes", label);
            ++count;
        }
        TK_ASSERT(count == TL_PER_THREAD, "%d records of '%s', want %d", count, label,
                  TL_PER_THREAD);
        check_in_order(&t, tid, 2.0);
    }
    jfree(&t.root);
    clear_env();
}
END_TEST

/* Where the trace goes: a path that cannot be written makes px_init fail; PX_TIMELINE
   when the option is NULL; "" records none, whatever the environment says. */
START_TEST(where_it_goes)
{
    clear_env();
    px_init_options o;
    memset(&o, 0, sizeof o);
    o.skip_topology = true;
    o.timeline = "/nonexistent-portex-dir/trace.json";
    TK_FAIL(px_init(&o), PX_ERR_SYSTEM, "px_init");
    TK_ERROR_HAS("/nonexistent-portex-dir/trace.json");
    ck_assert(!px_is_initialized());

    /* From the environment. */
    new_trace_path();
    setenv("PX_TIMELINE", trace_path, 1);
    o.timeline = NULL;
    TK_OK(px_init(&o));
    px_instance *inst = tk_instance("tl-env");
    TK_OK(px_instance_fence(inst));
    TK_OK(px_instance_destroy(&inst));
    trace t;
    finalize_and_read(&t);
    TK_ASSERT(count_x(&t) >= 1, "nothing recorded through PX_TIMELINE");
    jfree(&t.root);

    /* "" overrides the environment: no file is written. */
    o.timeline = "";
    TK_OK(px_init(&o));
    px_tools_info info;
    TK_OK(px_tools_info_get(&info));
    ck_assert_ptr_null(info.timeline);
    TK_OK(px_finalize());
    TK_ASSERT(access(trace_path, F_OK) != 0, "a trace was written with timeline \"\"");
    clear_env();
}
END_TEST

int main(void)
{
    TCase *tc = tk_case_bare("timeline", "timeline");
    TK_ADD(tc, records_every_operation, labels_escaped, max_records, threads, where_it_goes);
    return tk_run();
}
