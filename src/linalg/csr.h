/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* A CSR matrix as libportex_linalg keeps it: its arrays as views in one space, what was
 * measured of its rows once at creation, and each product algorithm's table. */
#ifndef PX_LINALG_CSR_H
#define PX_LINALG_CSR_H

#include <stdint.h>

#include "args.h"
#include "portex/linalg.h"
#include "portex/team.h"

/* The league px_team_rows shaped for one backend's instances (its rows are made for one
   kind of instance and, on a GPU, one device). */
typedef struct la_rows {
    px_exec_space exec;
    int device;
    px_team_rows *rows;
    struct la_rows *next;
} la_rows;

struct px_csr {
    uint32_t magic; /* LA_CSR_MAGIC while alive */
    int64_t nrows, ncols, nnz;
    px_dtype value_type, index_type;
    px_space space;
    px_view *row, *col, *val; /* nrows + 1, nnz, nnz elements */
    double mean_row, row_cv;
    int64_t max_row;
    px_spmv_alg chosen; /* AUTO's choice on the creating instance's backend */
    px_spmv_alg set;    /* px_csr_set_spmv_alg's, or AUTO */
    la_rows *rows;      /* PX_SPMV_ROWS: the league's shape per backend that ran it */
    px_view *tile;      /* PX_SPMV_TILES: each tile's first row and first entry,
                                    then (nrows, nnz) */
    px_view *chunk;     /* PX_SPMV_TILES: each long row's chunks past its first, as
                                    (row, first entry) pairs */
    int64_t tiles, long_rows, chunks;
};

#define LA_CSR_MAGIC 0x43535231u /* "CSR1" */

/* Element i of an index array of `type` (PX_I32 or PX_I64). */
int64_t la_index_at(const void *a, px_dtype type, int64_t i);

/* The types and sizes of a matrix to be made (the error names `func`). */
px_status la_csr_check_shape(const char *func, px_dtype value_type, px_dtype index_type,
                             int64_t nrows, int64_t ncols, int64_t nnz);

/* A matrix of these sizes in `space`, without arrays yet (NULL: out of host memory). */
px_csr *la_csr_new(int64_t nrows, int64_t ncols, int64_t nnz, px_dtype value_type,
                   px_dtype index_type, px_space space);

/* What every matrix has once its three arrays are in place (off: its row offsets on the
   host): the tiles, the rows' league for inst, the statistics, AUTO's choice. Fences inst. */
px_status la_csr_finish(const char *func, px_instance *inst, px_space inst_space, px_csr *A,
                        const int64_t *off);

/* Frees a matrix made by la_csr_new, whatever it holds so far. */
void la_csr_destroy(px_csr *A);

/* The tiles of PX_SPMV_TILES from the row offsets (host, nrows + 1): tile receives
   each tile's first row and entry and chunk the long rows' later chunks, of the matrix's index type, in
   A's space, copied on inst (the caller fences inst). */
px_status la_tiles_build(const char *func, px_instance *inst, px_csr *A, const int64_t *offsets);

/* A 1-D view of n elements of `type` in `space` holding the host array src, copied on inst
   (the caller fences inst before src goes away). */
px_status la_upload(px_instance *inst, px_space space, const char *label, px_dtype type, int64_t n,
                    const void *src, px_view **out);

/* The rows' league for inst's backend and device: made on the first product there (which
   then waits for inst: the offsets are read back once), kept until the matrix goes. */
px_status la_csr_rows(const char *func, px_instance *inst, px_csr *A, px_team_rows **out);

/* The start of px_csr_create and px_csr_create_coo: out and desc given (*out set to NULL),
   inst alive (*is: the memory its kernels use), space one inst reaches. */
px_status la_create_begin(const char *func, px_instance *inst, px_space space, const void *desc,
                          px_csr **out, px_space *is);

/* Before a creation's first copy: refuses an instance being captured into a graph
   (nothing is enqueued then) and waits for inst's earlier work (the call waits anyway). */
px_status la_create_enqueue(const char *func, px_instance *inst);

/* The start of a call with A on inst: inst and A alive, A's space one inst reaches (*is:
   the memory inst's kernels use). */
px_status la_csr_begin(const char *func, px_instance *inst, const px_csr *A, px_space *is);

/* The vector `name` of a call with A: as la_vector, of A's value type and n elements. */
px_status la_csr_operand(const char *func, const px_csr *A, px_space is, const char *name,
                         px_view *v, int64_t n, la_vec *out);

/* src's n elements of `type` (all of it) into the host array dst, copied on inst, which
   this waits for. */
px_status la_download(px_instance *inst, const px_view *src, px_dtype type, int64_t n, void *dst);

/* A is a live matrix; the error names `func`. */
px_status la_csr_check(const char *func, const px_csr *A);

/* The spans of A's arrays into a product's arguments `a` (fields row, col, tile, chunk,
   val of A's index and value types), px_view_get_span checking each: st becomes the first
   failure, or stays PX_OK. */
#define LA_CSR_SPANS(st, A, a)                                              \
    do {                                                                    \
        (st) = px_view_get_span((A)->row, &(a).row);                        \
        if ((st) == PX_OK) (st) = px_view_get_span((A)->col, &(a).col);     \
        if ((st) == PX_OK) (st) = px_view_get_span((A)->tile, &(a).tile);   \
        if ((st) == PX_OK) (st) = px_view_get_span((A)->chunk, &(a).chunk); \
        if ((st) == PX_OK) (st) = px_view_get_span((A)->val, &(a).val);     \
    } while (0)

/* The row statistics. */
void la_csr_measure(px_csr *A, const int64_t *offsets);

/* AUTO's choice for products on instances whose memory is inst_space. */
px_spmv_alg la_csr_choice(const px_csr *A, px_space inst_space);

#endif
