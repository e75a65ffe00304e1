/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* One element type's BLAS kernels and the calls that dispatch them (blas_kernels.h), written
 * once: blas_kernels.c includes this file for each type after defining
 *   LA_S   the type's suffix, f32 or f64 (it names the spans and everything defined here)
 *   LA_T   the element type, float or double
 *   LA_BLUE_TSML, LA_BLUE_TBIG, LA_BLUE_SSML, LA_BLUE_SBIG: Blue's constants for the type
 * and undefines them at its end. No include guard: each inclusion defines one type's set.
 * Sums accumulate in the element type, as BLAS does. */

/* ---- Arguments ---------------------------------------------------------------------------- */

/* Restrict spans wherever a kernel writes: the front ends have checked that the vectors it
   writes share no memory with the others. */
typedef struct LA_NAME(la_axpby_args) {
    LA_T a, b;
    LA_SPAN(_1d_restrict) x, y;
} LA_NAME(la_axpby_args);

typedef struct LA_NAME(la_scal_args) {
    LA_T a;
    LA_SPAN(_1d_restrict) x;
} LA_NAME(la_scal_args);

/* x and y may be one view: both are only read. */
typedef struct LA_NAME(la_dot_args) {
    LA_SPAN(_1d_restrict) x, y;
} LA_NAME(la_dot_args);

/* chunk: the values a team takes (la_nrm2_chunks only). */
typedef struct LA_NAME(la_nrm2_args) {
    LA_SPAN(_1d_restrict) x;
    int64_t chunk;
} LA_NAME(la_nrm2_args);

/* Blue's three sums of squares (la_blue_norm): small values scaled up, medium ones as they
   are, big ones scaled down. In double for f32 too: 2^24 medium squares of floats (up to
   2^104 each) would overflow a float sum. */
typedef struct LA_NAME(la_blue) {
    double sml, med, big;
} LA_NAME(la_blue);

/* What both GEMV kernels take besides op(A). */
typedef struct LA_NAME(la_gemv_vectors) {
    LA_T alpha, beta;
    LA_SPAN(_1d_restrict) x, y;
} LA_NAME(la_gemv_vectors);

/* op(A) with contiguous rows (a RIGHT span of op(A)): the rows a team takes, one per
   thread, or 0: a team per row. */
typedef struct LA_NAME(la_gemv_rows_args) {
    LA_NAME(la_gemv_vectors) v;
    LA_SPAN(_right_restrict) a;
    int64_t rows_per_team;
} LA_NAME(la_gemv_rows_args);

/* op(A) with contiguous columns (a LEFT span of op(A)): the rows (y elements) a team or an
   index takes. */
typedef struct LA_NAME(la_gemv_cols_args) {
    LA_NAME(la_gemv_vectors) v;
    LA_SPAN(_left_restrict) a;
    int64_t rows_per_team;
} LA_NAME(la_gemv_cols_args);

/* ---- Kernels ------------------------------------------------------------------------------ */

/* a * x + b * y, where a zero coefficient drops its term whatever it multiplies (NaN,
   infinity): BLAS's rule for beta = 0, applied to both terms alike. */
PX_FUNCTION LA_T LA_NAME(la_combine)(LA_T a, LA_T x, LA_T b, LA_T y)
{
    if (b == 0) return a == 0 ? (LA_T)0 : a * x;
    return a == 0 ? b * y : a * x + b * y;
}

PX_FOR(LA_NAME(la_axpby), LA_NAME(la_axpby_args), v, i)
{
    PX_AT1(v->y, i) = LA_NAME(la_combine)(v->a, PX_AT1(v->x, i), v->b, PX_AT1(v->y, i));
}

/* A plain product: a = 0 turns NaN and infinity into NaN, as reference BLAS's scal does. */
PX_FOR(LA_NAME(la_scal), LA_NAME(la_scal_args), v, i) { PX_AT1(v->x, i) *= v->a; }

PX_REDUCE(LA_NAME(la_dot), LA_NAME(la_dot_args), v, i, LA_T, sum, acc)
{
    *acc += PX_AT1(v->x, i) * PX_AT1(v->y, i);
}

LA_JOIN(blue, LA_NAME(la_blue), d, s)
{
    d->sml += s->sml;
    d->med += s->med;
    d->big += s->big;
}
LA_IDENTITY(blue, LA_NAME(la_blue), v) { v->sml = v->med = v->big = 0; }

/* x's square added to the sum of its magnitude, scaled so that it neither overflows nor
   underflows; no division. NaN fails every comparison and lands in `med`. */
PX_FUNCTION void LA_NAME(la_blue_add)(LA_NAME(la_blue) * acc, LA_T x)
{
    const LA_T ax = x < 0 ? -x : x;
    if (ax > (LA_T)LA_BLUE_TBIG) {
        const double s = (double)(ax * (LA_T)LA_BLUE_SBIG);
        acc->big += s * s;
    } else if (ax < (LA_T)LA_BLUE_TSML) {
        const double s = (double)(ax * (LA_T)LA_BLUE_SSML);
        acc->sml += s * s;
    } else {
        acc->med += (double)ax * (double)ax;
    }
}

/* Into host memory: Blue's sums, combined by the caller. */
PX_REDUCE(LA_NAME(la_nrm2), LA_NAME(la_nrm2_args), v, i, LA_NAME(la_blue), blue, acc)
{
    LA_NAME(la_blue_add)(acc, PX_AT1(v->x, i));
}

/* The norm of two norms, sqrt(d^2 + s^2), without overflow or underflow: the larger times
   sqrt(1 + (smaller / larger)^2). Two infinities give infinity; a NaN fails the comparisons
   and comes through r (or as `hi`, next to 0). */
LA_JOIN(hypot, LA_T, d, s)
{
    const LA_T hi = *d > *s ? *d : *s, lo = *d > *s ? *s : *d;
    if (lo == 0) {
        *d = hi;
        return;
    }
    const LA_T r = hi == lo ? (LA_T)1 : lo / hi;
    *d = (LA_T)(hi * sqrt(1 + r * r));
}
LA_IDENTITY(hypot, LA_T, v) { *v = 0; }

/* Into a view, with nothing but the view to write: a reduction's value must be one element
   of it, too small for Blue's three sums. So each team sums a chunk of values
   Blue's way (its threads and lanes reading consecutive elements), turns the sums into the
   chunk's norm, and the chunks' norms are joined as norms (one division per chunk). */
PX_TEAM_REDUCE(LA_NAME(la_nrm2_chunks), LA_NAME(la_nrm2_args), v, team, LA_T, hypot, acc)
{
    const int64_t first = team->league_rank * v->chunk;
    const int64_t end = first + v->chunk < v->x.extent[0] ? first + v->chunk : v->x.extent[0];
    LA_NAME(la_blue) sums;
    PX_TEAM_VECTOR_REDUCE(team, i, first, end, LA_NAME(la_blue), blue, part, sums)
    {
        LA_NAME(la_blue_add)(part, PX_AT1(v->x, i));
    }
    PX_SINGLE_PER_TEAM(team)
    {
        const LA_T norm =
            (LA_T)la_blue_norm(sums.sml, sums.med, sums.big, LA_BLUE_SSML, LA_BLUE_SBIG);
        LA_CAT(px_join_hypot, LA_T)(acc, &norm);
    }
}

/* y[r] = alpha * (row r of op(A)) . x + beta * y[r], op(A)'s rows contiguous. Short rows: a
   team takes rows_per_team consecutive rows, one per thread, the thread's lanes sharing the
   row (consecutive lanes, consecutive elements) and reducing it. Long rows (rows_per_team
   0): a team per row, every thread and lane on it, so that a few long rows still keep the
   GPU busy. (On the host a team is one thread: it runs its rows one after another.) */
PX_TEAM_FOR(LA_NAME(la_gemv_rows), LA_NAME(la_gemv_rows_args), g, team)
{
    if (g->rows_per_team == 0) {
        const int64_t r = team->league_rank;
        LA_T dot;
        PX_TEAM_VECTOR_REDUCE(team, c, 0, g->a.extent[1], LA_T, sum, acc, dot)
        {
            *acc += PX_AT2(g->a, r, c) * PX_AT1(g->v.x, c);
        }
        PX_SINGLE_PER_TEAM(team)
        {
            PX_AT1(g->v.y, r) = LA_NAME(la_combine)(g->v.alpha, dot, g->v.beta, PX_AT1(g->v.y, r));
        }
    } else {
        const int64_t first = team->league_rank * g->rows_per_team;
        const int64_t end =
            first + g->rows_per_team < g->a.extent[0] ? first + g->rows_per_team : g->a.extent[0];
        PX_TEAM_THREAD_FOR(team, r, first, end)
        {
            LA_T dot;
            PX_THREAD_VECTOR_REDUCE(team, c, 0, g->a.extent[1], LA_T, sum, acc, dot)
            {
                *acc += PX_AT2(g->a, r, c) * PX_AT1(g->v.x, c);
            }
            PX_SINGLE_PER_THREAD(team)
            {
                PX_AT1(g->v.y, r) =
                    LA_NAME(la_combine)(g->v.alpha, dot, g->v.beta, PX_AT1(g->v.y, r));
            }
        }
    }
}

/* op(A)'s columns contiguous, on a GPU: a team takes rows_per_team consecutive rows, its
   lanes the rows (consecutive lanes reading consecutive memory) and its threads the columns,
   each thread summing its columns for its lanes' rows into level-0 scratch; after a
   barrier the threads' sums are added in thread order, row by row. */
PX_TEAM_FOR(LA_NAME(la_gemv_cols_team), LA_NAME(la_gemv_cols_args), g, team)
{
    const int64_t first = team->league_rank * g->rows_per_team;
    const int64_t rows =
        g->rows_per_team < g->a.extent[0] - first ? g->rows_per_team : g->a.extent[0] - first;
    LA_T *part = (LA_T *)px_team_scratch(team, 0); /* team_size x rows_per_team */
    PX_THREAD_VECTOR_FOR(team, i, 0, rows)
    {
        LA_T s = 0;
        PX_TEAM_THREAD_FOR(team, c, 0, g->a.extent[1])
        {
            s += PX_AT2(g->a, first + i, c) * PX_AT1(g->v.x, c);
        }
        part[team->team_rank * g->rows_per_team + i] = s;
    }
    PX_TEAM_BARRIER(team);
    PX_TEAM_VECTOR_FOR(team, i, 0, rows)
    {
        LA_T dot = 0;
        for (int32_t t = 0; t < team->team_size; ++t) dot += part[t * g->rows_per_team + i];
        const int64_t r = first + i;
        PX_AT1(g->v.y, r) = LA_NAME(la_combine)(g->v.alpha, dot, g->v.beta, PX_AT1(g->v.y, r));
    }
}

/* op(A)'s columns contiguous, on the host: index b takes rows_per_team consecutive rows (a
   thread's share of y), sets them to beta * y and adds alpha * x[c] times each column's piece
   of them in turn: op(A) is read in memory order, a contiguous run per column, while those
   rows of y stay in the thread's cache. (A row walked alone would read one element per
   cache line.) Never with alpha = 0: the caller passes no column then. */
PX_FOR(LA_NAME(la_gemv_cols_blocks), LA_NAME(la_gemv_cols_args), g, b)
{
    const int64_t first = b * g->rows_per_team;
    const int64_t end =
        g->rows_per_team < g->a.extent[0] - first ? first + g->rows_per_team : g->a.extent[0];
    for (int64_t r = first; r < end; ++r)
        PX_AT1(g->v.y, r) = LA_NAME(la_combine)(0, 0, g->v.beta, PX_AT1(g->v.y, r));
    for (int64_t c = 0; c < g->a.extent[1]; ++c) {
        const LA_T ax = g->v.alpha * PX_AT1(g->v.x, c);
        for (int64_t r = first; r < end; ++r) PX_AT1(g->v.y, r) += PX_AT2(g->a, r, c) * ax;
    }
}

/* ---- Dispatch ----------------------------------------------------------------------------- */

/* Scalars are rounded to the element type here, once per call. */

px_status LA_NAME(la_axpby)(la_target *t, const char *label, double a, const la_vec *x, double b,
                            const la_vec *y)
{
    LA_NAME(la_axpby_args) args;
    args.a = (LA_T)a;
    args.b = (LA_T)b;
    px_status st = px_view_get_span(x->view, &args.x);
    if (st == PX_OK) st = px_view_get_span(y->view, &args.y);
    if (st != PX_OK) return st;
    return la_for(t, label, px_range(0, x->n), LA_KERNEL(la_axpby), &args);
}

px_status LA_NAME(la_scal)(px_instance *inst, const char *label, double a, const la_vec *x)
{
    LA_NAME(la_scal_args) args;
    args.a = (LA_T)a;
    const px_status st = px_view_get_span(x->view, &args.x);
    if (st != PX_OK) return st;
    return px_parallel_for(inst, label, px_range(0, x->n), LA_KERNEL(la_scal), &args);
}

static px_status LA_NAME(la_dot_args_of)(const la_vec *x, const la_vec *y,
                                         LA_NAME(la_dot_args) * args)
{
    const px_status st = px_view_get_span(x->view, &args->x);
    return st == PX_OK ? px_view_get_span(y->view, &args->y) : st;
}

px_status LA_NAME(la_dot)(px_instance *inst, const char *label, const la_vec *x, const la_vec *y,
                          double *result)
{
    LA_NAME(la_dot_args) args;
    LA_T sum = 0;
    px_status st = LA_NAME(la_dot_args_of)(x, y, &args);
    if (st == PX_OK)
        st = px_parallel_reduce(inst, label, px_range(0, x->n), LA_KERNEL(la_dot), &args, &sum);
    if (st == PX_OK) *result = (double)sum;
    return st;
}

px_status LA_NAME(la_dot_view)(la_target *t, const char *label, const la_vec *x, const la_vec *y,
                               px_view *out)
{
    LA_NAME(la_dot_args) args;
    const px_status st = LA_NAME(la_dot_args_of)(x, y, &args);
    if (st != PX_OK) return st;
    return la_reduce_view(t, label, px_range(0, x->n), LA_KERNEL(la_dot), &args, out);
}

/* The f32 sums are combined in double: the norm of floats may exceed FLT_MAX, and the
   double result keeps it. */
px_status LA_NAME(la_nrm2)(px_instance *inst, const char *label, const la_vec *x, double *result)
{
    LA_NAME(la_nrm2_args) args;
    LA_NAME(la_blue) sums;
    args.chunk = 0;
    px_status st = px_view_get_span(x->view, &args.x);
    if (st == PX_OK)
        st = px_parallel_reduce(inst, label, px_range(0, x->n), LA_KERNEL(la_nrm2), &args, &sums);
    if (st == PX_OK)
        *result = la_blue_norm(sums.sml, sums.med, sums.big, LA_BLUE_SSML, LA_BLUE_SBIG);
    return st;
}

px_status LA_NAME(la_nrm2_view)(px_instance *inst, const char *label, const la_vec *x, px_view *out)
{
    LA_NAME(la_nrm2_args) args;
    const px_status st = px_view_get_span(x->view, &args.x);
    if (st != PX_OK) return st;
    args.chunk = LA_NRM2_CHUNK;
    const int64_t chunks = (x->n + args.chunk - 1) / args.chunk;
    return px_parallel_reduce_team_view(inst, label,
                                        px_teams(chunks, LA_NRM2_TEAM_THREADS, PX_TEAM_MAX_VECTOR),
                                        LA_KERNEL(la_nrm2_chunks), &args, out);
}

static px_status LA_NAME(la_gemv_vectors_of)(double alpha, const la_vec *x, double beta,
                                             const la_vec *y, LA_NAME(la_gemv_vectors) * v)
{
    v->alpha = (LA_T)alpha;
    v->beta = (LA_T)beta;
    const px_status st = px_view_get_span(x->view, &v->x);
    return st == PX_OK ? px_view_get_span(y->view, &v->y) : st;
}

static px_status LA_NAME(la_gemv_rows_run)(px_instance *inst, const char *label, double alpha,
                                           const la_op_matrix *A, const la_vec *x, double beta,
                                           const la_vec *y)
{
    LA_NAME(la_gemv_rows_args) args;
    memset(&args, 0, sizeof args);
    LA_SET_OP_SPAN(args.a, A);
    const px_status st = LA_NAME(la_gemv_vectors_of)(alpha, x, beta, y, &args.v);
    if (st != PX_OK) return st;
    px_team_policy teams;
    if (A->cols >= LA_GEMV_LONG_ROW) {
        /* Few rows: the largest teams, to share each row out further. */
        const int32_t threads =
            A->rows < LA_GEMV_FEW_TEAMS ? PX_TEAM_MAX_THREADS : LA_GEMV_LONG_ROW_THREADS;
        args.rows_per_team = 0;
        teams = px_teams(A->rows, threads / PX_TEAM_MAX_VECTOR, PX_TEAM_MAX_VECTOR);
    } else {
        const int32_t lanes =
            la_gemv_lanes((A->cols + LA_GEMV_LANE_ELEMENTS - 1) / LA_GEMV_LANE_ELEMENTS);
        const int32_t threads = LA_GEMV_TEAM_THREADS / lanes;
        args.rows_per_team = threads;
        teams = px_teams((A->rows + threads - 1) / threads, threads, lanes);
    }
    return px_parallel_for_team(inst, label, teams, LA_KERNEL(la_gemv_rows), &args);
}

static px_status LA_NAME(la_gemv_cols_run)(px_instance *inst, const char *label, bool on_gpu,
                                           double alpha, const la_op_matrix *A, const la_vec *x,
                                           double beta, const la_vec *y)
{
    LA_NAME(la_gemv_cols_args) args;
    memset(&args, 0, sizeof args);
    LA_SET_OP_SPAN(args.a, A);
    const px_status st = LA_NAME(la_gemv_vectors_of)(alpha, x, beta, y, &args.v);
    if (st != PX_OK) return st;
    if (!on_gpu) {
        /* A share of y per thread, in whole multiples of LA_GEMV_HOST_ROWS. */
        int threads = 1;
        const px_status cs = px_instance_concurrency(inst, &threads);
        if (cs != PX_OK) return cs;
        const int64_t share = (A->rows + threads - 1) / threads;
        args.rows_per_team =
            (share + LA_GEMV_HOST_ROWS - 1) / LA_GEMV_HOST_ROWS * LA_GEMV_HOST_ROWS;
        const int64_t blocks = (A->rows + args.rows_per_team - 1) / args.rows_per_team;
        return px_parallel_for(inst, label, px_range(0, blocks), LA_KERNEL(la_gemv_cols_blocks),
                               &args);
    }
    /* Threads share the columns out, about LA_GEMV_THREAD_COLUMNS each, as many as a team
       holds: long columns need the threads, short ones not the barrier and sums of many. */
    const int32_t lanes = la_gemv_lanes(A->rows);
    const int64_t teams = (A->rows + lanes - 1) / lanes;
    int32_t threads = 1;
    while (threads < PX_TEAM_MAX_THREADS / lanes && threads * LA_GEMV_THREAD_COLUMNS < A->cols)
        threads *= 2;
    args.rows_per_team = lanes;
    const px_team_policy p = px_team_policy_scratch(
        px_teams(teams, threads, lanes), 0, (size_t)threads * (size_t)lanes * sizeof(LA_T), 0);
    return px_parallel_for_team(inst, label, p, LA_KERNEL(la_gemv_cols_team), &args);
}

/* Which kernel: by the contiguous dimension of op(A), and for contiguous columns by where it
   runs (the loop order a GPU wants reads the host's memory one element per cache line). */
px_status LA_NAME(la_gemv)(px_instance *inst, const char *label, double alpha,
                           const la_op_matrix *A, const la_vec *x, double beta, const la_vec *y)
{
    if (A->rows_contiguous) return LA_NAME(la_gemv_rows_run)(inst, label, alpha, A, x, beta, y);
    px_space space;
    const px_status st = px_instance_space(inst, &space);
    if (st != PX_OK) return st;
    return LA_NAME(la_gemv_cols_run)(inst, label, space.kind == PX_SPACE_DEVICE, alpha, A, x, beta,
                                     y);
}

#undef LA_S
#undef LA_T
#undef LA_BLUE_TSML
#undef LA_BLUE_TBIG
#undef LA_BLUE_SSML
#undef LA_BLUE_SBIG
