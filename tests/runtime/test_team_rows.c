/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Leagues shaped by the library over rows of uneven length (px_team_rows, portex/team.h)
 * on the backend under test: rows of many shapes (none, empty rows, uniform, power-law,
 * one row longer than the rest together), int32 and int64 offsets, for and reduce kernels,
 * the same kernels under a plain team per row, graphs; what px_team_rows_info_get reports;
 * refusals. Suites: team_rows, team_rows_errors. Every expected value is computed here, in
 * plain C: y within 1e-12 relative, integers exactly, every row and entry visited once. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "k_team_rows.h"

/* Row lengths of the matrices: `kind` picks the shape. */
enum { UNIFORM, EMPTY_ROWS, POWER_LAW, ONE_HUGE, NO_ROWS, ONE_ROW, SHAPES };
static const char *const shape_names[SHAPES] = {"uniform",  "empty rows", "power-law",
                                                "one huge", "no rows",    "one row"};

typedef struct matrix {
    int64_t n, nnz;
    int64_t *off; /* n + 1 */
    int32_t *col;
    double *val, *x;
} matrix;

static matrix make(int kind, uint64_t seed)
{
    tk_rng g = tk_rng_seed(seed);
    matrix m = {0};
    m.n = kind == NO_ROWS ? 0 : kind == ONE_ROW ? 1 : 3001;
    m.off = malloc((size_t)(m.n + 1) * sizeof *m.off);
    m.off[0] = 0;
    for (int64_t r = 0; r < m.n; ++r) {
        int64_t len = 0;
        switch (kind) {
        case UNIFORM: len = 5; break;
        case EMPTY_ROWS: len = r % 3 == 0 ? 0 : tk_int(&g, 0, 9); break;
        case POWER_LAW: { /* lengths about 1 / u^1.5: mostly short, a few in the thousands */
            const double u = tk_uniform(&g, 1e-3, 1.0);
            len = (int64_t)(1.0 / pow(u, 1.5)) - 1;
            if (len > 20000) len = 20000;
            break;
        }
        case ONE_HUGE: len = r == 1234 ? 40000 : tk_int(&g, 1, 4); break;
        default: len = 70000; /* ONE_ROW */
        }
        m.off[r + 1] = m.off[r] + len;
    }
    m.nnz = m.off[m.n];
    m.col = malloc((size_t)(m.nnz + 1) * sizeof *m.col);
    m.val = malloc((size_t)(m.nnz + 1) * sizeof *m.val);
    m.x = malloc((size_t)(m.n + 1) * sizeof *m.x);
    for (int64_t k = 0; k < m.nnz; ++k) {
        m.col[k] = (int32_t)tk_int(&g, 0, m.n > 0 ? m.n - 1 : 0);
        m.val[k] = tk_uniform(&g, -1.0, 1.0);
    }
    for (int64_t r = 0; r < m.n; ++r) m.x[r] = tk_uniform(&g, -1.0, 1.0);
    return m;
}

static void drop(matrix *m)
{
    free(m->off);
    free(m->col);
    free(m->val);
    free(m->x);
}

/* A view in tk_space() of n elements of `dtype` holding `src` (n may be 0: one element). */
static px_view *put(const char *label, px_dtype dtype, int64_t n, const void *src)
{
    px_view *h = tk_view1(label, px_host(), dtype, n > 0 ? n : 1);
    if (n > 0) memcpy(tk_data(h), src, (size_t)n * px_dtype_size(dtype));
    px_view *v = tk_on_space(h, label);
    TK_RELEASE(h);
    return v;
}

/* The offsets as a view of `dtype` (int32 or int64). */
static px_view *put_offsets(const matrix *m, px_dtype dtype)
{
    if (dtype == PX_I64) return put("off64", PX_I64, m->n + 1, m->off);
    int32_t *o = malloc((size_t)(m->n + 1) * sizeof *o);
    for (int64_t r = 0; r <= m->n; ++r) o[r] = (int32_t)m->off[r];
    px_view *v = put("off32", PX_I32, m->n + 1, o);
    free(o);
    return v;
}

typedef struct run_views {
    px_view *off, *other_off, *col, *val, *x, *y, *cnt, *seen, *hits;
    tk_rows_args a;
} run_views;

static run_views views_for(const matrix *m, px_dtype dtype)
{
    run_views v;
    v.off = put_offsets(m, dtype);
    v.other_off = put_offsets(m, dtype == PX_I64 ? PX_I32 : PX_I64); /* the unused span */
    v.col = put("col", PX_I32, m->nnz, m->col);
    v.val = put("val", PX_F64, m->nnz, m->val);
    v.x = put("x", PX_F64, m->n, m->x);
    v.y = tk_view1("y", tk_space(), PX_F64, m->n > 0 ? m->n : 1);
    v.cnt = tk_view1("n", tk_space(), PX_I64, m->n > 0 ? m->n : 1);
    v.seen = tk_view1("seen", tk_space(), PX_I64, m->n > 0 ? m->n : 1);
    v.hits = tk_view1("hits", tk_space(), PX_I64, m->nnz > 0 ? m->nnz : 1);
    tk_rows_args *a = &v.a;
    a->wide = dtype == PX_I64;
    TK_OK(px_view_get_span(a->wide ? v.off : v.other_off, &a->off64));
    TK_OK(px_view_get_span(a->wide ? v.other_off : v.off, &a->off32));
    TK_OK(px_view_get_span(v.col, &a->col));
    TK_OK(px_view_get_span(v.val, &a->val));
    TK_OK(px_view_get_span(v.x, &a->x));
    TK_OK(px_view_get_span(v.y, &a->y));
    TK_OK(px_view_get_span(v.cnt, &a->n));
    TK_OK(px_view_get_span(v.seen, &a->seen));
    TK_OK(px_view_get_span(v.hits, &a->hits));
    return v;
}

static void release_views(run_views *v)
{
    TK_RELEASE(v->off, v->other_off, v->col, v->val, v->x, v->y, v->cnt, v->seen, v->hits);
}

/* y, n, seen and hits after `times` runs of tk_rows_spmv against plain C. */
static void check_spmv(const matrix *m, run_views *v, int times, const char *what)
{
    px_view *hy = tk_to_host(v->y), *hn = tk_to_host(v->cnt), *hs = tk_to_host(v->seen);
    px_view *hh = tk_to_host(v->hits);
    const double *y = tk_data(hy);
    const int64_t *n = tk_data(hn), *seen = tk_data(hs), *hits = tk_data(hh);
    for (int64_t r = 0; r < m->n; ++r) {
        double want = 0.0, mag = 0.0;
        int64_t cnt = 0;
        for (int64_t k = m->off[r]; k < m->off[r + 1]; ++k) {
            want += m->val[k] * m->x[m->col[k]];
            mag += fabs(m->val[k] * m->x[m->col[k]]);
            cnt += k * 3 + 1;
            TK_ASSERT(hits[k] == times * (1 + r), "%s: entry %lld of row %lld hit %lld, want %lld",
                      what, (long long)k, (long long)r, (long long)hits[k],
                      (long long)(times * (1 + r)));
        }
        TK_ASSERT(fabs(y[r] - want) <= 1e-12 * (mag > 1.0 ? mag : 1.0),
                  "%s: y[%lld] = %.17g, want %.17g", what, (long long)r, y[r], want);
        TK_ASSERT(n[r] == cnt, "%s: n[%lld] = %lld, want %lld", what, (long long)r, (long long)n[r],
                  (long long)cnt);
        TK_ASSERT(seen[r] == times, "%s: row %lld seen %lld times, want %d", what, (long long)r,
                  (long long)seen[r], times);
    }
    TK_RELEASE(hy, hn, hs, hh);
}

static int64_t total_want(const matrix *m)
{
    int64_t t = 0;
    for (int64_t r = 0; r < m->n; ++r) t += (r + 1) * (m->off[r + 1] - m->off[r]) + 7;
    return t;
}

/* tk_rows_total over policy p against plain C. */
static void check_total(px_team_policy p, const run_views *v, const matrix *m, const char *what)
{
    int64_t total = -1;
    TK_OK(px_parallel_reduce_team(tk_inst(), what, p, PX_KERNEL(tk_rows_total), &v->a, &total));
    TK_ASSERT(total == total_want(m), "%s: total %lld, want %lld", what, (long long)total,
              (long long)total_want(m));
}

/* What the library says it chose, against the matrix. */
static void check_info(const matrix *m, const px_team_rows *rows)
{
    px_team_rows_info in;
    TK_OK(px_team_rows_info_get(rows, &in));
    int64_t max = 0, nlong = 0;
    for (int64_t r = 0; r < m->n; ++r) {
        const int64_t len = m->off[r + 1] - m->off[r];
        if (len > max) max = len;
        if (in.long_after >= 0 && len > in.long_after) ++nlong;
    }
    TK_ASSERT(in.rows == m->n && in.entries == m->nnz && in.max_entries == max,
              "info: %lld rows, %lld entries, max %lld; want %lld, %lld, %lld", (long long)in.rows,
              (long long)in.entries, (long long)in.max_entries, (long long)m->n, (long long)m->nnz,
              (long long)max);
    TK_ASSERT(in.long_rows == nlong, "info: %lld long rows past %lld entries; counted %lld",
              (long long)in.long_rows, (long long)in.long_after, (long long)nlong);
    TK_ASSERT(in.rows_per_team >= 1 &&
                  in.league_size == in.long_rows + (m->n + in.rows_per_team - 1) / in.rows_per_team,
              "info: league %lld for %lld long rows and %lld rows a team",
              (long long)in.league_size, (long long)in.long_rows, (long long)in.rows_per_team);
    const int32_t t = in.team_size, l = in.vector_length;
    if (!tk_is_cuda())
        TK_ASSERT(t == 1 && l == 1 && in.long_rows == 0 && in.long_after == -1,
                  "a host backend's rows run as 1 x 1 without long rows; got %d x %d, %lld long",
                  (int)t, (int)l, (long long)in.long_rows);
    else
        TK_ASSERT(l >= 1 && l <= 32 && (l & (l - 1)) == 0 && t * l == 256 && in.rows_per_team == t,
                  "a CUDA team of %d x %d, %lld rows a team", (int)t, (int)l,
                  (long long)in.rows_per_team);
}

START_TEST(team_rows_shapes)
{
    const int kind = _i / 2;
    const px_dtype dtype = _i % 2 ? PX_I64 : PX_I32;
    matrix m = make(kind, 100 + (uint64_t)_i);
    run_views v = views_for(&m, dtype);
    px_team_rows *rows = NULL;
    px_clear_error(); /* a call that succeeds records nothing, release included */
    TK_OK(px_team_rows_create(tk_inst(), v.off, &rows));
    check_info(&m, rows);
    char what[96];
    snprintf(what, sizeof what, "%s rows, %s offsets", shape_names[kind], px_dtype_string(dtype));
    const px_team_policy p = px_teams_rows(rows);
    TK_OK(px_parallel_for_team(tk_inst(), "rows", p, PX_KERNEL(tk_rows_spmv), &v.a));
    TK_OK(px_parallel_for_team(tk_inst(), "rows", p, PX_KERNEL(tk_rows_spmv), &v.a));
    TK_OK(px_instance_fence(tk_inst()));
    check_spmv(&m, &v, 2, what);
    check_total(p, &v, &m, what);
    TK_OK(px_team_rows_release(&rows));
    TK_ASSERT(rows == NULL, "release leaves NULL");
    TK_ASSERT(px_last_error()[0] == '\0', "a call that succeeded recorded: %s", px_last_error());
    release_views(&v);
    drop(&m);
}
END_TEST

/* Without rows the same kernels run a team per row, every thread and lane on it. */
START_TEST(team_rows_team_per_row)
{
    matrix m = make(POWER_LAW, 7);
    run_views v = views_for(&m, PX_I32);
    const int32_t shapes[][2] = {{PX_AUTO, PX_AUTO}, {3, 4}, {1, 32}, {8, 1}};
    for (int s = 0; s < 4; ++s) {
        const px_team_policy p = px_teams(m.n, shapes[s][0], shapes[s][1]);
        TK_OK(px_parallel_for_team(tk_inst(), "per row", p, PX_KERNEL(tk_rows_spmv), &v.a));
        check_total(p, &v, &m, "a team per row");
    }
    TK_OK(px_instance_fence(tk_inst()));
    check_spmv(&m, &v, 4, "a team per row");
    release_views(&v);
    drop(&m);
}
END_TEST

/* A rows league as an explicit graph node and in a captured graph, replayed. */
START_TEST(team_rows_graphs)
{
    matrix m = make(ONE_HUGE, 9);
    run_views v = views_for(&m, PX_I64);
    px_team_rows *rows = NULL;
    TK_OK(px_team_rows_create(tk_inst(), v.off, &rows));
    px_graph *g = NULL;
    px_graph_node *node = NULL;
    TK_OK(px_graph_create(&g, tk_exec(), 0, "rows"));
    TK_OK(px_graph_add_for_team(g, NULL, 0, "rows", px_teams_rows(rows), PX_KERNEL(tk_rows_spmv),
                                &v.a, &node));
    px_graph_exec *e = NULL;
    TK_OK(px_graph_instantiate(g, &e));
    TK_OK(px_graph_launch(e, tk_inst()));
    TK_OK(px_graph_launch(e, tk_inst()));
    /* A team per row: one launch. On CUDA the rows league (with long rows) is two, and CUDA
       cannot change a node's launches in place: refused, the graph instantiated again. */
    const px_status st = px_graph_exec_set_team_policy(e, node, px_teams(m.n, PX_AUTO, PX_AUTO));
    if (tk_is_cuda()) {
        TK_ASSERT(st == PX_ERR_UNSUPPORTED, "two launches to one in place: %s", px_last_error());
        TK_ERROR_HAS("instantiate the graph again");
        TK_OK(px_graph_exec_destroy(&e));
        TK_OK(px_graph_instantiate(g, &e));
    } else {
        TK_OK(st);
    }
    TK_OK(px_graph_launch(e, tk_inst()));
    TK_OK(px_graph_exec_set_team_policy(e, node, px_teams_rows(rows))); /* the same launches */
    TK_OK(px_graph_launch(e, tk_inst()));
    TK_OK(px_instance_fence(tk_inst()));
    check_spmv(&m, &v, 4, "explicit graph");
    TK_OK(px_graph_exec_destroy(&e));
    TK_OK(px_graph_destroy(&g));

    TK_OK(px_graph_capture_begin(tk_inst(), PX_CAPTURE_THREAD_LOCAL));
    TK_OK(px_parallel_for_team(tk_inst(), "rows", px_teams_rows(rows), PX_KERNEL(tk_rows_spmv),
                               &v.a));
    TK_OK(px_graph_capture_end(tk_inst(), &g));
    TK_OK(px_graph_instantiate(g, &e));
    TK_OK(px_graph_launch(e, tk_inst()));
    TK_OK(px_instance_fence(tk_inst()));
    check_spmv(&m, &v, 5, "captured graph");
    TK_OK(px_graph_exec_destroy(&e));
    TK_OK(px_graph_destroy(&g));
    TK_OK(px_team_rows_release(&rows));
    release_views(&v);
    drop(&m);
}
END_TEST

START_TEST(team_rows_errors)
{
    px_team_rows *rows = (px_team_rows *)(void *)&rows;
    px_view *off = tk_view1("off", tk_space(), PX_I64, 4), *h = tk_view1("h", px_host(), PX_I64, 4);
    int64_t *o = tk_data(h);
    o[0] = 0;
    o[1] = 5;
    o[2] = 3;
    o[3] = 9;
    tk_upload(off, h);
    TK_FAIL(px_team_rows_create(tk_inst(), off, &rows), PX_ERR_INVALID_ARGUMENT,
            "px_team_rows_create");
    TK_ERROR_HAS("fall at row 1");
    TK_ASSERT(rows == NULL, "a refused create leaves NULL");
    TK_FAIL(px_team_rows_create(tk_inst(), NULL, &rows), PX_ERR_INVALID_ARGUMENT,
            "px_team_rows_create");
    TK_FAIL(px_team_rows_create(NULL, off, &rows), PX_ERR_INVALID_ARGUMENT, "px_team_rows_create");
    TK_FAIL(px_team_rows_create(tk_inst(), off, NULL), PX_ERR_INVALID_ARGUMENT,
            "px_team_rows_create");
    px_view *f = tk_view1("f", tk_space(), PX_F64, 4);
    TK_FAIL(px_team_rows_create(tk_inst(), f, &rows), PX_ERR_INVALID_ARGUMENT,
            "px_team_rows_create");
    TK_ERROR_HAS("int32");
    const int64_t ext[2] = {2, 2};
    px_view *two = tk_view("two", tk_space(), PX_I32, 2, ext);
    TK_FAIL(px_team_rows_create(tk_inst(), two, &rows), PX_ERR_INVALID_ARGUMENT,
            "px_team_rows_create");
    TK_ERROR_HAS("rank 2");
    const int64_t ext2[2] = {4, 2};
    px_view *strided = tk_view("strided", tk_space(), PX_I64, 2, ext2);
    px_view *col = NULL;
    const px_slice sl[2] = {{0, PX_END, false}, {0, 0, true}}; /* column 0: stride 2 */
    TK_OK(px_view_subview(&col, strided, sl, 2));
    TK_FAIL(px_team_rows_create(tk_inst(), col, &rows), PX_ERR_INVALID_ARGUMENT,
            "px_team_rows_create");
    TK_ERROR_HAS("stride 2");
    if (tk_is_cuda()) { /* pageable host memory is not a CUDA kernel's to read */
        TK_FAIL(px_team_rows_create(tk_inst(), h, &rows), PX_ERR_INVALID_ARGUMENT,
                "px_team_rows_create");
        TK_ERROR_HAS("host memory");
    }
    px_team_rows_info in;
    TK_FAIL(px_team_rows_info_get(NULL, &in), PX_ERR_INVALID_ARGUMENT, "px_team_rows_info_get");
    TK_OK(px_team_rows_release(NULL));
    rows = NULL;
    TK_OK(px_team_rows_release(&rows));
    /* A good one, dispatched on a backend it was not made for is refused at dispatch; here:
       a released one's memory is gone, so only the NULL rows of a policy by hand. */
    o[2] = 7;
    tk_upload(off, h);
    TK_OK(px_team_rows_create(tk_inst(), off, &rows));
    TK_FAIL(px_team_rows_info_get(rows, NULL), PX_ERR_INVALID_ARGUMENT, "px_team_rows_info_get");
    TK_OK(px_team_rows_release(&rows));

    /* A policy of no rows is refused at dispatch, by every kind of team dispatch. */
    tk_rows_args a;
    memset(&a, 0, sizeof a);
    TK_FAIL(
        px_parallel_for_team(tk_inst(), "rows", px_teams_rows(NULL), PX_KERNEL(tk_rows_spmv), &a),
        PX_ERR_INVALID_ARGUMENT, "px_parallel_for_team");
    TK_ERROR_HAS("px_teams_rows was given NULL");
    int64_t total;
    TK_FAIL(px_parallel_reduce_team(tk_inst(), "rows", px_teams_rows(NULL),
                                    PX_KERNEL(tk_rows_total), &a, &total),
            PX_ERR_INVALID_ARGUMENT, "px_parallel_reduce_team");
    TK_ERROR_HAS("px_teams_rows was given NULL");
    px_graph *g = NULL;
    px_graph_node *node = NULL;
    TK_OK(px_graph_create(&g, tk_exec(), 0, "rows"));
    TK_FAIL(px_graph_add_for_team(g, NULL, 0, "rows", px_teams_rows(NULL), PX_KERNEL(tk_rows_spmv),
                                  &a, &node),
            PX_ERR_INVALID_ARGUMENT, "px_graph_add_for_team");
    TK_ERROR_HAS("px_teams_rows was given NULL");
    TK_OK(px_graph_destroy(&g));

    /* Rows made on another backend's instance (host offsets) are refused at dispatch. */
    const px_exec_space other = tk_exec() != PX_EXEC_SERIAL ? PX_EXEC_SERIAL : PX_EXEC_THREADS;
    if (px_exec_space_available(other)) {
        px_instance *oi = NULL;
        TK_OK(px_instance_default(other, 0, &oi));
        TK_OK(px_team_rows_create(oi, h, &rows));
        TK_FAIL(px_parallel_for_team(tk_inst(), "rows", px_teams_rows(rows),
                                     PX_KERNEL(tk_rows_spmv), &a),
                PX_ERR_INVALID_ARGUMENT, "px_parallel_for_team");
        TK_ERROR_HAS("were made for");
        TK_OK(px_team_rows_release(&rows));
    }
    TK_RELEASE(off, h, f, two, strided, col);
}
END_TEST

int main(void)
{
    TCase *tc = tk_case("team_rows", "team_rows");
    tcase_add_loop_test(tc, team_rows_shapes, 0, 2 * SHAPES);
    TK_ADD(tc, team_rows_team_per_row, team_rows_graphs);
    tcase_set_timeout(tc, 120);
    TK_ADD(tk_case("team_rows_errors", "team_rows_errors"), team_rows_errors);
    return tk_run();
}
