/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/** @file
 * portex — linear algebra, opt-in: CSR sparse matrices, their product with a vector, and
 * BLAS-1 and GEMV over views (libportex_linalg; pkg-config portex-linalg). docs/linalg.md.
 *
 * One source for every backend: the library's kernels are portex kernels, so they run
 * wherever the views live (serial, OpenMP, threads, CUDA). Every call is asynchronous on
 * the instance it is given, as px_parallel_for is, except those that return a value in
 * host memory (px_blas_dot, px_blas_nrm2), which wait for that instance only.
 *
 * Vectors are 1-D contiguous views of PX_F32 or PX_F64 in memory the instance reaches
 * (DEVICE of its GPU for CUDA, HOST for the host backends). A call's views share one
 * element type. A dense matrix (px_blas_gemv) is a 2-D view of either contiguous layout.
 *
 * Scalars (alpha, beta, a, b) are doubles; for f32 views they are rounded to float once
 * per call. Errors: every function returns a px_status and names itself in
 * px_last_error. */
#ifndef PORTEX_LINALG_H
#define PORTEX_LINALG_H

#include <stdint.h>

#include "portex/core.h"
#include "portex/graph.h"
#include "portex/instance.h"
#include "portex/space.h"
#include "portex/view.h"

/** @def PX_LINALG_API
 * libportex_linalg is built with hidden visibility; only PX_LINALG_API symbols are
 * exported. */
#if defined(PX_LINALG_BUILDING_LIBRARY) && !defined(PX_STATIC_BUILD) && \
    (defined(__GNUC__) || defined(__clang__))
#define PX_LINALG_API __attribute__((visibility("default")))
#else
#define PX_LINALG_API
#endif

PX_EXTERN_C_BEGIN

/* ---- CSR sparse matrices ---------------------------------------------------------- */

/** A sparse matrix in compressed sparse row form (opaque), in one memory space: row
 * offsets, column indices and values, and what the library measured of its rows. */
typedef struct px_csr px_csr;

/** A CSR matrix in host memory, for px_csr_create. The arrays are read during the call
 * only. Row offsets start at 0, never decrease and end at nnz; column indices lie in
 * [0, ncols); within a row they may come in any order, and repeat (each entry counts). */
typedef struct px_csr_desc {
    int64_t nrows;           /**< rows, >= 0 */
    int64_t ncols;           /**< columns, >= 0 */
    int64_t nnz;             /**< entries, >= 0 */
    px_dtype value_type;     /**< PX_F32 or PX_F64 */
    px_dtype index_type;     /**< PX_I32 or PX_I64: of row offsets and column indices */
    const void *row_offsets; /**< nrows + 1 offsets of index_type */
    const void *col_indices; /**< nnz column indices of index_type */
    const void *values;      /**< nnz values of value_type */
} px_csr_desc;

/** A sparse matrix as a list of triplets in host memory, for px_csr_create_coo: entry k is
 * values[k] at (row_indices[k], col_indices[k]). The triplets may come in any order; those
 * at the same place are summed, in their order in the list. */
typedef struct px_coo_desc {
    int64_t nrows;           /**< rows, >= 0 */
    int64_t ncols;           /**< columns, >= 0 */
    int64_t nnz;             /**< triplets, >= 0 */
    px_dtype value_type;     /**< PX_F32 or PX_F64 */
    px_dtype index_type;     /**< PX_I32 or PX_I64: of the indices given and of the matrix */
    const void *row_indices; /**< nnz row indices of index_type, in [0, nrows) */
    const void *col_indices; /**< nnz column indices of index_type, in [0, ncols) */
    const void *values;      /**< nnz values of value_type */
} px_coo_desc;

/** How a sparse matrix-vector product runs. */
typedef enum px_spmv_alg {
    PX_SPMV_AUTO = 0, /**< the library's choice for this matrix and space (px_csr_info) */
    PX_SPMV_ROWS,     /**< rows over the lanes of teams shaped from the row lengths
                           (px_team_rows): for rows of similar length */
    PX_SPMV_TILES,    /**< tiles of consecutive rows holding about the same number of
                           entries, each summed by one team; a row longer than a tile
                           gets a team of its own: for skewed row lengths */
} px_spmv_alg;

/** The name of an algorithm ("auto", "rows", "tiles"), or "?". */
PX_LINALG_API const char *px_spmv_alg_string(px_spmv_alg alg);

/** What px_csr_create measured and chose. */
typedef struct px_csr_info {
    int64_t nrows;        /**< rows */
    int64_t ncols;        /**< columns */
    int64_t nnz;          /**< entries stored (repeats given to px_csr_create count each) */
    px_dtype value_type;  /**< PX_F32 or PX_F64 */
    px_dtype index_type;  /**< PX_I32 or PX_I64 */
    px_space space;       /**< where the arrays live */
    double mean_row;      /**< entries per row, on average (0 without rows) */
    int64_t max_row;      /**< entries in the longest row */
    double row_cv;        /**< the row lengths' coefficient of variation (stddev / mean) */
    px_spmv_alg spmv_alg; /**< what px_csr_spmv runs on the creating instance's backend:
                               AUTO's choice there, or the one set */
    int64_t tiles;        /**< PX_SPMV_TILES: tiles of the product (long rows included) */
    int64_t long_rows;    /**< PX_SPMV_TILES: rows longer than a tile */
    int64_t long_chunks;  /**< PX_SPMV_TILES: the long rows' chunks past their first, summed
                               by a second dispatch */
    size_t extra_bytes;   /**< memory the library holds beyond the three arrays: the
                               algorithms' tables in `space`, and the long rows' indices
                               px_team_rows keeps on each GPU that ran a product */
} px_csr_info;

/** A CSR matrix in `space` from host arrays, copied on inst (the call waits for those
 * copies). Refused, naming the fault: a value or index type not listed in px_csr_desc, a
 * negative size, a null array where one is needed, row offsets that do not start at 0,
 * decrease or end elsewhere than nnz, a column index out of range, sizes past the index
 * type, or a space inst cannot reach. Release with px_csr_release. */
PX_LINALG_API px_status px_csr_create(px_instance *inst, px_space space, const px_csr_desc *desc,
                                      px_csr **A);

/** A CSR matrix in `space` from a COO triplet list: the triplets are copied on inst, then
 * sorted by row and column and summed where they repeat by kernels on inst
 * (px_sort_permutation, px_prefix_sum, portex kernels), so that each row holds its
 * columns in increasing order, once each; the matrix's nnz (px_csr_info) is the number of
 * distinct places. Waits for inst. Refused as px_csr_create is, and for an index out of
 * range, nrows * ncols past INT64_MAX, or an instance being captured into a graph. Beyond
 * the matrix, the call holds until it returns four int64 arrays of the triplets' count and
 * one of the distinct places' count, in `space`. */
PX_LINALG_API px_status px_csr_create_coo(px_instance *inst, px_space space,
                                          const px_coo_desc *desc, px_csr **A);

/** Fills *info with the matrix's sizes, row statistics and product algorithm. */
PX_LINALG_API px_status px_csr_info_get(const px_csr *A, px_csr_info *info);

/** Makes px_csr_spmv run `alg` on this matrix from now on (PX_SPMV_AUTO: the library's
 * choice again). For comparisons; the default is the fast choice. */
PX_LINALG_API px_status px_csr_set_spmv_alg(px_csr *A, px_spmv_alg alg);

/** y = alpha * A * x + beta * y on inst, asynchronous. x holds ncols elements, y nrows,
 * both of A's value type, 1-D contiguous, in memory inst reaches, and distinct views of
 * distinct memory; A's space too must be one inst reaches. As BLAS: beta = 0 ignores y's
 * old values and alpha = 0 ignores A x (NaN included). The first PX_SPMV_ROWS product on an
 * instance of another backend or GPU than the creating one shapes its league there, which
 * waits for that instance once. Call it from one thread at a time per matrix. */
PX_LINALG_API px_status px_csr_spmv(px_instance *inst, double alpha, const px_csr *A, px_view *x,
                                    double beta, px_view *y);

/** Y = alpha * A * X + beta * Y for k vectors at once (SpMM), on inst, asynchronous: X is a
 * 2-D view of ncols x k elements, Y of nrows x k (column j of each is vector j), both of
 * A's value type, of any layout (right, a row's k values side by side, reads X fastest;
 * left and strided subviews work too), in memory inst reaches, and sharing no memory.
 * The algorithm is px_csr_spmv's (px_csr_set_spmv_alg's when set), except that AUTO runs
 * a matrix that px_csr_spmv runs as tiles in ROWS' league unless k <= 4 and X is
 * row-major (docs/linalg.md has the measurements). Each row's entries are read once for a
 * group of 8 vectors (of 4 where k <= 4, and in ROWS for those skewed matrices); a row's
 * entries past its first 8192 go to a second dispatch, which adds them into Y atomically
 * (their sums' last bits may change from run to run). k = 0 (or no rows) does nothing.
 * alpha, beta and the rest as px_csr_spmv. */
PX_LINALG_API px_status px_csr_spmm(px_instance *inst, double alpha, const px_csr *A, px_view *X,
                                    double beta, px_view *Y);

/** y = alpha * A^T * x + beta * y on inst, asynchronous: x of nrows elements, y of ncols,
 * otherwise as px_csr_spmv. y is scaled by beta first (beta = 0: set to 0), then each row's
 * entries are added into y atomically: on the parallel backends and CUDA, sums into one
 * element come in an order that may change from run to run (so may their last bits). */
PX_LINALG_API px_status px_csr_spmv_transposed(px_instance *inst, double alpha, const px_csr *A,
                                               px_view *x, double beta, px_view *y);

/** One Jacobi step towards A x = b on inst, asynchronous: x_new = x + omega D^-1 (b - A x),
 * D the diagonal of A (each row's entries in its own column, summed). A square; b, x and
 * x_new of nrows elements of A's value type, in memory inst reaches; x_new distinct from x
 * and from b. A row whose diagonal is missing or zero gets infinity or NaN, as the
 * formula gives. omega = 1 is plain Jacobi; about 2/3 damps it for smoothing. */
PX_LINALG_API px_status px_csr_jacobi(px_instance *inst, double omega, const px_csr *A, px_view *b,
                                      px_view *x, px_view *x_new);

/** Releases the matrix and sets *A to NULL (NULL or *A == NULL: nothing to do). It waits for
 * nothing: the products that used it must have finished (fence their instances first,
 * as px_team_rows_release asks), and no graph may hold one any longer. */
PX_LINALG_API px_status px_csr_release(px_csr **A);

/* ---- BLAS-1 and GEMV -------------------------------------------------------------- */

/** y = a * x + y. x and y: the same length and element type, distinct. As BLAS, a = 0
 * leaves y as it is (x is not read). */
PX_LINALG_API px_status px_blas_axpy(px_instance *inst, double a, px_view *x, px_view *y);

/** y = a * x + b * y. A zero coefficient drops its term: b = 0 ignores y's old values and
 * a = 0 ignores x (NaN included). */
PX_LINALG_API px_status px_blas_axpby(px_instance *inst, double a, px_view *x, double b,
                                      px_view *y);

/** x = a * x, a plain product: as reference BLAS, a = 0 keeps NaN and infinity as NaN. */
PX_LINALG_API px_status px_blas_scal(px_instance *inst, double a, px_view *x);

/** *result = the sum of x[i] * y[i], accumulated in the element type; waits for inst. x
 * and y may be the same view. */
PX_LINALG_API px_status px_blas_dot(px_instance *inst, px_view *x, px_view *y, double *result);

/** The same into element 0 of `result`, a view of the element type in memory the
 * instance writes (px_parallel_reduce_view's rule); asynchronous. */
PX_LINALG_API px_status px_blas_dot_view(px_instance *inst, px_view *x, px_view *y,
                                         px_view *result);

/** *result = the Euclidean norm of x, without overflow or underflow for any finite x (in
 * one pass, Blue's algorithm); waits for inst. The result is a double: for f32 views it
 * may exceed FLT_MAX, where px_blas_nrm2_view stores infinity. */
PX_LINALG_API px_status px_blas_nrm2(px_instance *inst, px_view *x, double *result);

/** The same into element 0 of `result` (as px_blas_dot_view); asynchronous. */
PX_LINALG_API px_status px_blas_nrm2_view(px_instance *inst, px_view *x, px_view *result);

/** Which matrix a GEMV multiplies by. */
typedef enum px_blas_op {
    PX_BLAS_N = 0, /**< A */
    PX_BLAS_T,     /**< A transposed */
} px_blas_op;

/** y = alpha * op(A) * x + beta * y, A an m x n 2-D view (either contiguous layout), x of
 * n (PX_BLAS_N) or m (PX_BLAS_T) elements, y of the other; beta = 0 ignores y's old
 * values and alpha = 0 ignores A and x. x and y distinct from A and from each other. */
PX_LINALG_API px_status px_blas_gemv(px_instance *inst, px_blas_op op, double alpha, px_view *A,
                                     px_view *x, double beta, px_view *y);

/* ---- As graph nodes ------------------------------------------------------------------- */

/** @name As graph nodes
 * The calls above as nodes of a graph (portex/graph.h), for loops that run on the device
 * without the host: a solver's iteration in a WHILE node's body, its scalars in views.
 * Each adds the kernels the call would run on an instance of the graph's execution space
 * and device (the same algorithm, chosen the same way), after `deps` as every
 * px_graph_add_* (NULL, 0: none), one after the other, and gives in *out (out may be
 * NULL) the node after which the work is done; a call with nothing to do adds an empty
 * node. The operands must be memory the graph's kernels reach (DEVICE of its GPU on CUDA;
 * HOST or HOST_PINNED on the host backends); the graph keeps the views alive. They are
 * refused as the calls are, naming themselves, and the graph stays usable; a failure in
 * the middle of a two-node product can leave its first node in the graph. The matrix must
 * outlive the graph, its bodies' graphs and their executable graphs. The first
 * PX_SPMV_ROWS node on another backend or GPU than the matrix's creating instance shapes
 * its league on that backend's default instance, which waits for it once. */
/** @{ */
/** y = alpha * A * x + beta * y, as px_csr_spmv. */
PX_LINALG_API px_status px_graph_add_csr_spmv(px_graph *graph, px_graph_node *const *deps,
                                              int ndeps, double alpha, const px_csr *A, px_view *x,
                                              double beta, px_view *y, px_graph_node **out);
/** y = a * x + b * y, as px_blas_axpby. */
PX_LINALG_API px_status px_graph_add_blas_axpby(px_graph *graph, px_graph_node *const *deps,
                                                int ndeps, double a, px_view *x, double b,
                                                px_view *y, px_graph_node **out);
/** Element 0 of `result` = x . y, as px_blas_dot_view. */
PX_LINALG_API px_status px_graph_add_blas_dot(px_graph *graph, px_graph_node *const *deps,
                                              int ndeps, px_view *x, px_view *y, px_view *result,
                                              px_graph_node **out);
/** @} */

PX_EXTERN_C_END

#endif /* PORTEX_LINALG_H */
