/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Halo exchange over a Cartesian communicator (portex/mpi.h, docs/mpi.md): the ghost
 * layers of a view filled from its neighbours' interiors, dimension after dimension, on
 * top of px_mpi_isend/irecv/waitall. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "portex.h"
#include "portex/mpi.h"

/* One dimension: the layers sent to and received from the lower and the higher neighbour. */
typedef struct halo_dim {
    int width;
    int lo, hi;                 /* neighbour ranks, MPI_PROC_NULL on an open edge */
    px_view *send_lo, *send_hi; /* interior layers next to each ghost layer */
    px_view *recv_lo, *recv_hi; /* the ghost layers */
} halo_dim;

struct px_mpi_halo {
    px_view *view;
    MPI_Comm comm;
    int ndims;
    halo_dim dim[PX_MAX_RANK];
};

/* [begin, end) of dimension d, the other dimensions whole. */
static px_status layer(px_view *v, int rank, int d, int64_t begin, int64_t end, px_view **out)
{
    px_slice s[PX_MAX_RANK];
    for (int k = 0; k < rank; ++k) s[k] = px_slice_all();
    s[d] = px_slice_range(begin, end);
    return px_view_subview(out, v, s, rank);
}

static void halo_free(px_mpi_halo *h)
{
    for (int d = 0; d < h->ndims; ++d) {
        halo_dim *x = &h->dim[d];
        px_view **vs[4] = {&x->send_lo, &x->send_hi, &x->recv_lo, &x->recv_hi};
        for (int i = 0; i < 4; ++i)
            if (*vs[i]) px_view_release(vs[i]);
    }
    if (h->view) px_view_release(&h->view);
    free(h);
}

px_status px_mpi_halo_create(px_mpi_halo **out, px_view *v, const int *width, MPI_Comm cart)
{
    const char *func = __func__;
    if (out == NULL) return px_set_error(PX_ERR_INVALID_ARGUMENT, func, "out is NULL");
    *out = NULL;
    if (v == NULL) return px_set_error(PX_ERR_INVALID_ARGUMENT, func, "v is NULL");
    if (width == NULL) return px_set_error(PX_ERR_INVALID_ARGUMENT, func, "width is NULL");
    if (cart == MPI_COMM_NULL)
        return px_set_error(PX_ERR_INVALID_ARGUMENT, func, "cart is MPI_COMM_NULL");
    int flag = 0;
    MPI_Initialized(&flag);
    if (!flag)
        return px_set_error(PX_ERR_NOT_INITIALIZED, func,
                            "MPI is not initialized (call MPI_Init first)");
    px_view_info info;
    px_status st = px_view_info_get(v, &info);
    if (st != PX_OK) return st;
    MPI_Comm_set_errhandler(cart, MPI_ERRORS_RETURN);
    int topo = MPI_UNDEFINED, nd = 0;
    MPI_Topo_test(cart, &topo);
    if (topo != MPI_CART)
        return px_set_error(PX_ERR_INVALID_ARGUMENT, func,
                            "cart is not a Cartesian communicator (MPI_Cart_create)");
    MPI_Cartdim_get(cart, &nd);
    if (nd != info.rank)
        return px_set_error(PX_ERR_INVALID_ARGUMENT, func,
                            "cart has %d dimensions; view '%s' has rank %d", nd, info.label,
                            info.rank);
    for (int d = 0; d < nd; ++d) {
        if (width[d] < 0 || (int64_t)width[d] * 3 > info.extent[d])
            return px_set_error(
                PX_ERR_INVALID_ARGUMENT, func,
                "width[%d] = %d: it must be >= 0, and view '%s''s extent %lld at least 3 widths "
                "(two ghost layers and an interior as wide)",
                d, width[d], info.label, (long long)info.extent[d]);
    }
    px_mpi_halo *h = calloc(1, sizeof *h);
    if (h == NULL) return px_set_error(PX_ERR_OUT_OF_MEMORY, func, "no memory for a halo");
    h->comm = cart;
    h->ndims = nd;
    st = px_view_retain(v);
    if (st == PX_OK) h->view = v;
    for (int d = 0; d < nd && st == PX_OK; ++d) {
        halo_dim *x = &h->dim[d];
        const int64_t n = info.extent[d], w = width[d];
        x->width = width[d];
        const int rc = MPI_Cart_shift(cart, d, 1, &x->lo, &x->hi);
        if (rc != MPI_SUCCESS) {
            char msg[MPI_MAX_ERROR_STRING];
            int len = 0;
            MPI_Error_string(rc, msg, &len);
            st = px_set_error(PX_ERR_COMM, func, "MPI_Cart_shift: %s (MPI error code %d)", msg, rc);
            break;
        }
        if (w == 0) continue;
        st = layer(v, nd, d, w, 2 * w, &x->send_lo);
        if (st == PX_OK) st = layer(v, nd, d, n - 2 * w, n - w, &x->send_hi);
        if (st == PX_OK) st = layer(v, nd, d, 0, w, &x->recv_lo);
        if (st == PX_OK) st = layer(v, nd, d, n - w, n, &x->recv_hi);
    }
    if (st != PX_OK) {
        halo_free(h);
        return st;
    }
    *out = h;
    return PX_OK;
}

px_status px_mpi_halo_exchange(px_instance *inst, px_mpi_halo *h)
{
    const char *func = __func__;
    if (inst == NULL) return px_set_error(PX_ERR_INVALID_ARGUMENT, func, "inst is NULL");
    if (h == NULL) return px_set_error(PX_ERR_INVALID_ARGUMENT, func, "halo is NULL");
    for (int d = 0; d < h->ndims; ++d) {
        halo_dim *x = &h->dim[d];
        if (x->width == 0) continue;
        /* What goes towards lower coordinates has tag 2d, towards higher ones 2d + 1: the
           lower neighbour's higher ghost layer receives our lower interior layer. */
        const int down = PX_MPI_HALO_TAG + 2 * d, up = PX_MPI_HALO_TAG + 2 * d + 1;
        /* An open edge (MPI_PROC_NULL) costs nothing: px_mpi_isend/irecv neither pack nor
           fence for it. */
        px_mpi_request *req[4] = {NULL, NULL, NULL, NULL};
        px_status st = px_mpi_irecv(inst, x->recv_lo, x->lo, up, h->comm, &req[0]);
        if (st == PX_OK) st = px_mpi_irecv(inst, x->recv_hi, x->hi, down, h->comm, &req[1]);
        if (st == PX_OK) st = px_mpi_isend(inst, x->send_lo, x->lo, down, h->comm, &req[2]);
        if (st == PX_OK) st = px_mpi_isend(inst, x->send_hi, x->hi, up, h->comm, &req[3]);
        /* Whatever started is completed (and freed); the first error is kept, named as
           this call's with the inner call's message. */
        char inner[1024] = "";
        if (st != PX_OK) snprintf(inner, sizeof inner, "%s", px_last_error());
        const px_status ws = px_mpi_waitall(4, req);
        if (st == PX_OK && ws != PX_OK) {
            st = ws;
            snprintf(inner, sizeof inner, "%s", px_last_error());
        }
        if (st != PX_OK) return px_set_error(st, func, "dimension %d: %s", d, inner);
    }
    return PX_OK;
}

px_status px_mpi_halo_destroy(px_mpi_halo **h)
{
    if (h == NULL) return px_set_error(PX_ERR_INVALID_ARGUMENT, __func__, "halo is NULL");
    if (*h == NULL) return PX_OK;
    halo_free(*h);
    *h = NULL;
    return PX_OK;
}
