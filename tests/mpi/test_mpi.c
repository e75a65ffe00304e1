/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* libportex_mpi (portex/mpi.h) under mpirun, any number of ranks, on the default execution
 * space (PX_DEFAULT_EXEC): views in its memory space (DEVICE(0) on CUDA), contiguous,
 * strided (packed), LAYOUT_LEFT, blocking and non-blocking, a kernel ordered after a
 * receive, HOST_PINNED views, and errors. A plain C program: each rank counts its
 * failures, rank 0 prints the total; exit 0, 1 on any failure, 77 where the execution space
 * is not available here (every rank alike). */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "k_mpi.h"
#include "portex.h"
#include "portex/mpi.h"

static int rank, size, failures;
static px_instance *inst;
static px_space space; /* the default execution space's memory */

#define CHECK(cond, ...)                                                                       \
    do {                                                                                       \
        if (!(cond)) {                                                                         \
            ++failures;                                                                        \
            fprintf(stderr, "rank %d: %s:%d: '%s' failed: ", rank, __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                                      \
            fprintf(stderr, "\n");                                                             \
        }                                                                                      \
    } while (0)

#define OK(expr)                                                                                \
    do {                                                                                        \
        px_status st_ = (expr);                                                                 \
        CHECK(st_ == PX_OK, "%s returned %s: %s", #expr, px_status_name(st_), px_last_error()); \
    } while (0)

/* expr fails with want, and the last error names func. */
#define FAILS(expr, want, func)                                                            \
    do {                                                                                   \
        px_clear_error();                                                                  \
        px_status st_ = (expr);                                                            \
        CHECK(st_ == (want) && strstr(px_last_error(), (func)) != NULL,                    \
              "%s returned %s (expected %s), last error '%s'", #expr, px_status_name(st_), \
              px_status_name(want), px_last_error());                                      \
    } while (0)

static double value(int sender, int64_t lin, int salt)
{
    return sender * 1e6 + (double)lin + salt * 0.5;
}

/* A new view; layout RIGHT or LEFT. */
static px_view *make(const char *label, px_space where, px_layout layout, int r, const int64_t *ext)
{
    px_view_desc d = {.label = label, .space = where, .dtype = PX_F64, .rank = r, .layout = layout};
    for (int i = 0; i < r; ++i) d.extent[i] = ext[i];
    px_view *v = NULL;
    OK(px_view_create(&v, &d));
    return v;
}

/* Visits v's host mirror in row-major index order: set (fill) or compare each element with
   value(sender, lin, salt) * scale. Returns the mismatches. */
static int visit(px_view *v, bool fill, int sender, int salt, double scale)
{
    px_view *m = NULL;
    OK(px_view_create_mirror(&m, px_host(), v));
    if (m == NULL) return 1;
    if (!fill) OK(px_deep_copy(m, v, NULL));
    px_view_info mi;
    OK(px_view_info_get(m, &mi));
    int bad = 0;
    int64_t idx[PX_MAX_RANK] = {0};
    for (int64_t lin = 0; lin < mi.size; ++lin) {
        int64_t off = 0;
        for (int d = 0; d < mi.rank; ++d) off += idx[d] * mi.stride[d];
        double *e = (double *)mi.data + off;
        const double want = value(sender, lin, salt) * scale;
        if (fill) {
            *e = want;
        } else if (*e != want && bad++ < 3) {
            fprintf(stderr, "rank %d: '%s' element %lld is %g, expected %g\n", rank, mi.label,
                    (long long)lin, *e, want);
        }
        for (int d = mi.rank - 1; d >= 0; --d) {
            if (++idx[d] < mi.extent[d]) break;
            idx[d] = 0;
        }
    }
    if (fill) OK(px_deep_copy(v, m, NULL));
    px_view_release(&m);
    return bad;
}

static int next(void) { return (rank + 1) % size; }
static int prev(void) { return (rank + size - 1) % size; }

/* Blocking ring: rank 0 sends first, the others receive first (one rank: to itself,
   through isend). */
static void ring_blocking(px_view *out, px_view *in, int tag)
{
    if (size == 1) {
        px_mpi_request *r = NULL;
        OK(px_mpi_isend(inst, out, 0, tag, MPI_COMM_WORLD, &r));
        OK(px_mpi_recv(in, 0, tag, MPI_COMM_WORLD));
        OK(px_mpi_wait(&r));
        CHECK(r == NULL, "wait leaves the request");
    } else if (rank == 0) {
        OK(px_mpi_send(out, next(), tag, MPI_COMM_WORLD));
        OK(px_mpi_recv(in, prev(), tag, MPI_COMM_WORLD));
    } else {
        OK(px_mpi_recv(in, prev(), tag, MPI_COMM_WORLD));
        OK(px_mpi_send(out, next(), tag, MPI_COMM_WORLD));
    }
}

static void test_contiguous(px_space where, const char *what)
{
    const int64_t n[1] = {1000};
    px_view *out = make("out", where, PX_LAYOUT_RIGHT, 1, n),
            *in = make("in", where, PX_LAYOUT_RIGHT, 1, n);
    visit(out, true, rank, 1, 1.0);
    ring_blocking(out, in, 11);
    CHECK(visit(in, false, prev(), 1, 1.0) == 0, "%s: blocking ring of contiguous views", what);
    px_view_release(&out);
    px_view_release(&in);
}

/* A strided subview out, into a contiguous view, a LAYOUT_LEFT view and a strided subview. */
static void test_strided_and_left(void)
{
    const int64_t big[2] = {8, 10}, small[2] = {6, 7};
    px_view *a = make("a", space, PX_LAYOUT_RIGHT, 2, big);
    px_slice sl[2] = {px_slice_range(1, 7), px_slice_range(2, 9)};
    px_view *sub = NULL;
    OK(px_view_subview(&sub, a, sl, 2));
    visit(sub, true, rank, 2, 1.0);
    px_view *right = make("right", space, PX_LAYOUT_RIGHT, 2, small);
    ring_blocking(sub, right, 21);
    CHECK(visit(right, false, prev(), 2, 1.0) == 0, "strided subview into a contiguous view");

    px_view *left = make("left", space, PX_LAYOUT_LEFT, 2, small);
    ring_blocking(sub, left, 22);
    CHECK(visit(left, false, prev(), 2, 1.0) == 0, "strided subview into a LAYOUT_LEFT view");

    /* LAYOUT_LEFT out, into a strided subview of another view. */
    visit(left, true, rank, 3, 1.0);
    px_view *b = make("b", space, PX_LAYOUT_LEFT, 2, big);
    px_view *bsub = NULL;
    OK(px_view_subview(&bsub, b, sl, 2));
    ring_blocking(left, bsub, 23);
    CHECK(visit(bsub, false, prev(), 3, 1.0) == 0,
          "LAYOUT_LEFT view into a strided subview of a LAYOUT_LEFT view");
    /* A 2-D slice of a 3-D LAYOUT_LEFT view (a dimension dropped, none of unit stride
       kept in order), into a contiguous view. */
    const int64_t cube[3] = {4, 5, 6}, face[2] = {3, 4};
    px_view *c = make("cube", space, PX_LAYOUT_LEFT, 3, cube);
    px_slice cs[3] = {px_slice_index(2), px_slice_range(1, 4), px_slice_range(2, 6)};
    px_view *csub = NULL, *flat = make("face", space, PX_LAYOUT_RIGHT, 2, face);
    OK(px_view_subview(&csub, c, cs, 3));
    visit(csub, true, rank, 8, 1.0);
    ring_blocking(csub, flat, 24);
    CHECK(visit(flat, false, prev(), 8, 1.0) == 0,
          "a slice of a 3-D LAYOUT_LEFT view into a contiguous view");
    px_view_release(&csub);
    px_view_release(&c);
    px_view_release(&flat);
    px_view_release(&sub);
    px_view_release(&bsub);
    px_view_release(&a);
    px_view_release(&b);
    px_view_release(&right);
    px_view_release(&left);
}

/* isend/irecv to both neighbours, waitall, then a kernel on the instance over what came. */
static void test_nonblocking(void)
{
    const int64_t n[1] = {4096}, big[2] = {5, 9}, small[2] = {5, 4};
    px_view *out = make("nb out", space, PX_LAYOUT_RIGHT, 1, n),
            *in = make("nb in", space, PX_LAYOUT_RIGHT, 1, n);
    px_view *m = make("nb m", space, PX_LAYOUT_RIGHT, 2, big),
            *back = make("nb back", space, PX_LAYOUT_LEFT, 2, small);
    px_slice sl[2] = {px_slice_all(), px_slice_range(3, 7)};
    px_view *msub = NULL;
    OK(px_view_subview(&msub, m, sl, 2));
    visit(out, true, rank, 4, 1.0);
    visit(back, true, rank, 5, 1.0);
    for (int round = 0; round < 3; ++round) {
        px_mpi_request *req[4] = {NULL, NULL, NULL, NULL};
        OK(px_mpi_irecv(inst, in, prev(), 31, MPI_COMM_WORLD, &req[0]));
        OK(px_mpi_irecv(inst, msub, next(), 32, MPI_COMM_WORLD, &req[1])); /* packed */
        OK(px_mpi_isend(inst, out, next(), 31, MPI_COMM_WORLD, &req[2]));
        OK(px_mpi_isend(inst, back, prev(), 32, MPI_COMM_WORLD, &req[3])); /* LAYOUT_LEFT, packed */
        OK(px_mpi_waitall(4, req));
        for (int i = 0; i < 4; ++i) CHECK(req[i] == NULL, "waitall leaves request %d", i);
        /* Ordered after the waits on inst: the kernel sees the data. */
        mpi_scale_args s;
        OK(px_view_get_span(in, &s.x));
        s.a = 2.0;
        OK(px_parallel_for(inst, "scale", px_range(0, n[0]), PX_KERNEL(mpi_scale), &s));
        OK(px_instance_fence(inst));
        CHECK(visit(in, false, prev(), 4, 2.0) == 0, "round %d: kernel after irecv + waitall",
              round);
        CHECK(visit(msub, false, next(), 5, 1.0) == 0,
              "round %d: LAYOUT_LEFT into a strided subview, non-blocking", round);
    }
    /* px_mpi_wait one by one, the view released before the wait. */
    px_view *tmp = make("released early", space, PX_LAYOUT_RIGHT, 1, n);
    visit(tmp, true, rank, 6, 1.0);
    px_mpi_request *rs = NULL, *rr = NULL;
    OK(px_mpi_irecv(inst, in, prev(), 33, MPI_COMM_WORLD, &rr));
    OK(px_mpi_isend(inst, tmp, next(), 33, MPI_COMM_WORLD, &rs));
    px_view_release(&tmp);
    OK(px_mpi_wait(&rs));
    OK(px_mpi_wait(&rr));
    OK(px_instance_fence(inst));
    CHECK(visit(in, false, prev(), 6, 1.0) == 0,
          "px_mpi_wait, the sent view released before the wait");
    px_view_release(&msub);
    px_view_release(&m);
    px_view_release(&back);
    px_view_release(&out);
    px_view_release(&in);
}

static void test_errors(void)
{
    const int64_t n10[1] = {10}, n8[1] = {8}, n12[1] = {12};
    px_view *v = make("ten", px_host(), PX_LAYOUT_RIGHT, 1, n10);
    px_mpi_request *req = NULL;
    /* A rank that does not exist: PX_ERR_COMM with MPI's own message. */
    char mpimsg[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(MPI_ERR_RANK, mpimsg, &len);
    FAILS(px_mpi_send(v, size + 5, 0, MPI_COMM_WORLD), PX_ERR_COMM, "px_mpi_send");
    CHECK(strstr(px_last_error(), mpimsg) != NULL && strstr(px_last_error(), "MPI_Send") != NULL,
          "bad rank: '%s' lacks MPI's '%s'", px_last_error(), mpimsg);
    FAILS(px_mpi_isend(inst, v, -7, 0, MPI_COMM_WORLD, &req), PX_ERR_COMM, "px_mpi_isend");
    CHECK(req == NULL, "a failed isend gives no request");
    FAILS(px_mpi_recv(v, size + 5, 0, MPI_COMM_WORLD), PX_ERR_COMM, "px_mpi_recv");
    /* Arguments. */
    FAILS(px_mpi_send(NULL, 0, 0, MPI_COMM_WORLD), PX_ERR_INVALID_ARGUMENT, "px_mpi_send");
    FAILS(px_mpi_recv(NULL, 0, 0, MPI_COMM_WORLD), PX_ERR_INVALID_ARGUMENT, "px_mpi_recv");
    FAILS(px_mpi_send(v, 0, 0, MPI_COMM_NULL), PX_ERR_INVALID_ARGUMENT, "px_mpi_send");
    FAILS(px_mpi_isend(NULL, v, 0, 0, MPI_COMM_WORLD, &req), PX_ERR_INVALID_ARGUMENT,
          "px_mpi_isend");
    FAILS(px_mpi_isend(inst, NULL, 0, 0, MPI_COMM_WORLD, &req), PX_ERR_INVALID_ARGUMENT,
          "px_mpi_isend");
    FAILS(px_mpi_isend(inst, v, 0, 0, MPI_COMM_WORLD, NULL), PX_ERR_INVALID_ARGUMENT,
          "px_mpi_isend");
    FAILS(px_mpi_irecv(inst, v, 0, 0, MPI_COMM_NULL, &req), PX_ERR_INVALID_ARGUMENT,
          "px_mpi_irecv");
    FAILS(px_mpi_wait(NULL), PX_ERR_INVALID_ARGUMENT, "px_mpi_wait");
    FAILS(px_mpi_waitall(-1, &req), PX_ERR_INVALID_ARGUMENT, "px_mpi_waitall");
    FAILS(px_mpi_waitall(2, NULL), PX_ERR_INVALID_ARGUMENT, "px_mpi_waitall");
    FAILS(px_mpi_cuda_aware(NULL), PX_ERR_INVALID_ARGUMENT, "px_mpi_cuda_aware");
    req = NULL;
    OK(px_mpi_wait(&req)); /* nothing to wait for */
    OK(px_mpi_waitall(0, NULL));
    px_mpi_request *none[2] = {NULL, NULL};
    OK(px_mpi_waitall(2, none));
    /* Sizes: a smaller message is PX_ERR_EXTENTS_MISMATCH, a larger one MPI's truncation. */
    px_view *v8 = make("eight", px_host(), PX_LAYOUT_RIGHT, 1, n8),
            *v12 = make("twelve", px_host(), PX_LAYOUT_RIGHT, 1, n12);
    OK(px_mpi_isend(inst, v, rank, 41, MPI_COMM_WORLD, &req));
    FAILS(px_mpi_recv(v12, rank, 41, MPI_COMM_WORLD), PX_ERR_EXTENTS_MISMATCH, "px_mpi_recv");
    CHECK(strstr(px_last_error(), "'twelve'") != NULL, "size mismatch names the view: '%s'",
          px_last_error());
    OK(px_mpi_wait(&req));
    OK(px_mpi_isend(inst, v, rank, 42, MPI_COMM_WORLD, &req));
    px_mpi_request *rr = NULL;
    OK(px_mpi_irecv(inst, v8, rank, 42, MPI_COMM_WORLD, &rr));
    FAILS(px_mpi_wait(&rr), PX_ERR_COMM, "px_mpi_wait");
    CHECK(rr == NULL, "a failed wait frees the request");
    OK(px_mpi_wait(&req));
    /* MPI_PROC_NULL: nothing sent, nothing received, the view untouched. */
    visit(v, true, rank, 7, 1.0);
    OK(px_mpi_send(v, MPI_PROC_NULL, 0, MPI_COMM_WORLD));
    OK(px_mpi_recv(v, MPI_PROC_NULL, 0, MPI_COMM_WORLD));
    OK(px_mpi_irecv(inst, v, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &rr));
    OK(px_mpi_wait(&rr));
    CHECK(visit(v, false, rank, 7, 1.0) == 0, "MPI_PROC_NULL leaves the view");
    /* The override must be 0 or 1 (a portex without CUDA reads no environment). */
    bool aware = true;
    setenv("PX_MPI_CUDA_AWARE", "yes", 1);
    px_exec_space cuda_check = PX_EXEC_CUDA;
    if (px_exec_space_check(cuda_check) != PX_ERR_UNSUPPORTED)
        FAILS(px_mpi_cuda_aware(&aware), PX_ERR_INVALID_ARGUMENT, "px_mpi_cuda_aware");
    unsetenv("PX_MPI_CUDA_AWARE");
    OK(px_mpi_cuda_aware(&aware));
    /* Device memory with a host instance. */
    if (space.kind == PX_SPACE_DEVICE) {
        px_instance *host = NULL;
        OK(px_instance_default(PX_EXEC_SERIAL, 0, &host));
        px_view *d = make("dev", space, PX_LAYOUT_RIGHT, 1, n8);
        FAILS(px_mpi_isend(host, d, rank, 0, MPI_COMM_WORLD, &req), PX_ERR_INVALID_ARGUMENT,
              "px_mpi_isend");
        px_view_release(&d);
    }
    px_view_release(&v);
    px_view_release(&v8);
    px_view_release(&v12);
}

/* The halo of a 2-D block of a grid over a 2-D Cartesian communicator (periodic along
   dimension 0, open along dimension 1), ghost layers of width w: interior elements hold
   f(global i, global j), ghosts -1 before the exchange; after it, a ghost holds f of its
   global coordinates, wrapped along dimension 0, and -1 past the open edges. */
static double halo_f(int64_t gi, int64_t gj) { return (double)(gi * 1000 + gj); }

static void test_halo(px_layout layout, int w)
{
    int dims[2] = {0, 0}, periods[2] = {1, 0}, coords[2];
    MPI_Dims_create(size, 2, dims);
    MPI_Comm cart;
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
    MPI_Cart_coords(cart, rank, 2, coords);
    const int64_t ni = 4 + w, nj = 3 * w + 2; /* interior of each block */
    const int64_t N[2] = {ni * dims[0], nj * dims[1]};
    const int64_t ext[2] = {ni + 2 * w, nj + 2 * w};
    px_view *v = make("halo", space, layout, 2, ext);
    px_view *m = NULL;
    OK(px_view_create_mirror(&m, px_host(), v));
    px_view_info mi;
    OK(px_view_info_get(m, &mi));
    double *e = mi.data;
    for (int64_t i = 0; i < ext[0]; ++i)
        for (int64_t j = 0; j < ext[1]; ++j) {
            const bool interior = i >= w && i < ext[0] - w && j >= w && j < ext[1] - w;
            e[i * mi.stride[0] + j * mi.stride[1]] =
                interior ? halo_f(coords[0] * ni + i - w, coords[1] * nj + j - w) : -1.0;
        }
    OK(px_deep_copy(v, m, NULL));
    const int width[2] = {w, w};
    px_mpi_halo *h = NULL;
    OK(px_mpi_halo_create(&h, v, width, cart));
    for (int round = 0; round < 2; ++round) OK(px_mpi_halo_exchange(inst, h));
    OK(px_instance_fence(inst));
    OK(px_deep_copy(m, v, NULL));
    int bad = 0;
    for (int64_t i = 0; i < ext[0]; ++i)
        for (int64_t j = 0; j < ext[1]; ++j) {
            const int64_t gi = ((coords[0] * ni + i - w) % N[0] + N[0]) % N[0],
                          gj = coords[1] * nj + j - w;
            const double want = gj < 0 || gj >= N[1] ? -1.0 : halo_f(gi, gj);
            const double got = e[i * mi.stride[0] + j * mi.stride[1]];
            if (got != want && bad++ < 3)
                fprintf(stderr, "rank %d (%d, %d): halo (%lld, %lld) is %g, expected %g\n", rank,
                        coords[0], coords[1], (long long)i, (long long)j, got, want);
        }
    CHECK(bad == 0, "halo exchange, %s, width %d, %d x %d ranks", px_layout_string(layout), w,
          dims[0], dims[1]);
    /* Misuse. */
    px_mpi_halo *h2 = NULL;
    const int too_wide[2] = {w, (int)ext[1]};
    FAILS(px_mpi_halo_create(&h2, v, too_wide, cart), PX_ERR_INVALID_ARGUMENT,
          "px_mpi_halo_create");
    FAILS(px_mpi_halo_create(&h2, v, width, MPI_COMM_WORLD), PX_ERR_INVALID_ARGUMENT,
          "px_mpi_halo_create");
    FAILS(px_mpi_halo_create(&h2, NULL, width, cart), PX_ERR_INVALID_ARGUMENT,
          "px_mpi_halo_create");
    FAILS(px_mpi_halo_exchange(NULL, h), PX_ERR_INVALID_ARGUMENT, "px_mpi_halo_exchange");
    FAILS(px_mpi_halo_exchange(inst, NULL), PX_ERR_INVALID_ARGUMENT, "px_mpi_halo_exchange");
    CHECK(h2 == NULL, "a failed create gives no halo");
    OK(px_mpi_halo_destroy(&h));
    CHECK(h == NULL, "destroy clears the handle");
    OK(px_mpi_halo_destroy(&h));
    px_view_release(&m);
    px_view_release(&v);
    MPI_Comm_free(&cart);
}

/* --large (PX_TEST_MPI_LARGE=1 only: 4.3 GB per rank): a ring of 1-D u8 views of over
   INT_MAX bytes, blocking and not. */
static void test_large(void)
{
    const int64_t n = ((int64_t)1 << 31) + 24;
    px_view *out = NULL, *in = NULL;
    OK(px_view_create_1d(&out, "large out", px_host(), PX_U8, n));
    OK(px_view_create_1d(&in, "large in", px_host(), PX_U8, n));
    if (!out || !in) return;
    px_view_info oi, ii;
    OK(px_view_info_get(out, &oi));
    OK(px_view_info_get(in, &ii));
    uint8_t *o = oi.data, *x = ii.data;
    for (int64_t i = 0; i < n; ++i) o[i] = (uint8_t)(i * 131 + rank);
    for (int round = 0; round < 2; ++round) {
        memset(x, 0, (size_t)n);
        if (round == 0) {
            ring_blocking(out, in, 51);
        } else {
            px_mpi_request *req[2] = {NULL, NULL};
            OK(px_mpi_irecv(inst, in, prev(), 52, MPI_COMM_WORLD, &req[0]));
            OK(px_mpi_isend(inst, out, next(), 52, MPI_COMM_WORLD, &req[1]));
            OK(px_mpi_waitall(2, req));
        }
        int64_t bad = 0;
        for (int64_t i = 0; i < n; ++i) bad += x[i] != (uint8_t)(i * 131 + prev());
        CHECK(bad == 0, "large message, round %d: %lld bytes differ", round, (long long)bad);
    }
    px_view_release(&out);
    px_view_release(&in);
}

int main(int argc, char **argv)
{
    const bool large = argc > 1 && strcmp(argv[1], "--large") == 0;
    if (large &&
        (getenv("PX_TEST_MPI_LARGE") == NULL || strcmp(getenv("PX_TEST_MPI_LARGE"), "1") != 0)) {
        printf("SKIP: messages over INT_MAX bytes need 4.3 GB per rank: set PX_TEST_MPI_LARGE=1\n");
        return 77;
    }
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    px_init_options opts;
    memset(&opts, 0, sizeof opts);
    opts.skip_topology = true;
    const px_status st = px_init(&opts);
    if (st != PX_OK) { /* the execution space asked for is not here: the same on every rank */
        if (rank == 0) printf("SKIP: %s\n", px_last_error());
        MPI_Finalize();
        return st == PX_ERR_NO_DEVICE || st == PX_ERR_UNSUPPORTED || st == PX_ERR_INVALID_ARGUMENT
                   ? 77
                   : 1;
    }
    px_exec_space exec;
    OK(px_default_exec_space(&exec));
    OK(px_default_instance(&inst));
    OK(px_default_space(&space));
    bool aware = false;
    OK(px_mpi_cuda_aware(&aware));
    if (rank == 0)
        printf("%d ranks, %s, views in %s(%d), CUDA-aware MPI: %s\n", size,
               px_exec_space_string(exec), px_space_kind_string(space.kind), space.device,
               aware ? "yes" : "no");

    if (large) {
        test_large();
        goto done;
    }
    test_contiguous(space, "default space");
    test_contiguous(px_host(), "HOST");
    if (px_space_available(px_host_pinned()))
        test_contiguous(px_host_pinned(), "HOST_PINNED");
    else if (rank == 0)
        printf("HOST_PINNED not available here: its test is left out\n");
    test_strided_and_left();
    test_nonblocking();
    test_errors();
    test_halo(PX_LAYOUT_RIGHT, 1);
    test_halo(PX_LAYOUT_LEFT, 2);
done:
    OK(px_finalize());
    int total = 0;
    MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("%s: %d failure(s) over %d rank(s)\n", total ? "FAILED" : "OK", total, size);
    MPI_Finalize();
    return total ? 1 : 0;
}
