/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Prefix sums of views (portex/prefix_sum.h): the call checked, made into one
 * px__prefix_sum_op and run by the instance's backend (view_algorithm.h says where). */
#include "base/error.h"
#include "portex.h"
#include "runtime/view_algorithm.h"
#include "spaces/view.h"

static bool summable(px_dtype t)
{
    return t == PX_I32 || t == PX_I64 || t == PX_U32 || t == PX_U64 || t == PX_F32 || t == PX_F64;
}

px_status px_prefix_sum(px_instance *inst, px_view *out, const px_view *in, unsigned flags)
{
    PX__ENTER;
    if (flags & ~(unsigned)PX_PREFIX_SUM_EXCLUSIVE)
        return px__error(PX_ERR_INVALID_ARGUMENT,
                         "flags 0x%x: only PX_PREFIX_SUM_INCLUSIVE (0) and "
                         "PX_PREFIX_SUM_EXCLUSIVE are known",
                         flags);
    PX__TRY(px__algo_check_vector(in, "in"));
    if (!summable(in->dtype))
        return px__error(PX_ERR_INVALID_ARGUMENT,
                         "in '%s' is %s: prefix sums take i32, i64, u32, u64, f32 or f64",
                         in->label, px_dtype_string(in->dtype));
    PX__TRY(px__algo_check_beside(out, "out", in, "in"));
    if (out->dtype != in->dtype)
        return px__error(PX_ERR_INVALID_ARGUMENT, "out '%s' is %s and in '%s' %s: they must match",
                         out->label, px_dtype_string(out->dtype), in->label,
                         px_dtype_string(in->dtype));
    if (out->data != in->data && px__algo_overlap(out, in))
        return px__error(PX_ERR_INVALID_ARGUMENT,
                         "out '%s' and in '%s' overlap without being the same memory", out->label,
                         in->label);
    const px_view *views[] = {in, out};
    const char *names[] = {"in", "out"};
    const px__algo_call call = {"a prefix sum", views, names, 2};
    bool wait;
    PX__TRY(px__algo_begin(&call, &inst, &wait));
    const px__backend *be = inst->be;
    if (!be->prefix_sum)
        return px__error(PX_ERR_UNSUPPORTED, "the %s backend has no prefix sum", be->name);
    const px__prefix_sum_op op = {.dtype = in->dtype,
                                  .n = in->extent[0],
                                  .in = in->data,
                                  .out = out->data,
                                  .exclusive = (flags & PX_PREFIX_SUM_EXCLUSIVE) != 0};
    if (op.n > 0) PX__TRY(be->prefix_sum(inst->queue, &op));
    return px__algo_finish(inst, wait);
}
