/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The sparse matrix-vector product's kernels for one value type and one index type, as
 * for_each_pair.h defines them (LA_V, LA_VT, LA_I, LA_IT, LA_NAME). No include guard: it is
 * included once per pair (spmv_kernels.c). */

/* The kernel macros paste their name: give them names already expanded. */
#define LA_TEAM_FOR(name, Args, args, team) PX_TEAM_FOR(name, Args, args, team)
#define LA_FOR(name, Args, args, i) PX_FOR(name, Args, args, i)
#define LA_ROW_REDUCE(team, k, begin, end, T, acc, result) \
    PX_ROW_VECTOR_REDUCE(team, k, begin, end, T, sum, acc, result)

/* y[r] from the row's sum. As BLAS: alpha = 0 ignores the sum and beta = 0 y's old value
   (NaN or infinity in either too). */
#define LA_STORE(a, r, s)                                                 \
    do {                                                                  \
        const LA_VT alpha_ = (LA_VT)(a)->alpha, beta_ = (LA_VT)(a)->beta; \
        LA_VT *y_ = &PX_AT1((a)->y, r);                                   \
        const LA_VT ax_ = alpha_ == 0 ? (LA_VT)0 : alpha_ * (s);          \
        *y_ = beta_ == 0 ? ax_ : ax_ + beta_ * *y_;                       \
    } while (0)

/* PX_SPMV_ROWS: the league px_team_rows shaped from the row offsets; each row's entries
   over its lanes. */
LA_TEAM_FOR(LA_NAME(la_spmv_rows), LA_NAME(la_spmv_args), a, team)
{
    PX_TEAM_ROW_FOR(team, r)
    {
        LA_VT s;
        LA_ROW_REDUCE(team, k, PX_AT1(a->row, r), PX_AT1(a->row, r + 1), LA_VT, acc, s)
        {
            *acc += PX_AT1(a->val, k) * PX_AT1(a->x, PX_AT1(a->col, k));
        }
        PX_SINGLE_PER_ROW(team) { LA_STORE(a, r, s); }
    }
}

/* For each entry k of this thread's share of [b, e) (k = b + rank, then a team's width
   apart), `stmt` with p = val[k] * x[col[k]]. LA_TILE_BATCH entries at a time, their loads
   issued together (the column indices, then the gathers from x): a batch is one round trip
   to memory. Slots past e load nothing and gather nothing. */
#define LA_FOR_PRODUCTS(a, team, b, e, k, p, stmt)                                          \
    do {                                                                                    \
        const int64_t step_ = (int64_t)(team)->team_size;                                   \
        for (int64_t k_ = (b) + (team)->team_rank; k_ < (e); k_ += LA_TILE_BATCH * step_) { \
            LA_IT c_[LA_TILE_BATCH];                                                        \
            LA_VT v_[LA_TILE_BATCH];                                                        \
            for (int j_ = 0; j_ < LA_TILE_BATCH; ++j_) {                                    \
                const int64_t kj_ = k_ + j_ * step_;                                        \
                c_[j_] = kj_ < (e) ? PX_AT1((a)->col, kj_) : 0;                             \
                v_[j_] = kj_ < (e) ? PX_AT1((a)->val, kj_) : (LA_VT)0;                      \
            }                                                                               \
            for (int j_ = 0; j_ < LA_TILE_BATCH; ++j_) {                                    \
                const int64_t k = k_ + j_ * step_;                                          \
                if (k < (e)) {                                                              \
                    const LA_VT p = v_[j_] * PX_AT1((a)->x, c_[j_]);                        \
                    stmt;                                                                   \
                }                                                                           \
            }                                                                               \
        }                                                                                   \
    } while (0)

/* The team's total of its threads' `mine`, in every thread. */
#define LA_TEAM_TOTAL(team, mine, total)                                           \
    PX_TEAM_THREAD_REDUCE(team, t_, 0, (team)->team_size, LA_VT, sum, acc_, total) \
    {                                                                              \
        *acc_ += (mine);                                                           \
    }

/* PX_SPMV_TILES: team t takes tile t, rows [tile[2t], tile[2t + 2]) and their entries
   [tile[2t + 1], tile[2t + 3]). A long tile (one
   row of more than LA_TILE_ENTRIES entries) is a team-wide sum of its first LA_LONG_CHUNK
   entries (la_spmv_chunks adds the rest). Otherwise, in scratch:
   1. the products val[k] * x[col[k]], each thread's LA_TILE_BATCH loads issued together,
      the team reading the tile's entries in order (coalesced), and the rows' offsets
      relative to the tile;
   2. each thread sums a run of consecutive products, row by row: a row wholly inside its
      run is its alone (a plain store), a row that crosses into a neighbour's run is added
      atomically (at most two per thread);
   3. the rows' sums go to y in order.
   Every thread does the same number of entries whatever the rows' lengths: the balance
   that short and skewed rows need. On the host backends a team is one thread, whose run
   is the whole tile. */
LA_TEAM_FOR(LA_NAME(la_spmv_tiles), LA_NAME(la_spmv_args), a, team)
{
    const int64_t t = team->league_rank;
    const int64_t r0 = PX_AT1(a->tile, 2 * t), k0 = PX_AT1(a->tile, 2 * t + 1);
    const int64_t r1 = PX_AT1(a->tile, 2 * t + 2), k1 = PX_AT1(a->tile, 2 * t + 3);
    if (k1 - k0 > LA_TILE_ENTRIES) { /* one long row: the builder makes no other kind */
        LA_VT mine = 0, s;
        const int64_t end = k1 - k0 > LA_LONG_CHUNK ? k0 + LA_LONG_CHUNK : k1;
        LA_FOR_PRODUCTS(a, team, k0, end, k, p, mine += p);
        LA_TEAM_TOTAL(team, mine, s);
        PX_SINGLE_PER_TEAM(team) { LA_STORE(a, r0, s); }
        return;
    }
    const int32_t len = (int32_t)(k1 - k0), nr = (int32_t)(r1 - r0);
    LA_VT *prod = (LA_VT *)px_team_scratch(team, 0);
    LA_VT *rsum = prod + LA_TILE_SLOTS;
    int32_t *off = (int32_t *)(rsum + LA_TILE_ROWS);
    LA_FOR_PRODUCTS(a, team, k0, k1, k, p, prod[LA_TILE_SLOT(k - k0)] = p);
    PX_TEAM_THREAD_FOR(team, i, 0, nr + 1) { off[i] = (int32_t)(PX_AT1(a->row, r0 + i) - k0); }
    PX_TEAM_THREAD_FOR(team, i, 0, nr) { rsum[i] = 0; }
    PX_TEAM_BARRIER(team);

    const int32_t per = (len + team->team_size - 1) / team->team_size;
    const int32_t b = team->team_rank * per, e = b + per < len ? b + per : len;
    if (b < e) {
        /* The row of entry b: the last row starting at or before it (empty rows skipped). */
        int32_t lo = 0, hi = nr - 1;
        while (lo < hi) {
            const int32_t mid = (lo + hi + 1) / 2;
            if (off[mid] <= b)
                lo = mid;
            else
                hi = mid - 1;
        }
        int32_t i = lo;
        LA_VT s = 0;
        for (int32_t k = b; k < e; ++k) {
            for (; k >= off[i + 1]; ++i, s = 0) {
                if (off[i] >= b)
                    rsum[i] = s; /* began in this run, ended in it */
                else
                    px_atomic_add(&rsum[i], s);
            }
            s += prod[LA_TILE_SLOT(k)];
        }
        if (off[i] >= b && off[i + 1] <= e)
            rsum[i] = s;
        else
            px_atomic_add(&rsum[i], s);
    }
    PX_TEAM_BARRIER(team);
    PX_TEAM_THREAD_FOR(team, i, 0, nr) { LA_STORE(a, r0 + i, rsum[i]); }
}

/* PX_SPMV_TILES, second dispatch: team c sums chunk c of a long row, [chunk[2c + 1], at most
   LA_LONG_CHUNK entries on), and adds alpha times it to y, which la_spmv_tiles has stored
   (the two run in order on the instance). */
LA_TEAM_FOR(LA_NAME(la_spmv_chunks), LA_NAME(la_spmv_args), a, team)
{
    const int64_t c = team->league_rank;
    const int64_t r = PX_AT1(a->chunk, 2 * c), b = PX_AT1(a->chunk, 2 * c + 1);
    const int64_t end = PX_AT1(a->row, r + 1),
                  e = end - b > LA_LONG_CHUNK ? b + LA_LONG_CHUNK : end;
    LA_VT mine = 0, s;
    LA_FOR_PRODUCTS(a, team, b, e, k, p, mine += p);
    LA_TEAM_TOTAL(team, mine, s);
    PX_SINGLE_PER_TEAM(team) { px_atomic_add(&PX_AT1(a->y, r), (LA_VT)a->alpha * s); }
}

/* y += alpha * A^T * x, row r's entries scattered: y[col[k]] += alpha * x[r] * val[k],
   atomically (rows that share a column run at once). The front end has scaled y by beta. */
LA_FOR(LA_NAME(la_spmv_transposed), LA_NAME(la_spmv_args), a, r)
{
    const LA_VT xr = (LA_VT)a->alpha * PX_AT1(a->x, r);
    for (int64_t k = PX_AT1(a->row, r); k < PX_AT1(a->row, r + 1); ++k)
        px_atomic_add(&PX_AT1(a->y, PX_AT1(a->col, k)), PX_AT1(a->val, k) * xr);
}

/* One Jacobi step, a row a thread: x_new[r] = x[r] + omega * (b[r] - (A x)[r]) / A[r][r],
   the diagonal summed from the row's entries in column r (repeats included). */
LA_FOR(LA_NAME(la_jacobi), LA_NAME(la_jacobi_args), a, r)
{
    LA_VT ax = 0, diag = 0;
    for (int64_t k = PX_AT1(a->row, r); k < PX_AT1(a->row, r + 1); ++k) {
        const LA_VT v = PX_AT1(a->val, k);
        const int64_t c = PX_AT1(a->col, k);
        ax += v * PX_AT1(a->x, c);
        if (c == r) diag += v;
    }
    PX_AT1(a->x_new, r) = PX_AT1(a->x, r) + (LA_VT)a->omega * (PX_AT1(a->b, r) - ax) / diag;
}

#undef LA_FOR
#undef LA_TEAM_TOTAL
#undef LA_FOR_PRODUCTS
#undef LA_STORE
#undef LA_ROW_REDUCE
#undef LA_TEAM_FOR
