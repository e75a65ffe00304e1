/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernel file: the team kernels of test_team (valid C11 and CUDA C++; portex macros only).
 * Bodies follow the execution model of portex/team.h: work in nested loops, results
 * written from single blocks, team-level operations reached by every thread. */
#include <string.h>

#include "k_team.h"

PX_JOIN(stat, tk_stat, d, s)
{
    d->sum += s->sum;
    d->count += s->count;
    if (s->max > d->max) d->max = s->max;
}
PX_IDENTITY(stat, tk_stat, v)
{
    v->sum = 0;
    v->count = 0;
    v->max = INT64_MIN;
}

/* d, then s: x -> s.a (d.a x + d.b) + s.b */
PX_JOIN(affine, tk_affine, d, s)
{
    d->b = s->a * d->b + s->b;
    d->a = s->a * d->a;
}
PX_IDENTITY(affine, tk_affine, v)
{
    v->a = 1;
    v->b = 0;
}

/* 1 when every thread and lane of the team holds the same h, else 0 (a team-level op). */
PX_FUNCTION int64_t tk_agree(const px_team *team, uint64_t h)
{
    const int64_t nt = (int64_t)team->team_size * team->vector_length;
    uint64_t lo, hi;
    PX_TEAM_VECTOR_REDUCE(team, q, 0, nt, uint64_t, min, acc, lo)
    {
        if (h < *acc) *acc = h;
    }
    PX_TEAM_VECTOR_REDUCE(team, q, 0, nt, uint64_t, max, acc, hi)
    {
        if (h > *acc) *acc = h;
    }
    return lo == hi ? 1 : 0;
}

PX_TEAM_FOR(tk_team_nested, tk_nested_args, a, team)
{
    const int64_t r = team->league_rank;
    PX_TEAM_THREAD_FOR(team, i, a->ib, a->ib + a->ni)
    {
        PX_THREAD_VECTOR_FOR(team, j, 0, a->nj)
        {
            PX_AT1(a->tv, (r * a->ni + (i - a->ib)) * a->nj + j) += 1 + r * 1000003 + i * 1009 + j;
        }
    }
    PX_TEAM_VECTOR_FOR(team, k, 0, a->nk) { PX_AT1(a->w, r * a->nk + k) += 1 + r * 7919 + k; }
    PX_SINGLE_PER_TEAM(team)
    {
        PX_AT1(a->shape, r * 4 + 0) = team->team_size;
        PX_AT1(a->shape, r * 4 + 1) = team->vector_length;
        PX_AT1(a->shape, r * 4 + 2) = team->league_size;
        PX_AT1(a->shape, r * 4 + 3) = team->league_rank;
    }
}

PX_TEAM_FOR(tk_team_nested_reduce, tk_nred_args, a, team)
{
    const int64_t r = team->league_rank;
    const int64_t len = (r * 37) % (a->n + 1);
    int64_t s1, mx;
    tk_stat st;
    px_valloc_i64 ml;
    double ds;
    PX_TEAM_THREAD_REDUCE(team, i, 0, len, int64_t, sum, acc, s1) { *acc += PX_AT1(a->x, i); }
    PX_TEAM_VECTOR_REDUCE(team, i, 0, len, int64_t, max, acc, mx)
    {
        if (PX_AT1(a->x, i) > *acc) *acc = PX_AT1(a->x, i);
    }
    PX_TEAM_THREAD_REDUCE(team, i, 0, len, tk_stat, stat, acc, st)
    {
        const int64_t x = PX_AT1(a->x, i);
        acc->sum += x;
        acc->count += 1;
        if (x > acc->max) acc->max = x;
    }
    PX_TEAM_VECTOR_REDUCE(team, i, 0, len, px_valloc_i64, minloc, acc, ml)
    {
        px_valloc_i64 v;
        v.val = PX_AT1(a->x, i);
        v.loc = i;
        px_join_minloc_px_valloc_i64(acc, &v);
    }
    PX_TEAM_VECTOR_REDUCE(team, i, 0, len, double, sum, acc, ds) { *acc += PX_AT1(a->y, i); }
    PX_TEAM_THREAD_FOR(team, i, 0, a->nrow)
    {
        int64_t s;
        PX_THREAD_VECTOR_REDUCE(team, j, 0, a->ncol, int64_t, sum, acc, s)
        {
            *acc += PX_AT1(a->x, (i * a->ncol + j) % a->n);
        }
        tk_stat vs;
        PX_THREAD_VECTOR_REDUCE(team, j, 0, a->ncol, tk_stat, stat, acc, vs)
        {
            const int64_t x = PX_AT1(a->x, (i * a->ncol + j) % a->n);
            acc->sum += x;
            acc->count += 1;
            if (x > acc->max) acc->max = x;
        }
        PX_SINGLE_PER_THREAD(team)
        {
            PX_AT1(a->tvsum, r * a->nrow + i) = s;
            PX_AT1(a->tvstat, (r * a->nrow + i) * 3 + 0) = vs.sum;
            PX_AT1(a->tvstat, (r * a->nrow + i) * 3 + 1) = vs.count;
            PX_AT1(a->tvstat, (r * a->nrow + i) * 3 + 2) = vs.max;
        }
    }
    uint64_t dbits;
    memcpy(&dbits, &ds, sizeof dbits);
    const uint64_t h = (uint64_t)s1 + 3u * (uint64_t)mx + 5u * (uint64_t)st.sum +
                       7u * (uint64_t)st.count + 11u * (uint64_t)st.max + 13u * (uint64_t)ml.loc +
                       17u * dbits;
    const int64_t same = tk_agree(team, h);
    PX_SINGLE_PER_TEAM(team)
    {
        PX_AT1(a->out, r * 8 + 0) = s1;
        PX_AT1(a->out, r * 8 + 1) = mx;
        PX_AT1(a->out, r * 8 + 2) = st.sum;
        PX_AT1(a->out, r * 8 + 3) = st.count;
        PX_AT1(a->out, r * 8 + 4) = st.max;
        PX_AT1(a->out, r * 8 + 5) = ml.loc;
        PX_AT1(a->out, r * 8 + 6) = same;
        PX_AT1(a->dsum, r) = ds;
    }
}

PX_TEAM_FOR(tk_team_nested_scan, tk_nscan_args, a, team)
{
    const int64_t r = team->league_rank;
    const int64_t n = a->n;
    const int64_t len = (r * 53) % (n + 1);
    int64_t t1, t2;
    tk_affine t3;
    PX_TEAM_THREAD_SCAN(team, i, 0, len, int64_t, sum, up, fin, t1)
    {
        if (fin) PX_AT1(a->excl, r * n + i) = *up;
        *up += PX_AT1(a->x, i);
    }
    PX_TEAM_VECTOR_SCAN(team, i, 0, len, int64_t, sum, up, fin, t2)
    {
        *up += PX_AT1(a->x, i);
        if (fin) PX_AT1(a->incl, r * n + i) = *up;
    }
    PX_TEAM_THREAD_SCAN(team, i, 0, len, tk_affine, affine, up, fin, t3)
    {
        tk_affine f;
        f.a = (uint64_t)(2 * i + 3);
        f.b = (uint64_t)PX_AT1(a->x, i);
        px_join_affine_tk_affine(up, &f);
        if (fin) PX_AT1(a->aff, r * n + i) = up->a + up->b;
    }
    PX_TEAM_THREAD_FOR(team, t, 0, a->nrow)
    {
        int64_t vt;
        PX_THREAD_VECTOR_SCAN(team, j, 0, a->ncol, int64_t, sum, up, fin, vt)
        {
            if (fin) PX_AT1(a->vex, (r * a->nrow + t) * a->ncol + j) = *up;
            *up += PX_AT1(a->x, (t + j) % n);
        }
        tk_affine va;
        PX_THREAD_VECTOR_SCAN(team, j, 0, a->ncol, tk_affine, affine, up, fin, va)
        {
            tk_affine g;
            g.a = (uint64_t)(j + 2);
            g.b = (uint64_t)PX_AT1(a->x, (t + j) % n);
            px_join_affine_tk_affine(up, &g);
            if (fin) PX_AT1(a->vaff, (r * a->nrow + t) * a->ncol + j) = up->a + up->b;
        }
        PX_SINGLE_PER_THREAD(team)
        {
            PX_AT1(a->vtot, (r * a->nrow + t) * 2 + 0) = vt;
            PX_AT1(a->vtot, (r * a->nrow + t) * 2 + 1) = (int64_t)(va.a + va.b);
        }
    }
    tk_affine t4;
    PX_TEAM_VECTOR_SCAN(team, i, 0, len, tk_affine, affine, up, fin, t4)
    {
        tk_affine g;
        g.a = (uint64_t)(i + 5);
        g.b = (uint64_t)PX_AT1(a->x, i);
        px_join_affine_tk_affine(up, &g);
        (void)fin;
    }
    const uint64_t h =
        (uint64_t)t1 + 3u * (uint64_t)t2 + 5u * t3.b + 7u * t3.a + 11u * t4.b + 13u * t4.a;
    const int64_t same = tk_agree(team, h);
    PX_SINGLE_PER_TEAM(team)
    {
        PX_AT1(a->tot, r * 6 + 0) = t1;
        PX_AT1(a->tot, r * 6 + 1) = t2;
        PX_AT1(a->tot, r * 6 + 2) = (int64_t)t3.b;
        PX_AT1(a->tot, r * 6 + 3) = same;
        PX_AT1(a->tot, r * 6 + 4) = (int64_t)t4.b;
        PX_AT1(a->tot, r * 6 + 5) = (int64_t)t4.a;
    }
}

PX_TEAM_FOR(tk_team_scratch, tk_scratch_args, a, team)
{
    const int64_t r = team->league_rank;
    const int64_t m = a->m;
    int64_t *s = (int64_t *)px_team_scratch(team, a->level);
    PX_TEAM_THREAD_FOR(team, i, 0, m)
    {
        PX_SINGLE_PER_THREAD(team) { s[i] = PX_AT1(a->in, r * m + i); }
    }
    PX_TEAM_BARRIER(team);
    PX_TEAM_THREAD_FOR(team, i, 0, m)
    {
        PX_SINGLE_PER_THREAD(team)
        {
            PX_AT1(a->out, r * m + i) = s[m - 1 - i] * 3 + s[(i + 1) % m];
            int64_t *ts = (int64_t *)px_thread_scratch(team, a->level);
            for (int64_t k = 0; k < a->tn; ++k) ts[k] = i + k;
            int64_t sum = 0;
            for (int64_t k = 0; k < a->tn; ++k) sum += ts[k];
            PX_AT1(a->thr, r * m + i) = sum;
        }
    }
}

PX_TEAM_FOR(tk_team_touch, tk_touch_args, a, team)
{
    const int64_t r = team->league_rank;
    unsigned char *b = (unsigned char *)px_team_scratch(team, a->level);
    const int64_t bytes = a->bytes, step = a->step;
    const int64_t np = bytes > 0 ? bytes / step + 1 : 0;
    PX_TEAM_VECTOR_FOR(team, k, 0, np)
    {
        const int64_t p = k * step < bytes - 1 ? k * step : bytes - 1;
        b[p] = (unsigned char)((p * 7 + r) & 0xff);
    }
    PX_TEAM_BARRIER(team);
    int64_t sum;
    PX_TEAM_VECTOR_REDUCE(team, k, 0, np, int64_t, sum, acc, sum)
    {
        const int64_t p = k * step < bytes - 1 ? k * step : bytes - 1;
        *acc += b[p];
    }
    PX_SINGLE_PER_TEAM(team)
    {
        PX_AT1(a->sum, r) = sum;
        PX_AT1(a->sizes, r * 2 + 0) = (int64_t)team->scratch_size[a->level];
        PX_AT1(a->sizes, r * 2 + 1) = (int64_t)team->thread_scratch_size[a->level];
    }
}

PX_TEAM_REDUCE(tk_team_sum, tk_tsum_args, a, team, int64_t, sum, acc)
{
    const int64_t r = team->league_rank;
    PX_TEAM_THREAD_FOR(team, i, r * a->m, r * a->m + a->m) { *acc += PX_AT1(a->x, i); }
}

PX_TEAM_REDUCE(tk_team_stat, tk_tsum_args, a, team, tk_stat, stat, acc)
{
    const int64_t r = team->league_rank;
    tk_stat s;
    PX_TEAM_VECTOR_REDUCE(team, i, r * a->m, r * a->m + a->m, tk_stat, stat, v, s)
    {
        const int64_t x = PX_AT1(a->x, i);
        v->sum += x;
        v->count += 1;
        if (x > v->max) v->max = x;
    }
    PX_SINGLE_PER_TEAM(team) { px_join_stat_tk_stat(acc, &s); }
}

PX_TEAM_REDUCE(tk_team_count, tk_count_args, a, team, int64_t, sum, acc)
{
    (void)a;
    PX_SINGLE_PER_TEAM(team) { *acc += team->league_rank + 1; }
}

PX_TEAM_FOR(tk_team_mark, tk_mark_args, a, team)
{
    PX_SINGLE_PER_TEAM(team)
    {
        px_atomic_add(&PX_AT1(a->slots, team->league_rank % a->n), team->league_rank + 1);
    }
}

PX_TEAM_REDUCE(tk_team_dsum, tk_dsum_args, a, team, double, sum, acc)
{
    PX_SINGLE_PER_TEAM(team) { *acc += PX_AT1(a->y, team->league_rank % a->n); }
}
