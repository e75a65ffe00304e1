/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
#include "args.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

px_status la_instance(const char *func, px_instance *inst, px_space *space)
{
    if (!inst) return px_set_error(PX_ERR_INVALID_ARGUMENT, func, "inst is NULL");
    return px_instance_space(inst, space);
}

bool la_reaches(px_space inst_space, px_space space)
{
    if (space.kind == PX_SPACE_HOST_PINNED) return true;
    if (inst_space.kind == PX_SPACE_DEVICE)
        return space.kind == PX_SPACE_DEVICE && space.device == inst_space.device;
    return space.kind == PX_SPACE_HOST;
}

px_status la_vector(const char *func, const char *name, px_space inst_space, px_view *view,
                    la_vec *out)
{
    if (!view) return px_set_error(PX_ERR_INVALID_ARGUMENT, func, "%s is NULL", name);
    px_view_info in;
    px_status st = px_view_info_get(view, &in);
    if (st != PX_OK) return st;
    if (in.rank != 1)
        return px_set_error(PX_ERR_INVALID_ARGUMENT, func, "%s has rank %d, not 1", name, in.rank);
    if (in.dtype != PX_F32 && in.dtype != PX_F64)
        return px_set_error(PX_ERR_TYPE_MISMATCH, func, "%s holds %s, not f32 or f64", name,
                            px_dtype_string(in.dtype));
    if (in.extent[0] > 1 && in.stride[0] != 1)
        return px_set_error(PX_ERR_INVALID_ARGUMENT, func,
                            "%s is not contiguous (stride %lld); copy it into a contiguous view",
                            name, (long long)in.stride[0]);
    if ((st = la_reachable(func, name, inst_space, in.space)) != PX_OK) return st;
    out->view = view;
    out->dtype = in.dtype;
    out->n = in.extent[0];
    out->data = in.data;
    return PX_OK;
}

px_status la_matrix(const char *func, const char *name, px_space inst_space, px_view *view,
                    px_view_info *in, la_vec *whole)
{
    if (!view) return px_set_error(PX_ERR_INVALID_ARGUMENT, func, "%s is NULL", name);
    px_status st = px_view_info_get(view, in);
    if (st != PX_OK) return st;
    if (in->rank != 2)
        return px_set_error(PX_ERR_INVALID_ARGUMENT, func, "%s has rank %d, not 2", name, in->rank);
    if (in->dtype != PX_F32 && in->dtype != PX_F64)
        return px_set_error(PX_ERR_TYPE_MISMATCH, func, "%s holds %s, not f32 or f64", name,
                            px_dtype_string(in->dtype));
    if ((st = la_reachable(func, name, inst_space, in->space)) != PX_OK) return st;
    whole->view = view;
    whole->dtype = in->dtype;
    whole->data = in->data;
    whole->n = in->size == 0
                   ? 0
                   : (in->extent[0] - 1) * in->stride[0] + (in->extent[1] - 1) * in->stride[1] + 1;
    return PX_OK;
}

px_status la_reachable(const char *func, const char *name, px_space inst_space, px_space space)
{
    if (la_reaches(inst_space, space)) return PX_OK;
    return px_set_error(PX_ERR_INVALID_ARGUMENT, func,
                        "%s lives in %s memory%s, which the instance's kernels do not reach", name,
                        px_space_kind_string(space.kind),
                        space.kind == PX_SPACE_DEVICE && inst_space.kind == PX_SPACE_DEVICE
                            ? " of another GPU"
                            : "");
}

px_status la_match(const char *func, const char *a_name, const la_vec *a, const char *b_name,
                   const la_vec *b, bool same_length)
{
    if (a->dtype != b->dtype)
        return px_set_error(PX_ERR_TYPE_MISMATCH, func, "%s holds %s but %s holds %s", a_name,
                            px_dtype_string(a->dtype), b_name, px_dtype_string(b->dtype));
    if (same_length && a->n != b->n)
        return px_set_error(PX_ERR_EXTENTS_MISMATCH, func, "%s has %lld elements but %s has %lld",
                            a_name, (long long)a->n, b_name, (long long)b->n);
    return PX_OK;
}

px_status la_distinct(const char *func, const char *a_name, const la_vec *a, const char *b_name,
                      const la_vec *b)
{
    const size_t es = px_dtype_size(a->dtype);
    const char *a0 = (const char *)a->data, *b0 = (const char *)b->data;
    const bool overlap =
        a->n > 0 && b->n > 0 && a0 < b0 + (size_t)b->n * es && b0 < a0 + (size_t)a->n * es;
    if (a->view == b->view || overlap)
        return px_set_error(PX_ERR_INVALID_ARGUMENT, func, "%s and %s share memory", a_name,
                            b_name);
    return PX_OK;
}

px_status la_scalar(const char *func, const char *name, double value, px_dtype dtype)
{
    if (dtype == PX_F32 && isfinite(value) && fabs(value) > FLT_MAX)
        return px_set_error(PX_ERR_INVALID_ARGUMENT, func, "%s = %g does not fit f32 views", name,
                            value);
    return PX_OK;
}

px_status la_named(const char *func, px_status st)
{
    if (st == PX_OK) return st;
    const char *last = px_last_error();
    const size_t len = strlen(func);
    if (strncmp(last, func, len) == 0 && last[len] == ':') return st;
    char inner[1024];
    snprintf(inner, sizeof inner, "%s", last); /* px_set_error rewrites px_last_error's text */
    return px_set_error(st, func, "%s", inner);
}
