/* heat_mpi: heat2d's plate decomposed over MPI processes. The grid's interior points are
 * split in blocks over a 2-D Cartesian communicator (MPI_Dims_create); each process holds
 * its block with one ghost layer on every side, in the default execution space's memory
 * (DEVICE(0) on a GPU), and every step is a halo exchange (portex/mpi.h) then heat2d's
 * 5-point stencil kernel over the block's interior, both on one instance. The plate's
 * edges are fixed (Dirichlet): on the communicator's open edges the ghost layers hold them
 * and the exchange leaves them alone. Each process checks its block against the whole
 * plate stepped in plain C loops.
 *
 *   mpirun -np 4 build/examples/heat_mpi [steps]   */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <portex/mpi.h>

#include "example.h"
#include "heat2d_kernels.h"

/* The initial temperature at global point (i, j): reproducible wherever it is computed. */
static double initial(int64_t i, int64_t j)
{
    uint64_t seed = (uint64_t)(i * 7919 + j) * 2654435761u;
    return example_random(&seed);
}

/* [start, end) of the n points that coordinate c of p gets. */
static void block(int64_t n, int p, int c, int64_t *start, int64_t *end)
{
    *start = n * c / p;
    *end = n * (c + 1) / p;
}

int main(int argc, char **argv)
{
    const int64_t NX = 256, NY = 192;   /* the plate, edges included */
    const int steps = argc > 1 ? atoi(argv[1]) : 200;
    const double alpha = 0.2;
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(px_init(NULL));
    px_exec_space exec;
    px_space space;
    px_instance *inst;
    CHECK(px_default_exec_space(&exec));
    CHECK(px_default_space(&space));
    CHECK(px_default_instance(&inst));

    /* The processes as a 2-D grid, not periodic: the plate's edges are open edges. */
    int dims[2] = {0, 0}, periods[2] = {0, 0}, coords[2];
    MPI_Dims_create(size, 2, dims);
    MPI_Comm cart;
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
    MPI_Cart_coords(cart, rank, 2, coords);
    /* This block: interior points [i0, i1) x [j0, j1) of the plate (global indices, the
       plate's interior being [1, NX - 1) x [1, NY - 1)), plus a ghost layer each side. */
    int64_t i0, i1, j0, j1;
    block(NX - 2, dims[0], coords[0], &i0, &i1);
    block(NY - 2, dims[1], coords[1], &j0, &j1);
    i0 += 1, i1 += 1, j0 += 1, j1 += 1;
    const int64_t li = i1 - i0, lj = j1 - j0;   /* the block's interior */
    if (li < 1 || lj < 1) {
        if (rank == 0) fprintf(stderr, "heat_mpi: %d x %d processes are too many for the plate\n", dims[0], dims[1]);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (rank == 0)
        printf("heat_mpi: %lld x %lld plate, %d steps, %d x %d processes, %s backend, data in %s\n", (long long)NX,
               (long long)NY, steps, dims[0], dims[1], px_exec_space_string(exec), px_space_kind_string(space.kind));

    /* Two buffers with ghosts, both starting from the initial temperature (the ghosts on
       the plate's edges then hold the fixed edges in both). */
    px_view_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.label = "u0";
    desc.space = space;
    desc.dtype = PX_F64;
    desc.rank = 2;
    desc.extent[0] = li + 2;
    desc.extent[1] = lj + 2;
    desc.flags = PX_VIEW_NO_INIT;
    px_view *u[2], *hu;
    CHECK(px_view_create(&u[0], &desc));
    desc.label = "u1";
    CHECK(px_view_create(&u[1], &desc));
    CHECK(px_view_create_mirror_view(&hu, px_host(), u[0]));
    px_span_f64 hs;
    CHECK(px_view_get_span(hu, &hs));
    for (int64_t i = 0; i < li + 2; ++i)
        for (int64_t j = 0; j < lj + 2; ++j) PX_AT2(hs, i, j) = initial(i0 - 1 + i, j0 - 1 + j);
    CHECK(px_deep_copy(u[0], hu, NULL));
    CHECK(px_deep_copy(u[1], hu, NULL));

    /* A halo per buffer: each step exchanges the one it reads. */
    const int width[2] = {1, 1};
    px_mpi_halo *halo[2];
    CHECK(px_mpi_halo_create(&halo[0], u[0], width, cart));
    CHECK(px_mpi_halo_create(&halo[1], u[1], width, cart));
    heat_args args;
    args.alpha = alpha;
    CHECK(px_view_get_span(u[0], &args.in));
    CHECK(px_view_get_span(u[1], &args.out));
    const px_policy interior = px_mdrange2(1, li + 1, 1, lj + 1);
    const double t0 = MPI_Wtime();
    for (int s = 0; s < steps; ++s) {
        CHECK(px_mpi_halo_exchange(inst, halo[s % 2]));   /* ghosts of the buffer read */
        CHECK(px_parallel_for(inst, "heat_step", interior, PX_KERNEL(heat_step), &args));
        px_span_f64_right_restrict t = args.in;
        args.in = args.out;
        args.out = t;
    }
    CHECK(px_instance_fence(inst));
    const double seconds = MPI_Wtime() - t0;

    /* The whole plate in plain C loops (heat2d's reference), and this block against it. */
    const size_t bytes = (size_t)(NX * NY) * sizeof(double);
    double *ref[2] = {malloc(bytes), malloc(bytes)};
    if (!ref[0] || !ref[1]) MPI_Abort(MPI_COMM_WORLD, 1);
    for (int64_t i = 0; i < NX; ++i)
        for (int64_t j = 0; j < NY; ++j) ref[0][i * NY + j] = ref[1][i * NY + j] = initial(i, j);
    for (int s = 0; s < steps; ++s) {
        const double *in = ref[s % 2];
        double *out = ref[(s + 1) % 2];
        for (int64_t i = 1; i < NX - 1; ++i)
            for (int64_t j = 1; j < NY - 1; ++j) {
                const double c = in[i * NY + j];
                const double nb = in[(i - 1) * NY + j] + in[(i + 1) * NY + j] + in[i * NY + j - 1] + in[i * NY + j + 1];
                out[i * NY + j] = c + alpha * (nb - 4.0 * c);
            }
    }
    CHECK(px_deep_copy(hu, u[steps % 2], NULL));
    double diff = 0.0, sum = 0.0;
    for (int64_t i = 1; i <= li; ++i)
        for (int64_t j = 1; j <= lj; ++j) {
            const double got = PX_AT2(hs, i, j), want = ref[steps % 2][(i0 - 1 + i) * NY + (j0 - 1 + j)];
            diff = fmax(diff, fabs(got - want));
            sum += got;
        }
    double max_diff = 0.0, total = 0.0;
    MPI_Allreduce(&diff, &max_diff, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(&sum, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    /* Temperatures are in (0, 1]; only rounding may differ (fma on a GPU). */
    const int ok = max_diff <= 1e-12;
    if (rank == 0)
        printf("heat_mpi: mean interior temperature %.6f, max difference from plain C loops %.3g, "
               "%.3f ms per step: %s\n",
               total / (double)((NX - 2) * (NY - 2)), max_diff, 1e3 * seconds / (steps ? steps : 1), ok ? "OK" : "MISMATCH");

    free(ref[0]);
    free(ref[1]);
    CHECK(px_mpi_halo_destroy(&halo[0]));
    CHECK(px_mpi_halo_destroy(&halo[1]));
    CHECK(px_view_release(&hu));
    CHECK(px_view_release(&u[0]));
    CHECK(px_view_release(&u[1]));
    CHECK(px_finalize());
    MPI_Comm_free(&cart);
    MPI_Finalize();
    return ok ? 0 : 1;
}
