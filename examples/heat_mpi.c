/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* heat_mpi: heat2d's plate decomposed over MPI processes, with the halo exchange hidden
 * behind the interior's computation.
 *
 * The plate's interior points are split in blocks over a 2-D Cartesian communicator
 * (MPI_Dims_create); each process holds its block with one ghost layer on every side, in
 * the default execution space's memory (DEVICE(0) on a GPU). A step is a halo exchange
 * (portex/mpi.h) and heat2d's 5-point stencil over the block. The plate's edges are fixed
 * (Dirichlet): on the communicator's open edges the ghost layers hold them and the
 * exchange leaves them alone.
 *
 * With overlap, the default instance is partitioned in two: a "comm" instance, driven by
 * the main thread, exchanges the halo, while a thread of the program's own drives a
 * "compute" instance through the block's inner points, those whose neighbours are all in
 * the block. Once the ghosts have arrived (an event on comm), the compute instance does
 * the ring of points next to them; the next exchange waits for that ring (an event on
 * compute), since it sends it. Every point is computed by the same kernel in either case,
 * so the result is the same to the bit.
 *
 * It times four runs of the same steps: the exchange alone, the computation alone, both
 * one after the other on one instance (overlap off), and overlapped; it reports the time
 * per step (the slowest process's) and the share of the exchange's own time that the
 * overlap hid. The runs with and without overlap are each checked to equal, bit for bit,
 * the one-process run (the whole plate stepped by the same kernel on process 0), which is
 * itself checked against plain C loops (to rounding: a GPU may fuse multiply-adds).
 *
 *   mpirun -np 4 build/examples/heat_mpi [steps] [--plate NX NY | --block BX BY] [--no-check]
 *
 * --plate: the whole plate, edges included (strong scaling; default 256 x 192);
 * --block: each process's interior block (weak scaling: the plate grows with the
 * processes); --no-check: skip the one-process run and the plain C loops (big plates). */
#define _POSIX_C_SOURCE 200809L /* pthread_barrier_t */

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <portex/mpi.h>

#include "example.h"
#include "heat2d_kernels.h"

#define MPI_CHECK(call)                                                       \
    do {                                                                      \
        if ((call) != MPI_SUCCESS) {                                          \
            fprintf(stderr, "%s:%d: %s failed\n", __FILE__, __LINE__, #call); \
            MPI_Abort(MPI_COMM_WORLD, 1);                                     \
        }                                                                     \
    } while (0)

/* ---- The problem ------------------------------------------------------------------------ */

static const double ALPHA = 0.2;

/* The initial temperature at global point (i, j): reproducible wherever it is computed. */
static double initial(int64_t i, int64_t j)
{
    uint64_t seed = (uint64_t)(i * 7919 + j) * 2654435761u;
    return example_random(&seed);
}

/* [start, end) of the n points that coordinate c of p gets. */
static void block_range(int64_t n, int p, int c, int64_t *start, int64_t *end)
{
    *start = n * c / p;
    *end = n * (c + 1) / p;
}

/* A 2-D view of f64 in space, NO_INIT. */
static px_view *make_view(const char *label, px_space space, int64_t n0, int64_t n1)
{
    px_view_desc d;
    memset(&d, 0, sizeof d);
    d.label = label;
    d.space = space;
    d.dtype = PX_F64;
    d.rank = 2;
    d.extent[0] = n0;
    d.extent[1] = n1;
    d.flags = PX_VIEW_NO_INIT;
    px_view *v;
    CHECK(px_view_create(&v, &d));
    return v;
}

/* The subview [b0, e0) x [b1, e1) of v. */
static px_view *box(px_view *v, int64_t b0, int64_t e0, int64_t b1, int64_t e1)
{
    const px_slice s[2] = {px_slice_range(b0, e0), px_slice_range(b1, e1)};
    px_view *sub;
    CHECK(px_view_subview(&sub, v, s, 2));
    return sub;
}

/* The heat equation's two buffers over a block of the plate: interior points
   [i0, i0 + li) x [j0, j0 + lj) (global indices) and a ghost layer each side. */
typedef struct field {
    int64_t i0, j0, li, lj;
    px_view *u[2];
    px_view *host;     /* a host mirror, to fill and to read back */
    heat_args args[2]; /* step s reads u[s % 2] and writes the other */
} field;

static void field_create(field *f, px_space space, int64_t i0, int64_t j0, int64_t li, int64_t lj)
{
    f->i0 = i0, f->j0 = j0, f->li = li, f->lj = lj;
    f->u[0] = make_view("u0", space, li + 2, lj + 2);
    f->u[1] = make_view("u1", space, li + 2, lj + 2);
    CHECK(px_view_create_mirror_view(&f->host, px_host(), f->u[0]));
    for (int p = 0; p < 2; ++p) {
        f->args[p].alpha = ALPHA;
        CHECK(px_view_get_span(f->u[p], &f->args[p].in));
        CHECK(px_view_get_span(f->u[1 - p], &f->args[p].out));
    }
}

/* Both buffers to the initial temperature (the ghosts on the plate's edges then hold the
   fixed edges in both, for good). */
static void field_reset(field *f)
{
    px_span_f64 hs;
    CHECK(px_view_get_span(f->host, &hs));
    for (int64_t i = 0; i < f->li + 2; ++i)
        for (int64_t j = 0; j < f->lj + 2; ++j)
            PX_AT2(hs, i, j) = initial(f->i0 - 1 + i, f->j0 - 1 + j);
    CHECK(px_deep_copy(f->u[0], f->host, NULL));
    CHECK(px_deep_copy(f->u[1], f->host, NULL));
}

static void field_destroy(field *f)
{
    CHECK(px_view_release(&f->u[0]));
    CHECK(px_view_release(&f->u[1]));
    CHECK(px_view_release(&f->host));
}

/* Step s over the points [b0, e0) x [b1, e1) of the block (local indices), on inst. */
static void stencil(px_instance *inst, const field *f, int s, int64_t b0, int64_t e0, int64_t b1,
                    int64_t e1)
{
    if (b0 >= e0 || b1 >= e1) return;
    CHECK(px_parallel_for(inst, "heat_step", px_mdrange2(b0, e0, b1, e1), PX_KERNEL(heat_step),
                          &f->args[s % 2]));
}

/* ---- Overlap: a thread of our own drives the compute instance ---------------------------- */

typedef struct overlap {
    px_instance *part[2]; /* comm (main thread), compute (the thread) */
    px_event *ghosts_in;  /* on comm: the step's ghosts have arrived */
    px_event *ring_done;  /* on compute: the step's ring is written */
    pthread_t thread;
    pthread_barrier_t go, issued;
    const field *f; /* the thread's work: step s's inner points */
    int step;
    int quit;
} overlap;

#define COMM(o) ((o)->part[0])
#define COMPUTE(o) ((o)->part[1])

/* The compute thread: at each step, the inner points, then back to the main thread (on a
   GPU the kernel is queued, on the host it has run). */
static void *compute_thread(void *arg)
{
    overlap *o = arg;
    for (;;) {
        pthread_barrier_wait(&o->go);
        if (o->quit) return NULL;
        const field *f = o->f;
        stencil(COMPUTE(o), f, o->step, 2, f->li, 2, f->lj);
        pthread_barrier_wait(&o->issued);
    }
}

static void overlap_create(overlap *o, px_instance *parent)
{
    memset(o, 0, sizeof *o);
    /* On OpenMP and threads the compute instance gets all threads but one; on a GPU both are
       streams over the whole device, and the exchange's pack and unpack kernels go first. */
    int threads = 1;
    CHECK(px_instance_concurrency(parent, &threads));
    px_exec_space exec;
    CHECK(px_instance_exec_space(parent, &exec));
    const double weights[2] = {1.0,
                               (exec == PX_EXEC_OPENMP || exec == PX_EXEC_THREADS) && threads > 2
                                   ? (double)(threads - 1)
                                   : 1.0};
    const int priorities[2] = {-1, 0};
    px_partition_options opt;
    memset(&opt, 0, sizeof opt);
    opt.priorities = priorities;
    CHECK(px_partition_ex(parent, 2, weights, &opt, o->part));
    CHECK(px_event_create(&o->ghosts_in, COMM(o), 0));
    CHECK(px_event_create(&o->ring_done, COMPUTE(o), 0));
    if (pthread_barrier_init(&o->go, NULL, 2) != 0 ||
        pthread_barrier_init(&o->issued, NULL, 2) != 0 ||
        pthread_create(&o->thread, NULL, compute_thread, o) != 0) {
        fprintf(stderr, "heat_mpi: cannot start the compute thread\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

static void overlap_destroy(overlap *o)
{
    o->quit = 1;
    pthread_barrier_wait(&o->go);
    pthread_join(o->thread, NULL);
    pthread_barrier_destroy(&o->go);
    pthread_barrier_destroy(&o->issued);
    CHECK(px_event_destroy(&o->ghosts_in));
    CHECK(px_event_destroy(&o->ring_done));
    CHECK(px_instance_destroy(&o->part[0]));
    CHECK(px_instance_destroy(&o->part[1]));
}

/* One overlapped step. */
static void overlap_step(overlap *o, const field *f, px_mpi_halo *halo, int s)
{
    o->f = f;
    o->step = s;
    pthread_barrier_wait(&o->go); /* the thread starts on the inner points */
    CHECK(px_mpi_halo_exchange(COMM(o), halo));
    CHECK(px_event_record(o->ghosts_in, COMM(o)));
    pthread_barrier_wait(&o->issued); /* compute is ours again */
    CHECK(px_instance_wait_event(COMPUTE(o), o->ghosts_in));
    const int64_t li = f->li, lj = f->lj;
    stencil(COMPUTE(o), f, s, 1, 2, 1, lj + 1);                   /* first row */
    if (li > 1) stencil(COMPUTE(o), f, s, li, li + 1, 1, lj + 1); /* last row */
    stencil(COMPUTE(o), f, s, 2, li, 1, 2);                       /* first column */
    if (lj > 1) stencil(COMPUTE(o), f, s, 2, li, lj, lj + 1);     /* last column */
    CHECK(px_event_record(o->ring_done, COMPUTE(o)));
    CHECK(px_instance_wait_event(COMM(o), o->ring_done)); /* the next exchange sends it */
}

/* ---- The runs --------------------------------------------------------------------------- */

typedef enum mode { EXCHANGE_ALONE, COMPUTE_ALONE, OVERLAP_OFF, OVERLAP_ON, MODES } mode;

static const char *const mode_name[MODES] = {"exchange alone", "compute alone", "overlap off",
                                             "overlap on"};

/* steps steps of mode from the initial temperature; the slowest process's seconds. */
static double run(mode m, field *f, px_mpi_halo *halo[2], px_instance *inst, overlap *o, int steps)
{
    field_reset(f);
    MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
    const double t0 = MPI_Wtime();
    for (int s = 0; s < steps; ++s) {
        switch (m) {
        case EXCHANGE_ALONE: CHECK(px_mpi_halo_exchange(inst, halo[s % 2])); break;
        case COMPUTE_ALONE: stencil(inst, f, s, 1, f->li + 1, 1, f->lj + 1); break;
        case OVERLAP_OFF:
            CHECK(px_mpi_halo_exchange(inst, halo[s % 2])); /* ghosts of the buffer read */
            stencil(inst, f, s, 1, f->li + 1, 1, f->lj + 1);
            break;
        default: overlap_step(o, f, halo[s % 2], s); break;
        }
    }
    CHECK(m == OVERLAP_ON ? px_instance_fence(COMPUTE(o)) : px_instance_fence(inst));
    const double mine = MPI_Wtime() - t0;
    double slowest = 0.0;
    MPI_CHECK(MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD));
    return slowest;
}

/* ---- The checks ------------------------------------------------------------------------- */

/* The one-process run: the whole nx x ny plate stepped by the same kernel, read back into a
   host view. */
static px_view *one_process_run(px_space space, px_instance *inst, int64_t nx, int64_t ny,
                                int steps)
{
    field whole;
    field_create(&whole, space, 1, 1, nx - 2, ny - 2);
    field_reset(&whole);
    for (int s = 0; s < steps; ++s) stencil(inst, &whole, s, 1, nx - 1, 1, ny - 1);
    CHECK(px_deep_copy(whole.host, whole.u[steps % 2], NULL));
    px_view *out = whole.host;
    CHECK(px_view_retain(out));
    field_destroy(&whole);
    return out;
}

/* The largest difference between the plate in `got` and the same steps in plain C loops. */
static double plain_c_difference(px_view *got, int64_t nx, int64_t ny, int steps)
{
    const size_t bytes = (size_t)(nx * ny) * sizeof(double);
    double *ref[2] = {malloc(bytes), malloc(bytes)};
    if (!ref[0] || !ref[1]) MPI_Abort(MPI_COMM_WORLD, 1);
    for (int64_t i = 0; i < nx; ++i)
        for (int64_t j = 0; j < ny; ++j) ref[0][i * ny + j] = ref[1][i * ny + j] = initial(i, j);
    for (int s = 0; s < steps; ++s) {
        const double *in = ref[s % 2];
        double *out = ref[(s + 1) % 2];
        for (int64_t i = 1; i < nx - 1; ++i)
            for (int64_t j = 1; j < ny - 1; ++j) {
                const double c = in[i * ny + j];
                const double nb = in[(i - 1) * ny + j] + in[(i + 1) * ny + j] + in[i * ny + j - 1] +
                                  in[i * ny + j + 1];
                out[i * ny + j] = c + ALPHA * (nb - 4.0 * c);
            }
    }
    px_span_f64 g;
    CHECK(px_view_get_span(got, &g));
    double diff = 0.0;
    for (int64_t i = 0; i < nx; ++i)
        for (int64_t j = 0; j < ny; ++j)
            diff = fmax(diff, fabs(PX_AT2(g, i, j) - ref[steps % 2][i * ny + j]));
    free(ref[0]);
    free(ref[1]);
    return diff;
}

/* Gathers every process's block of the field after `steps` steps into process 0's `plate`
   (a host view of the whole plate): each block's interior is sent as a strided subview and
   received into its place, a strided subview of the plate. */
static void gather(field *f, int steps, MPI_Comm cart, const int dims[2], int64_t nx, int64_t ny,
                   px_view *plate)
{
    enum { TAG = 7 };
    int rank, size;
    MPI_CHECK(MPI_Comm_rank(cart, &rank));
    MPI_CHECK(MPI_Comm_size(cart, &size));
    px_view *mine = box(f->u[steps % 2], 1, f->li + 1, 1, f->lj + 1);
    if (rank != 0) {
        CHECK(px_mpi_send(mine, 0, TAG, cart));
    } else {
        for (int r = 0; r < size; ++r) {
            int c[2];
            int64_t i0, i1, j0, j1;
            MPI_CHECK(MPI_Cart_coords(cart, r, 2, c));
            block_range(nx - 2, dims[0], c[0], &i0, &i1);
            block_range(ny - 2, dims[1], c[1], &j0, &j1);
            px_view *place = box(plate, i0 + 1, i1 + 1, j0 + 1, j1 + 1);
            CHECK(r == 0 ? px_deep_copy(place, mine, NULL) : px_mpi_recv(place, r, TAG, cart));
            CHECK(px_view_release(&place));
        }
    }
    CHECK(px_view_release(&mine));
}

/* Points of the plate's interior whose bits differ between a and b (host views). */
static int64_t bit_differences(px_view *a, px_view *b, int64_t nx, int64_t ny)
{
    px_span_f64 sa, sb;
    CHECK(px_view_get_span(a, &sa));
    CHECK(px_view_get_span(b, &sb));
    int64_t n = 0;
    for (int64_t i = 1; i < nx - 1; ++i)
        for (int64_t j = 1; j < ny - 1; ++j)
            n += memcmp(&PX_AT2(sa, i, j), &PX_AT2(sb, i, j), sizeof(double)) != 0;
    return n;
}

/* ---- main ------------------------------------------------------------------------------- */

static void usage(void)
{
    fprintf(stderr, "usage: heat_mpi [steps] [--plate NX NY | --block BX BY] [--no-check]\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
}

int main(int argc, char **argv)
{
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED,
                    &provided); /* MPI from the main thread only */
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int64_t nx = 256, ny = 192, bx = 0, by = 0;
    int steps = 200, check = 1;
    for (int a = 1; a < argc; ++a) {
        if (strcmp(argv[a], "--plate") == 0 && a + 2 < argc) {
            nx = atoll(argv[++a]);
            ny = atoll(argv[++a]);
        } else if (strcmp(argv[a], "--block") == 0 && a + 2 < argc) {
            bx = atoll(argv[++a]);
            by = atoll(argv[++a]);
        } else if (strcmp(argv[a], "--no-check") == 0) {
            check = 0;
        } else if (argv[a][0] != '-') {
            steps = atoi(argv[a]);
        } else {
            usage();
        }
    }
    if (steps < 0 || provided < MPI_THREAD_FUNNELED) usage();
    CHECK(px_init(NULL));
    px_exec_space exec;
    px_space space;
    px_instance *inst;
    int device = 0;
    CHECK(px_default_exec_space(&exec));
    if (exec == PX_EXEC_CUDA) {
        /* One GPU per process where the node has enough: the processes of a node take its
           GPUs in turn, by their rank among the node's processes (docs/mpi.md). */
        MPI_Comm node;
        int local = 0, gpus = 1;
        MPI_CHECK(
            MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node));
        MPI_CHECK(MPI_Comm_rank(node, &local));
        MPI_CHECK(MPI_Comm_free(&node));
        CHECK(px_exec_space_device_count(exec, &gpus));
        device = local % gpus;
    }
    space = exec == PX_EXEC_CUDA ? px_device(device) : px_host();
    CHECK(px_instance_default(exec, device, &inst));

    /* The processes as a 2-D grid, not periodic: the plate's edges are open edges. */
    int dims[2] = {0, 0}, periods[2] = {0, 0}, coords[2];
    MPI_CHECK(MPI_Dims_create(size, 2, dims));
    if (bx > 0 && by > 0) nx = bx * dims[0] + 2, ny = by * dims[1] + 2;
    MPI_Comm cart;
    MPI_CHECK(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart));
    MPI_CHECK(MPI_Cart_coords(cart, rank, 2, coords));
    /* This block: interior points [i0, i1) x [j0, j1) of the plate (global indices, the
       plate's interior being [1, nx - 1) x [1, ny - 1)). */
    int64_t i0, i1, j0, j1;
    block_range(nx - 2, dims[0], coords[0], &i0, &i1);
    block_range(ny - 2, dims[1], coords[1], &j0, &j1);
    if (i1 - i0 < 1 || j1 - j0 < 1) {
        if (rank == 0)
            fprintf(stderr, "heat_mpi: %d x %d processes are too many for the plate\n", dims[0],
                    dims[1]);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (rank == 0)
        printf(
            "heat_mpi: %lld x %lld plate, %d steps, %d x %d processes, %s backend, data in %s%s\n",
            (long long)nx, (long long)ny, steps, dims[0], dims[1], px_exec_space_string(exec),
            px_space_kind_string(space.kind),
            exec == PX_EXEC_CUDA
                ? " (each process's GPU: its rank on the node modulo the node's GPUs)"
                : "");

    field f;
    field_create(&f, space, i0 + 1, j0 + 1, i1 - i0, j1 - j0);
    /* A halo per buffer: each step exchanges the one it reads. */
    const int width[2] = {1, 1};
    px_mpi_halo *halo[2];
    CHECK(px_mpi_halo_create(&halo[0], f.u[0], width, cart));
    CHECK(px_mpi_halo_create(&halo[1], f.u[1], width, cart));
    overlap o;
    overlap_create(&o, inst);

    px_view *one = NULL, *plate = NULL;
    int ok = 1;
    if (check && rank == 0) {
        one = one_process_run(space, inst, nx, ny, steps);
        const double diff = plain_c_difference(one, nx, ny, steps);
        /* Temperatures are in (0, 1]; only rounding may differ (fused multiply-adds). */
        ok = diff <= 1e-12;
        printf("  one-process run: max difference from plain C loops %.3g (%s)\n", diff,
               ok ? "OK" : "MISMATCH");
        plate = make_view("plate", px_host(), nx, ny);
        CHECK(px_deep_copy(plate, one, NULL)); /* the edges; gather fills the interior */
    }
    double t[MODES];
    for (int m = 0; m < MODES; ++m) {
        (void)run((mode)m, &f, halo, inst, &o, steps < 5 ? steps : 5); /* warm up */
        t[m] = run((mode)m, &f, halo, inst, &o, steps) / (steps ? steps : 1);
        if (check && (m == OVERLAP_OFF || m == OVERLAP_ON)) {
            gather(&f, steps, cart, dims, nx, ny, plate);
            if (rank == 0) {
                const int64_t n = bit_differences(plate, one, nx, ny);
                printf("  %-14s: %s the one-process run", mode_name[m],
                       n == 0 ? "bit-identical to" : "DIFFERS from");
                if (n != 0) printf(" at %lld points", (long long)n);
                printf("\n");
                ok = ok && n == 0;
            }
        }
    }
    MPI_CHECK(MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD));
    if (rank == 0) {
        for (int m = 0; m < MODES; ++m)
            printf("  %-14s %9.4f ms per step\n", mode_name[m], 1e3 * t[m]);
        /* What the overlap saved, as a share of what the exchange costs by itself (negative:
           the overlap cost more than it hid, e.g. when its thread has no core of its own). */
        const double hidden =
            t[EXCHANGE_ALONE] > 0.0 ? (t[OVERLAP_OFF] - t[OVERLAP_ON]) / t[EXCHANGE_ALONE] : 0.0;
        if (size == 1)
            printf("  hidden: none to hide (one process: no neighbours); overlap on is %.2fx as "
                   "fast as off\n",
                   t[OVERLAP_ON] > 0.0 ? t[OVERLAP_OFF] / t[OVERLAP_ON] : 0.0);
        else
            printf("  hidden: %.0f%% of the exchange's own time (%.4f ms per step); overlap on is "
                   "%.2fx as fast as off\n",
                   100.0 * hidden, 1e3 * t[EXCHANGE_ALONE],
                   t[OVERLAP_ON] > 0.0 ? t[OVERLAP_OFF] / t[OVERLAP_ON] : 0.0);
        printf("heat_mpi: %s\n", check ? (ok ? "OK" : "MISMATCH") : "not checked (--no-check)");
    }

    if (one) CHECK(px_view_release(&one));
    if (plate) CHECK(px_view_release(&plate));
    overlap_destroy(&o);
    CHECK(px_mpi_halo_destroy(&halo[0]));
    CHECK(px_mpi_halo_destroy(&halo[1]));
    field_destroy(&f);
    CHECK(px_finalize());
    MPI_Comm_free(&cart);
    MPI_Finalize();
    return ok ? 0 : 1;
}
