/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* docs/tools.md: a region around a dispatch and a copy, seen on the timeline: the harness
 * turns the timeline on (px_init_options.timeline) and finds the region, the kernel and
 * the copy in the trace px_finalize writes. */
#include "snippet.h"

typedef struct update_args {
    px_span_f64_1d x;
} update_args;

PX_FOR(update, update_args, args, i) { PX_AT1(args->x, i) += 1.0; }

static const char *const trace = "tools_trace.json";

/* The trace names `what`. */
static int traced(const char *what)
{
    static char text[1 << 20];
    FILE *f = fopen(trace, "r");
    if (!f) return 0;
    const size_t len = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[len] = '\0';
    return strstr(text, what) != NULL;
}

int main(void)
{
    enum { n = 100 };
    px_init_options opts = {.timeline = trace};
    px_instance *inst;
    px_space where;
    px_view *d, *h;
    update_args args;
    CHECK(px_init(&opts));
    CHECK(px_default_instance(&inst));
    CHECK(px_default_space(&where));
    CHECK(px_view_create_1d(&d, "d", where, PX_F64, n));
    CHECK(px_view_create_mirror(&h, px_host(), d));
    CHECK(px_view_get_span(d, &args.x));

    SNIPPET_BEGIN();
    /* snippet */
    SNIPPET_END();

    EXPECT(px_region_pop() != PX_OK); /* the snippet closed what it opened */
    px_clear_error();
    px_span_f64_1d hs;
    CHECK(px_view_get_span(h, &hs));
    EXPECT(PX_AT1(hs, n - 1) == 1.0);
    CHECK(px_view_release(&d));
    CHECK(px_view_release(&h));
    CHECK(px_finalize());
    EXPECT(traced("\"time step\"") && traced("\"update\""));
    return 0;
}
