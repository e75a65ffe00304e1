/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* docs/mpi.md: a ring of non-blocking sends and receives ("ring") and a halo exchange over
 * a 2-D Cartesian communicator ("halo"), on 2 processes (check_snippets.py runs programs
 * that include portex/mpi.h under mpirun). Each checks what arrived. */
#include <portex/mpi.h>

#include "snippet.h"

typedef struct ghost_args {
    px_span_f64_1d ghost, out;
} ghost_args;
typedef struct fill_args {
    px_span_f64_1d v;
    double value;
} fill_args;
typedef struct stencil_args {
    px_span_f64_right u, v;
} stencil_args;

PX_FOR(set_edge, fill_args, a, i) { PX_AT1(a->v, i) = a->value; }
PX_FOR(use_ghost, ghost_args, a, i) { PX_AT1(a->out, i) = 2.0 * PX_AT1(a->ghost, i); }
PX_FOR_2D(stencil, stencil_args, a, i, j)
{
    PX_AT2(a->v, i, j) = PX_AT2(a->u, i - 1, j) + PX_AT2(a->u, i + 1, j) + PX_AT2(a->u, i, j - 1) +
                         PX_AT2(a->u, i, j + 1);
}

/* Element (i, j) of a 2-D view (1-D: i = 0) of any space, read on the host. */
static double element(px_view *v, int64_t i, int64_t j)
{
    px_view *h = snippet_host_copy(v);
    px_view_info info;
    CHECK(px_view_info_get(h, &info));
    const double x = info.rank == 1 ? ((const double *)info.data)[j]
                                    : ((const double *)info.data)[i * info.stride[0] + j];
    CHECK(px_view_release(&h));
    return x;
}

/* Each process sends its edge (its rank + 1) to the right and gets its left's. */
static void ring(int me, int nranks)
{
    enum { n = 64 };
    const int left = (me + nranks - 1) % nranks, right = (me + 1) % nranks;
    px_instance *inst;
    px_space where;
    px_view *edge, *ghost, *out;
    CHECK(px_default_instance(&inst));
    CHECK(px_default_space(&where));
    CHECK(px_view_create_1d(&edge, "edge", where, PX_F64, n));
    CHECK(px_view_create_1d(&ghost, "ghost", where, PX_F64, n));
    CHECK(px_view_create_1d(&out, "out", where, PX_F64, n));
    const px_policy range = px_range(0, n);
    fill_args fa = {.value = me + 1.0};
    CHECK(px_view_get_span(edge, &fa.v));
    CHECK(px_parallel_for(inst, "edge", range, PX_KERNEL(set_edge), &fa));
    ghost_args args;
    CHECK(px_view_get_span(ghost, &args.ghost));
    CHECK(px_view_get_span(out, &args.out));

    SNIPPET_BEGIN();
    /* snippet: ring */
    SNIPPET_END();

    EXPECT(element(out, 0, n - 1) == 2.0 * (left + 1.0));
    CHECK(px_view_release(&edge));
    CHECK(px_view_release(&ghost));
    CHECK(px_view_release(&out));
}

/* Each process's block holds its rank + 1; the ghosts along dimension 0 (periodic) come
 * from the neighbours there, those along dimension 1 (open) stay 0. */
static void halo(int me, int nranks)
{
    const int64_t ni = 4, nj = 5;
    const int steps = 2;
    px_instance *inst;
    px_space where;
    px_view *u, *v;
    CHECK(px_default_instance(&inst));
    CHECK(px_default_space(&where));
    px_view_desc d = {
        .label = "u", .space = where, .dtype = PX_F64, .rank = 2, .extent = {ni + 2, nj + 2}};
    CHECK(px_view_create(&u, &d));
    d.label = "v";
    CHECK(px_view_create(&v, &d));
    px_view *inside;
    px_slice interior_slices[2] = {px_slice_range(1, ni + 1), px_slice_range(1, nj + 1)};
    CHECK(px_view_subview(&inside, u, interior_slices, 2));
    const double mine = me + 1.0;
    CHECK(px_fill(inside, &mine, NULL));
    CHECK(px_view_release(&inside));
    stencil_args args;
    CHECK(px_view_get_span(u, &args.u));
    CHECK(px_view_get_span(v, &args.v));
    const px_policy interior = px_mdrange2(1, ni + 1, 1, nj + 1);

    SNIPPET_BEGIN();
    /* snippet: halo */
    SNIPPET_END();

    int below, above;
    EXPECT(MPI_Cart_shift(cart, 0, 1, &below, &above) == MPI_SUCCESS);
    EXPECT(element(u, 0, 2) == below + 1.0 && element(u, ni + 1, 2) == above + 1.0);
    EXPECT(element(u, 2, 0) == 0.0 && element(u, 2, nj + 1) == 0.0);
    EXPECT(element(v, 1, 2) == below + 1.0 + 3.0 * mine); /* the stencil saw the ghost */
    MPI_Comm_free(&cart);
    CHECK(px_view_release(&u));
    CHECK(px_view_release(&v));
}

int main(int argc, char **argv)
{
    int me, nranks;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    CHECK(px_init(NULL));
    ring(me, nranks);
    halo(me, nranks);
    CHECK(px_finalize());
    MPI_Finalize();
    return 0;
}
