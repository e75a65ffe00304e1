/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* px_csr_create_coo: a triplet list to CSR on the instance, in five steps over the n
 * triplets copied into the matrix's space:
 *   1. key = row * ncols + col (la_coo_keys);
 *   2. the stable sorting permutation of the keys (px_sort_permutation): triplets in row
 *      then column order, equal places in their order in the list;
 *   3. heads of runs of equal keys (la_coo_heads) and their inclusive sum (px_prefix_sum):
 *      where each distinct place goes, and how many there are;
 *   4. each run summed by its head into the matrix's columns and values (la_coo_sum);
 *   5. the row offsets from the distinct places' keys (la_coo_offsets).
 * Then the offsets come back to the host once, as px_csr_create's do, for what every
 * matrix has (csr.c, la_csr_finish). */
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "coo_kernels.h"
#include "csr.h"
#include "portex/prefix_sum.h"
#include "portex/sort.h"

static const char COO[] = "px_csr_create_coo";

/* What the description says, its indices included (read on the host once). */
static px_status check_coo(const px_coo_desc *d)
{
    px_status st =
        la_csr_check_shape(COO, d->value_type, d->index_type, d->nrows, d->ncols, d->nnz);
    if (st != PX_OK) return st;
    if (d->nnz > 0 && (!d->row_indices || !d->col_indices || !d->values))
        return px_set_error(PX_ERR_INVALID_ARGUMENT, COO, "%s is NULL with %lld triplets",
                            !d->row_indices   ? "row_indices"
                            : !d->col_indices ? "col_indices"
                                              : "values",
                            (long long)d->nnz);
    if (d->ncols > 0 && d->nrows > INT64_MAX / d->ncols)
        return px_set_error(PX_ERR_OVERFLOW, COO, "nrows * ncols (%lld x %lld) is past INT64_MAX",
                            (long long)d->nrows, (long long)d->ncols);
    for (int64_t k = 0; k < d->nnz; ++k) {
        const int64_t r = la_index_at(d->row_indices, d->index_type, k);
        const int64_t c = la_index_at(d->col_indices, d->index_type, k);
        if (r < 0 || r >= d->nrows || c < 0 || c >= d->ncols)
            return px_set_error(PX_ERR_INVALID_ARGUMENT, COO,
                                "triplet %lld is at (%lld, %lld), outside the %lld x %lld matrix",
                                (long long)k, (long long)r, (long long)c, (long long)d->nrows,
                                (long long)d->ncols);
    }
    return PX_OK;
}

/* The step's temporaries: int64 arrays in the matrix's space. */
typedef struct coo_work {
    px_view *row, *col, *val;         /* the triplets */
    px_view *key, *perm, *head, *pos; /* n each */
    px_view *key_out;                 /* one a distinct place */
} coo_work;

static void release_work(coo_work *w)
{
    px_view **v[] = {&w->row, &w->col, &w->val, &w->key, &w->perm, &w->head, &w->pos, &w->key_out};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; ++i) px_view_release(v[i]);
}

/* Element `at` of an int64 view, read on inst (which this waits for). */
static px_status read_i64(px_instance *inst, px_view *v, int64_t at, int64_t *out)
{
    px_slice one = {at, at + 1, false};
    px_view *sub;
    px_status st = px_view_subview(&sub, v, &one, 1);
    if (st != PX_OK) return st;
    st = la_download(inst, sub, PX_I64, 1, out);
    px_view_release(&sub);
    return st;
}

/* The row offsets of A (on inst, in A's space) widened into a host array (malloc'ed). */
static px_status offsets_to_host(px_instance *inst, const px_csr *A, int64_t **out)
{
    const int64_t n = A->nrows + 1;
    int64_t *off = (int64_t *)malloc((size_t)n * sizeof *off);
    if (!off) return px_set_error(PX_ERR_OUT_OF_MEMORY, COO, "out of host memory for offsets");
    px_status st = la_download(inst, A->row, A->index_type, n, off); /* i32: the first half */
    if (st == PX_OK && A->index_type == PX_I32) /* widen in place, from the end */
        for (int64_t i = n - 1; i >= 0; --i) {
            int32_t v; /* memcpy: no int32 load may move after an int64 store */
            memcpy(&v, (const char *)off + 4 * i, sizeof v);
            off[i] = v;
        }
    if (st != PX_OK)
        free(off);
    else
        *out = off;
    return st;
}

/* Steps 1 and 5, by index type. */
#define LA_COO_BY_INDEX(I)                                                                       \
    static px_status keys_##I(px_instance *inst, coo_work *w, int64_t n, int64_t ncols)          \
    {                                                                                            \
        la_coo_keys_args_##I a;                                                                  \
        px_status st = px_view_get_span(w->row, &a.row);                                         \
        if (st == PX_OK) st = px_view_get_span(w->col, &a.col);                                  \
        if (st == PX_OK) st = px_view_get_span(w->key, &a.key);                                  \
        a.ncols = ncols;                                                                         \
        return st != PX_OK                                                                       \
                   ? st                                                                          \
                   : px_parallel_for(inst, COO, px_range(0, n), PX_KERNEL(la_coo_keys_##I), &a); \
    }                                                                                            \
    static px_status offsets_##I(px_instance *inst, coo_work *w, px_csr *A)                      \
    {                                                                                            \
        la_coo_offsets_args_##I a;                                                               \
        px_status st = px_view_get_span(w->key_out, &a.key);                                     \
        if (st == PX_OK) st = px_view_get_span(A->row, &a.offsets);                              \
        a.entries = A->nnz;                                                                      \
        a.nrows = A->nrows;                                                                      \
        a.ncols = A->ncols;                                                                      \
        return st != PX_OK ? st                                                                  \
                           : px_parallel_for(inst, COO, px_range(0, A->nnz + 1),                 \
                                             PX_KERNEL(la_coo_offsets_##I), &a);                 \
    }

/* Step 4, by value and index type. */
#define LA_COO_BY_PAIR(V, I)                                                             \
    static px_status sum_##V##_##I(px_instance *inst, coo_work *w, px_csr *A, int64_t n) \
    {                                                                                    \
        la_coo_sum_args_##V##_##I a;                                                     \
        px_status st = px_view_get_span(w->key, &a.key);                                 \
        if (st == PX_OK) st = px_view_get_span(w->perm, &a.perm);                        \
        if (st == PX_OK) st = px_view_get_span(w->head, &a.head);                        \
        if (st == PX_OK) st = px_view_get_span(w->pos, &a.pos);                          \
        if (st == PX_OK) st = px_view_get_span(w->val, &a.val);                          \
        if (st == PX_OK) st = px_view_get_span(A->val, &a.val_out);                      \
        if (st == PX_OK) st = px_view_get_span(A->col, &a.col_out);                      \
        if (st == PX_OK) st = px_view_get_span(w->key_out, &a.key_out);                  \
        a.n = n;                                                                         \
        a.ncols = A->ncols;                                                              \
        return st != PX_OK ? st                                                          \
                           : px_parallel_for(inst, COO, px_range(0, n),                  \
                                             PX_KERNEL(la_coo_sum_##V##_##I), &a);       \
    }

LA_COO_BY_INDEX(i32)
LA_COO_BY_INDEX(i64)
LA_COO_BY_PAIR(f32, i32)
LA_COO_BY_PAIR(f32, i64)
LA_COO_BY_PAIR(f64, i32)
LA_COO_BY_PAIR(f64, i64)

static px_status heads(px_instance *inst, coo_work *w, int64_t n)
{
    la_coo_heads_args a;
    px_status st = px_view_get_span(w->key, &a.key);
    if (st == PX_OK) st = px_view_get_span(w->perm, &a.perm);
    if (st == PX_OK) st = px_view_get_span(w->head, &a.head);
    return st != PX_OK ? st
                       : px_parallel_for(inst, COO, px_range(0, n), PX_KERNEL(la_coo_heads), &a);
}

/* Steps 1 to 3: the triplets in the matrix's space, their keys sorted, the runs counted
   (*places: how many distinct places). */
static px_status sort_triplets(px_instance *inst, const px_coo_desc *d, px_space space, coo_work *w,
                               int64_t *places)
{
    const int64_t n = d->nnz;
    const bool i32 = d->index_type == PX_I32;
    px_status st = la_create_enqueue(COO, inst);
    if (st == PX_OK)
        st = la_upload(inst, space, "px_csr_create_coo rows", d->index_type, n, d->row_indices,
                       &w->row);
    if (st == PX_OK)
        st = la_upload(inst, space, "px_csr_create_coo columns", d->index_type, n, d->col_indices,
                       &w->col);
    if (st == PX_OK)
        st = la_upload(inst, space, "px_csr_create_coo values", d->value_type, n, d->values,
                       &w->val);
    px_view **tmp[] = {&w->key, &w->perm, &w->head, &w->pos};
    for (size_t i = 0; i < 4 && st == PX_OK; ++i)
        st = px_view_create_1d(tmp[i], "px_csr_create_coo work", space, PX_I64, n);
    *places = 0;
    if (st != PX_OK || n == 0) return st;
    st = i32 ? keys_i32(inst, w, n, d->ncols) : keys_i64(inst, w, n, d->ncols);
    if (st == PX_OK) st = px_sort_permutation(inst, w->perm, w->key, PX_SORT_ASCENDING);
    if (st == PX_OK) st = heads(inst, w, n);
    if (st == PX_OK) st = px_prefix_sum(inst, w->pos, w->head, PX_PREFIX_SUM_INCLUSIVE);
    if (st == PX_OK) st = read_i64(inst, w->pos, n - 1, places);
    return st;
}

/* Steps 4 and 5 into A, whose nnz is the count of distinct places. */
static px_status assemble(px_instance *inst, const px_coo_desc *d, coo_work *w, px_csr *A)
{
    const bool i32 = d->index_type == PX_I32, f32 = d->value_type == PX_F32;
    px_status st =
        px_view_create_1d(&A->row, "px_csr row_offsets", A->space, A->index_type, A->nrows + 1);
    if (st == PX_OK)
        st = px_view_create_1d(&A->col, "px_csr col_indices", A->space, A->index_type, A->nnz);
    if (st == PX_OK)
        st = px_view_create_1d(&A->val, "px_csr values", A->space, A->value_type, A->nnz);
    if (st == PX_OK)
        st = px_view_create_1d(&w->key_out, "px_csr_create_coo work", A->space, PX_I64, A->nnz);
    if (st == PX_OK && d->nnz > 0)
        st = f32 ? (i32 ? sum_f32_i32(inst, w, A, d->nnz) : sum_f32_i64(inst, w, A, d->nnz))
                 : (i32 ? sum_f64_i32(inst, w, A, d->nnz) : sum_f64_i64(inst, w, A, d->nnz));
    if (st == PX_OK) st = i32 ? offsets_i32(inst, w, A) : offsets_i64(inst, w, A);
    return st;
}

px_status px_csr_create_coo(px_instance *inst, px_space space, const px_coo_desc *desc,
                            px_csr **out)
{
    px_space is;
    px_status st = la_create_begin(COO, inst, space, desc, out, &is);
    if (st != PX_OK) return st;
    if ((st = check_coo(desc)) != PX_OK) return st;
    coo_work w;
    memset(&w, 0, sizeof w);
    int64_t places = 0, *off = NULL;
    px_csr *A = NULL;
    st = sort_triplets(inst, desc, space, &w, &places);
    if (st == PX_OK) {
        A = la_csr_new(desc->nrows, desc->ncols, places, desc->value_type, desc->index_type, space);
        if (!A) st = px_set_error(PX_ERR_OUT_OF_MEMORY, COO, "out of host memory");
    }
    if (st == PX_OK) st = assemble(inst, desc, &w, A);
    if (st == PX_OK) st = offsets_to_host(inst, A, &off);
    if (st == PX_OK)
        st = la_csr_finish(COO, inst, is, A, off);
    else
        px_instance_fence(inst); /* no copy may still read the caller's arrays */
    release_work(&w);
    free(off);
    st = la_named(COO, st);
    if (st != PX_OK) {
        if (A) la_csr_destroy(A);
        return st;
    }
    *out = A;
    return PX_OK;
}
