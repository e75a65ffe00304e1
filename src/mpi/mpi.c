/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* libportex_mpi: views sent and received through MPI (portex/mpi.h, docs/mpi.md).
 *
 * A module above the library: it uses portex's public API only (portex.h), never src/'s
 * internals, so that libportex never depends on MPI (tests/check_layers.py checks the
 * includes). Each view takes one of four paths: direct (row-major contiguous host
 * memory), CUDA-aware (the same in device memory, MPI permitting), staged (device memory
 * through a HOST_PINNED temporary) or packed (any other layout, through a contiguous
 * temporary that deep_copy fills or empties on the view's own backend). */
#include "portex/mpi.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "portex.h"
#include "px_mpi_config.h" /* PX_MPI_HAVE_CUDA, PX_MPI_HAVE_MPI_EXT: what Meson found */

#if PX_MPI_HAVE_MPI_EXT
#include <mpi-ext.h>
#endif

/* ---- Errors ----------------------------------------------------------------------------- */

/* PX_ERR_COMM with MPI's own message: "func: MPI_Send: MPI_ERR_RANK: invalid rank". */
static px_status mpi_error(const char *func, const char *call, int rc)
{
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    if (MPI_Error_string(rc, msg, &len) != MPI_SUCCESS) {
        return px_set_error(PX_ERR_COMM, func, "%s failed with MPI error code %d", call, rc);
    }
    msg[len < MPI_MAX_ERROR_STRING ? len : MPI_MAX_ERROR_STRING - 1] = '\0';
    return px_set_error(PX_ERR_COMM, func, "%s: %s (MPI error code %d)", call, msg, rc);
}

#define MPI_TRY(func, call, expr)                                              \
    do {                                                                       \
        int mpi_rc_ = (expr);                                                  \
        if (mpi_rc_ != MPI_SUCCESS) return mpi_error((func), (call), mpi_rc_); \
    } while (0)

#define TRY(expr)                             \
    do {                                      \
        px_status try_st_ = (expr);           \
        if (try_st_ != PX_OK) return try_st_; \
    } while (0)

/* MPI and portex are initialised, comm is a communicator, and it returns errors. */
static px_status check_env(const char *func, MPI_Comm comm)
{
    int flag = 0;
    MPI_Initialized(&flag);
    if (!flag)
        return px_set_error(PX_ERR_NOT_INITIALIZED, func,
                            "MPI is not initialized (call MPI_Init first)");
    MPI_Finalized(&flag);
    if (flag) return px_set_error(PX_ERR_NOT_INITIALIZED, func, "MPI has been finalized");
    if (!px_is_initialized())
        return px_set_error(PX_ERR_NOT_INITIALIZED, func,
                            "portex is not initialized (call px_init first)");
    if (comm == MPI_COMM_NULL)
        return px_set_error(PX_ERR_INVALID_ARGUMENT, func, "comm is MPI_COMM_NULL");
    MPI_TRY(func, "MPI_Comm_set_errhandler", MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN));
    return PX_OK;
}

/* ---- CUDA-awareness ---------------------------------------------------------------------- */

#if PX_MPI_HAVE_CUDA
static bool mpi_reports_cuda(void)
{
/* Open MPI's run-time answer (MPIX_CUDA_AWARE_SUPPORT only says what the headers' build
   had: the libmpi the program runs with may be another). */
#if PX_MPI_HAVE_CUDA && PX_MPI_HAVE_MPI_EXT && defined(OMPI_HAVE_MPI_EXT_CUDA) && \
    OMPI_HAVE_MPI_EXT_CUDA
    return MPIX_Query_cuda_support() == 1;
#else
    return false;
#endif
}
#endif

/* px_mpi_cuda_aware for the public function func. */
static px_status cuda_aware(const char *func, bool *out)
{
    *out = false;
#if PX_MPI_HAVE_CUDA
    const char *env = getenv("PX_MPI_CUDA_AWARE");
    if (env != NULL && env[0] != '\0') {
        if (strcmp(env, "1") == 0) {
            *out = true;
        } else if (strcmp(env, "0") != 0) {
            return px_set_error(PX_ERR_INVALID_ARGUMENT, func,
                                "PX_MPI_CUDA_AWARE is '%s'; it must be 0 or 1 (or unset)", env);
        }
        return PX_OK;
    }
    int flag = 0;
    MPI_Initialized(&flag);
    *out = flag && mpi_reports_cuda();
#else
    (void)func;
#endif
    return PX_OK;
}

px_status px_mpi_cuda_aware(bool *out)
{
    if (out == NULL) return px_set_error(PX_ERR_INVALID_ARGUMENT, __func__, "out is NULL");
    return cuda_aware(__func__, out);
}

/* ---- Plans: what a view needs on its way to or from MPI ---------------------------------- */

typedef enum path { PATH_DIRECT, PATH_CUDA_AWARE, PATH_STAGED, PATH_PACKED } path;

typedef struct plan {
    px_view_info info;
    path path;
    px_space tmp_space; /* staged and packed: where the contiguous temporary lives */
    MPI_Datatype type;  /* on the wire: count of type, MPI_BYTE up to INT_MAX bytes */
    int count;
} plan;

/* Wire messages of over INT_MAX bytes are one element of a struct type: blocks of this
   many bytes and the rest (MPI 3 has no large counts). */
#define BIG_BLOCK ((size_t)1 << 30)

/* p->type and p->count for p->info.bytes. */
static px_status wire_type(const char *func, plan *p)
{
    const size_t bytes = p->info.bytes;
    p->type = MPI_BYTE;
    p->count = 0;
    if (bytes <= (size_t)INT_MAX) {
        p->count = (int)bytes;
        return PX_OK;
    }
    const size_t blocks = bytes / BIG_BLOCK, rest = bytes % BIG_BLOCK;
    if (blocks > (size_t)INT_MAX)
        return px_set_error(PX_ERR_OVERFLOW, func,
                            "view '%s' holds %zu bytes, too many for one message", p->info.label,
                            bytes);
    MPI_Datatype block, whole;
    MPI_TRY(func, "MPI_Type_contiguous", MPI_Type_contiguous((int)BIG_BLOCK, MPI_BYTE, &block));
    int lengths[2] = {(int)blocks, (int)rest};
    MPI_Aint displacements[2] = {0, (MPI_Aint)(blocks * BIG_BLOCK)};
    MPI_Datatype types[2] = {block, MPI_BYTE};
    int rc = MPI_Type_create_struct(rest ? 2 : 1, lengths, displacements, types, &whole);
    MPI_Type_free(&block);
    if (rc != MPI_SUCCESS) return mpi_error(func, "MPI_Type_create_struct", rc);
    rc = MPI_Type_commit(&whole);
    if (rc != MPI_SUCCESS) {
        MPI_Type_free(&whole);
        return mpi_error(func, "MPI_Type_commit", rc);
    }
    p->type = whole;
    p->count = 1;
    return PX_OK;
}

static void plan_free(plan *p)
{
    if (p->type != MPI_BYTE && p->type != MPI_DATATYPE_NULL) MPI_Type_free(&p->type);
    p->type = MPI_DATATYPE_NULL;
}

/* The view's strides are those of a contiguous LAYOUT_RIGHT view of its extents
   (dimensions of extent 1 or 0 say nothing). */
static bool row_major(const px_view_info *info)
{
    if (info->size == 0) return true;
    int64_t expect = 1;
    for (int d = info->rank - 1; d >= 0; --d) {
        if (info->extent[d] > 1 && info->stride[d] != expect) return false;
        expect *= info->extent[d];
    }
    return true;
}

/* What v needs; plan_free releases it (on success only). */
static px_status make_plan(const char *func, px_instance *inst, px_view *v, plan *p)
{
    p->type = MPI_DATATYPE_NULL;
    if (v == NULL) return px_set_error(PX_ERR_INVALID_ARGUMENT, func, "v is NULL");
    TRY(px_view_info_get(v, &p->info));
    const bool device = p->info.space.kind == PX_SPACE_DEVICE;
    if (device && inst != NULL) {
        px_exec_space exec;
        TRY(px_instance_exec_space(inst, &exec));
        if (exec != PX_EXEC_CUDA) {
            const char *label = "";
            TRY(px_instance_label(inst, &label));
            return px_set_error(PX_ERR_INVALID_ARGUMENT, func,
                                "view '%s' is in DEVICE(%d) memory, which instance '%s' (%s) "
                                "cannot order; use a CUDA instance",
                                p->info.label, p->info.space.device, label,
                                px_exec_space_string(exec));
        }
    }
    bool aware = false;
    if (device) TRY(cuda_aware(func, &aware));
    const bool contiguous = p->info.contiguous && row_major(&p->info);
    if (!device) {
        p->path = contiguous ? PATH_DIRECT : PATH_PACKED;
        p->tmp_space = px_host();
    } else if (aware) {
        p->path = contiguous ? PATH_CUDA_AWARE : PATH_PACKED;
        p->tmp_space = p->info.space;
    } else {
        p->path = contiguous ? PATH_STAGED : PATH_PACKED;
        p->tmp_space = px_host_pinned();
    }
    return wire_type(func, p);
}

/* A contiguous LAYOUT_RIGHT view in p->tmp_space with v's extents and element type. */
static px_status make_temporary(const plan *p, px_view **out)
{
    px_view_desc d;
    memset(&d, 0, sizeof d);
    d.label = "portex mpi temporary";
    d.space = p->tmp_space;
    d.dtype = p->info.dtype;
    d.elem_size = p->info.dtype == PX_USER ? p->info.elem_size : 0;
    d.rank = p->info.rank;
    memcpy(d.extent, p->info.extent, sizeof d.extent);
    d.layout = PX_LAYOUT_RIGHT;
    d.flags = PX_VIEW_NO_INIT;
    return px_view_create(out, &d);
}

/* A staged or packed view moves through a temporary, unless its peer is MPI_PROC_NULL (an
   open edge: MPI moves nothing). */
static bool needs_temporary(const plan *p, int peer)
{
    return peer != MPI_PROC_NULL && (p->path == PATH_STAGED || p->path == PATH_PACKED);
}

/* A received message holds exactly the view's bytes. */
static px_status check_received(const char *func, const plan *p, const MPI_Status *status)
{
    if (status->MPI_SOURCE == MPI_PROC_NULL) return PX_OK;
    MPI_Count got = 0; /* bytes: the basic elements of the wire type */
    MPI_TRY(func, "MPI_Get_elements_x", MPI_Get_elements_x(status, p->type, &got));
    if (got != (MPI_Count)p->info.bytes)
        return px_set_error(PX_ERR_EXTENTS_MISMATCH, func,
                            "the message from rank %d (tag %d) has %lld bytes; view '%s' holds %zu "
                            "(%lld elements of %zu bytes)",
                            status->MPI_SOURCE, status->MPI_TAG, (long long)got, p->info.label,
                            p->info.bytes, (long long)p->info.size, p->info.elem_size);
    return PX_OK;
}

/* ---- Blocking ---------------------------------------------------------------------------- */

/* A blocking send's or receive's plan, and what MPI reads or writes: v itself, or the
   temporary it moves through (tmp, NULL when none). */
typedef struct blocking {
    plan p;
    px_view *tmp;
    px_view_info wire; /* of tmp, else of v */
} blocking;

static void blocking_end(blocking *b)
{
    if (b->tmp) px_view_release(&b->tmp);
    plan_free(&b->p);
}

/* Checks, plans, waits for all work issued so far (nothing may still read or write v
   while MPI uses it) and makes the temporary for v's exchange with `peer`. On failure
   nothing is left to end. */
static px_status blocking_begin(const char *func, px_view *v, int peer, MPI_Comm comm, blocking *b)
{
    TRY(check_env(func, comm));
    TRY(make_plan(func, NULL, v, &b->p));
    b->tmp = NULL;
    b->wire = b->p.info;
    px_status st = px_fence_all();
    if (st == PX_OK && needs_temporary(&b->p, peer)) {
        st = make_temporary(&b->p, &b->tmp);
        if (st == PX_OK) st = px_view_info_get(b->tmp, &b->wire);
    }
    if (st != PX_OK) blocking_end(b);
    return st;
}

px_status px_mpi_send(px_view *v, int dest, int tag, MPI_Comm comm)
{
    const char *func = __func__;
    blocking b;
    TRY(blocking_begin(func, v, dest, comm, &b));
    px_status st = b.tmp ? px_deep_copy(b.tmp, v, NULL) : PX_OK;
    if (st == PX_OK) {
        const int rc = MPI_Send(b.wire.data, b.p.count, b.p.type, dest, tag, comm);
        if (rc != MPI_SUCCESS) st = mpi_error(func, "MPI_Send", rc);
    }
    blocking_end(&b);
    return st;
}

px_status px_mpi_recv(px_view *v, int src, int tag, MPI_Comm comm)
{
    const char *func = __func__;
    blocking b;
    TRY(blocking_begin(func, v, src, comm, &b));
    MPI_Status status;
    px_status st = PX_OK;
    const int rc = MPI_Recv(b.wire.data, b.p.count, b.p.type, src, tag, comm, &status);
    if (rc != MPI_SUCCESS) st = mpi_error(func, "MPI_Recv", rc);
    if (st == PX_OK) st = check_received(func, &b.p, &status);
    if (st == PX_OK && b.tmp != NULL && status.MPI_SOURCE != MPI_PROC_NULL)
        st = px_deep_copy(v, b.tmp, NULL);
    blocking_end(&b);
    return st;
}

/* ---- Non-blocking ------------------------------------------------------------------------ */

struct px_mpi_request {
    MPI_Request mpi;
    bool recv;
    plan plan;
    px_instance *inst; /* where a receive's copy into the view is queued */
    px_view *view;     /* one reference of our own */
    px_view *tmp;      /* staged and packed */
};

static void request_free(px_mpi_request *r)
{
    if (r == NULL) return;
    if (r->tmp) px_view_release(&r->tmp);
    if (r->view) px_view_release(&r->view);
    plan_free(&r->plan);
    free(r);
}

static px_status start(const char *func, bool recv, px_instance *inst, px_view *v, int peer,
                       int tag, MPI_Comm comm, px_mpi_request **req)
{
    if (req == NULL) return px_set_error(PX_ERR_INVALID_ARGUMENT, func, "req is NULL");
    *req = NULL;
    if (inst == NULL) return px_set_error(PX_ERR_INVALID_ARGUMENT, func, "inst is NULL");
    TRY(check_env(func, comm));
    px_mpi_request *r = calloc(1, sizeof *r);
    if (r == NULL) return px_set_error(PX_ERR_OUT_OF_MEMORY, func, "no memory for a request");
    r->mpi = MPI_REQUEST_NULL;
    r->plan.type = MPI_DATATYPE_NULL;
    r->recv = recv;
    r->inst = inst;
    px_status st = make_plan(func, inst, v, &r->plan);
    if (st == PX_OK) st = px_view_retain(v);
    if (st == PX_OK) r->view = v;
    if (st == PX_OK && needs_temporary(&r->plan, peer)) st = make_temporary(&r->plan, &r->tmp);
    void *buf = r->plan.info.data;
    if (st == PX_OK && r->tmp != NULL) {
        px_view_info ti;
        st = px_view_info_get(r->tmp, &ti);
        buf = ti.data;
        /* A send packs (or stages) on inst, after inst's earlier work. */
        if (st == PX_OK && !recv) st = px_deep_copy_async(inst, r->tmp, v, NULL);
    }
    /* MPI reads (send) or writes (receive) the buffer from now on: inst's work issued
       before, and the pack, must have finished. A receive into a temporary needs no
       fence: MPI writes the temporary only, and the copy into v is queued on inst at the
       wait, after inst's earlier work; nor does an open edge, whose buffer MPI never
       touches. */
    if (st == PX_OK && peer != MPI_PROC_NULL && !(recv && r->tmp != NULL))
        st = px_instance_fence(inst);
    if (st == PX_OK) {
        const int rc = recv ? MPI_Irecv(buf, r->plan.count, r->plan.type, peer, tag, comm, &r->mpi)
                            : MPI_Isend(buf, r->plan.count, r->plan.type, peer, tag, comm, &r->mpi);
        if (rc != MPI_SUCCESS) st = mpi_error(func, recv ? "MPI_Irecv" : "MPI_Isend", rc);
    }
    if (st != PX_OK) {
        request_free(r);
        return st;
    }
    *req = r;
    return PX_OK;
}

px_status px_mpi_isend(px_instance *inst, px_view *v, int dest, int tag, MPI_Comm comm,
                       px_mpi_request **req)
{
    return start(__func__, false, inst, v, dest, tag, comm, req);
}

px_status px_mpi_irecv(px_instance *inst, px_view *v, int src, int tag, MPI_Comm comm,
                       px_mpi_request **req)
{
    return start(__func__, true, inst, v, src, tag, comm, req);
}

/* After MPI completed r (status its status): a receive's size check and copy into the
   view on r's instance. Frees r. */
static px_status finish(const char *func, px_mpi_request *r, const MPI_Status *status)
{
    px_status st = PX_OK;
    if (r->recv) {
        st = check_received(func, &r->plan, status);
        if (st == PX_OK && r->tmp != NULL && status->MPI_SOURCE != MPI_PROC_NULL)
            st = px_deep_copy_async(r->inst, r->view, r->tmp, NULL);
    }
    /* Releasing the temporary now is safe: its space orders the release after the copy
       queued on it. */
    request_free(r);
    return st;
}

px_status px_mpi_wait(px_mpi_request **req)
{
    const char *func = __func__;
    if (req == NULL) return px_set_error(PX_ERR_INVALID_ARGUMENT, func, "req is NULL");
    px_mpi_request *r = *req;
    if (r == NULL) return PX_OK;
    *req = NULL;
    MPI_Status status;
    const int rc = MPI_Wait(&r->mpi, &status);
    if (rc != MPI_SUCCESS) {
        request_free(r);
        return mpi_error(func, "MPI_Wait", rc);
    }
    return finish(func, r, &status);
}

px_status px_mpi_waitall(int n, px_mpi_request **reqs)
{
    const char *func = __func__;
    if (n < 0) return px_set_error(PX_ERR_INVALID_ARGUMENT, func, "n is %d", n);
    if (n == 0) return PX_OK;
    if (reqs == NULL) return px_set_error(PX_ERR_INVALID_ARGUMENT, func, "reqs is NULL");
    MPI_Request *mreq = malloc((size_t)n * sizeof *mreq);
    MPI_Status *status = malloc((size_t)n * sizeof *status);
    if (mreq == NULL || status == NULL) {
        free(mreq);
        free(status);
        return px_set_error(PX_ERR_OUT_OF_MEMORY, func, "no memory for %d requests", n);
    }
    for (int i = 0; i < n; ++i) mreq[i] = reqs[i] ? reqs[i]->mpi : MPI_REQUEST_NULL;
    const int rc = MPI_Waitall(n, mreq, status);
    px_status st = PX_OK;
    if (rc != MPI_SUCCESS && rc != MPI_ERR_IN_STATUS) st = mpi_error(func, "MPI_Waitall", rc);
    for (int i = 0; i < n; ++i) {
        px_mpi_request *r = reqs[i];
        if (r == NULL) continue;
        reqs[i] = NULL;
        int err = MPI_SUCCESS;
        if (rc == MPI_ERR_IN_STATUS) {
            err = status[i].MPI_ERROR;
            /* Not completed because another failed: complete it before its buffers go. */
            if (err == MPI_ERR_PENDING) err = MPI_Wait(&mreq[i], &status[i]);
        } else if (rc != MPI_SUCCESS) {
            err = rc; /* statuses undefined: nothing more to learn */
        }
        if (err != MPI_SUCCESS) {
            if (st == PX_OK) st = mpi_error(func, "MPI_Waitall", err);
            request_free(r);
            continue;
        }
        const px_status fs = finish(func, r, &status[i]);
        if (st == PX_OK) st = fs;
    }
    free(mreq);
    free(status);
    return st;
}
