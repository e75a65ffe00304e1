/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* test_fuzz, calls on views: create, wrap, subview, mirrors, retain and release, info and
 * spans, each judged against the model. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_api.h"

/* ---- Views -------------------------------------------------------------------------------------- */

static void adopt(mview *m, px_view *v, region *g, int s)
{
    m->live = true;
    m->v = v;
    m->refs = 1;
    m->reg = g;
    g->views++;
    fz.slot[s] = m;
}

void op_view_create(void)
{
    char label[300];
    px_view_desc d;
    gen_desc(&d, label, sizeof label);
    shape s;
    const char *why;
    const int exp = judge_desc(&d, &s, &why);
    if (exp == EXP_SKIP) return;
    const int slot = slot_for_new();
    const bool null_out = chance(3);
    px_view *v = (px_view *)FOREIGN;
    op("px_view_create(rank %d, dtype %d, es %zu, layout %d, extents %lld %lld %lld %lld, strides "
       "%lld %lld "
       "%lld %lld, "
       "flags %#x, space %d(%d)%s)",
       d.rank, (int)d.dtype, d.elem_size, (int)d.layout, (long long)d.extent[0],
       (long long)d.extent[1], (long long)d.extent[2], (long long)d.extent[3],
       (long long)d.stride[0], (long long)d.stride[1], (long long)d.stride[2],
       (long long)d.stride[3], d.flags, (int)d.space.kind, d.space.device,
       null_out ? ", out NULL" : "");
    const px_status st = px_view_create(null_out ? NULL : &v, &d);
    if (!judge("px_view_create", st, null_out ? EXP_FAIL : exp, null_out ? "out is NULL" : why)) {
        if (!null_out && v != NULL)
            found("px_view_create", "failed leaving *out set", "%p", (void *)v);
        return;
    }
    if (null_out) return;
    /* Accepted: the shape is valid but for what is named in why (flags). */
    if (exp == EXP_FAIL && strcmp(why, "unknown flag bits") != 0) {
        (void)px_view_release(&v);
        return;
    }
    mview *m = mview_new();
    region *g = region_new();
    shape_to_model(m, &d, &s);
    m->managed = true;
    px_view_info in;
    px_view_info_get(v, &in);
    m->data = s.empty ? NULL : (unsigned char *)in.data;
    g->lo = m->data;
    g->len = s.empty ? 0 : (size_t)s.bytes;
    g->lib_bytes = g->len;
    adopt(m, v, g, slot);
    check_info("px_view_create", m);
    if (!(d.flags & PX_VIEW_NO_INIT))
        for (size_t b = 0; b < g->len; ++b)
            if (g->lo[b] != 0) {
                found("px_view_create", "did not zero-fill", "byte %zu is %u", b, g->lo[b]);
                break;
            }
    /* Memory left uninitialised on purpose gets known bytes: the model compares them. */
    if ((d.flags & PX_VIEW_NO_INIT) && g->len > 0) memset(g->lo, 0xa5, g->len);
}

/* The alignment built-in elements need (USER elements: none). */
size_t align_of(px_dtype dt)
{
    return dt == PX_USER || (int)dt < 0 || dt >= PX_USER ? 1 : px_dtype_size(dt);
}

void op_view_wrap(void)
{
    char label[300];
    px_view_desc d;
    gen_desc(&d, label, sizeof label);
    shape s;
    const char *why;
    int exp = judge_desc(&d, &s, &why);
    /* Wrapping allocates nothing: a size valid but too large for a buffer of the test is
       not tried. */
    if (exp == EXP_SKIP || (exp == EXP_FAIL && strcmp(why, "too large to allocate") == 0)) return;
    const bool shape_ok = exp != EXP_FAIL || strcmp(why, "unknown flag bits") == 0;
    const int slot = slot_for_new(); /* first: it may release the last view of a buffer */
    static _Alignas(64) unsigned char scratch[64];
    region *g = NULL;
    unsigned char *data = NULL;
    bool reuse = false;
    if (chance(5)) {
        data = NULL;
        if (exp == EXP_OK && !s.empty) exp = EXP_FAIL, why = "NULL data";
    } else if (!shape_ok || s.empty) {
        data = scratch; /* portex must refuse before touching it, or it has nothing to touch */
    } else {
        const size_t need = (size_t)s.bytes;
        for (int i = 0; i < NSLOTS && chance(40); ++i) {
            region *c = &fz.regions[(i + rnd(0, NSLOTS - 1)) % NSLOTS];
            if (c->live && c->buf && c->len >= need + 8) {
                g = c;
                reuse = true;
                break;
            }
        }
        if (!g) {
            g = region_new();
            if (!g) return;
            g->len = need + 8;
            g->buf = malloc(g->len);
            ck_assert_ptr_nonnull(g->buf);
            g->lo = g->buf;
            tk_random_bytes(fuzz_rng(), g->lo, g->len);
        }
        const size_t al = align_of(d.dtype);
        size_t off = (size_t)rnd(0, (int64_t)(g->len - need));
        if (chance(80)) off -= off % al;
        data = g->lo + off;
        if (al > 1 && ((uintptr_t)data % al) != 0 && exp == EXP_OK)
            exp = EXP_FAIL, why = "misaligned data";
    }
    px_view *v = (px_view *)FOREIGN;
    op("px_view_wrap(rank %d, dtype %d, es %zu, layout %d, extents %lld %lld %lld, strides %lld "
       "%lld %lld, "
       "flags %#x, space %d(%d), data %s+%td)",
       d.rank, (int)d.dtype, d.elem_size, (int)d.layout, (long long)d.extent[0],
       (long long)d.extent[1], (long long)d.extent[2], (long long)d.stride[0],
       (long long)d.stride[1], (long long)d.stride[2], d.flags, (int)d.space.kind, d.space.device,
       data ? (reuse ? "shared" : "buffer") : "NULL", data && g ? data - g->lo : 0);
    const px_status st = px_view_wrap(&v, &d, data);
    const bool ok = judge("px_view_wrap", st, exp, why);
    if (!ok && v != NULL) found("px_view_wrap", "failed leaving *out set", "%p", (void *)v);
    const bool adoptable = ok && shape_ok && data && g && !s.empty;
    if (ok && !adoptable) (void)px_view_release(&v);
    if (!adoptable) {
        if (g && g->views == 0) {
            free(g->buf);
            g->live = false;
        }
        return;
    }
    mview *m = mview_new();
    shape_to_model(m, &d, &s);
    m->managed = false;
    m->data = data;
    adopt(m, v, g, slot);
    check_info("px_view_wrap", m);
}

static int64_t plus2(int64_t e) { return e <= INT64_MAX - 2 ? e + 2 : INT64_MAX; }

/* One slice of a dimension of extent e, valid or not, made with the px_slice helpers. */
static px_slice gen_slice(int64_t e)
{
    static const int64_t odd[] = {-1, INT64_MIN, INT64_MAX, INT64_MAX - 1, (int64_t)1 << 62};
    switch (rnd(0, 11)) {
    case 0: return px_slice_all();
    case 1: return px_slice_index(e > 0 ? rnd(0, e - 1) : 0);
    case 2: return px_slice_index(chance(50) ? e : PICK(odd));
    case 3:
        return px_slice_range(chance(50) ? PICK(odd) : rnd(-2, plus2(e)),
                              chance(50) ? PICK(odd) : rnd(-2, plus2(e)));
    case 4: return px_slice_range(rnd(0, e), PX_END);
    case 5: {
        px_slice raw = {rnd(INT64_MIN, INT64_MAX), rnd(INT64_MIN, INT64_MAX), chance(50)};
        return raw;
    }
    default: {
        const int64_t b = rnd(0, e);
        return px_slice_range(b, rnd(b, e));
    }
    }
}

/* The model of src's subview over slices sl (src->rank of them) in *m, but its label;
   EXP_OK, or EXP_FAIL with the reason. */
int sub_model(const mview *src, const px_slice *sl, mview *m, const char **why)
{
    int64_t offset = 0;
    bool empty = false;
    memset(m, 0, sizeof *m);
    for (int k = 0; k < src->rank; ++k) {
        const int64_t e = src->extent[k];
        if (sl[k].index) {
            if (sl[k].begin < 0 || sl[k].begin >= e) return *why = "index out of range", EXP_FAIL;
            continue;
        }
        const int64_t end = sl[k].end == PX_END ? e : sl[k].end;
        if (sl[k].begin < 0 || sl[k].begin > end || end > e)
            return *why = "range out of range", EXP_FAIL;
        m->extent[m->rank] = end - sl[k].begin;
        m->stride[m->rank] = src->stride[k];
        empty = empty || m->extent[m->rank] == 0;
        m->rank++;
    }
    /* Where the subview has elements, every begin is within its memory: no overflow. */
    for (int k = 0; k < src->rank && !empty; ++k) offset += sl[k].begin * src->stride[k];
    m->dtype = src->dtype;
    m->es = src->es;
    m->size = empty ? 0 : 1;
    for (int k = 0; k < m->rank; ++k) m->size *= m->extent[k];
    m->data = m->size > 0 ? src->data + offset * (int64_t)src->es : NULL;
    m->layout_exact = false;
    m->managed = src->managed;
    m->reg = src->reg;
    return EXP_OK;
}

static char *sub_label(const char *label)
{
    const size_t n = strlen(label);
    char *l = malloc(n + 6);
    ck_assert_ptr_nonnull(l);
    memcpy(l, label, n);
    memcpy(l + n, "(sub)", 6);
    return l;
}

void op_subview(void)
{
    mview *src;
    px_view *sv = view_arg(&src);
    const int srank = src ? src->rank : (int)rnd(0, 3);
    int nslices = chance(92)
                      ? srank
                      : (int)PICK(((const int[]){-1, 0, srank + 1, srank - 1, PX_MAX_RANK + 1}));
    px_slice sl[PX_MAX_RANK + 1];
    for (int k = 0; k <= PX_MAX_RANK; ++k)
        sl[k] = gen_slice(src && k < src->rank ? src->extent[k] : 4);
    const bool null_slices = chance(4), null_out = chance(3);

    int exp = EXP_OK;
    const char *why = "";
    mview model;
    if (!src)
        exp = EXP_FAIL, why = "src is no view";
    else if (null_out)
        exp = EXP_FAIL, why = "out is NULL";
    else if (null_slices && src->rank > 0)
        exp = EXP_FAIL, why = "slices is NULL";
    else if (nslices != src->rank)
        exp = EXP_FAIL, why = "nslices is not the rank";
    else
        exp = sub_model(src, sl, &model, &why);
    const int slot = slot_for_new();
    if (src && !src->live) return; /* released to make room */
    px_view *out = (px_view *)FOREIGN;
    char desc[256] = "";
    for (int k = 0; k < srank && k < 4; ++k) {
        char one[64];
        snprintf(one, sizeof one, " %s%lld:%lld", sl[k].index ? "i" : "", (long long)sl[k].begin,
                 (long long)sl[k].end);
        strncat(desc, one, sizeof desc - strlen(desc) - 1);
    }
    op("px_view_subview(%s, src %s, slices%s%s, n %d)", null_out ? "NULL" : "&out", view_name(sv),
       desc, null_slices ? " NULL" : "", nslices);
    const px_status st =
        px_view_subview(null_out ? NULL : &out, sv, null_slices ? NULL : sl, nslices);
    if (!judge("px_view_subview", st, exp, why)) {
        if (!null_out && out != NULL)
            found("px_view_subview", "failed leaving *out set", "%p", (void *)out);
        return;
    }
    if (exp != EXP_OK) {
        if (!null_out) (void)px_view_release(&out);
        return;
    }
    mview *m = mview_new();
    *m = model;
    m->label = sub_label(src->label);
    adopt(m, out, src->reg, slot);
    check_info("px_view_subview", m);
}

void op_mirror(void)
{
    mview *src;
    px_view *sv = view_arg(&src);
    const px_space sp = chance(85) ? px_host() : gen_space(true);
    const bool as_view = chance(50), null_out = chance(3);
    const char *func = as_view ? "px_view_create_mirror_view" : "px_view_create_mirror";
    int exp = EXP_OK;
    const char *why = "";
    if (null_out)
        exp = EXP_FAIL, why = "out is NULL";
    else if (!src)
        exp = EXP_FAIL, why = "src is no view";
    else if (!space_valid(sp))
        exp = EXP_FAIL, why = "space out of range";
    else if (!space_usable(sp))
        exp = EXP_FAIL, why = "space not available here";
    else if (src->size == 0 && !as_view)
        exp = EXP_ANY; /* its extents may be refused */
    const int slot = slot_for_new();
    if (src && !src->live) return;
    px_view *out = (px_view *)FOREIGN;
    op("%s(%s, space %d(%d), src %s)", func, null_out ? "NULL" : "&out", (int)sp.kind, sp.device,
       view_name(sv));
    const px_status st = as_view ? px_view_create_mirror_view(null_out ? NULL : &out, sp, sv)
                                 : px_view_create_mirror(null_out ? NULL : &out, sp, sv);
    if (!judge(func, st, exp, why)) {
        if (!null_out && out != NULL) found(func, "failed leaving *out set", "%p", (void *)out);
        return;
    }
    if (exp == EXP_FAIL) return;
    if (as_view) {
        /* HOST from HOST: the same view, one more reference. */
        if (out != sv)
            found(func, "made a new view in the view's own space", "%p for %p", (void *)out,
                  (void *)sv);
        fz.slot[slot] = src;
        src->refs++;
        return;
    }
    mview *m = mview_new();
    region *g = region_new();
    m->dtype = src->dtype;
    m->es = src->es;
    m->rank = src->rank;
    m->size = src->size;
    memcpy(m->extent, src->extent, sizeof m->extent);
    /* src's layout as portex has it (a subview's is portex's choice, checked against its
       strides when it was made). */
    px_view_info si;
    px_view_info_get(src->v, &si);
    m->layout = si.layout == PX_LAYOUT_LEFT ? PX_LAYOUT_LEFT : PX_LAYOUT_RIGHT;
    m->layout_exact = true;
    dense_strides(m->rank, m->extent, m->layout, m->stride);
    m->managed = true;
    px_view_info in;
    px_view_info_get(out, &in);
    m->data = m->size ? (unsigned char *)in.data : NULL;
    m->label = (char *)tk_dup_buf(in.label, strlen(in.label) + 1); /* portex's choice */
    g->lo = m->data;
    g->len = (size_t)m->size * m->es;
    g->lib_bytes = g->len;
    adopt(m, out, g, slot);
    check_info(func, m);
}

void op_retain_release(void)
{
    const int s = (int)rnd(0, NSLOTS - 1);
    if (fz.slot[s] && chance(55)) {
        release_slot(s);
        return;
    }
    mview *m;
    px_view *v = view_arg(&m);
    if (!m) {
        /* Retaining or releasing no view: NULL, a handle already NULL, a foreign pointer. */
        const int how = (int)rnd(0, 2);
        px_view *p = v;
        op("%s(%s)", how ? "px_view_release" : "px_view_retain", how == 1 ? "NULL" : view_name(v));
        if (how == 0)
            judge("px_view_retain", px_view_retain(v), EXP_FAIL, "no view");
        else
            judge("px_view_release", px_view_release(how == 1 ? NULL : &p), EXP_FAIL, "no view");
        return;
    }
    const int free_s = free_slot();
    if (free_s < 0) return;
    op("px_view_retain(%s)", view_name(v));
    if (judge("px_view_retain", px_view_retain(v), EXP_OK, "")) {
        fz.slot[free_s] = m;
        m->refs++;
    }
}

void op_info_span(void)
{
    mview *m;
    px_view *v = view_arg(&m);
    const int kind = (int)rnd(0, 8); /* 0: info; 1: px_view_span; 2..8: the typed spans */
    const bool null_out = chance(5);
    if (kind == 0) {
        px_view_info in;
        op("px_view_info_get(%s%s)", view_name(v), null_out ? ", NULL" : "");
        if (judge("px_view_info_get", px_view_info_get(v, null_out ? NULL : &in),
                  m && !null_out ? EXP_OK : EXP_FAIL, "no view or no out") &&
            m)
            check_info("px_view_info_get", m);
        return;
    }
    static const char *const names[] = {"px_view_span",     "px_view_span_u8",  "px_view_span_i32",
                                        "px_view_span_i64", "px_view_span_u32", "px_view_span_u64",
                                        "px_view_span_f32", "px_view_span_f64"};
    static const px_dtype types[] = {PX_DTYPE_COUNT, PX_U8,  PX_I32, PX_I64,
                                     PX_U32,         PX_U64, PX_F32, PX_F64};
    const int t = kind - 1;
    px_span sp; /* every typed span has px_span's layout */
    memset(&sp, 0xa5, sizeof sp);
    px_span *out = null_out ? NULL : &sp;
    op("%s(%s%s)", names[t], view_name(v), null_out ? ", NULL" : "");
    px_status st;
    switch (t) {
    case 0: st = px_view_span(v, out); break;
    case 1: st = px_view_span_u8(v, (px_span_u8 *)(void *)out); break;
    case 2: st = px_view_span_i32(v, (px_span_i32 *)(void *)out); break;
    case 3: st = px_view_span_i64(v, (px_span_i64 *)(void *)out); break;
    case 4: st = px_view_span_u32(v, (px_span_u32 *)(void *)out); break;
    case 5: st = px_view_span_u64(v, (px_span_u64 *)(void *)out); break;
    case 6: st = px_view_span_f32(v, (px_span_f32 *)(void *)out); break;
    default: st = px_view_span_f64(v, (px_span_f64 *)(void *)out); break;
    }
    const bool valid = m && !null_out && (t == 0 || types[t] == m->dtype);
    if (!judge(names[t], st, valid ? EXP_OK : EXP_FAIL, "no view, no out, or another dtype") ||
        !valid)
        return;
    bool bad = sp.rank != m->rank || (m->size > 0 && (unsigned char *)sp.data != m->data);
    for (int d = 0; d < m->rank && !bad; ++d)
        bad = sp.extent[d] != m->extent[d] ||
              (m->size > 0 && m->extent[d] > 1 && sp.stride[d] != m->stride[d]);
    if (bad) found(names[t], "gave a span that differs from the view", "rank %d", (int)sp.rank);
}
