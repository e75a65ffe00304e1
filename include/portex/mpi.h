/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/** @file
 * portex — MPI, opt-in: send and receive views between processes (libportex_mpi, built
 * where Meson finds MPI; pkg-config portex-mpi). docs/mpi.md.
 *
 * Views of any memory space (HOST, HOST_PINNED, DEVICE) and any layout. The message is
 * the view's elements in row-major index order (as a contiguous LAYOUT_RIGHT view of the
 * same extents holds them), element by element as raw bytes: a LAYOUT_LEFT view can
 * receive what a LAYOUT_RIGHT or strided view sent. Sender and receiver must agree on
 * the element type and count; the receiver's view must hold exactly the message.
 *
 * Each call takes one of four paths:
 *  - direct: a row-major contiguous view in host memory goes to MPI as it is;
 *  - CUDA-aware: the same for device memory when the MPI takes device pointers
 *    (px_mpi_cuda_aware);
 *  - staged: device memory otherwise, through a HOST_PINNED temporary copied on the
 *    instance;
 *  - packed: any other view (a strided subview, LAYOUT_LEFT of rank 2 or more), through a
 *    contiguous temporary that px_deep_copy(_async) fills or empties on the view's own
 *    backend (a copy kernel on a GPU: in device memory when the MPI is CUDA-aware, else
 *    in pinned memory).
 *
 * Errors: every function returns a px_status; MPI's errors become PX_ERR_COMM with MPI's
 * own message (MPI_Error_string) in px_last_error. To get them rather than an abort, each
 * call sets MPI_ERRORS_RETURN on the communicator it is given (it stays set).
 *
 * MPI must be initialised (MPI_Init or MPI_Init_thread) and portex too (px_init); the
 * calls are made from one thread at a time unless MPI was initialised with
 * MPI_THREAD_MULTIPLE. A message of over INT_MAX bytes goes as one element of a derived
 * datatype (blocks of 1 GiB and the rest). */
#ifndef PORTEX_MPI_H
#define PORTEX_MPI_H

#include <stdbool.h>

#include <mpi.h>

#include "portex/copy.h"
#include "portex/core.h"
#include "portex/instance.h"
#include "portex/view.h"

/** @def PX_MPI_API
 * libportex_mpi is built with hidden visibility; only PX_MPI_API symbols are exported. */
#if defined(PX_MPI_BUILDING_LIBRARY) && !defined(PX_STATIC_BUILD) && \
    (defined(__GNUC__) || defined(__clang__))
#define PX_MPI_API __attribute__((visibility("default")))
#else
#define PX_MPI_API
#endif

PX_EXTERN_C_BEGIN

/** A send or receive in flight (opaque): px_mpi_wait or px_mpi_waitall completes and frees
 * it. It holds a reference to its view, so the view may be released before the wait. */
typedef struct px_mpi_request px_mpi_request;

/** Whether the MPI takes device pointers (CUDA-aware), so that contiguous DEVICE views go
 * to it directly: the environment's PX_MPI_CUDA_AWARE=1 or 0 decides when set, else MPI
 * itself (MPIX_Query_cuda_support, Open MPI's mpi-ext.h, where the MPI has it), else
 * false. Always false in a portex without CUDA. Read at every call. */
PX_MPI_API px_status px_mpi_cuda_aware(bool *out);

/** Sends v's elements to rank dest of comm with tag (MPI_Send): after all work issued so
 * far on every instance (px_fence_all), finished when it returns (the buffer may be
 * reused; MPI may or may not have delivered it). */
PX_MPI_API px_status px_mpi_send(px_view *v, int dest, int tag, MPI_Comm comm);

/** Receives a message from rank src (or MPI_ANY_SOURCE; MPI_PROC_NULL receives nothing)
 * of comm with tag (or MPI_ANY_TAG) into v (MPI_Recv): after all work issued so far on
 * every instance, and v holds the data when it returns. A message of another size than v
 * is PX_ERR_EXTENTS_MISMATCH (a larger one is MPI's truncation error, PX_ERR_COMM). */
PX_MPI_API px_status px_mpi_recv(px_view *v, int src, int tag, MPI_Comm comm);

/** Starts sending v's elements (MPI_Isend), in order on inst: the send carries what v holds
 * after inst's work issued before it (inst is fenced; a staged or packed view is copied
 * into its temporary on inst first). *req is the request; px_mpi_wait completes it. Do
 * not write v until then. */
PX_MPI_API px_status px_mpi_isend(px_instance *inst, px_view *v, int dest, int tag, MPI_Comm comm,
                                  px_mpi_request **req);

/** Starts receiving into v (MPI_Irecv), ordered after inst's work issued before it: a
 * view MPI writes itself (direct, CUDA-aware) fences inst first; a staged or packed one is
 * received into its temporary, and px_mpi_wait queues the copy into v on inst, so that
 * work issued to inst after the wait sees it. Do not read or write v until then. */
PX_MPI_API px_status px_mpi_irecv(px_instance *inst, px_view *v, int src, int tag, MPI_Comm comm,
                                  px_mpi_request **req);

/** Completes the request (MPI_Wait), then, for a staged or packed receive, queues the copy
 * into the view on the request's instance; frees the request and its temporaries and sets
 * *req to NULL, whatever the outcome. *req NULL: nothing to do, PX_OK. */
PX_MPI_API px_status px_mpi_wait(px_mpi_request **req);

/** px_mpi_wait for n requests at once (MPI_Waitall): every request is completed and freed
 * and its entry set to NULL, even when one fails; the first error is returned. NULL
 * entries are skipped. */
PX_MPI_API px_status px_mpi_waitall(int n, px_mpi_request **reqs);

/* ---- Halo exchange -------------------------------------------------------------------- */

/** A halo exchange of one view over a Cartesian communicator (opaque): px_mpi_halo_create
 * makes it, px_mpi_halo_exchange runs it, px_mpi_halo_destroy frees it. */
typedef struct px_mpi_halo px_mpi_halo;

/** The tags a halo exchange uses: PX_MPI_HALO_TAG + 2 d (towards lower coordinates along
 * dimension d) and + 2 d + 1 (towards higher ones). Keep other messages on the
 * communicator off them while an exchange runs. */
#define PX_MPI_HALO_TAG 0x7000

/** A halo exchange for v, this process's block of an N-d grid decomposed over cart (a
 * communicator made by MPI_Cart_create, of N dimensions; N is v's rank). Dimension d of v
 * has width[d] ghost layers on each side (0: none, the dimension is not exchanged), so
 * its interior is [width[d], extent[d] - width[d]), at least width[d] wide. The exchange
 * fills the ghost layers from the neighbours' interiors (MPI_Cart_shift; periodic
 * dimensions wrap, ghost layers on a non-periodic edge stay as they are), dimension after
 * dimension over whole extents, so that edges and corners are filled too. v may be in any
 * space and layout; the layers are strided subviews, packed as px_mpi_isend does. The halo
 * holds a reference to v. */
PX_MPI_API px_status px_mpi_halo_create(px_mpi_halo **out, px_view *v, const int *width,
                                        MPI_Comm cart);

/** Exchanges the ghost layers, in order on inst: after inst's earlier work (the layers are
 * packed on it), and work issued to inst after the call sees the ghosts. Blocks until the
 * messages have arrived. */
PX_MPI_API px_status px_mpi_halo_exchange(px_instance *inst, px_mpi_halo *halo);

/** Frees the halo (its subviews and its reference to the view) and sets *halo to NULL. */
PX_MPI_API px_status px_mpi_halo_destroy(px_mpi_halo **halo);

PX_EXTERN_C_END

#endif /* PORTEX_MPI_H */
