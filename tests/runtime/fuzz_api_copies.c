/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* test_fuzz, copies and fills between the test's views, overlapping ones included: the
 * status, the path and its counter, and every byte written or left alone. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_api.h"

/* ---- Copies and fills -------------------------------------------------------------------------------- */

static bool same_shape(const mview *a, const mview *b)
{
    if (a->rank != b->rank || a->es != b->es) return false;
    for (int d = 0; d < a->rank; ++d)
        if (a->extent[d] != b->extent[d]) return false;
    return true;
}

/* Whether some byte is an element of both views. */
static bool overlap(const mview *a, const mview *b)
{
    if (a->reg != b->reg || a->size == 0 || b->size == 0) return false;
    unsigned char *mask = calloc(a->reg->len, 1);
    ck_assert_ptr_nonnull(mask);
    for (int64_t i = 0; i < a->size; ++i) memset(mask + (elem_at(a, i) - a->reg->lo), 1, a->es);
    bool hit = false;
    for (int64_t i = 0; i < b->size && !hit; ++i)
        for (size_t k = 0; k < b->es && !hit; ++k)
            hit = mask[elem_at(b, i) - b->reg->lo + (ptrdiff_t)k];
    free(mask);
    return hit;
}

unsigned char *snapshot(const region *g)
{
    unsigned char *p = malloc(g->len ? g->len : 1);
    ck_assert_ptr_nonnull(p);
    if (g->len) memcpy(p, g->lo, g->len);
    return p;
}

static bool same_order(const mview *a, const mview *b)
{
    bool al, bl;
    if (!contiguous_of(a, &al) || !contiguous_of(b, &bl)) return false;
    for (int d = 0; d < a->rank; ++d)
        if (a->extent[d] > 1 && a->stride[d] != b->stride[d]) return false;
    return true;
}

/* The path the documentation's table gives for two HOST views. */
static px_copy_path host_path(const mview *dst, const mview *src)
{
    const bool flat = same_order(dst, src);
    if (dst->size == 0 || (flat && dst->data == src->data)) return PX_COPY_NONE;
    return flat ? PX_COPY_HOST_MEMCPY : PX_COPY_HOST_STRIDED;
}

/* An instance argument: one the test made, the default, NULL or foreign. */
px_instance *inst_arg(bool *live)
{
    int r = (int)rnd(0, 99);
    *live = true;
    if (r < 45) {
        for (int i = 0; i < NINST; ++i) {
            px_instance *in = fz.inst[(i + rnd(0, NINST - 1)) % NINST];
            if (in) return in;
        }
    }
    if (r < 92 && fz.def) return fz.def;
    *live = false;
    return r % 2 ? NULL : (px_instance *)FOREIGN;
}

/* One copy (form 0 blocking, 1 asynchronous on in, 2 the query) from sv into dv, whose
   models are sm and dm (NULL: no view), checked. */
static void copy_between(int form, px_instance *in, bool inst_live, mview *dm, px_view *dv,
                         mview *sm, px_view *sv)
{
    const bool null_path = chance(form == 2 ? 5 : 30);
    static const char *const funcs[] = {"px_deep_copy", "px_deep_copy_async", "px_deep_copy_query"};
    const char *func = funcs[form];
    int exp = EXP_OK;
    const char *why = "";
    if (!dm || !sm)
        exp = EXP_FAIL, why = "no view";
    else if (!inst_live)
        exp = EXP_FAIL, why = "no instance";
    else if (form == 2 && null_path)
        exp = EXP_FAIL, why = "path is NULL";
    else if (!same_shape(dm, sm))
        exp = EXP_FAIL, why = "shapes differ";
    const bool ov =
        exp == EXP_OK && form != 2 && overlap(dm, sm) &&
        !(dm->data == sm->data && same_order(dm, sm)); /* the same elements: nothing to do */
    if (ov) exp = EXP_ANY; /* refused, or copied as if through a copy of the source */

    unsigned char *dsnap = NULL, *ssnap = NULL, *want = NULL;
    bool aliased = false;
    px_copy_path query = PX_COPY_PATH_COUNT;
    if (exp != EXP_FAIL) {
        contiguous_of(dm, &aliased);
        dsnap = snapshot(dm->reg);
        ssnap = snapshot(sm->reg);
        want = snapshot(dm->reg);
        for (int64_t i = 0; i < dm->size; ++i)
            memcpy(want + (elem_at(dm, i) - dm->reg->lo), elem_at(sm, i), dm->es);
        query = host_path(dm, sm);
    }
    uint64_t before[PX_COPY_PATH_COUNT], after[PX_COPY_PATH_COUNT];
    px_copy_path_counts(before);
    px_copy_path path = PX_COPY_PATH_COUNT;
    op("%s(%s%sdst %s, src %s%s)%s", func,
       form == 1 ? (in == FOREIGN ? "foreign, "
                    : in          ? "inst, "
                                  : "NULL, ")
                 : "",
       "", view_name(dv), view_name(sv), null_path ? ", NULL" : "", ov ? " [overlapping]" : "");
    px_status st;
    if (form == 0)
        st = px_deep_copy(dv, sv, null_path ? NULL : &path);
    else if (form == 1)
        st = px_deep_copy_async(in, dv, sv, null_path ? NULL : &path);
    else
        st = px_deep_copy_query(dv, sv, null_path ? NULL : &path);
    const bool ok = judge(func, st, exp, why);
    px_copy_path_counts(after);
    if (exp != EXP_FAIL) {
        if (ok && !null_path && path != query)
            found(func, "took another path than the documented one", "%s, expected %s",
                  px_copy_path_string(path), px_copy_path_string(query));
        for (int k = 0; k < PX_COPY_PATH_COUNT; ++k)
            if (after[k] != before[k] + (ok && form != 2 && k == (int)query))
                found(func, "counted paths wrongly", "count of %s went %llu -> %llu",
                      px_copy_path_string((px_copy_path)k), (unsigned long long)before[k],
                      (unsigned long long)after[k]);
        const unsigned char *expect = ok && form != 2 ? want : dsnap;
        for (size_t b = 0; b < dm->reg->len; ++b) {
            if (aliased && expect == want) break; /* which source element wins is not defined */
            if (dm->reg->lo[b] != expect[b]) {
                found(func,
                      ok ? (ov ? "copied overlapping views wrongly" : "copied wrongly")
                         : "changed memory although it failed",
                      "byte %zu of the destination's memory is %u, expected %u", b, dm->reg->lo[b],
                      expect[b]);
                break;
            }
        }
        if (sm->reg != dm->reg && sm->reg->len && memcmp(sm->reg->lo, ssnap, sm->reg->len) != 0)
            found(func, "changed the source", "%s", "");
        if (dm->reg->len) memcpy(dm->reg->lo, expect, dm->reg->len); /* go on from what should be */
    } else {
        for (int k = 0; k < PX_COPY_PATH_COUNT; ++k)
            if (after[k] != before[k])
                found(func, "counted a failed copy", "%s", px_copy_path_string((px_copy_path)k));
    }
    free(dsnap);
    free(ssnap);
    free(want);
}

void op_copy(void)
{
    mview *dm, *sm;
    px_view *dv = view_arg(&dm), *sv = view_arg(&sm);
    if (chance(20) && dm) sv = (sm = dm)->v; /* a view onto itself */
    const int form = (int)rnd(0, 2);
    bool inst_live = true;
    px_instance *in = form == 1 ? inst_arg(&inst_live) : NULL;
    copy_between(form, in, inst_live, dm, dv, sm, sv);
}

/* Copies between two views of the same memory that overlap: two subviews of one view,
   shifted along one dimension, or a square view and its transpose (a view of the other
   layout wrapped over the same memory). Portex may refuse, else the result must be that
   of a copy through a snapshot of the source. */
void op_copy_overlap(void)
{
    mview *v = pick_view();
    if (!v || v->size < 2) return;
    mview a, b;
    px_view *av = NULL, *bv = NULL;
    const char *why = "";
    if (v->rank == 2 && v->extent[0] == v->extent[1] && v->layout_exact &&
        v->layout != PX_LAYOUT_STRIDE && (uintptr_t)v->data % align_of(v->dtype) == 0 &&
        chance(40)) {
        /* The transpose: the same memory with the other layout. */
        px_view_desc d = tk_desc("transpose", px_host(), v->dtype, 2, v->extent);
        d.elem_size = v->dtype == PX_USER ? v->es : 0;
        d.layout = v->layout == PX_LAYOUT_LEFT ? PX_LAYOUT_RIGHT : PX_LAYOUT_LEFT;
        op("px_view_wrap(the transpose of %s)", v->label);
        if (!judge("px_view_wrap", px_view_wrap(&bv, &d, v->data), EXP_OK, "")) return;
        a = *v;
        av = v->v;
        b = *v;
        b.layout = d.layout;
        b.managed = false;
        dense_strides(2, v->extent, d.layout, b.stride);
    } else {
        int k = (int)rnd(0, v->rank - 1);
        for (int t = 0; t < v->rank && v->extent[k] < 2; ++t) k = (k + 1) % v->rank;
        if (v->extent[k] < 2) return;
        const int64_t e = v->extent[k], shift = rnd(1, e - 1);
        px_slice sa[PX_MAX_RANK], sb[PX_MAX_RANK];
        for (int d = 0; d < v->rank; ++d) {
            const int64_t lo = rnd(0, v->extent[d] - 1), hi = rnd(lo + 1, v->extent[d]);
            sa[d] = sb[d] = chance(80) ? px_slice_range(lo, hi) : px_slice_index(lo);
        }
        sa[k] = px_slice_range(0, e - shift);
        sb[k] = px_slice_range(shift, e);
        if (sub_model(v, sa, &a, &why) != EXP_OK || sub_model(v, sb, &b, &why) != EXP_OK) return;
        op("two shifted subviews of %s (dimension %d, shift %lld)", v->label, k, (long long)shift);
        if (!judge("px_view_subview", px_view_subview(&av, v->v, sa, v->rank), EXP_OK, "")) return;
        if (!judge("px_view_subview", px_view_subview(&bv, v->v, sb, v->rank), EXP_OK, "")) {
            px_view_release(&av);
            return;
        }
    }
    a.label = b.label = v->label;
    const int form = (int)rnd(0, 1);
    bool inst_live = true;
    px_instance *in = form == 1 ? inst_arg(&inst_live) : NULL;
    if (chance(50))
        copy_between(form, in, inst_live, &a, av, &b, bv);
    else
        copy_between(form, in, inst_live, &b, bv, &a, av);
    if (av != v->v) px_view_release(&av);
    px_view_release(&bv);
}

void op_fill(void)
{
    mview *m;
    px_view *v = view_arg(&m);
    const bool async = chance(50), null_value = chance(4), null_path = chance(30);
    bool inst_live = true;
    px_instance *in = async ? inst_arg(&inst_live) : NULL;
    const char *func = async ? "px_fill_async" : "px_fill";
    unsigned char value[32];
    tk_random_bytes(fuzz_rng(), value, sizeof value);
    int exp = EXP_OK;
    const char *why = "";
    if (!m)
        exp = EXP_FAIL, why = "no view";
    else if (!inst_live)
        exp = EXP_FAIL, why = "no instance";
    else if (null_value)
        exp = EXP_FAIL, why = "value is NULL";
    unsigned char *want = NULL, *was = NULL;
    if (exp == EXP_OK) {
        was = snapshot(m->reg);
        want = snapshot(m->reg);
        for (int64_t i = 0; i < m->size; ++i)
            memcpy(want + (elem_at(m, i) - m->reg->lo), value, m->es);
    }
    px_copy_path path = PX_COPY_PATH_COUNT;
    op("%s(%s%s, value%s)", func,
       async ? (in == FOREIGN ? "foreign, "
                : in          ? "inst, "
                              : "NULL, ")
             : "",
       view_name(v), null_value ? " NULL" : "");
    px_status st = async ? px_fill_async(in, v, null_value ? NULL : value, null_path ? NULL : &path)
                         : px_fill(v, null_value ? NULL : value, null_path ? NULL : &path);
    if (judge(func, st, exp, why) && exp == EXP_OK) {
        const px_copy_path p = m->size ? PX_COPY_HOST_FILL : PX_COPY_NONE;
        if (!null_path && path != p)
            found(func, "took another path than the documented one", "%s",
                  px_copy_path_string(path));
    }
    if (want) {
        const unsigned char *expect = st == PX_OK ? want : was;
        for (size_t b = 0; b < m->reg->len; ++b)
            if (m->reg->lo[b] != expect[b]) {
                found(func, st == PX_OK ? "filled wrongly" : "changed memory although it failed",
                      "byte %zu of the view's memory is %u, expected %u", b, m->reg->lo[b],
                      expect[b]);
                memcpy(m->reg->lo, expect, m->reg->len);
                break;
            }
    }
    free(want);
    free(was);
}
