/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* docs/teams.md: a policy with scratch at both levels ("policy"), run by a kernel that
 * reports what each team got, and the SpMV team kernel ("kernel") with its dispatch
 * ("dispatch") on the 1-D Laplacian. */
#include "laplacian.h"
#include "snippet.h"

/* snippet: kernel */

/* Per team: the scratch bytes it got at each level, shared and per thread. */
typedef struct probe_args {
    px_span_i64_right got;
} probe_args;

PX_TEAM_FOR(probe, probe_args, a, team)
{
    PX_SINGLE_PER_TEAM(team)
    {
        for (int level = 0; level < 2; ++level) {
            PX_AT2(a->got, team->league_rank, 2 * level) = (int64_t)team->scratch_size[level];
            PX_AT2(a->got, team->league_rank, 2 * level + 1) =
                (int64_t)team->thread_scratch_size[level];
        }
    }
}

static void policy(px_instance *inst)
{
    const int64_t league_size = 8;
    const int32_t team_size = PX_AUTO, vector_length = PX_AUTO;
    const size_t per_team_bytes = 256, per_thread_bytes = 40; /* 40: rounded up to 48 */

    SNIPPET_BEGIN();
    /* snippet: policy */
    SNIPPET_END();

    px_space where;
    px_view *got;
    CHECK(px_default_space(&where));
    px_view_desc d = {
        .label = "got", .space = where, .dtype = PX_I64, .rank = 2, .extent = {league_size, 4}};
    CHECK(px_view_create(&got, &d)); /* zero-filled: a team that never ran leaves zeros */
    probe_args args;
    CHECK(px_view_get_span(got, &args.got));
    CHECK(px_parallel_for_team(inst, "probe", p, PX_KERNEL(probe), &args));
    px_span_i64_right g;
    px_view *h = snippet_host_copy(got);
    CHECK(px_view_get_span(h, &g));
    for (int64_t t = 0; t < league_size; ++t)
        for (int level = 0; level < 2; ++level) {
            EXPECT(PX_AT2(g, t, 2 * level) >= 256);
            EXPECT(PX_AT2(g, t, 2 * level + 1) == 48);
        }
    CHECK(px_view_release(&h));
    CHECK(px_view_release(&got));
}

static void spmv(px_instance *inst)
{
    laplacian m;
    laplacian_create(&m, 100);
    const int64_t nrows = m.nrows;
    px_view *row = m.row;
    spmv_args args;
    LAPLACIAN_SPANS(m, args);

    SNIPPET_BEGIN();
    /* snippet: dispatch */
    SNIPPET_END();

    laplacian_check_and_release(&m);
}

int main(void)
{
    px_instance *inst;
    CHECK(px_init(NULL));
    CHECK(px_default_instance(&inst));
    policy(inst);
    spmv(inst);
    CHECK(px_finalize());
    return 0;
}
