/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* docs/instances.md: the three calls that give the default execution space ("defaults"),
 * a view made where an instance's kernels run ("space") and an event that orders one
 * instance's work after another's ("events"). */
#include <ctype.h>

#include "snippet.h"

typedef struct pc_args {
    px_span_f64_1d x, y;
} pc_args;

PX_FOR(produce, pc_args, args, i) { PX_AT1(args->x, i) = (double)i; }
PX_FOR(consume, pc_args, args, i) { PX_AT1(args->y, i) = 2.0 * PX_AT1(args->x, i); }

/* The default is what PX_DEFAULT_EXEC names ("serial", "openmp"), in any case. */
static int names(px_exec_space exec, const char *name)
{
    const char *s = px_exec_space_string(exec);
    size_t k = 0;
    for (; s[k] && name[k]; ++k)
        if (tolower((unsigned char)s[k]) != tolower((unsigned char)name[k])) return 0;
    return s[k] == name[k];
}

static void defaults(void)
{
    SNIPPET_BEGIN();
    /* snippet: defaults */
    SNIPPET_END();

    px_exec_space of_inst;
    CHECK(px_instance_exec_space(inst, &of_inst));
    EXPECT(of_inst == exec);
    EXPECT(where.kind == PX_SPACE_HOST); /* the host backends' data lives on the host */
    const char *asked = getenv("PX_DEFAULT_EXEC");
    EXPECT(!asked || names(exec, asked));
}

static void space(void)
{
    enum { n = 100 };
    px_instance *inst;
    px_space runs;
    CHECK(px_default_instance(&inst));
    CHECK(px_default_space(&runs));

    SNIPPET_BEGIN();
    /* snippet: space */
    SNIPPET_END();

    EXPECT(where.kind == runs.kind && where.device == runs.device);
    px_view_info info;
    CHECK(px_view_info_get(x, &info));
    EXPECT(info.space.kind == runs.kind && info.extent[0] == n);
    CHECK(px_view_release(&x));
}

static void events(void)
{
    enum { n = 1000 };
    px_exec_space exec;
    px_space where;
    CHECK(px_default_exec_space(&exec));
    CHECK(px_default_space(&where));
    px_instance_desc desc = {.exec = exec, .label = "a"};
    px_instance *a, *b;
    CHECK(px_instance_create(&a, &desc));
    desc.label = "b";
    CHECK(px_instance_create(&b, &desc));
    px_view *x, *y;
    CHECK(px_view_create_1d(&x, "x", where, PX_F64, n));
    CHECK(px_view_create_1d(&y, "y", where, PX_F64, n));
    pc_args args;
    CHECK(px_view_get_span(x, &args.x));
    CHECK(px_view_get_span(y, &args.y));
    const px_policy range = px_range(0, n);

    SNIPPET_BEGIN();
    /* snippet: events */
    SNIPPET_END();

    CHECK(px_instance_fence(b));
    px_view *h = snippet_host_copy(y);
    px_span_f64_1d hs;
    CHECK(px_view_get_span(h, &hs));
    for (int64_t i = 0; i < n; ++i) EXPECT(PX_AT1(hs, i) == 2.0 * (double)i);
    CHECK(px_view_release(&h));
    CHECK(px_event_destroy(&ready));
    CHECK(px_view_release(&x));
    CHECK(px_view_release(&y));
    CHECK(px_instance_destroy(&a));
    CHECK(px_instance_destroy(&b));
}

int main(void)
{
    CHECK(px_init(NULL));
    defaults();
    space();
    events();
    CHECK(px_finalize());
    return 0;
}
