/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Sorting views (portex/sort.h): the calls checked, made into one px__sort_op and run by
 * the instance's backend, on the instance or, for inst NULL, on the default instance of the
 * keys' space after all earlier work, waited for. */
#include <string.h>

#include "base/error.h"
#include "portex.h"
#include "runtime/instance.h"
#include "runtime/view_algorithm.h"
#include "spaces/space.h"
#include "spaces/view.h"

/* A sort's views as the caller named them, for the checks and the messages. */
typedef struct sort_call {
    px_view *keys_out, *values_out;
    const px_view *keys, *values, *offsets;
    px_view *perm;
    unsigned flags;
} sort_call;

static px_status check_flags(unsigned flags)
{
    if (flags & ~(unsigned)PX_SORT_DESCENDING)
        return px__error(PX_ERR_INVALID_ARGUMENT,
                         "flags 0x%x: only PX_SORT_ASCENDING (0) and PX_SORT_DESCENDING are known",
                         flags);
    return PX_OK;
}

static bool key_type(px_dtype t) { return t != PX_USER && t < PX_DTYPE_COUNT; }

/* v has keys' extent and lives in keys' space. */
static px_status check_beside(const px_view *v, const char *what, const px_view *keys)
{
    return px__algo_check_beside(v, what, keys, "keys");
}

/* The views a sort writes overlap no other view it is given, but the input each replaces. */
static px_status check_apart(const px_view *const *views, const char *const *names, int n,
                             const px_view *const *inputs_of)
{
    for (int i = 0; i < n; ++i)
        for (int j = i + 1; j < n; ++j) {
            if (!views[i] || !views[j]) continue;
            if (inputs_of[i] == views[j] || inputs_of[j] == views[i]) {
                if (views[i]->data == views[j]->data) continue; /* in place */
            }
            if (px__algo_overlap(views[i], views[j]))
                return px__error(PX_ERR_INVALID_ARGUMENT, "%s '%s' and %s '%s' overlap", names[i],
                                 views[i]->label, names[j], views[j]->label);
        }
    return PX_OK;
}

/* Runs op for c on inst (or the default instance, waited for). */
static px_status run(const sort_call *c, px_instance *inst, const px__sort_op *op)
{
    const px_view *all[] = {c->keys, c->values, c->keys_out, c->values_out, c->perm, c->offsets};
    const char *names[] = {"keys", "values", "keys_out", "values_out", "perm", "offsets"};
    const px__algo_call call = {"a sort", all, names, (int)(sizeof all / sizeof all[0])};
    bool wait;
    PX__TRY(px__algo_begin(&call, &inst, &wait));
    const px__backend *be = inst->be;
    if (!be->sort) return px__error(PX_ERR_UNSUPPORTED, "the %s backend cannot sort", be->name);
    /* No keys: nothing to sort, but segment offsets still checked where they are read. */
    if (op->n > 0 || op->segments > 0) PX__TRY(be->sort(inst->queue, op));
    return px__algo_finish(inst, wait);
}

/* op's keys and values from checked views. */
static px__sort_op op_of(const px_view *keys, const px_view *values, unsigned flags)
{
    px__sort_op op;
    memset(&op, 0, sizeof op);
    op.key_dtype = keys->dtype;
    op.key_size = keys->elem_size;
    op.n = keys->extent[0];
    op.keys_in = keys->data;
    op.keys_out = keys->data;
    op.value_size = values ? values->elem_size : 0;
    op.values_in = values ? values->data : NULL;
    op.values_out = values ? values->data : NULL;
    op.descending = (flags & PX_SORT_DESCENDING) != 0;
    op.segments = -1;
    return op;
}

static px_status check_keys(const px_view *keys)
{
    PX__TRY(px__algo_check_vector(keys, "keys"));
    if (!key_type(keys->dtype))
        return px__error(PX_ERR_INVALID_ARGUMENT,
                         "keys '%s' are %s: keys must be of a built-in element type "
                         "(u8, i32, i64, u32, u64, f32, f64)",
                         keys->label, px_dtype_string(keys->dtype));
    return PX_OK;
}

px_status px_sort(px_instance *inst, px_view *keys, px_view *values, unsigned flags)
{
    PX__ENTER;
    PX__TRY(check_flags(flags));
    PX__TRY(check_keys(keys));
    if (values) PX__TRY(check_beside(values, "values", keys));
    if (values && px__algo_overlap(keys, values))
        return px__error(PX_ERR_INVALID_ARGUMENT, "keys '%s' and values '%s' overlap", keys->label,
                         values->label);
    const sort_call c = {.keys = keys, .values = values, .flags = flags};
    const px__sort_op op = op_of(keys, values, flags);
    return run(&c, inst, &op);
}

px_status px_sort_into(px_instance *inst, px_view *keys_out, px_view *values_out,
                       const px_view *keys, const px_view *values, unsigned flags)
{
    PX__ENTER;
    PX__TRY(check_flags(flags));
    PX__TRY(check_keys(keys));
    PX__TRY(check_beside(keys_out, "keys_out", keys));
    if (keys_out->dtype != keys->dtype)
        return px__error(PX_ERR_INVALID_ARGUMENT, "keys_out '%s' is %s and keys '%s' %s",
                         keys_out->label, px_dtype_string(keys_out->dtype), keys->label,
                         px_dtype_string(keys->dtype));
    if ((values == NULL) != (values_out == NULL))
        return px__error(PX_ERR_INVALID_ARGUMENT,
                         "values and values_out must be both NULL or both views");
    if (values) {
        PX__TRY(check_beside(values, "values", keys));
        PX__TRY(check_beside(values_out, "values_out", keys));
        if (values_out->dtype != values->dtype || values_out->elem_size != values->elem_size)
            return px__error(PX_ERR_INVALID_ARGUMENT,
                             "values_out '%s' (%s, %zu bytes) and values '%s' (%s, %zu bytes) "
                             "must have one element type",
                             values_out->label, px_dtype_string(values_out->dtype),
                             values_out->elem_size, values->label, px_dtype_string(values->dtype),
                             values->elem_size);
    }
    const px_view *views[] = {keys_out, values_out, keys, values};
    const char *names[] = {"keys_out", "values_out", "keys", "values"};
    const px_view *inputs_of[] = {keys, values, keys_out, values_out};
    PX__TRY(check_apart(views, names, 4, inputs_of));
    const sort_call c = {.keys_out = keys_out,
                         .values_out = values_out,
                         .keys = keys,
                         .values = values,
                         .flags = flags};
    px__sort_op op = op_of(keys, values, flags);
    op.keys_out = keys_out->data;
    op.values_out = values_out ? values_out->data : NULL;
    return run(&c, inst, &op);
}

px_status px_sort_permutation(px_instance *inst, px_view *perm, const px_view *keys, unsigned flags)
{
    PX__ENTER;
    PX__TRY(check_flags(flags));
    PX__TRY(check_keys(keys));
    PX__TRY(check_beside(perm, "perm", keys));
    if (perm->dtype != PX_I32 && perm->dtype != PX_I64)
        return px__error(PX_ERR_INVALID_ARGUMENT, "perm '%s' is %s: it must be i32 or i64",
                         perm->label, px_dtype_string(perm->dtype));
    if (perm->dtype == PX_I32 && keys->extent[0] > INT32_MAX)
        return px__error(PX_ERR_INVALID_ARGUMENT,
                         "perm '%s' is i32 and keys '%s' has %lld elements: i64 indices needed",
                         perm->label, keys->label, (long long)keys->extent[0]);
    if (px__algo_overlap(perm, keys))
        return px__error(PX_ERR_INVALID_ARGUMENT, "perm '%s' and keys '%s' overlap", perm->label,
                         keys->label);
    const sort_call c = {.keys = keys, .perm = perm, .flags = flags};
    px__sort_op op = op_of(keys, NULL, flags);
    op.keys_out = NULL;
    op.value_size = perm->elem_size;
    op.values_out = perm->data;
    return run(&c, inst, &op);
}

px_status px_sort_segments(px_instance *inst, px_view *keys, px_view *values,
                           const px_view *offsets, unsigned flags)
{
    PX__ENTER;
    PX__TRY(check_flags(flags));
    PX__TRY(check_keys(keys));
    if (values) PX__TRY(check_beside(values, "values", keys));
    PX__TRY(px__algo_check_vector(offsets, "offsets"));
    if (offsets->dtype != PX_I32 && offsets->dtype != PX_I64)
        return px__error(PX_ERR_INVALID_ARGUMENT, "offsets '%s' are %s: they must be i32 or i64",
                         offsets->label, px_dtype_string(offsets->dtype));
    if (offsets->extent[0] < 1)
        return px__error(PX_ERR_INVALID_ARGUMENT,
                         "offsets '%s' is empty: it needs nsegments + 1 entries", offsets->label);
    if (!px__space_same(offsets->alloc->space, keys->alloc->space))
        return px__error(PX_ERR_INVALID_ARGUMENT,
                         "offsets '%s' lives in %s(%d) and keys '%s' in %s(%d): they must share "
                         "a space",
                         offsets->label, px_space_kind_string(offsets->alloc->space.kind),
                         offsets->alloc->space.device, keys->label,
                         px_space_kind_string(keys->alloc->space.kind), keys->alloc->space.device);
    const px_view *views[] = {keys, values, offsets};
    const char *names[] = {"keys", "values", "offsets"};
    const px_view *inputs_of[] = {NULL, NULL, NULL};
    PX__TRY(check_apart(views, names, 3, inputs_of));
    const sort_call c = {.keys = keys, .values = values, .offsets = offsets, .flags = flags};
    px__sort_op op = op_of(keys, values, flags);
    op.segments = offsets->extent[0] - 1;
    op.offsets = offsets->data;
    op.offset_size = offsets->elem_size;
    return run(&c, inst, &op);
}
