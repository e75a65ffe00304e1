/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
#include "cg_solve.h"

#include <math.h>
#include <time.h>

#include "cg_kernels.h"

#define TRY(call)                             \
    do {                                      \
        const px_status try_st_ = (call);     \
        if (try_st_ != PX_OK) return try_st_; \
    } while (0)

static double now_s(void)
{
    struct timespec t;
    timespec_get(&t, TIME_UTC);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The vectors of the iteration (r, p, Ap) and, for the graph, its scalars. */
typedef struct cg_space {
    px_view *r, *p, *ap;
    px_view *rr, *rr_next, *pap, *it;
} cg_space;

static px_status vectors(px_space space, int64_t n, cg_space *w)
{
    TRY(px_view_create_1d(&w->r, "r", space, PX_F64, n));
    TRY(px_view_create_1d(&w->p, "p", space, PX_F64, n));
    TRY(px_view_create_1d(&w->ap, "Ap", space, PX_F64, n));
    TRY(px_view_create_1d(&w->rr, "r.r", space, PX_F64, 1));
    TRY(px_view_create_1d(&w->rr_next, "r.r next", space, PX_F64, 1));
    TRY(px_view_create_1d(&w->pap, "p.Ap", space, PX_F64, 1));
    return px_view_create_1d(&w->it, "iterations", space, PX_F64, 1);
}

static void release(cg_space *w)
{
    px_view *all[] = {w->r, w->p, w->ap, w->rr, w->rr_next, w->pap, w->it};
    for (int k = 0; k < 7; ++k)
        if (all[k]) px_view_release(&all[k]);
}

/* x = 0, r = b, p = b; *bb = b.b. */
static px_status start(px_instance *inst, px_view *b, px_view *x, cg_space *w, double *bb)
{
    const double zero = 0;
    TRY(px_fill_async(inst, x, &zero, NULL));
    TRY(px_deep_copy_async(inst, w->r, b, NULL));
    TRY(px_deep_copy_async(inst, w->p, b, NULL));
    return px_blas_dot(inst, b, b, bb);
}

static px_status host_loop(px_instance *inst, const px_csr *A, px_view *x, cg_space *w, double stop,
                           int max_it, int *it_out, double *rr_out)
{
    double rr;
    TRY(px_blas_dot(inst, w->r, w->r, &rr));
    int it = 0;
    while (rr > stop && it < max_it) {
        double pap, rr_next;
        TRY(px_csr_spmv(inst, 1.0, A, w->p, 0.0, w->ap));
        TRY(px_blas_dot(inst, w->p, w->ap, &pap)); /* waits: the scalars steer the loop */
        const double alpha = rr / pap;
        TRY(px_blas_axpy(inst, alpha, w->p, x));
        TRY(px_blas_axpy(inst, -alpha, w->ap, w->r));
        TRY(px_blas_dot(inst, w->r, w->r, &rr_next));
        TRY(px_blas_axpby(inst, 1.0, w->r, rr_next / rr, w->p)); /* p = r + beta p */
        rr = rr_next;
        ++it;
    }
    *it_out = it;
    *rr_out = rr;
    return PX_OK;
}

px_status cg_host_loop(px_instance *inst, px_space space, const px_csr *A, px_view *b, px_view *x,
                       double tol, int max_it, cg_result *out)
{
    px_csr_info info;
    TRY(px_csr_info_get(A, &info));
    cg_space w = {0};
    double bb = 0, rr = 0;
    px_status st = vectors(space, info.nrows, &w);
    if (st == PX_OK) st = start(inst, b, x, &w, &bb);
    const double t0 = now_s();
    if (st == PX_OK) st = host_loop(inst, A, x, &w, tol * tol * bb, max_it, &out->iterations, &rr);
    out->seconds = now_s() - t0;
    out->setup_seconds = 0;
    out->residual = bb > 0 ? sqrt(rr / bb) : 0;
    release(&w);
    return st;
}

/* The body of the WHILE node: one iteration, as host_loop's, each node after the one
   before. */
static px_status body_nodes(px_graph *body, const px_csr *A, px_view *x, cg_space *w, px_cond more,
                            double stop, int max_it)
{
    cg_scalars s;
    TRY(px_view_get_span(w->rr, &s.rr));
    TRY(px_view_get_span(w->rr_next, &s.rr_next));
    TRY(px_view_get_span(w->pap, &s.pap));
    TRY(px_view_get_span(w->it, &s.it));
    cg_xr_args xr = {.s = s};
    TRY(px_view_get_span(x, &xr.x));
    TRY(px_view_get_span(w->r, &xr.r));
    TRY(px_view_get_span(w->p, &xr.p));
    TRY(px_view_get_span(w->ap, &xr.ap));
    cg_p_args pa = {.p = xr.p, .r = xr.r, .s = s};
    cg_step_args step = {.s = s, .stop = stop, .max_it = max_it, .more = more};
    px_csr_info info;
    TRY(px_csr_info_get(A, &info));
    const px_policy all = px_range(0, info.nrows);
    px_graph_node *n;
    TRY(px_graph_add_csr_spmv(body, NULL, 0, 1.0, A, w->p, 0.0, w->ap, &n));
    TRY(px_graph_add_blas_dot(body, &n, 1, w->p, w->ap, w->pap, &n));
    TRY(px_graph_add_for(body, &n, 1, "x, r", all, PX_KERNEL(cg_update_xr), &xr, &n));
    TRY(px_graph_add_blas_dot(body, &n, 1, w->r, w->r, w->rr_next, &n));
    TRY(px_graph_add_for(body, &n, 1, "p", all, PX_KERNEL(cg_update_p), &pa, &n));
    TRY(px_graph_add_for(body, &n, 1, "step", px_range(0, 1), PX_KERNEL(cg_step), &step, &n));
    /* The kernels see spans: the graph keeps their views alive when told. */
    px_view *used[] = {x, w->r, w->p, w->ap, w->rr, w->rr_next, w->pap, w->it};
    return px_graph_node_uses(n, used, 8);
}

px_status cg_graph_loop(px_instance *inst, px_space space, const px_csr *A, px_view *b, px_view *x,
                        double tol, int max_it, cg_result *out)
{
    px_csr_info info;
    px_exec_space exec;
    int device;
    TRY(px_csr_info_get(A, &info));
    TRY(px_instance_exec_space(inst, &exec));
    TRY(px_instance_device(inst, &device));
    cg_space w = {0};
    px_graph *g = NULL, *body = NULL;
    px_graph_cond_t *cond = NULL;
    px_graph_exec *e = NULL;
    px_cond more;
    double bb = 0, rr = 0, it = 0;
    const double zero = 0, t0 = now_s();
    /* The start as the host loop's; the scalars' first values in their views. */
    px_status st = vectors(space, info.nrows, &w);
    if (st == PX_OK) st = start(inst, b, x, &w, &bb);
    const double stop = tol * tol * bb;
    if (st == PX_OK) st = px_blas_dot_view(inst, w.r, w.r, w.rr);
    if (st == PX_OK) st = px_fill_async(inst, w.it, &zero, NULL);
    if (st == PX_OK) st = px_blas_dot(inst, w.r, w.r, &rr); /* the loop's first test */
    /* One WHILE node: its condition is tested before the first pass (here, as the host
       loop tests it) and then by cg_step at the end of each. */
    if (st == PX_OK) st = px_graph_create(&g, exec, device, "cg");
    if (st == PX_OK)
        st = px_graph_add_while(g, NULL, 0, "iterations", rr > stop && max_it > 0, &cond, &body,
                                NULL);
    if (st == PX_OK) st = px_graph_cond_value(cond, &more);
    if (st == PX_OK) st = body_nodes(body, A, x, &w, more, stop, max_it);
    if (st == PX_OK) st = px_graph_instantiate(g, &e);
    if (st == PX_OK) st = px_instance_fence(inst);
    const double t1 = now_s();
    if (st == PX_OK) st = px_graph_launch(e, inst);
    if (st == PX_OK) st = px_instance_fence(inst);
    out->seconds = now_s() - t1;
    out->setup_seconds = t1 - t0;
    if (st == PX_OK) st = px_deep_copy_to_host(&it, sizeof it, w.it);
    if (st == PX_OK) st = px_deep_copy_to_host(&rr, sizeof rr, w.rr);
    out->iterations = (int)it;
    out->residual = bb > 0 ? sqrt(rr / bb) : 0;
    if (e) px_graph_exec_destroy(&e);
    if (g) px_graph_destroy(&g);
    release(&w);
    return st;
}
