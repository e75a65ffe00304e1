/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* CSR matrices: checked and copied from host arrays once, their rows measured once, each
 * product algorithm's table made once (docs/linalg.md). */
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "csr.h"
#include "portex/copy.h"

static const char CREATE[] = "px_csr_create";

const char *px_spmv_alg_string(px_spmv_alg alg)
{
    switch (alg) {
    case PX_SPMV_AUTO: return "auto";
    case PX_SPMV_ROWS: return "rows";
    case PX_SPMV_TILES: return "tiles";
    }
    return "?";
}

int64_t la_index_at(const void *a, px_dtype type, int64_t i)
{
    return type == PX_I32 ? ((const int32_t *)a)[i] : ((const int64_t *)a)[i];
}

px_status la_csr_check_shape(const char *func, px_dtype value_type, px_dtype index_type,
                             int64_t nrows, int64_t ncols, int64_t nnz)
{
    if (value_type != PX_F32 && value_type != PX_F64)
        return px_set_error(PX_ERR_TYPE_MISMATCH, func, "value_type is %s, not f32 or f64",
                            px_dtype_string(value_type));
    if (index_type != PX_I32 && index_type != PX_I64)
        return px_set_error(PX_ERR_TYPE_MISMATCH, func, "index_type is %s, not i32 or i64",
                            px_dtype_string(index_type));
    if (nrows < 0 || ncols < 0 || nnz < 0)
        return px_set_error(PX_ERR_INVALID_ARGUMENT, func,
                            "negative size: nrows %lld, ncols %lld, nnz %lld", (long long)nrows,
                            (long long)ncols, (long long)nnz);
    /* 2^56: the host arrays the module makes of a row or entry count (offsets, tiles) stay
       far from size_t's limit. */
    const int64_t most = index_type == PX_I32 ? INT32_MAX : (INT64_C(1) << 56);
    if (nrows > most || ncols > most || nnz > most)
        return px_set_error(PX_ERR_OVERFLOW, func,
                            "nrows %lld, ncols %lld or nnz %lld is past what %s indices hold here",
                            (long long)nrows, (long long)ncols, (long long)nnz,
                            px_dtype_string(index_type));
    return PX_OK;
}

/* What the description says before anything is read through its pointers. */
static px_status check_desc(const px_csr_desc *d)
{
    px_status st =
        la_csr_check_shape(CREATE, d->value_type, d->index_type, d->nrows, d->ncols, d->nnz);
    if (st != PX_OK) return st;
    if (!d->row_offsets)
        return px_set_error(PX_ERR_INVALID_ARGUMENT, CREATE, "row_offsets is NULL");
    if (d->nnz > 0 && (!d->col_indices || !d->values))
        return px_set_error(PX_ERR_INVALID_ARGUMENT, CREATE, "%s is NULL with %lld entries",
                            !d->col_indices ? "col_indices" : "values", (long long)d->nnz);
    return PX_OK;
}

/* The row offsets widened to int64_t (malloc'ed into *out), checked: from 0, never falling,
   to nnz. */
static px_status read_offsets(const px_csr_desc *d, int64_t **out)
{
    int64_t *off = (int64_t *)malloc((size_t)(d->nrows + 1) * sizeof *off);
    if (!off)
        return px_set_error(PX_ERR_OUT_OF_MEMORY, CREATE, "out of host memory for %lld offsets",
                            (long long)d->nrows + 1);
    px_status st = PX_OK;
    for (int64_t r = 0; r <= d->nrows && st == PX_OK; ++r) {
        off[r] = la_index_at(d->row_offsets, d->index_type, r);
        if (r == 0 && off[0] != 0)
            st = px_set_error(PX_ERR_INVALID_ARGUMENT, CREATE,
                              "row_offsets[0] is %lld; it must be 0", (long long)off[0]);
        else if (r > 0 && off[r] < off[r - 1])
            st = px_set_error(PX_ERR_INVALID_ARGUMENT, CREATE,
                              "row_offsets fall at row %lld (%lld, then %lld)", (long long)r - 1,
                              (long long)off[r - 1], (long long)off[r]);
    }
    if (st == PX_OK && off[d->nrows] != d->nnz)
        st = px_set_error(PX_ERR_INVALID_ARGUMENT, CREATE,
                          "row_offsets[nrows] is %lld; it must be nnz, %lld",
                          (long long)off[d->nrows], (long long)d->nnz);
    if (st != PX_OK)
        free(off);
    else
        *out = off;
    return st;
}

static px_status check_columns(const px_csr_desc *d)
{
    for (int64_t k = 0; k < d->nnz; ++k) {
        const int64_t c = la_index_at(d->col_indices, d->index_type, k);
        if (c < 0 || c >= d->ncols)
            return px_set_error(PX_ERR_INVALID_ARGUMENT, CREATE,
                                "col_indices[%lld] is %lld, outside [0, ncols = %lld)",
                                (long long)k, (long long)c, (long long)d->ncols);
    }
    return PX_OK;
}

/* A view of n elements of `type` over the host array p. */
static px_status wrap_host(const char *label, px_dtype type, int64_t n, void *p, px_view **out)
{
    px_view_desc hd;
    memset(&hd, 0, sizeof hd);
    hd.label = label;
    hd.space = px_host();
    hd.dtype = type;
    hd.rank = 1;
    hd.extent[0] = n;
    return px_view_wrap(out, &hd, p);
}

px_status la_upload(px_instance *inst, px_space space, const char *label, px_dtype type, int64_t n,
                    const void *src, px_view **out)
{
    px_status st = px_view_create_1d(out, label, space, type, n);
    if (st != PX_OK || n == 0) return st;
    px_view *h;
    st = wrap_host(label, type, n, (void *)src, &h); /* read only */
    if (st != PX_OK) return st;
    st = px_deep_copy_async(inst, *out, h, NULL);
    px_view_release(&h);
    return st;
}

px_status la_download(px_instance *inst, const px_view *src, px_dtype type, int64_t n, void *dst)
{
    px_view *h;
    px_status st = wrap_host("px_csr download", type, n, dst, &h);
    if (st != PX_OK) return st;
    st = px_deep_copy_async(inst, h, src, NULL);
    const px_status fenced = px_instance_fence(inst);
    px_view_release(&h);
    return st != PX_OK ? st : fenced;
}

px_status la_csr_rows(const char *func, px_instance *inst, px_csr *A, px_team_rows **out)
{
    px_exec_space exec;
    int device;
    px_status st = px_instance_exec_space(inst, &exec);
    if (st == PX_OK) st = px_instance_device(inst, &device);
    if (st != PX_OK) return st;
    for (la_rows *r = A->rows; r; r = r->next)
        if (r->exec == exec && r->device == device) {
            *out = r->rows;
            return PX_OK;
        }
    la_rows *r = (la_rows *)calloc(1, sizeof *r);
    if (!r) return px_set_error(PX_ERR_OUT_OF_MEMORY, func, "out of host memory");
    if ((st = px_team_rows_create(inst, A->row, &r->rows)) != PX_OK) {
        free(r);
        return st;
    }
    r->exec = exec;
    r->device = device;
    r->next = A->rows;
    A->rows = r;
    *out = r->rows;
    return PX_OK;
}

void la_csr_destroy(px_csr *A)
{
    while (A->rows) {
        la_rows *next = A->rows->next;
        px_team_rows_release(&A->rows->rows);
        free(A->rows);
        A->rows = next;
    }
    px_view_release(&A->tile);
    px_view_release(&A->chunk);
    px_view_release(&A->row);
    px_view_release(&A->col);
    px_view_release(&A->val);
    A->magic = 0;
    free(A);
}

px_status la_csr_finish(const char *func, px_instance *inst, px_space inst_space, px_csr *A,
                        const int64_t *off)
{
    px_status st = la_tiles_build(func, inst, A, off);
    /* px_team_rows reads the offsets back once, after the work before on the same inst. */
    px_team_rows *rows;
    if (st == PX_OK) st = la_csr_rows(func, inst, A, &rows);
    const px_status fenced = px_instance_fence(inst); /* host arrays given are read by now */
    if (st == PX_OK) st = fenced;
    la_csr_measure(A, off);
    A->chosen = la_csr_choice(A, inst_space);
    return st;
}

px_csr *la_csr_new(int64_t nrows, int64_t ncols, int64_t nnz, px_dtype value_type,
                   px_dtype index_type, px_space space)
{
    px_csr *A = (px_csr *)calloc(1, sizeof *A);
    if (!A) return NULL;
    A->magic = LA_CSR_MAGIC;
    A->nrows = nrows;
    A->ncols = ncols;
    A->nnz = nnz;
    A->value_type = value_type;
    A->index_type = index_type;
    A->space = space;
    return A;
}

/* The host arrays in A's space, then what every matrix has. */
static px_status build(px_instance *inst, px_space inst_space, const px_csr_desc *d,
                       const int64_t *off, px_csr *A)
{
    px_status st = la_create_enqueue(CREATE, inst);
    if (st == PX_OK)
        st = la_upload(inst, A->space, "px_csr row_offsets", d->index_type, d->nrows + 1,
                       d->row_offsets, &A->row);
    if (st == PX_OK)
        st = la_upload(inst, A->space, "px_csr col_indices", d->index_type, d->nnz, d->col_indices,
                       &A->col);
    if (st == PX_OK)
        st = la_upload(inst, A->space, "px_csr values", d->value_type, d->nnz, d->values, &A->val);
    if (st == PX_OK)
        st = la_csr_finish(CREATE, inst, inst_space, A, off);
    else
        px_instance_fence(inst); /* no copy may still read the caller's arrays */
    return st;
}

px_status la_create_begin(const char *func, px_instance *inst, px_space space, const void *desc,
                          px_csr **out, px_space *is)
{
    if (!out) return px_set_error(PX_ERR_INVALID_ARGUMENT, func, "A is NULL");
    *out = NULL;
    px_status st = la_named(func, la_instance(func, inst, is));
    if (st != PX_OK) return st;
    if (!desc) return px_set_error(PX_ERR_INVALID_ARGUMENT, func, "desc is NULL");
    return la_reachable(func, "the space given", *is, space);
}

px_status la_create_enqueue(const char *func, px_instance *inst)
{
    return la_named(func, px_instance_fence(inst));
}

px_status px_csr_create(px_instance *inst, px_space space, const px_csr_desc *desc, px_csr **out)
{
    px_space is;
    px_status st = la_create_begin(CREATE, inst, space, desc, out, &is);
    if (st != PX_OK) return st;
    if ((st = check_desc(desc)) != PX_OK) return st;
    int64_t *off = NULL;
    if ((st = read_offsets(desc, &off)) != PX_OK) return st;
    if ((st = check_columns(desc)) != PX_OK) {
        free(off);
        return st;
    }
    px_csr *A =
        la_csr_new(desc->nrows, desc->ncols, desc->nnz, desc->value_type, desc->index_type, space);
    if (!A) {
        free(off);
        return px_set_error(PX_ERR_OUT_OF_MEMORY, CREATE, "out of host memory");
    }
    st = la_named(CREATE, build(inst, is, desc, off, A));
    free(off);
    if (st != PX_OK) {
        la_csr_destroy(A);
        return st;
    }
    *out = A;
    return PX_OK;
}

/* A is a live matrix (func names the caller). */
px_status la_csr_check(const char *func, const px_csr *A)
{
    if (!A) return px_set_error(PX_ERR_INVALID_ARGUMENT, func, "A is NULL");
    if (A->magic != LA_CSR_MAGIC)
        return px_set_error(PX_ERR_INVALID_ARGUMENT, func,
                            "A is not a live px_csr (released, or not one)");
    return PX_OK;
}

px_status la_csr_begin(const char *func, px_instance *inst, const px_csr *A, px_space *is)
{
    px_status st = la_instance(func, inst, is);
    if (st == PX_OK) st = la_csr_check(func, A);
    if (st == PX_OK) st = la_reachable(func, "A", *is, A->space);
    return la_named(func, st);
}

px_status la_csr_operand(const char *func, const px_csr *A, px_space is, const char *name,
                         px_view *v, int64_t n, la_vec *out)
{
    px_status st = la_named(func, la_vector(func, name, is, v, out));
    if (st != PX_OK) return st;
    if (out->dtype != A->value_type)
        return px_set_error(PX_ERR_TYPE_MISMATCH, func, "A holds %s but %s holds %s",
                            px_dtype_string(A->value_type), name, px_dtype_string(out->dtype));
    if (out->n != n)
        return px_set_error(
            PX_ERR_EXTENTS_MISMATCH, func, "%s has %lld elements; A (%lld x %lld) needs %lld there",
            name, (long long)out->n, (long long)A->nrows, (long long)A->ncols, (long long)n);
    return PX_OK;
}

px_status px_csr_info_get(const px_csr *A, px_csr_info *info)
{
    px_status st = la_csr_check("px_csr_info_get", A);
    if (st != PX_OK) return st;
    if (!info) return px_set_error(PX_ERR_INVALID_ARGUMENT, "px_csr_info_get", "info is NULL");
    memset(info, 0, sizeof *info);
    info->nrows = A->nrows;
    info->ncols = A->ncols;
    info->nnz = A->nnz;
    info->value_type = A->value_type;
    info->index_type = A->index_type;
    info->space = A->space;
    info->mean_row = A->mean_row;
    info->max_row = A->max_row;
    info->row_cv = A->row_cv;
    info->spmv_alg = A->set != PX_SPMV_AUTO ? A->set : A->chosen;
    info->tiles = A->tiles;
    info->long_rows = A->long_rows;
    info->long_chunks = A->chunks;
    size_t long_row_bytes = 0; /* px_team_rows' long rows, kept on a GPU */
    px_team_rows_info ri;
    for (const la_rows *r = A->rows; r; r = r->next)
        if (r->exec == PX_EXEC_CUDA && px_team_rows_info_get(r->rows, &ri) == PX_OK)
            long_row_bytes += (size_t)ri.long_rows * sizeof(int64_t);
    info->extra_bytes =
        (size_t)(2 * (A->tiles + 1) + 2 * A->chunks) * px_dtype_size(A->index_type) +
        long_row_bytes;
    return PX_OK;
}

px_status px_csr_set_spmv_alg(px_csr *A, px_spmv_alg alg)
{
    px_status st = la_csr_check("px_csr_set_spmv_alg", A);
    if (st != PX_OK) return st;
    if (alg != PX_SPMV_AUTO && alg != PX_SPMV_ROWS && alg != PX_SPMV_TILES)
        return px_set_error(PX_ERR_INVALID_ARGUMENT, "px_csr_set_spmv_alg",
                            "alg %d is not a px_spmv_alg", (int)alg);
    A->set = alg;
    return PX_OK;
}

px_status px_csr_release(px_csr **A)
{
    if (!A || !*A) return PX_OK;
    px_status st = la_csr_check("px_csr_release", *A);
    if (st != PX_OK) return st;
    la_csr_destroy(*A);
    *A = NULL;
    return PX_OK;
}
