/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The timeline's trace (observability/timeline_trace.h): Chrome trace JSON, which
 * chrome://tracing, ui.perfetto.dev and scripts/plot/timeline_plot.py read. One lane
 * (a "thread" of the trace) per host thread and per instance, named; one complete event
 * ("ph":"X") per record, with its instance or thread, space, copy path and bytes. */
#include "observability/timeline_trace.h"

#include <inttypes.h>
#include <stdlib.h>

#include "base/util.h"
#include "portex/copy.h"
#include "portex/version.h"

/* s as a JSON string: quotes, backslashes and control characters escaped, bytes that are
   not UTF-8 replaced by U+FFFD (labels are user text). */
static void json_str(FILE *f, const char *s)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    putc('"', f);
    while (*p) {
        /* A run that needs no escaping goes out at once. */
        const unsigned char *run = p;
        while (*p >= 0x20 && *p < 0x80 && *p != '"' && *p != '\\') ++p;
        if (p > run) fwrite(run, 1, (size_t)(p - run), f);
        const unsigned char c = *p;
        if (!c) break;
        if (c == '"' || c == '\\') {
            putc('\\', f);
            putc(c, f);
            ++p;
        } else if (c < 0x20) {
            switch (c) {
            case '\n': fputs("\\n", f); break;
            case '\r': fputs("\\r", f); break;
            case '\t': fputs("\\t", f); break;
            case '\b': fputs("\\b", f); break;
            case '\f': fputs("\\f", f); break;
            default: fprintf(f, "\\u%04x", c); break;
            }
            ++p;
        } else {
            /* A well-formed sequence of 2 to 4 bytes (no overlongs, surrogates or > U+10FFFF). */
            const int n = c >= 0xc2 && c <= 0xdf   ? 2
                          : c >= 0xe0 && c <= 0xef ? 3
                          : c >= 0xf0 && c <= 0xf4 ? 4
                                                   : 0;
            bool good = n > 0;
            for (int k = 1; good && k < n; ++k) good = (p[k] & 0xc0) == 0x80;
            if (good && n == 3) good = !(c == 0xe0 && p[1] < 0xa0) && !(c == 0xed && p[1] >= 0xa0);
            if (good && n == 4) good = !(c == 0xf0 && p[1] < 0x90) && !(c == 0xf4 && p[1] >= 0x90);
            if (good) {
                fwrite(p, 1, (size_t)n, f);
                p += n;
            } else {
                fputs("\\ufffd", f);
                ++p;
            }
        }
    }
    putc('"', f);
}

/* ns (>= 0) as microseconds with three decimals, "12.345" (printf's %f is slow on a
   million records). */
static void put_us(FILE *f, int64_t ns)
{
    char buf[32];
    int i = (int)sizeof buf;
    uint64_t v = ns > 0 ? (uint64_t)ns : 0;
    for (int k = 0; k < 3; ++k, v /= 10) buf[--i] = (char)('0' + v % 10);
    buf[--i] = '.';
    do {
        buf[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    fwrite(buf + i, 1, sizeof buf - (size_t)i, f);
}

/* A lane's place in the trace: host threads first, in the order they were first
   recorded, then instances in the order they were created. */
typedef struct lane_key {
    bool host;
    uint32_t number;
    int index;
} lane_key;

static int lane_cmp(const void *pa, const void *pb)
{
    const lane_key *a = pa, *b = pb;
    if (a->host != b->host) return a->host ? -1 : 1;
    if (!a->host && a->number != b->number) return a->number < b->number ? -1 : 1;
    return (a->index > b->index) - (a->index < b->index);
}

void px__timeline_write(FILE *f, const px__tl_trace *t)
{
    int64_t origin = INT64_MAX;
    for (int64_t i = 0; i < t->n; ++i) {
        const px__tl_rec *r = px__tl_rec_at(t->chunks, i);
        if (r->state == PX__TL_DONE && r->u.t.t0 < origin) origin = r->u.t.t0;
    }
    fputs("{\"traceEvents\":[\n", f);
    fputs("{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"tid\":0,\"args\":{\"name\":"
          "\"portex\"}}",
          f);
    lane_key *by = px__malloc((size_t)(t->nlanes > 0 ? t->nlanes : 1) * sizeof *by);
    if (by) {
        for (int i = 0; i < t->nlanes; ++i)
            by[i] = (lane_key){t->lanes[i].host, t->lanes[i].number, i};
        qsort(by, (size_t)t->nlanes, sizeof *by, lane_cmp);
    }
    for (int k = 0; k < t->nlanes; ++k) {
        const int i = by ? by[k].index : k;
        fprintf(
            f, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":%d,\"args\":{\"name\":",
            i + 1);
        json_str(f, t->lanes[i].name);
        fprintf(f,
                "}},\n{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":1,\"tid\":%d,\"args\":{"
                "\"sort_index\":%d}}",
                i + 1, k);
    }
    free(by);
    for (int64_t i = 0; i < t->n; ++i) {
        const px__tl_rec *r = px__tl_rec_at(t->chunks, i);
        if (r->state != PX__TL_DONE) continue;
        const px__tl_lane *l = &t->lanes[r->lane];
        const int64_t dur = r->u.t.t1 > r->u.t.t0 ? r->u.t.t1 - r->u.t.t0 : 0;
        fputs(",\n{\"name\":", f);
        json_str(f, t->str[r->label]);
        fputs(",\"cat\":", f);
        json_str(f, t->str[r->kind]);
        fputs(",\"ph\":\"X\",\"ts\":", f);
        put_us(f, r->u.t.t0 - origin);
        fputs(",\"dur\":", f);
        put_us(f, dur);
        fprintf(f, ",\"pid\":1,\"tid\":%d,\"args\":{", r->lane + 1);
        fputs(l->host ? "\"thread\":" : "\"instance\":", f);
        json_str(f, l->host ? l->name : l->instance);
        fputs(",\"space\":", f);
        json_str(f, l->space);
        if (r->path != PX_COPY_NONE) {
            fputs(",\"path\":", f);
            json_str(f, px_copy_path_string((px_copy_path)r->path));
        }
        if (r->bytes) fprintf(f, ",\"bytes\":%" PRIu64, r->bytes);
        fputs("}}", f);
    }
    fputs("\n],\n\"displayTimeUnit\":\"ms\",\n\"otherData\":{\"portex_version\":", f);
    json_str(f, PX_VERSION_STRING); /* not px_version_string: runtime/init is above */
    fprintf(f,
            ",\"clock\":\"CLOCK_MONOTONIC\",\"origin_ns\":%" PRId64 ",\"records\":%" PRIu64
            ",\"dropped\":%" PRIu64 ",\"unresolved\":%" PRIu64 ",\"max_records\":%" PRId64 "}\n}\n",
            origin == INT64_MAX ? 0 : origin, t->written, t->dropped, t->unresolved, t->max);
}
