/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The SpMM kernel for one group width LA_W, value type and index type, as spmm_kernels.c
 * and for_each_pair.h define them (LA_W, LA_V, LA_VT, LA_I, LA_IT, LA_NAME). No include
 * guard: it is included once per width and pair. */

/* The kernel macros paste their names: give them names already expanded. */
#define LA_PASTE_W_(a, w) a##w
#define LA_PASTE_W(a, w) LA_PASTE_W_(a, w)
#define LA_SUM LA_PASTE(la_sum, LA_W, LA_V)
#define LA_TEAM_FOR(name, Args, args, team) PX_TEAM_FOR(name, Args, args, team)

/* *y_ from a row's sum s, as px_csr_spmv stores: alpha = 0 ignores the sum, beta = 0 y's
   old value (NaN or infinity in either too). */
#define LA_STORE_AT(a, y_, s)                                             \
    do {                                                                  \
        const LA_VT alpha_ = (LA_VT)(a)->alpha, beta_ = (LA_VT)(a)->beta; \
        const LA_VT ax_ = alpha_ == 0 ? (LA_VT)0 : alpha_ * (s);          \
        *(y_) = beta_ == 0 ? ax_ : ax_ + beta_ * *(y_);                   \
    } while (0)

/* Row r of Y, the group's vectors [j0, j0 + left) (at most LA_W), from the group's sums s. */
#define LA_STORE_GROUP(a, r, j0, left, s) \
    for (int j_ = 0; j_ < LA_W; ++j_)     \
        if (j_ < (left)) LA_STORE_AT(a, &PX_AT2((a)->y, r, (j0) + j_), (s).v[j_])

/* For each entry p of [b, e) that `loop` gives this thread, the group's products
   val[p] * X(col[p], j0 + j) folded into *acc: the entry's value and column read once for
   the group, its LA_W loads from X issued together (a row-major X: one run of memory). */
#define LA_GROUP_SUM(loop, team, b, e, j0, left, s)                           \
    loop(team, p_, b, e, LA_SUM, vsum, acc_, s)                               \
    {                                                                         \
        const LA_VT v_ = PX_AT1(a->val, p_);                                  \
        const int64_t c_ = PX_AT1(a->col, p_);                                \
        for (int j_ = 0; j_ < LA_W; ++j_)                                     \
            if (j_ < (left)) acc_->v[j_] += v_ * PX_AT2(a->x, c_, (j0) + j_); \
    }

/* The rows of PX_SPMV_ROWS' league (px_team_rows), each group of up to LA_W vectors
   summed over the row's lanes and folded across them as one value; one lane stores the
   group. A row's entries past LA_LONG_CHUNK are la_spmm_chunks' (so that a few long rows
   do not hold the whole product up on a handful of teams). */
LA_TEAM_FOR(LA_NAME(LA_PASTE_W(la_spmm, LA_W)), LA_NAME(la_spmm_args), a, team)
{
    const int64_t k = a->x.extent[1];
    PX_TEAM_ROW_FOR(team, r)
    {
        const int64_t b = PX_AT1(a->row, r), end = PX_AT1(a->row, r + 1);
        const int64_t e = end - b > LA_LONG_CHUNK ? b + LA_LONG_CHUNK : end;
        for (int64_t j0 = 0; j0 < k; j0 += LA_W) {
            const int64_t left = k - j0; /* this group's vectors: LA_W, or fewer last */
            LA_SUM s;
            LA_GROUP_SUM(PX_ROW_VECTOR_REDUCE, team, b, e, j0, left, s);
            PX_SINGLE_PER_ROW(team) { LA_STORE_GROUP(a, r, j0, left, s); }
        }
    }
}

/* PX_SPMV_TILES' tiles (the table px_csr_spmv's tiles use): team t takes tile t, rows
   [tile[2t], tile[2t + 2]) and their entries [tile[2t + 1], tile[2t + 3]), and for each
   group of up to LA_W vectors:
   1. each thread takes a run of consecutive entries (the tile's entries over the team's
      threads, at most LA_TILE_BATCH each) and sums the group's products row by row, a row
      wholly inside its run stored into the scratch row sums, one that crosses into a
      neighbour's run added atomically (at most two per thread);
   2. the rows' sums go to Y, the team's threads over (row, vector) pairs.
   Every thread does the same number of entries whatever the rows' lengths: the balance
   skewed rows need. A long tile (one row of more than LA_TILE_ENTRIES entries) is a
   team-wide sum of its first LA_LONG_CHUNK entries (la_spmm_chunks adds the rest). On
   the host backends a team is one thread, whose run is the whole tile. */
LA_TEAM_FOR(LA_NAME(LA_PASTE_W(la_spmm_tiles, LA_W)), LA_NAME(la_spmm_args), a, team)
{
    const int64_t t = team->league_rank, k = a->x.extent[1];
    const int64_t r0 = PX_AT1(a->tile, 2 * t), k0 = PX_AT1(a->tile, 2 * t + 1);
    const int64_t r1 = PX_AT1(a->tile, 2 * t + 2), k1 = PX_AT1(a->tile, 2 * t + 3);
    if (k1 - k0 > LA_TILE_ENTRIES) { /* one long row: the builder makes no other kind */
        const int64_t e = k1 - k0 > LA_LONG_CHUNK ? k0 + LA_LONG_CHUNK : k1;
        for (int64_t j0 = 0; j0 < k; j0 += LA_W) {
            const int64_t left = k - j0;
            LA_SUM s;
            LA_GROUP_SUM(PX_TEAM_VECTOR_REDUCE, team, k0, e, j0, left, s);
            PX_SINGLE_PER_TEAM(team) { LA_STORE_GROUP(a, r0, j0, left, s); }
        }
        return;
    }
    const int32_t len = (int32_t)(k1 - k0), nr = (int32_t)(r1 - r0);
    LA_VT *rsum = (LA_VT *)px_team_scratch(team, 0);
    int32_t *off = (int32_t *)(rsum + LA_TILE_ROWS * LA_W);
    PX_TEAM_THREAD_FOR(team, i, 0, nr + 1) { off[i] = (int32_t)(PX_AT1(a->row, r0 + i) - k0); }
    const int32_t per = (len + team->team_size - 1) / team->team_size;
    const int32_t b = team->team_rank * per, e = b + per < len ? b + per : len;
    int32_t first = 0; /* the row of entry b: the last row starting at or before it */
    PX_TEAM_BARRIER(team);
    if (b < e) {
        int32_t hi = nr - 1;
        while (first < hi) {
            const int32_t mid = (first + hi + 1) / 2;
            if (off[mid] <= b)
                first = mid;
            else
                hi = mid - 1;
        }
    }
    for (int64_t j0 = 0; j0 < k; j0 += LA_W) {
        const int64_t left = k - j0;
        const int32_t width = left < LA_W ? (int32_t)left : LA_W;
        PX_TEAM_THREAD_FOR(team, i, 0, nr * LA_W) { rsum[i] = 0; }
        PX_TEAM_BARRIER(team);
        if (b < e) {
            int32_t i = first;
            LA_VT acc[LA_W];
            for (int j = 0; j < LA_W; ++j) acc[j] = 0;
            for (int32_t q = b; q < e; ++q) {
                for (; q >= off[i + 1]; ++i) {    /* row i ends before entry q */
                    const bool own = off[i] >= b; /* began in this run, ended in it */
                    for (int j = 0; j < LA_W; ++j) {
                        if (own)
                            rsum[i * LA_W + j] = acc[j];
                        else
                            px_atomic_add(&rsum[i * LA_W + j], acc[j]);
                        acc[j] = 0;
                    }
                }
                const LA_VT v = PX_AT1(a->val, k0 + q);
                const int64_t c = PX_AT1(a->col, k0 + q);
                for (int j = 0; j < LA_W; ++j)
                    if (j < left) acc[j] += v * PX_AT2(a->x, c, j0 + j);
            }
            const bool own = off[i] >= b && off[i + 1] <= e;
            for (int j = 0; j < LA_W; ++j) {
                if (own)
                    rsum[i * LA_W + j] = acc[j];
                else
                    px_atomic_add(&rsum[i * LA_W + j], acc[j]);
            }
        }
        PX_TEAM_BARRIER(team);
        PX_TEAM_THREAD_FOR(team, q, 0, nr * width)
        {
            const int32_t i = (int32_t)(q / width), j = (int32_t)(q % width);
            LA_STORE_AT(a, &PX_AT2(a->y, r0 + i, j0 + j), rsum[i * LA_W + j]);
        }
        PX_TEAM_BARRIER(team);
    }
}

/* Team c sums chunk c of a long row, [chunk[2c + 1], at most LA_LONG_CHUNK entries on),
   over all its threads for each group, and adds alpha times it to the row of Y, which the
   rows' dispatch has stored (the two run in order on the instance). */
LA_TEAM_FOR(LA_NAME(LA_PASTE_W(la_spmm_chunks, LA_W)), LA_NAME(la_spmm_args), a, team)
{
    const int64_t c = team->league_rank, k = a->x.extent[1];
    const int64_t r = PX_AT1(a->chunk, 2 * c), b = PX_AT1(a->chunk, 2 * c + 1);
    const int64_t end = PX_AT1(a->row, r + 1),
                  e = end - b > LA_LONG_CHUNK ? b + LA_LONG_CHUNK : end;
    for (int64_t j0 = 0; j0 < k; j0 += LA_W) {
        const int64_t left = k - j0;
        LA_SUM s;
        LA_GROUP_SUM(PX_TEAM_VECTOR_REDUCE, team, b, e, j0, left, s);
        PX_SINGLE_PER_TEAM(team)
        {
            for (int j = 0; j < LA_W; ++j)
                if (j < left) px_atomic_add(&PX_AT2(a->y, r, j0 + j), (LA_VT)a->alpha * s.v[j]);
        }
    }
}

#undef LA_GROUP_SUM
#undef LA_STORE_GROUP
#undef LA_STORE_AT
#undef LA_TEAM_FOR
#undef LA_SUM
#undef LA_PASTE_W
#undef LA_PASTE_W_
