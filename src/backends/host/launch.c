/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernels on a team of host threads (the OpenMP and threads backends). The kernel's host
 * entry runs parts of the index space (a sub-policy each), so a kernel file needs no
 * threads of its own:
 *   - 1-D: one contiguous chunk per thread (static scheduling);
 *   - 2-D to 6-D: the range is cut into tiles (the policy's, or for an untiled policy blocks
 *     of the slowest dimensions, enough for every thread), and each thread takes a
 *     contiguous run of tiles in iteration order; tiles next to each other along the
 *     fastest tiled dimension go to the entry together;
 *   - reductions: each part folds into its own partial, joined in part order;
 *   - scans: two passes, each part's total first (final false), then each part again from
 *     the join of the totals before it, which each part makes for itself (final true).
 * Parts are as many as the team's threads, whatever number of threads runs them
 * (job.h), so a result is the same run to run for a given thread count, and the same
 * on every backend that cuts with this file. */
#include "backends/host/launch.h"

#include <stdlib.h>
#include <string.h>

#include "backends/host/team.h"
#include "backends/services.h"

/* Partial results on the stack up to this size; more (many threads, big values) are
   allocated. A partial per cache line, so that threads do not share lines. */
#define PARTIALS_ON_STACK 8192
#define LINE 64

/* ---- Cutting the index space ------------------------------------------------------------ */

/* The range of 2-D to 6-D dispatches as tiles. Units are what the parts divide: tiles over the
   k slowest dimensions (the faster ones whole), k as large as the unit count fits int64. */
typedef struct md_plan {
    int rank, k;
    int ord[PX_POLICY_MAX_RANK];    /* dimensions, slowest first */
    int64_t t[PX_POLICY_MAX_RANK];  /* tile extent */
    int64_t nt[PX_POLICY_MAX_RANK]; /* tiles */
    int64_t units;
} md_plan;

static int64_t ceil_div(int64_t a, int64_t b) { return a == 0 ? 0 : (a - 1) / b + 1; }

static void md_plan_make(md_plan *m, const px_policy *p, int threads)
{
    const int r = p->rank;
    m->rank = r;
    for (int j = 0; j < r; ++j) m->ord[j] = p->iterate == PX_ITERATE_LEFT ? r - 1 - j : j;
    bool tiled = false;
    int64_t e[PX_POLICY_MAX_RANK];
    for (int d = 0; d < r; ++d) {
        e[d] = p->end[d] - p->begin[d];
        tiled = tiled || p->tile[d] > 0;
        /* As the host loops read it: no tile is the whole dimension. */
        m->t[d] = p->tile[d] > 0 && p->tile[d] < e[d] ? p->tile[d] : (e[d] > 0 ? e[d] : 1);
    }
    if (!tiled) {
        /* Blocks of the slowest dimension, and of the next when that one is shorter than
           the team. */
        const int s0 = m->ord[0], s1 = m->ord[1];
        const int64_t a = e[s0] < threads ? (e[s0] > 0 ? e[s0] : 1) : threads;
        m->t[s0] = e[s0] > 0 ? ceil_div(e[s0], a) : 1;
        if (a < threads && e[s1] > 1) {
            const int64_t b = ceil_div(threads, a) < e[s1] ? ceil_div(threads, a) : e[s1];
            m->t[s1] = ceil_div(e[s1], b);
        }
    }
    for (int d = 0; d < r; ++d) m->nt[d] = ceil_div(e[d], m->t[d]);
    m->k = r;
    for (;;) {
        int64_t u = 1;
        bool fits = true;
        for (int j = 0; j < m->k && fits; ++j)
            fits = !__builtin_mul_overflow(u, m->nt[m->ord[j]], &u);
        if (fits) {
            m->units = u;
            return;
        }
        m->k--; /* k = 1 always fits: nt <= extent */
    }
}

/* end of the run of `tiles` tiles of extent t from b in dimension d, clamped to end. */
static int64_t run_end(const px_policy *p, int d, int64_t b, int64_t tiles, int64_t t)
{
    const int64_t left = ceil_div(p->end[d] - b, t);
    return tiles >= left ? p->end[d] : b + tiles * t;
}

typedef void (*sub_fn)(void *ctx, const px_policy *sub, int part);

/* Calls fn for the units [u0, u1) of m, a run of neighbouring tiles at a time. */
static void md_walk(const md_plan *m, const px_policy *p, int64_t u0, int64_t u1, sub_fn fn,
                    void *ctx, int part)
{
    int64_t idx[PX_POLICY_MAX_RANK] = {0};
    int64_t rest = u0;
    for (int j = m->k - 1; j >= 0; --j) {
        idx[j] = rest % m->nt[m->ord[j]];
        rest /= m->nt[m->ord[j]];
    }
    px_policy sub = *p;
    for (int d = 0; d < m->rank; ++d) sub.tile[d] = m->t[d];
    for (int64_t u = u0; u < u1;) {
        const int last = m->k - 1;
        const int64_t left = m->nt[m->ord[last]] - idx[last];
        const int64_t run = u1 - u < left ? u1 - u : left;
        for (int j = 0; j < m->k; ++j) {
            const int d = m->ord[j];
            sub.begin[d] = p->begin[d] + idx[j] * m->t[d];
            sub.end[d] = run_end(p, d, sub.begin[d], j == last ? run : 1, m->t[d]);
        }
        fn(ctx, &sub, part);
        u += run;
        idx[last] += run;
        for (int j = last; j > 0 && idx[j] == m->nt[m->ord[j]]; --j) {
            idx[j] = 0;
            idx[j - 1]++;
        }
    }
}

/* ---- The part a thread runs ------------------------------------------------------------- */

/* -1: no part. The default thread-local model, as the library's other slots (base/error.h):
   the library may be loaded with dlopen. */
static __thread int host_part = -1;

int px__host_part(void) { return host_part; }

int px__host_part_enter(int part)
{
    const int was = host_part;
    host_part = part;
    return was;
}

void px__host_part_leave(int previous) { host_part = previous; }

/* ---- One dispatch ---------------------------------------------------------------------- */

/* What every part reads first sits in the context itself, not behind the dispatch: the
   context is written by the calling thread just before the team starts, and each pointer
   a worker must follow to reach the entry, the arguments and the range is one more cache
   line fetched from the caller's core, one after the other, before the part can start:
   on a small dispatch, time every thread of the team waits. */
typedef struct launch_ctx {
    px__host_range_fn entry;
    const void *args;
    int nparts;
    px_policy policy;
    const px__dispatch *d;
    px__host_scan_pass_fn scan; /* scans: the pass entry */
    md_plan md;                 /* rank 2 to 6 */
    unsigned char *partial;     /* nparts values, `stride` bytes apart */
    size_t stride;
} launch_ctx;

static void *partial_of(const launch_ctx *c, int part)
{
    return c->partial + (size_t)part * c->stride;
}

/* The part's scratch value: the slots after the parts' partials. */
static void *scratch_of(const launch_ctx *c, int part) { return partial_of(c, c->nparts + part); }

/* Every part's partial joined in part order into `out` (after the job). */
static void join_parts(const launch_ctx *c, void *out)
{
    const px_kernel *k = c->d->kernel;
    void *total = partial_of(c, c->nparts);
    k->identity(total);
    for (int p = 0; p < c->nparts; ++p) k->join(total, partial_of(c, p));
    memcpy(out, total, k->value_size);
}

static void run_sub_for(void *vc, const px_policy *sub, int part)
{
    (void)part;
    const launch_ctx *c = vc;
    c->entry(c->args, sub, NULL);
}

static void run_sub_reduce(void *vc, const px_policy *sub, int part)
{
    const launch_ctx *c = vc;
    const px_kernel *k = c->d->kernel;
    void *value = scratch_of(c, part);
    c->entry(c->args, sub, value);
    k->join(partial_of(c, part), value);
}

/* The sub-policies of one part: its chunk (1-D) or its run of tiles. */
static void each_sub(launch_ctx *c, int part, sub_fn fn)
{
    const px_policy *p = &c->policy;
    if (p->rank == 1) {
        int64_t lo, hi;
        px__host_share(p->end[0] - p->begin[0], part, c->nparts, &lo, &hi);
        px_policy sub = *p;
        sub.begin[0] = p->begin[0] + lo;
        sub.end[0] = p->begin[0] + hi;
        fn(c, &sub, part);
        return;
    }
    int64_t lo, hi;
    px__host_share(c->md.units, part, c->nparts, &lo, &hi);
    if (lo < hi) md_walk(&c->md, p, lo, hi, fn, c, part);
}

static void pass_for(void *vc, int part)
{
    const int was = px__host_part_enter(part);
    each_sub(vc, part, run_sub_for);
    px__host_part_leave(was);
}

static void pass_reduce(void *vc, int part)
{
    launch_ctx *c = vc;
    const int was = px__host_part_enter(part);
    c->d->kernel->identity(partial_of(c, part));
    each_sub(c, part, run_sub_reduce);
    px__host_part_leave(was);
}

/* Scans (1-D): the part's total, then the part again from its offset. */
static void pass_scan_total(void *vc, int part)
{
    launch_ctx *c = vc;
    const px_kernel *k = c->d->kernel;
    int64_t lo, hi;
    px__host_share(c->policy.end[0] - c->policy.begin[0], part, c->nparts, &lo, &hi);
    px_policy sub = c->policy;
    sub.begin[0] = c->policy.begin[0] + lo;
    sub.end[0] = c->policy.begin[0] + hi;
    void *u = partial_of(c, part);
    k->identity(u);
    const int was = px__host_part_enter(part);
    c->scan(c->args, &sub, u, false);
    px__host_part_leave(was);
}

/* The part again from the join of the parts' totals before it, in part order (each part
   finds its own offset: the second pass needs one barrier after the first, nothing run on
   one thread in between). Its scratch holds the offset. */
static void pass_scan_final(void *vc, int part)
{
    launch_ctx *c = vc;
    const px_kernel *k = c->d->kernel;
    void *run = scratch_of(c, part);
    k->identity(run);
    for (int p = 0; p < part; ++p) k->join(run, partial_of(c, p));
    int64_t lo, hi;
    px__host_share(c->policy.end[0] - c->policy.begin[0], part, c->nparts, &lo, &hi);
    px_policy sub = c->policy;
    sub.begin[0] = c->policy.begin[0] + lo;
    sub.end[0] = c->policy.begin[0] + hi;
    const int was = px__host_part_enter(part);
    c->scan(c->args, &sub, run, true);
    px__host_part_leave(was);
}

/* ---- 1-D PX_FOR by value ----------------------------------------------------------------- */

/* px_range(0, 0): a part's sub-policy but for its first dimension. Copied from here whole
   (the compiler is not told what it holds, or it would build it in place again, as it
   does px_range: zeroing, then narrow stores that the copy into the entry's argument
   reads back in wider pieces, each a stall). */
static const px_policy range_0 = {
    .begin = {0}, .end = {0, 1, 1, 1, 1, 1}, .tile = {0}, .rank = 1, .iterate = PX_ITERATE_RIGHT};

void px__host_for1_part(const px__host_for1 *f, int part)
{
    int64_t lo, hi;
    px__host_share(f->end - f->begin, part, f->nparts, &lo, &hi);
    const px_policy *tmpl = &range_0;
    __asm__("" : "+r"(tmpl));
    px_policy sub = *tmpl;
    sub.begin[0] = f->begin + lo;
    sub.end[0] = f->begin + hi;
    const int was = px__host_part_enter(part);
    f->entry(f->args, &sub, NULL);
    px__host_part_leave(was);
}

/* Team kernels: the league shared out among the threads (px__host_team_part: chunks for a
   for, contiguous shares for a reduction), each team on one thread (one thread per
   team: no barrier between threads is ever needed, the nested loops run in order, and the
   result does not depend on the thread count except for the grouping of a reduction). */
static void pass_team(void *vc, int part)
{
    const int was = px__host_part_enter(part);
    px__host_team_part(vc, part);
    px__host_part_leave(was);
}

px_status px__host_launch(const px__host_runner *r, const px__dispatch *d)
{
    const px_kernel *k = d->kernel;
    if (k->team) {
        px__host_team t;
        PX__TRY(px__host_team_begin(&t, d, r->nthreads));
        r->run(r->team, &(px__host_job){.nparts = t.parts, .pass = {pass_team, NULL}, .ctx = &t});
        px__host_team_end(&t);
        return PX_OK;
    }
    /* Field by field: an initialiser would zero the whole context first (the tiling plan
       is most of it, and 1-D dispatches never read it), which showed on small dispatches. */
    launch_ctx c;
    c.entry = (px__host_range_fn)d->entry;
    c.args = d->args;
    c.nparts = r->nthreads;
    c.policy = d->policy;
    c.d = d;
    c.scan = NULL;
    c.partial = NULL;
    c.stride = 0;
    if (d->policy.rank > 1) md_plan_make(&c.md, &d->policy, c.nparts);
    if (k->kind == PX_KERNEL_FOR) {
        r->run(r->team, &(px__host_job){.nparts = c.nparts, .pass = {pass_for, NULL}, .ctx = &c});
        return PX_OK;
    }
    /* Partials: one per part, and as many again for scratch (a sub-policy's value in a
       reduction, the running offset in a scan), a cache line apart. */
    c.stride = (k->value_size + LINE - 1) / LINE * LINE;
    const size_t slots = (size_t)c.nparts * 2 + 1;
    _Alignas(LINE) unsigned char stack[PARTIALS_ON_STACK];
    size_t bytes;
    if (px__mul_overflows(slots, c.stride, &bytes))
        return px__error(PX_ERR_OVERFLOW, "the partial results of kernel '%s' overflow", k->name);
    unsigned char *heap = bytes > sizeof stack ? px__aligned_alloc(LINE, bytes) : NULL;
    if (bytes > sizeof stack && !heap)
        return px__error(PX_ERR_OUT_OF_MEMORY,
                         "out of host memory for the %d partial results of kernel '%s'", c.nparts,
                         k->name);
    c.partial = heap ? heap : stack;
    if (k->kind == PX_KERNEL_REDUCE) {
        r->run(r->team,
               &(px__host_job){.nparts = c.nparts, .pass = {pass_reduce, NULL}, .ctx = &c});
        join_parts(&c, d->result);
    } else if (!(c.scan = (px__host_scan_pass_fn)px__kernel_entry_of(k, PX__TARGET_HOST,
                                                                     PX__ENTRY_SCAN_PASS))) {
        /* A descriptor without the pass entry (made by hand): in order, on this thread. */
        ((px__host_range_fn)d->entry)(d->args, &d->policy, d->result);
    } else {
        r->run(r->team, &(px__host_job){.nparts = c.nparts,
                                        .pass = {pass_scan_total, pass_scan_final},
                                        .ctx = &c});
        if (d->result) join_parts(&c, d->result); /* the grand total */
    }
    free(heap);
    return PX_OK;
}
