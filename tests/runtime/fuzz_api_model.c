/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* test_fuzz, the model: what the test made (views, the memory they reach, instances,
 * events), what portex must say about it, and the shapes of views, valid or not, with the
 * verdict the model gives each. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_api.h"

/* ---- The model ------------------------------------------------------------------------------ */

struct fuzz fz;
_Alignas(64) unsigned char foreign[512];

bool initialized(void) { return fz.init_refs > 0; }

size_t model_bytes(void)
{
    size_t b = 0;
    for (int i = 0; i < NSLOTS; ++i)
        if (fz.regions[i].live) b += fz.regions[i].lib_bytes;
    return b;
}

int live_objects(void)
{
    int n = 0;
    for (int i = 0; i < NSLOTS; ++i) n += fz.views[i].live;
    for (int i = 0; i < NINST; ++i) n += fz.inst[i] != NULL;
    for (int i = 0; i < NEVENTS; ++i) n += fz.ev[i].ev != NULL;
    return n;
}

region *region_new(void)
{
    for (int i = 0; i < NSLOTS; ++i)
        if (!fz.regions[i].live) {
            region *g = &fz.regions[i];
            memset(g, 0, sizeof *g);
            g->live = true;
            return g;
        }
    return NULL;
}

mview *mview_new(void)
{
    for (int i = 0; i < NSLOTS; ++i)
        if (!fz.views[i].live) {
            mview *m = &fz.views[i];
            memset(m, 0, sizeof *m);
            return m;
        }
    return NULL;
}

int free_slot(void)
{
    for (int i = 0; i < NSLOTS; ++i)
        if (!fz.slot[i]) return i;
    return -1;
}

/* A live view of the test (NULL when there is none). */
mview *pick_view(void)
{
    int live[NSLOTS], n = 0;
    for (int i = 0; i < NSLOTS; ++i)
        if (fz.slot[i]) live[n++] = i;
    return n ? fz.slot[live[rnd(0, n - 1)]] : NULL;
}

/* A view argument: mostly a live view, else NULL or a foreign pointer. */
px_view *view_arg(mview **m)
{
    *m = chance(92) ? pick_view() : NULL;
    if (*m) return (*m)->v;
    return chance(50) ? NULL : (px_view *)FOREIGN;
}

const char *view_name(const px_view *v)
{
    if (!v) return "NULL";
    if (v == (const px_view *)FOREIGN) return "foreign";
    for (int i = 0; i < NSLOTS; ++i)
        if (fz.views[i].live && fz.views[i].v == v)
            return fz.views[i].label[0] ? fz.views[i].label : "''";
    return "?";
}

/* The model's side of a view handle going away (portex freed it). */
static void mview_gone(mview *m)
{
    region *g = m->reg;
    if (--g->views == 0) {
        free(g->buf);
        g->live = false;
    }
    free(m->label);
    m->live = false;
}

/* Drops the reference of slot s. */
void release_slot(int s)
{
    mview *m = fz.slot[s];
    px_view *v = m->v;
    op("px_view_release(&%s)", m->label);
    const px_status st = px_view_release(&v);
    if (judge("px_view_release", st, EXP_OK, "") && v != NULL)
        found("px_view_release", "left the handle set", "*view is %p", (void *)v);
    fz.slot[s] = NULL;
    if (st == PX_OK && --m->refs == 0) mview_gone(m);
}

int slot_for_new(void)
{
    int s = free_slot();
    if (s < 0) {
        s = (int)rnd(0, NSLOTS - 1);
        release_slot(s);
    }
    return s;
}

/* Offset, in elements from data, of element number `flat` (LAYOUT_RIGHT order). */
static int64_t elem_off(const mview *m, int64_t flat)
{
    int64_t off = 0;
    for (int d = m->rank - 1; d >= 0; --d) {
        off += (flat % m->extent[d]) * m->stride[d];
        flat /= m->extent[d];
    }
    return off;
}

unsigned char *elem_at(const mview *m, int64_t flat)
{
    return m->data + elem_off(m, flat) * (int64_t)m->es;
}

static int cmp_i64(const void *a, const void *b)
{
    const int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Whether the elements fill [data, data + size * es) exactly; and whether two indices
   reach the same element (*aliased). Enumerated: views are small. */
bool contiguous_of(const mview *m, bool *aliased)
{
    *aliased = false;
    if (m->size <= 1) return true;
    int64_t *off = malloc(sizeof *off * (size_t)m->size);
    ck_assert_ptr_nonnull(off);
    for (int64_t i = 0; i < m->size; ++i) off[i] = elem_off(m, i);
    qsort(off, (size_t)m->size, sizeof *off, cmp_i64);
    bool contiguous = true;
    for (int64_t i = 0; i < m->size; ++i) {
        if (i > 0 && off[i] == off[i - 1]) *aliased = true;
        if (off[i] != i) contiguous = false;
    }
    free(off);
    return contiguous;
}

/* Strides of a dense view of `layout` (extents of 0 or 1 count as 1; where the product
   overflows, as for views with no element and huge extents, INT64_MAX). */
void dense_strides(int rank, const int64_t *extent, px_layout layout, int64_t *stride)
{
    int64_t s = 1;
    for (int k = 0; k < rank; ++k) {
        const int d = layout == PX_LAYOUT_LEFT ? k : rank - 1 - k;
        stride[d] = s;
        if (extent[d] > 1 && __builtin_mul_overflow(s, extent[d], &s)) s = INT64_MAX;
    }
}

/* Whether the strides are those of a dense view of `layout`, ignoring dimensions of one
   element or none. */
static bool strides_dense(const mview *m, px_layout layout)
{
    int64_t s = 1;
    for (int k = 0; k < m->rank; ++k) {
        const int d = layout == PX_LAYOUT_LEFT ? k : m->rank - 1 - k;
        if (m->extent[d] <= 1) continue;
        if (m->stride[d] != s) return false;
        s *= m->extent[d];
    }
    return true;
}

/* The view's information agrees with the model. */
void check_info(const char *func, const mview *m)
{
    px_view_info in;
    memset(&in, 0xa5, sizeof in);
    const px_status st = px_view_info_get(m->v, &in);
    if (st != PX_OK) {
        found("px_view_info_get", "refused a live view", "%s: %s", px_status_name(st),
              px_last_error());
        return;
    }
    char bad[160] = "";
    bool aliased;
    if (strcmp(in.label, m->label) != 0)
        snprintf(bad, sizeof bad, "label '%s', expected '%s'", in.label, m->label);
    else if (in.dtype != m->dtype)
        snprintf(bad, sizeof bad, "dtype %d, expected %d", (int)in.dtype, (int)m->dtype);
    else if (in.elem_size != m->es)
        snprintf(bad, sizeof bad, "elem_size %zu, expected %zu", in.elem_size, m->es);
    else if (in.rank != m->rank)
        snprintf(bad, sizeof bad, "rank %d, expected %d", in.rank, m->rank);
    else if (in.size != m->size)
        snprintf(bad, sizeof bad, "size %lld, expected %lld", (long long)in.size,
                 (long long)m->size);
    else if (in.bytes != (size_t)m->size * m->es)
        snprintf(bad, sizeof bad, "bytes %zu", in.bytes);
    else if (in.space.kind != PX_SPACE_HOST || in.space.device != 0)
        snprintf(bad, sizeof bad, "space %d(%d)", (int)in.space.kind, in.space.device);
    else if (in.managed != m->managed)
        snprintf(bad, sizeof bad, "managed %d", (int)in.managed);
    else if (in.use_count < 1 || in.use_count > NSLOTS + 1)
        snprintf(bad, sizeof bad, "use_count %d", in.use_count);
    for (int d = 0; d < m->rank && !bad[0]; ++d)
        if (in.extent[d] != m->extent[d])
            snprintf(bad, sizeof bad, "extent[%d] %lld, expected %lld", d, (long long)in.extent[d],
                     (long long)m->extent[d]);
    if (!bad[0] && m->size > 0) {
        for (int d = 0; d < m->rank && !bad[0]; ++d)
            if (m->extent[d] > 1 && in.stride[d] != m->stride[d])
                snprintf(bad, sizeof bad, "stride[%d] %lld, expected %lld", d,
                         (long long)in.stride[d], (long long)m->stride[d]);
        if (!bad[0] && (unsigned char *)in.data != m->data)
            snprintf(bad, sizeof bad, "data %p, expected %p", in.data, (void *)m->data);
        if (!bad[0] && in.contiguous != contiguous_of(m, &aliased))
            snprintf(bad, sizeof bad, "contiguous %d, the elements say otherwise",
                     (int)in.contiguous);
    }
    if (!bad[0] && m->layout_exact && in.layout != m->layout)
        snprintf(bad, sizeof bad, "layout %d, expected %d", (int)in.layout, (int)m->layout);
    if (!bad[0] && m->size > 0 && (in.layout == PX_LAYOUT_RIGHT || in.layout == PX_LAYOUT_LEFT) &&
        !m->layout_exact && !strides_dense(m, in.layout))
        snprintf(bad, sizeof bad, "layout %s but the strides are not", px_layout_string(in.layout));
    if (bad[0]) found(func, "made a view whose information is wrong", "%s", bad);
}

/* ---- Shapes ------------------------------------------------------------------------------------ */

bool space_valid(px_space s)
{
    if ((int)s.kind < 0 || s.kind >= PX_SPACE_KIND_COUNT) return false;
    if (s.kind == PX_SPACE_DEVICE) return s.device >= 0 && s.device < 64;
    return s.device == 0;
}

bool space_usable(px_space s)
{
    return space_valid(s) &&
           (s.kind == PX_SPACE_DEVICE ? s.device == 0 && fz.avail[2] : fz.avail[s.kind]);
}

/* What px_view_create must do with d: EXP_OK, EXP_FAIL (why says why), EXP_ANY, or
   EXP_SKIP where the answer depends on the machine (a large allocation). */
int judge_desc(const px_view_desc *d, shape *s, const char **why)
{
    memset(s, 0, sizeof *s);
    *why = "";
    if (!initialized()) return *why = "not initialized", EXP_FAIL;
    if (d->rank < 0 || d->rank > PX_MAX_RANK) return *why = "rank out of range", EXP_FAIL;
    if ((int)d->dtype < 0 || d->dtype >= PX_DTYPE_COUNT)
        return *why = "dtype out of range", EXP_FAIL;
    if (d->dtype == PX_USER) {
        if (d->elem_size == 0) return *why = "PX_USER with elem_size 0", EXP_FAIL;
        s->es = d->elem_size;
    } else {
        s->es = px_dtype_size(d->dtype);
        if (d->elem_size != 0 && d->elem_size != s->es)
            return *why = "elem_size of a built-in dtype", EXP_FAIL;
    }
    if ((int)d->layout < 0 || d->layout > PX_LAYOUT_STRIDE)
        return *why = "layout out of range", EXP_FAIL;
    for (int k = 0; k < d->rank; ++k) {
        if (d->extent[k] < 0) return *why = "negative extent", EXP_FAIL;
        if (d->layout == PX_LAYOUT_STRIDE && d->stride[k] < 0)
            return *why = "negative stride", EXP_FAIL;
    }
    if (!space_valid(d->space)) return *why = "space out of range", EXP_FAIL;
    if (!space_usable(d->space)) return *why = "space not available here", EXP_FAIL;

    uint64_t count = 1, span = 1;
    bool big = false, over = false;
    for (int k = 0; k < d->rank; ++k) {
        if (d->extent[k] == 0) s->empty = true;
        if (d->extent[k] > (1 << 20) || (d->layout == PX_LAYOUT_STRIDE && d->stride[k] > (1 << 20)))
            big = true;
        if (__builtin_mul_overflow(count, (uint64_t)d->extent[k], &count)) over = big = true;
    }
    /* Unknown flag bits are judged last: the shape is computed all the same, so that a
       view portex accepts anyway can be modelled. */
    const bool bad_flags = (d->flags & ~(unsigned)PX_VIEW_NO_INIT) != 0;
    if (s->es > (1 << 20)) big = true;
    if (s->empty) {
        /* No element: nothing to allocate. Extents, or elements, whose nominal size
           overflows may be refused all the same. */
        s->size = 0;
        return bad_flags ? (*why = "unknown flag bits", EXP_FAIL) : big ? EXP_ANY : EXP_OK;
    }
    over = over || count > (uint64_t)INT64_MAX;
    if (d->layout == PX_LAYOUT_STRIDE) {
        for (int k = 0; k < d->rank && !over; ++k) {
            uint64_t last;
            over =
                __builtin_mul_overflow((uint64_t)d->extent[k] - 1, (uint64_t)d->stride[k], &last) ||
                __builtin_add_overflow(span, last, &span);
        }
    } else {
        span = count;
    }
    if (over || __builtin_mul_overflow(span, (uint64_t)s->es, &s->bytes) ||
        s->bytes > (uint64_t)PTRDIFF_MAX || count > (uint64_t)INT64_MAX)
        return *why = "size overflows", EXP_FAIL;
    s->span = span;
    s->size = (int64_t)count;
    /* Whether a huge allocation fails depends on the machine (with memory overcommitted it
       succeeds, and MALLOC_PERTURB_ then writes all of it): never asked for. Allocation
       failures are test_faults' business. */
    if (s->bytes > REGION_MAX || count > ELEMS_MAX) return EXP_SKIP;
    if (d->layout == PX_LAYOUT_STRIDE)
        for (int k = 0; k < d->rank; ++k) s->stride[k] = d->stride[k];
    else
        dense_strides(d->rank, d->extent, d->layout, s->stride);
    if (bad_flags) return *why = "unknown flag bits", EXP_FAIL;
    return EXP_OK;
}

static int64_t gen_extent(bool wild, int rank)
{
    static const int64_t odd[] = {0,
                                  1,
                                  -1,
                                  INT64_MIN,
                                  (int64_t)1 << 31,
                                  ((int64_t)1 << 32) + 1,
                                  (int64_t)1 << 40,
                                  (int64_t)1 << 62,
                                  INT64_MAX / 2,
                                  INT64_MAX / 3,
                                  INT64_MAX - 1,
                                  INT64_MAX};
    if (wild && chance(40)) return PICK(odd);
    if (chance(4)) return 0;
    return rnd(1, rank > 4 ? 3 : 6);
}

static int64_t gen_stride(bool wild)
{
    static const int64_t odd[] = {-1, INT64_MIN, INT64_MAX, (int64_t)1 << 40, (int64_t)1 << 62, 0};
    if (wild && chance(40)) return PICK(odd);
    return rnd(0, 12);
}

const char *gen_label(char *buf, size_t n)
{
    switch (rnd(0, 5)) {
    case 0: return NULL;
    case 1: return "";
    case 2:
        memset(buf, 'L', n - 1);
        buf[n - 1] = '\0';
        return buf;
    default: snprintf(buf, n, "v%lld", (long long)rnd(0, 999)); return buf;
    }
}

px_space gen_space(bool wild)
{
    static const px_space odd[] = {{PX_SPACE_KIND_COUNT, 0},  {(px_space_kind)-1, 0},
                                   {PX_SPACE_HOST, 1},        {PX_SPACE_HOST, -1},
                                   {PX_SPACE_HOST_PINNED, 0}, {PX_SPACE_DEVICE, 0},
                                   {PX_SPACE_DEVICE, 63},     {PX_SPACE_DEVICE, 64},
                                   {PX_SPACE_DEVICE, -1},     {(px_space_kind)99, 0}};
    const px_space s = wild && chance(30) ? PICK(odd) : px_host();
    /* The model knows the host's memory only: where a GPU makes DEVICE or HOST_PINNED
       usable (the GPU machine), those spaces are the CUDA suites' business. */
    return space_usable(s) && s.kind != PX_SPACE_HOST ? px_host() : s;
}

void gen_desc(px_view_desc *d, char *label, size_t label_size)
{
    static const int odd_rank[] = {-1, PX_MAX_RANK + 1, 100, INT_MIN, INT_MAX};
    static const int odd_dtype[] = {PX_DTYPE_COUNT, -1, 1000};
    static const size_t odd_es[] = {0, SIZE_MAX, SIZE_MAX / 2 + 1, (size_t)1 << 62,
                                    (size_t)1 << 40};
    static const int odd_layout[] = {PX_LAYOUT_STRIDE + 1, -1, 77};
    memset(d, 0, sizeof *d);
    const bool wild = chance(25);
    d->rank = wild && chance(25) ? PICK(odd_rank)
              : chance(12)       ? (int)rnd(5, PX_MAX_RANK)
                                 : (int)rnd(0, 4);
    d->dtype = wild && chance(25) ? (px_dtype)PICK(odd_dtype) : (px_dtype)rnd(0, PX_USER);
    if (d->dtype == PX_USER)
        d->elem_size = wild && chance(30) ? PICK(odd_es) : (size_t)rnd(1, 24);
    else if (wild && chance(25))
        d->elem_size = (size_t)rnd(1, 16);
    else if (chance(15))
        d->elem_size = px_dtype_size(d->dtype);
    d->layout =
        wild && chance(25) ? (px_layout)PICK(odd_layout) : (px_layout)rnd(0, PX_LAYOUT_STRIDE);
    const int frank = d->rank >= 0 && d->rank <= PX_MAX_RANK ? d->rank : PX_MAX_RANK;
    for (int k = 0; k < PX_MAX_RANK; ++k) {
        /* Past the rank, and strides of other layouts: anything (portex must ignore them). */
        d->extent[k] = k < frank ? gen_extent(wild, frank) : rnd(INT64_MIN, INT64_MAX);
        d->stride[k] = d->layout == PX_LAYOUT_STRIDE && k < frank ? gen_stride(wild)
                                                                  : rnd(INT64_MIN, INT64_MAX);
    }
    if (d->layout == PX_LAYOUT_STRIDE && !wild && chance(30)) {
        /* Dense strides of another dimension order: a strided view that is contiguous. */
        int64_t dense[PX_MAX_RANK];
        dense_strides(frank, d->extent, chance(50) ? PX_LAYOUT_LEFT : PX_LAYOUT_RIGHT, dense);
        for (int k = 0; k < frank; ++k) d->stride[k] = dense[k];
    }
    d->flags = wild && chance(30) ? (1u << rnd(1, 31)) | (unsigned)rnd(0, 1)
               : chance(50)       ? PX_VIEW_NO_INIT
                                  : 0u;
    d->space = gen_space(wild);
    d->label = gen_label(label, label_size);
}

void shape_to_model(mview *m, const px_view_desc *d, const shape *s)
{
    m->dtype = d->dtype;
    m->es = s->es;
    m->rank = d->rank;
    for (int k = 0; k < d->rank; ++k) {
        m->extent[k] = d->extent[k];
        m->stride[k] = s->stride[k];
    }
    m->size = s->size;
    m->layout = d->layout;
    m->layout_exact = true;
    m->label = (char *)tk_dup_buf(d->label ? d->label : "", strlen(d->label ? d->label : "") + 1);
}
