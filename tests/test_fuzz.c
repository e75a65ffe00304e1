/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* A seeded random sequence of public API calls on the serial backend, with valid and
 * invalid arguments: library lifetime; views (create, wrap, subview, mirrors, retain and
 * release, info, spans) of every rank, extent, stride, dtype, flag, layout and space,
 * sensible or not; copies and fills between them, overlapping ones included; instances,
 * partitions and events; dispatches with policies next to the ends of int64_t; and the
 * small queries. A model of what the test made predicts, for every call, whether it must
 * succeed, must fail, or may do either, and the test checks that:
 *   - the status is one of the list, and a failure leaves a last error that starts with
 *     the name of the public function called ("px_view_create: ...");
 *   - valid input is not refused and invalid input is not accepted;
 *   - what a call made or changed is what it should be: the view's information, every
 *     element a copy or fill wrote and no byte beside them, every index a kernel was given
 *     exactly once, the copy path and its counter, the bytes portex says it holds;
 *   - nothing leaks: at the end everything is released and px_finalize succeeds.
 * Crashes and undefined behaviour are for the sanitizers (CI runs this under ASan and
 * UBSan); a call that does not return fails the test through the watchdog (SIGALRM).
 *
 * Deterministic for a seed. Environment (fuzz.h): PX_FUZZ_SEED (the first seed; the test
 * runs FUZZ_SEEDS seeds from it, or PX_FUZZ_SEEDS), PX_FUZZ_ITERS (calls per seed),
 * PX_FUZZ_TRACE=1 (print every call and its status), PX_FUZZ_STOP=1 (end a seed at its
 * first finding), PX_FUZZ_OPS (the kinds of calls to make, e.g. "create,subview,copy";
 * see kinds[]). Every finding names its seed and call number: rerun with that seed,
 * PX_FUZZ_SEEDS=1 and PX_FUZZ_TRACE=1 to see the calls that led to it. Graphs and tools
 * regions have their own model: test_fuzz_graph.c. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "common.h"
#include "fuzz.h"
#include "k_fuzz.h"

enum { FUZZ_SEEDS = 4, NSLOTS = 24, NINST = 12, NEVENTS = 8, MAXPARTS = 1024 };

#define ITERS_DEFAULT 15000
#define REGION_MAX ((uint64_t)64 << 10) /* bytes of memory a view may span when it is made */
#define ELEMS_MAX 8192                  /* elements of a view that may be made */
#define INDICES_MAX 4096                /* indices a dispatch may run */

/* ---- The model ------------------------------------------------------------------------------ */

/* Memory views reach: an allocation portex made, or the test's buffer for wrapped views. */
typedef struct region {
    bool live;
    unsigned char *lo;
    size_t len;
    void *buf;        /* the test's buffer, freed after the last view on it */
    size_t lib_bytes; /* what portex allocated and counts in HOST's bytes_in_use */
    int views;
} region;

typedef struct mview {
    bool live;
    px_view *v;
    int refs; /* references the test's slots hold */
    region *reg;
    char *label;
    px_dtype dtype;
    size_t es;
    int rank;
    int64_t extent[PX_MAX_RANK], stride[PX_MAX_RANK];
    int64_t size;
    unsigned char *data;
    px_layout layout;
    bool layout_exact; /* made with this layout (else: any consistent one) */
    bool managed;
} mview;

typedef struct mevent {
    px_event *ev;
    bool timing, recorded;
} mevent;

static struct fuzz {
    int init_refs;     /* references to px_init held (the fixture's is one) */
    size_t base_bytes; /* HOST bytes_in_use at the start */
    region regions[NSLOTS];
    mview views[NSLOTS];
    mview *slot[NSLOTS];      /* each holds one reference */
    px_instance *inst[NINST]; /* made by the test (partitions too) */
    px_instance *def;         /* the serial default instance, once asked for */
    mevent ev[NEVENTS];
    bool avail[3]; /* HOST, HOST_PINNED, DEVICE(0) usable here */
    bool cuda;     /* the CUDA execution space is usable here */
    bool cuda_compiled;
    uint64_t calls, sums; /* what the fuzz kernels count */
} fz;

/* Something no handle is: the handle checks must refuse it without following it. */
static _Alignas(64) unsigned char foreign[512];
#define FOREIGN ((void *)foreign)

static bool initialized(void) { return fz.init_refs > 0; }

static size_t model_bytes(void)
{
    size_t b = 0;
    for (int i = 0; i < NSLOTS; ++i)
        if (fz.regions[i].live) b += fz.regions[i].lib_bytes;
    return b;
}

static int live_objects(void)
{
    int n = 0;
    for (int i = 0; i < NSLOTS; ++i) n += fz.views[i].live;
    for (int i = 0; i < NINST; ++i) n += fz.inst[i] != NULL;
    for (int i = 0; i < NEVENTS; ++i) n += fz.ev[i].ev != NULL;
    return n;
}

static region *region_new(void)
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

static mview *mview_new(void)
{
    for (int i = 0; i < NSLOTS; ++i)
        if (!fz.views[i].live) {
            mview *m = &fz.views[i];
            memset(m, 0, sizeof *m);
            return m;
        }
    return NULL;
}

static int free_slot(void)
{
    for (int i = 0; i < NSLOTS; ++i)
        if (!fz.slot[i]) return i;
    return -1;
}

/* A live view of the test (NULL when there is none). */
static mview *pick_view(void)
{
    int live[NSLOTS], n = 0;
    for (int i = 0; i < NSLOTS; ++i)
        if (fz.slot[i]) live[n++] = i;
    return n ? fz.slot[live[rnd(0, n - 1)]] : NULL;
}

/* A view argument: mostly a live view, else NULL or a foreign pointer. */
static px_view *view_arg(mview **m)
{
    *m = chance(92) ? pick_view() : NULL;
    if (*m) return (*m)->v;
    return chance(50) ? NULL : (px_view *)FOREIGN;
}

static const char *view_name(const px_view *v)
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
static void release_slot(int s)
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

static int slot_for_new(void)
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

static unsigned char *elem_at(const mview *m, int64_t flat)
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
static bool contiguous_of(const mview *m, bool *aliased)
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
static void dense_strides(int rank, const int64_t *extent, px_layout layout, int64_t *stride)
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
static void check_info(const char *func, const mview *m)
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

typedef struct shape {
    size_t es;
    bool empty;
    uint64_t span; /* elements the memory must span */
    uint64_t bytes;
    int64_t size;
    int64_t stride[PX_MAX_RANK];
} shape;

static bool space_valid(px_space s)
{
    if ((int)s.kind < 0 || s.kind >= PX_SPACE_KIND_COUNT) return false;
    if (s.kind == PX_SPACE_DEVICE) return s.device >= 0 && s.device < 64;
    return s.device == 0;
}

static bool space_usable(px_space s)
{
    return space_valid(s) &&
           (s.kind == PX_SPACE_DEVICE ? s.device == 0 && fz.avail[2] : fz.avail[s.kind]);
}

/* What px_view_create must do with d: EXP_OK, EXP_FAIL (why says why), EXP_ANY, or
   EXP_SKIP where the answer depends on the machine (a large allocation). */
static int judge_desc(const px_view_desc *d, shape *s, const char **why)
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

static const char *gen_label(char *buf, size_t n)
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

static px_space gen_space(bool wild)
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

static void gen_desc(px_view_desc *d, char *label, size_t label_size)
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

static void shape_to_model(mview *m, const px_view_desc *d, const shape *s)
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

static void op_view_create(void)
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
static size_t align_of(px_dtype dt)
{
    return dt == PX_USER || (int)dt < 0 || dt >= PX_USER ? 1 : px_dtype_size(dt);
}

static void op_view_wrap(void)
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
static int sub_model(const mview *src, const px_slice *sl, mview *m, const char **why)
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

static void op_subview(void)
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

static void op_mirror(void)
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

static void op_retain_release(void)
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

static void op_info_span(void)
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

static unsigned char *snapshot(const region *g)
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
static px_instance *inst_arg(bool *live)
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

static void op_copy(void)
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
static void op_copy_overlap(void)
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

static void op_fill(void)
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

/* ---- Instances, partitions and events --------------------------------------------------------------- */

static int inst_free(void)
{
    for (int i = 0; i < NINST; ++i)
        if (!fz.inst[i]) return i;
    return -1;
}

static void destroy_inst(px_instance **in)
{
    op("px_instance_destroy(inst)");
    px_instance *p = *in;
    if (judge("px_instance_destroy", px_instance_destroy(&p), EXP_OK, "") && p)
        found("px_instance_destroy", "left the handle set", "%p", (void *)p);
    *in = NULL;
}

static void op_instance(void)
{
    const int r = (int)rnd(0, 9);
    if (r <= 2) { /* create */
        static const px_exec_space odd_exec[] = {PX_EXEC_CUDA, PX_EXEC_COUNT, (px_exec_space)-1,
                                                 (px_exec_space)42};
        static const int odd_dev[] = {1, -1, 63, 64, INT_MAX, INT_MIN};
        px_instance_desc d;
        memset(&d, 0, sizeof d);
        d.exec = chance(85) ? PX_EXEC_SERIAL : PICK(odd_exec);
        d.device = chance(85) ? 0 : PICK(odd_dev);
        d.priority = chance(50) ? 0 : (int)rnd(INT_MIN, INT_MAX);
        char label[300];
        d.label = gen_label(label, sizeof label);
        const bool null_out = chance(3), null_desc = chance(3);
        int exp = EXP_OK;
        const char *why = "";
        if (null_out || null_desc)
            exp = EXP_FAIL, why = "NULL argument";
        else if (!initialized())
            exp = EXP_FAIL, why = "not initialized";
        else if (d.exec == PX_EXEC_CUDA)
            exp = fz.cuda ? EXP_ANY : EXP_FAIL, why = "CUDA not available here";
        else if (d.exec != PX_EXEC_SERIAL)
            exp = EXP_FAIL, why = "exec out of range";
        else if (d.device != 0)
            exp = EXP_FAIL, why = "no such device";
        px_instance *in = (px_instance *)FOREIGN;
        op("px_instance_create(exec %d, device %d, priority %d%s%s)", (int)d.exec, d.device,
           d.priority, null_out ? ", out NULL" : "", null_desc ? ", desc NULL" : "");
        const px_status st = px_instance_create(null_out ? NULL : &in, null_desc ? NULL : &d);
        if (!judge("px_instance_create", st, exp, why)) {
            if (!null_out && in)
                found("px_instance_create", "failed leaving *out set", "%p", (void *)in);
            return;
        }
        if (null_out) return;
        const char *lab = NULL;
        char want[64];
        snprintf(want, sizeof want, "%s:%d", px_exec_space_string(d.exec), d.device);
        if (px_instance_label(in, &lab) != PX_OK || strcmp(lab, d.label ? d.label : want) != 0)
            found("px_instance_create", "gave the wrong label", "'%s'", lab ? lab : "(none)");
        const int s = inst_free();
        if (s < 0 || exp != EXP_OK) {
            destroy_inst(&in);
            return;
        }
        fz.inst[s] = in;
        return;
    }
    if (r == 3) { /* destroy */
        const int s = (int)rnd(0, NINST - 1);
        if (fz.inst[s]) {
            destroy_inst(&fz.inst[s]);
            return;
        }
        px_instance *p = chance(50) && fz.def ? fz.def : chance(50) ? NULL : (px_instance *)FOREIGN;
        const bool null_arg = chance(30);
        op("px_instance_destroy(%s)", null_arg           ? "NULL"
                                      : p == fz.def && p ? "&default"
                                      : p                ? "&foreign"
                                                         : "&NULL");
        judge("px_instance_destroy", px_instance_destroy(null_arg ? NULL : &p), EXP_FAIL,
              "no destroyable instance");
        return;
    }
    if (r == 4) { /* default */
        const px_exec_space e = chance(85) ? PX_EXEC_SERIAL : (px_exec_space)rnd(-1, PX_EXEC_COUNT);
        const int dev = chance(85) ? 0 : (int)rnd(-2, 70);
        const bool null_out = chance(4);
        int exp = EXP_OK;
        const char *why = "";
        if (null_out)
            exp = EXP_FAIL, why = "out is NULL";
        else if (!initialized())
            exp = EXP_FAIL, why = "not initialized";
        else if (e == PX_EXEC_CUDA)
            exp = fz.cuda ? EXP_ANY : EXP_FAIL, why = "CUDA not available here";
        else if (e == PX_EXEC_OPENMP || e == PX_EXEC_THREADS)
            exp = EXP_ANY, why = "OpenMP or threads compiled in or not";
        else if (e != PX_EXEC_SERIAL)
            exp = EXP_FAIL, why = "exec out of range";
        else if (dev != 0)
            exp = EXP_FAIL, why = "no such device";
        px_instance *in = NULL;
        op("px_instance_default(%d, %d%s)", (int)e, dev, null_out ? ", NULL" : "");
        if (judge("px_instance_default", px_instance_default(e, dev, null_out ? NULL : &in), exp,
                  why) &&
            e == PX_EXEC_SERIAL && !null_out) {
            if (fz.def && in != fz.def)
                found("px_instance_default", "gave another instance", "%p, before %p", (void *)in,
                      (void *)fz.def);
            fz.def = in;
        }
        return;
    }
    bool live;
    px_instance *in = inst_arg(&live);
    const bool null_out = chance(5);
    if (r == 5) {
        op("px_instance_fence(%s)", live ? "inst" : in ? "foreign" : "NULL");
        judge("px_instance_fence", px_instance_fence(in), live ? EXP_OK : EXP_FAIL, "no instance");
    } else if (r == 6) {
        px_exec_space e;
        int dev = -1, sm = -1;
        const char *lab;
        op("instance queries(%s%s)",
           live ? "inst"
           : in ? "foreign"
                : "NULL",
           null_out ? ", NULL" : "");
        const int exp = live && !null_out ? EXP_OK : EXP_FAIL;
        if (judge("px_instance_exec_space", px_instance_exec_space(in, null_out ? NULL : &e), exp,
                  "bad argument") &&
            e != PX_EXEC_SERIAL)
            found("px_instance_exec_space", "gave another execution space", "%d", (int)e);
        px_clear_error();
        if (judge("px_instance_device", px_instance_device(in, null_out ? NULL : &dev), exp,
                  "bad argument") &&
            dev != 0)
            found("px_instance_device", "gave another device", "%d", dev);
        px_clear_error();
        judge("px_instance_label", px_instance_label(in, null_out ? NULL : &lab), exp,
              "bad argument");
        px_clear_error();
        if (judge("px_instance_sm_count", px_instance_sm_count(in, null_out ? NULL : &sm), exp,
                  "bad argument") &&
            sm != 1)
            found("px_instance_sm_count", "gave another count for a serial instance", "%d", sm);
    } else {
        op("px_fence_all()");
        judge("px_fence_all", px_fence_all(), initialized() ? EXP_OK : EXP_FAIL, "not initialized");
    }
}

static void op_partition(void)
{
    static px_instance *out[MAXPARTS];
    static double w[MAXPARTS];
    static int prio[MAXPARTS];
    static const int odd_n[] = {0, -1, MAXPARTS + 1, INT_MAX, INT_MIN, MAXPARTS};
    static const double odd_w[] = {0.0, -1.0, NAN, INFINITY, -INFINITY, 1e308, 5e-324, -0.0};
    bool live;
    px_instance *parent = inst_arg(&live);
    const int n = chance(90) ? (int)rnd(1, 6) : PICK(odd_n);
    const bool with_w = chance(60), with_opts = chance(50), null_out = chance(4);
    int exp = EXP_OK;
    const char *why = "";
    const int nw = n >= 1 && n <= MAXPARTS ? n : 1;
    for (int i = 0; i < nw; ++i) {
        w[i] = chance(95) ? tk_uniform(fuzz_rng(), 0.01, 10.0) : PICK(odd_w);
        prio[i] = (int)rnd(-5, 5);
        out[i] = (px_instance *)FOREIGN;
    }
    px_partition_options o;
    memset(&o, 0, sizeof o);
    o.sm_partition = chance(50);
    o.priorities = chance(50) ? prio : NULL;
    if (!live)
        exp = EXP_FAIL, why = "no parent";
    else if (null_out)
        exp = EXP_FAIL, why = "out is NULL";
    else if (n < 1 || n > MAXPARTS)
        exp = EXP_FAIL, why = "n out of range";
    for (int i = 0; exp == EXP_OK && with_w && i < n; ++i) {
        if (!(w[i] > 0) || isinf(w[i]))
            exp = EXP_FAIL, why = "weight not a positive number";
        else if (w[i] > 1e300)
            exp = EXP_ANY; /* the sum of such weights overflows */
    }
    const char *func = with_opts ? "px_partition_ex" : "px_partition";
    op("%s(%s, n %d, weights %s%s)", func,
       live     ? "inst"
       : parent ? "foreign"
                : "NULL",
       n, with_w ? "given" : "NULL", null_out ? ", out NULL" : "");
    const px_status st =
        with_opts ? px_partition_ex(parent, n, with_w ? w : NULL, &o, null_out ? NULL : out)
                  : px_partition(parent, n, with_w ? w : NULL, null_out ? NULL : out);
    if (!judge(func, st, exp, why)) {
        for (int i = 0; i < nw && !null_out && n >= 1; ++i)
            if (out[i] != NULL && out[i] != (px_instance *)FOREIGN) {
                found(func, "failed leaving instances in out", "out[%d]", i);
                break;
            }
        return;
    }
    if (exp == EXP_FAIL) return;
    for (int i = 0; i < n; ++i) {
        const char *lab = NULL;
        char want[32];
        px_exec_space e = PX_EXEC_COUNT;
        snprintf(want, sizeof want, "/part%d", i);
        if (px_instance_exec_space(out[i], &e) != PX_OK || e != PX_EXEC_SERIAL ||
            px_instance_label(out[i], &lab) != PX_OK || !strstr(lab, want))
            found(func, "made a wrong partition", "out[%d]: exec %d, label '%s'", i, (int)e,
                  lab ? lab : "");
        const int s = inst_free();
        if (s >= 0 && chance(70))
            fz.inst[s] = out[i];
        else
            destroy_inst(&out[i]);
    }
}

static int event_pick(void)
{
    const int s = (int)rnd(0, NEVENTS - 1);
    return fz.ev[s].ev ? s : -1;
}

static void op_event(void)
{
    const int r = (int)rnd(0, 6);
    bool live;
    px_instance *in = inst_arg(&live);
    const char *iname = live ? "inst" : in ? "foreign" : "NULL";
    const int e = event_pick();
    px_event *ev = e >= 0 ? fz.ev[e].ev : chance(50) ? NULL : (px_event *)FOREIGN;
    const bool evl = e >= 0;
    if (r == 0) {
        int s = -1;
        for (int i = 0; i < NEVENTS && s < 0; ++i)
            if (!fz.ev[i].ev) s = i;
        if (s < 0) return;
        static const unsigned odd[] = {2u, 0x80000000u, PX_EVENT_TIMING | 4u, ~0u};
        const unsigned flags = chance(90) ? (unsigned)rnd(0, 1) : PICK(odd);
        const bool null_out = chance(4);
        const int exp =
            live && !null_out && (flags & ~(unsigned)PX_EVENT_TIMING) == 0 ? EXP_OK : EXP_FAIL;
        px_event *out = (px_event *)FOREIGN;
        op("px_event_create(%s, %s, flags %#x)", null_out ? "NULL" : "&out", iname, flags);
        if (judge("px_event_create", px_event_create(null_out ? NULL : &out, in, flags), exp,
                  "no out, no instance or unknown flags")) {
            if (null_out) return;
            fz.ev[s].ev = out;
            fz.ev[s].timing = flags & PX_EVENT_TIMING;
            fz.ev[s].recorded = false;
        } else if (!null_out && out) {
            found("px_event_create", "failed leaving *out set", "%p", (void *)out);
        }
    } else if (r == 1) {
        op("px_event_destroy(%s)", evl ? "&ev" : ev ? "&foreign" : "&NULL");
        px_event *p = ev;
        if (judge("px_event_destroy", px_event_destroy(&p), evl ? EXP_OK : EXP_FAIL, "no event") &&
            evl) {
            if (p) found("px_event_destroy", "left the handle set", "%p", (void *)p);
            fz.ev[e].ev = NULL;
        }
    } else if (r == 2) {
        op("px_event_record(%s, %s)", evl ? "ev" : "bad", iname);
        if (judge("px_event_record", px_event_record(ev, in), evl && live ? EXP_OK : EXP_FAIL,
                  "no event or instance"))
            fz.ev[e].recorded = true;
    } else if (r == 3) {
        op("px_instance_wait_event(%s, %s)", iname, evl ? "ev" : "bad");
        judge("px_instance_wait_event", px_instance_wait_event(in, ev),
              evl && live ? EXP_OK : EXP_FAIL, "no event or instance");
    } else if (r == 4) {
        bool done = false;
        const bool null_done = chance(5);
        op("px_event_query(%s%s)", evl ? "ev" : "bad", null_done ? ", NULL" : "");
        if (judge("px_event_query", px_event_query(ev, null_done ? NULL : &done),
                  evl && !null_done ? EXP_OK : EXP_FAIL, "no event or out") &&
            !done)
            found("px_event_query", "says a serial event is pending", "%s", "");
        op("px_event_synchronize(%s)", evl ? "ev" : "bad");
        judge("px_event_synchronize", px_event_synchronize(ev), evl ? EXP_OK : EXP_FAIL,
              "no event");
    } else {
        const int e2 = event_pick();
        px_event *ev2 = e2 >= 0 ? fz.ev[e2].ev : NULL;
        float ms = NAN;
        const bool null_ms = chance(5);
        const bool valid = evl && e2 >= 0 && !null_ms && fz.ev[e].timing && fz.ev[e2].timing &&
                           fz.ev[e].recorded && fz.ev[e2].recorded;
        op("px_event_elapsed_ms(%s, %s%s)", evl ? "ev" : "bad", e2 >= 0 ? "ev" : "NULL",
           null_ms ? ", NULL" : "");
        if (judge("px_event_elapsed_ms", px_event_elapsed_ms(ev, ev2, null_ms ? NULL : &ms),
                  valid ? EXP_OK : EXP_FAIL, "events not both timed and recorded") &&
            !isfinite(ms))
            found("px_event_elapsed_ms", "gave a time that is no number", "%g", (double)ms);
    }
}

/* ---- Dispatch --------------------------------------------------------------------------------------- */

static int64_t gen_begin(void)
{
    switch (rnd(0, 5)) {
    case 0: return rnd(-5, 5);
    case 1: return INT64_MAX - rnd(0, 8);
    case 2: return INT64_MIN + rnd(0, 8);
    case 3: return rnd(INT64_MIN, INT64_MAX);
    default: return rnd(-100, 100);
    }
}

static int64_t gen_tile(void)
{
    static const int64_t odd[] = {INT64_MAX, INT64_MAX - 1, INT64_MAX - 3, (int64_t)1 << 62,
                                  -1,        INT64_MIN};
    const int r = (int)rnd(0, 9);
    return r < 4 ? 0 : r < 8 ? rnd(1, 5) : PICK(odd);
}

static px_policy gen_policy(int krank)
{
    px_policy p;
    for (int d = 0; d < 3; ++d) {
        p.begin[d] = gen_begin();
        if (chance(6) && p.begin[d] > INT64_MIN + 3) {
            p.end[d] = p.begin[d] - rnd(1, 3); /* begin after end */
        } else {
            const int64_t w = rnd(0, 5);
            p.end[d] = p.begin[d] <= INT64_MAX - w ? p.begin[d] + w : INT64_MAX;
        }
        p.tile[d] = gen_tile();
    }
    p.rank = chance(90) ? krank : (int32_t)PICK(((const int[]){0, 4, -1, krank % 3 + 1}));
    p.iterate = chance(95) ? (int32_t)rnd(0, 1) : (int32_t)PICK(((const int[]){2, -1, 100}));
    return p;
}

static void op_dispatch(void)
{
    static const px_kernel *const fors[3] = {&px_kernel_fz_for1, &px_kernel_fz_for2,
                                             &px_kernel_fz_for3};
    static const px_kernel *const reds[3] = {&px_kernel_fz_reduce1, &px_kernel_fz_reduce2,
                                             &px_kernel_fz_reduce3};
    static const char *const funcs[] = {"px_parallel_for", "px_parallel_reduce",
                                        "px_parallel_reduce_view", "px_parallel_scan"};
    const int kind = (int)rnd(0, 3);
    const int krank = kind == 3 ? 1 : (int)rnd(1, 3);
    const px_kernel *k = kind == 0   ? fors[krank - 1]
                         : kind == 3 ? &px_kernel_fz_scan
                                     : reds[krank - 1];
    px_kernel bad;
    const char *kwhy = NULL;
    switch (rnd(0, 24)) {
    case 0: k = NULL, kwhy = "kernel is NULL"; break;
    case 1: bad = *k, bad.magic = 0, k = &bad, kwhy = "not a kernel"; break;
    case 2: bad = *k, bad.host = NULL, k = &bad, kwhy = "no host entry"; break;
    case 3:
        k = kind == 0 ? reds[krank - 1] : fors[krank - 1], kwhy = "another kind of kernel";
        break;
    default: break;
    }
    px_policy p = gen_policy(krank);
    bool live;
    px_instance *in = inst_arg(&live);
    const bool null_args = chance(3), null_result = chance(4);
    fz_args a;
    fz.calls = fz.sums = 0;
    a.calls = &fz.calls;
    a.sum = &fz.sums;
    mview *rm = NULL;
    px_view *rv = kind == 2 ? view_arg(&rm) : NULL;

    int exp = EXP_OK;
    const char *why = "";
    if (!live)
        exp = EXP_FAIL, why = "no instance";
    else if (kwhy)
        exp = EXP_FAIL, why = kwhy;
    else if (null_args)
        exp = EXP_FAIL, why = "args is NULL";
    else if (p.rank != k->rank)
        exp = EXP_FAIL, why = "policy rank is not the kernel's";
    else if (p.iterate != PX_ITERATE_RIGHT && p.iterate != PX_ITERATE_LEFT)
        exp = EXP_FAIL, why = "iterate out of range";
    for (int d = 0; exp == EXP_OK && d < p.rank; ++d) {
        if (p.begin[d] > p.end[d])
            exp = EXP_FAIL, why = "begin after end";
        else if (p.tile[d] < 0)
            exp = EXP_FAIL, why = "negative tile";
    }
    bool al = false;
    if (exp == EXP_OK && kind == 1 && null_result) exp = EXP_FAIL, why = "result is NULL";
    if (exp == EXP_OK && kind == 2) {
        if (!rm)
            exp = EXP_FAIL, why = "result is no view";
        else if (rm->size < 1 || !contiguous_of(rm, &al) || rm->es != sizeof(uint64_t))
            exp = EXP_FAIL, why = "result view unfit";
    }
    /* The indices the dispatch must visit, and what the kernels fold over them. */
    uint64_t count = 1, hsum = 0, prefix_sum = 0;
    if (exp == EXP_OK) {
        for (int d = 0; d < p.rank; ++d) {
            const uint64_t w = (uint64_t)p.end[d] - (uint64_t)p.begin[d];
            if (__builtin_mul_overflow(count, w, &count) || count > INDICES_MAX)
                return; /* would run too long */
        }
        const int64_t b1 = p.rank > 1 ? p.begin[1] : 0, e1 = p.rank > 1 ? p.end[1] : 1;
        const int64_t b2 = p.rank > 2 ? p.begin[2] : 0, e2 = p.rank > 2 ? p.end[2] : 1;
        for (int64_t i = p.begin[0]; i < p.end[0]; ++i)
            for (int64_t j = b1; j < e1; ++j)
                for (int64_t l = b2; l < e2; ++l) {
                    prefix_sum += hsum;
                    hsum += fz_hash(i, j, l);
                }
    }
    uint64_t result = 0x5a5a5a5a5a5a5a5aull;
    unsigned char *was = rm && exp == EXP_OK ? snapshot(rm->reg) : NULL;
    op("%s(%s, %s, policy rank %d it %d [%lld,%lld) [%lld,%lld) [%lld,%lld) tiles %lld %lld "
       "%lld%s%s)",
       funcs[kind],
       live ? "inst"
       : in ? "foreign"
            : "NULL",
       k ? k->name : "NULL", (int)p.rank, (int)p.iterate, (long long)p.begin[0],
       (long long)p.end[0], (long long)p.begin[1], (long long)p.end[1], (long long)p.begin[2],
       (long long)p.end[2], (long long)p.tile[0], (long long)p.tile[1], (long long)p.tile[2],
       null_args ? ", args NULL" : "",
       kind == 2                  ? view_name(rv)
       : kind == 1 && null_result ? ", result NULL"
                                  : "");
    const void *args = null_args ? NULL : &a;
    px_status st;
    switch (kind) {
    case 0: st = px_parallel_for(in, chance(50) ? "fuzz" : NULL, p, k, args); break;
    case 1: st = px_parallel_reduce(in, NULL, p, k, args, null_result ? NULL : &result); break;
    case 2: st = px_parallel_reduce_view(in, NULL, p, k, args, rv); break;
    default: st = px_parallel_scan(in, NULL, p, k, args, null_result ? NULL : &result); break;
    }
    if (!judge(funcs[kind], st, exp, why) || exp != EXP_OK) {
        free(was);
        return;
    }
    const char *func = funcs[kind];
    if (kind == 0 && (fz.calls != count || fz.sums != hsum))
        found(func, "visited the wrong indices", "%llu calls, expected %llu",
              (unsigned long long)fz.calls, (unsigned long long)count);
    if (kind == 1 && result != hsum) found(func, "reduced the wrong indices", "%s", "");
    if (kind == 3 &&
        (fz.calls != count || fz.sums != prefix_sum || (!null_result && result != hsum)))
        found(func, "scanned the wrong indices", "%llu final calls, expected %llu",
              (unsigned long long)fz.calls, (unsigned long long)count);
    if (kind == 2) {
        memcpy(was + (rm->data - rm->reg->lo), &hsum, sizeof hsum);
        if (memcmp(was, rm->reg->lo, rm->reg->len) != 0) {
            found(func, "wrote the wrong result or beside it", "%s", "");
            memcpy(rm->reg->lo, was, rm->reg->len);
        }
        free(was);
    }
}

/* ---- Lifetime and small queries ------------------------------------------------------------------- */

static void op_lifetime(void)
{
    if (chance(50) && fz.init_refs < 4) {
        px_init_options o = {.skip_topology = chance(90)};
        op("px_init(%s)", o.skip_topology ? "skip_topology" : "topology");
        if (judge("px_init", px_init(chance(20) && o.skip_topology ? NULL : &o), EXP_OK, ""))
            fz.init_refs++;
        return;
    }
    int exp = EXP_OK;
    const char *why = "";
    if (fz.init_refs == 0)
        exp = EXP_FAIL, why = "not initialized";
    else if (fz.init_refs == 1 && live_objects() > 0)
        exp = EXP_FAIL, why = "objects alive";
    op("px_finalize() with %d references, %d objects alive", fz.init_refs, live_objects());
    if (judge("px_finalize", px_finalize(), exp, why) && --fz.init_refs == 0) fz.def = NULL;
    if (px_is_initialized() != initialized())
        found("px_is_initialized", "disagrees with the references held", "%d",
              (int)px_is_initialized());
}

static void op_misc(void)
{
    static const px_status odd_st[] = {(px_status)1, (px_status)-15, (px_status)-1000,
                                       (px_status)INT_MIN, (px_status)INT_MAX};
    char *p = NULL;
    switch (rnd(0, 9)) {
    case 0: {
        const px_status s = chance(50) ? (px_status)rnd(-14, 0) : PICK(odd_st);
        op("px_status_string(%d)", (int)s);
        if (!px_status_string(s) || !px_status_name(s))
            found("px_status_string", "returned NULL", "%d", (int)s);
        break;
    }
    case 1: {
        const int d = (int)rnd(-3, PX_DTYPE_COUNT + 3);
        op("px_dtype_string(%d)", d);
        const size_t want =
            d >= 0 && d < PX_USER ? (size_t)((const int[]){1, 4, 8, 4, 8, 4, 8})[d] : 0;
        if (!px_dtype_string((px_dtype)d) || px_dtype_size((px_dtype)d) != want)
            found("px_dtype_size", "gave a wrong size", "%d: %zu", d, px_dtype_size((px_dtype)d));
        if (!px_layout_string((px_layout)rnd(-3, 5)) ||
            !px_space_kind_string((px_space_kind)rnd(-3, 5)) ||
            !px_exec_space_string((px_exec_space)rnd(-3, 5)) ||
            !px_copy_path_string((px_copy_path)rnd(-3, 15)) ||
            !px_copy_path_description((px_copy_path)rnd(-3, 15)))
            found("px_*_string", "returned NULL", "%s", "");
        break;
    }
    case 2: {
        const px_space s = gen_space(true);
        op("px_space_check(%d(%d))", (int)s.kind, s.device);
        judge("px_space_check", px_space_check(s), space_usable(s) ? EXP_OK : EXP_FAIL,
              "space not usable");
        if (px_space_available(s) != space_usable(s))
            found("px_space_available", "disagrees with px_space_check", "%s", "");
        break;
    }
    case 3: {
        const px_space s = chance(70) ? px_host() : gen_space(true);
        px_memory_stats ms;
        const bool null_out = chance(5);
        op("px_space_memory(%d(%d)%s)", (int)s.kind, s.device, null_out ? ", NULL" : "");
        const px_status st = px_space_memory(s, null_out ? NULL : &ms);
        const int exp = null_out || !space_valid(s) ? EXP_FAIL : EXP_OK;
        if (judge("px_space_memory", st, exp, "no out or no space") && exp == EXP_OK &&
            s.kind == PX_SPACE_HOST && ms.bytes_in_use != fz.base_bytes + model_bytes())
            found("px_space_memory", "counts bytes that are not in use", "%zu, expected %zu",
                  ms.bytes_in_use, fz.base_bytes + model_bytes());
        break;
    }
    case 4: {
        int a, b, c;
        const bool nul = chance(30);
        op("px_version(%s)", nul ? "NULL" : "");
        judge("px_version", px_version(&a, nul ? NULL : &b, &c), nul ? EXP_FAIL : EXP_OK,
              "NULL argument");
        if (!px_version_string()) found("px_version_string", "returned NULL", "%s", "");
        break;
    }
    case 5: {
        px_space s;
        static int stat_obj;
        const void *ptrs[] = {NULL, &stat_obj, foreign, fz.slot[0] ? fz.slot[0]->data : NULL};
        const void *q = PICK(ptrs);
        const bool null_out = chance(10);
        op("px_pointer_space(%p%s)", q, null_out ? ", NULL" : "");
        if (judge("px_pointer_space", px_pointer_space(q, null_out ? NULL : &s),
                  q && !null_out ? EXP_OK : EXP_FAIL, "NULL argument") &&
            !fz.cuda && s.kind != PX_SPACE_HOST)
            found("px_pointer_space", "called host memory something else", "%d", (int)s.kind);
        break;
    }
    case 6: {
        if (fz.cuda) break; /* pinning on a GPU machine is for other tests */
        p = malloc(64);
        ck_assert_ptr_nonnull(p);
        const bool reg = chance(50);
        void *q = chance(20) ? NULL : p;
        const size_t n = chance(20) ? 0 : 64;
        op("%s(%p, %zu)", reg ? "px_host_register" : "px_host_unregister", q, n);
        if (reg)
            judge("px_host_register", px_host_register(q, n), EXP_FAIL, "no GPU");
        else
            judge("px_host_unregister", px_host_unregister(q), EXP_FAIL, "no GPU");
        break;
    }
    case 7: {
        uint64_t c[PX_COPY_PATH_COUNT];
        const bool nul = chance(20);
        op("px_copy_path_counts(%s)", nul ? "NULL" : "counts");
        judge("px_copy_path_counts", px_copy_path_counts(nul ? NULL : c), nul ? EXP_FAIL : EXP_OK,
              "NULL argument");
        int n = -1;
        const px_exec_space e = (px_exec_space)rnd(-1, PX_EXEC_COUNT);
        op("px_exec_space_device_count(%d)", (int)e);
        judge("px_exec_space_device_count", px_exec_space_device_count(e, &n),
              e == PX_EXEC_SERIAL || e == PX_EXEC_OPENMP || e == PX_EXEC_THREADS ||
                      (e == PX_EXEC_CUDA && fz.cuda_compiled)
                  ? EXP_ANY
                  : EXP_FAIL,
              "exec out of range");
        break;
    }
    case 8: {
        px_staging_config cfg = {(size_t)rnd(0, 1 << 20), (int)rnd(-2, 3), (int)rnd(-2, 70)};
        const bool invalid = (cfg.chunk_bytes && cfg.chunk_bytes < ((size_t)64 << 10)) ||
                             (cfg.buffers && cfg.buffers < 2) || cfg.threads < 0 ||
                             cfg.threads > 64;
        if (!invalid && fz.cuda_compiled) break; /* it would change the global configuration */
        op("px_staging_set(%zu, %d, %d)", cfg.chunk_bytes, cfg.buffers, cfg.threads);
        judge("px_staging_set", px_staging_set(chance(10) ? NULL : &cfg), EXP_FAIL,
              "invalid or no CUDA");
        op("px_staging_get(NULL)");
        judge("px_staging_get", px_staging_get(NULL), EXP_FAIL, "NULL argument");
        break;
    }
    default:
        op("px_is_initialized()");
        if (px_is_initialized() != initialized())
            found("px_is_initialized", "disagrees with the references held", "%d",
                  (int)px_is_initialized());
        break;
    }
    free(p);
}

/* ---- The test ------------------------------------------------------------------------------------ */

/* The kinds of calls, by how often they come. */
static const fuzz_kind kinds[] = {
    {"create", 16, op_view_create}, {"wrap", 8, op_view_wrap},        {"subview", 11, op_subview},
    {"mirror", 5, op_mirror},       {"retain", 7, op_retain_release}, {"info", 5, op_info_span},
    {"copy", 12, op_copy},          {"overlap", 3, op_copy_overlap},  {"fill", 5, op_fill},
    {"instance", 6, op_instance},   {"partition", 3, op_partition},   {"event", 5, op_event},
    {"dispatch", 12, op_dispatch},  {"lifetime", 2, op_lifetime},     {"misc", 3, op_misc},
};
#define NKINDS ((int)(sizeof kinds / sizeof kinds[0]))

static void one_call(void)
{
    fuzz_one(kinds, NKINDS);

    size_t in_use = 0;
    px_memory_stats ms;
    if (px_space_memory(px_host(), &ms) == PX_OK) in_use = ms.bytes_in_use;
    if (in_use != fz.base_bytes + model_bytes())
        found("(memory)", "HOST bytes_in_use differs from the views alive",
              "%zu bytes in use, the views alive have %zu", in_use - fz.base_bytes, model_bytes());
}

/* Releases everything and leaves one reference to px_init, the fixture's. */
static void cleanup(void)
{
    if (!initialized()) {
        op("px_init(NULL)");
        judge("px_init", px_init(NULL), EXP_OK, "");
        fz.init_refs = 1;
    }
    for (int s = 0; s < NSLOTS; ++s)
        if (fz.slot[s]) release_slot(s);
    for (int i = 0; i < NINST; ++i)
        if (fz.inst[i]) destroy_inst(&fz.inst[i]);
    for (int i = 0; i < NEVENTS; ++i)
        if (fz.ev[i].ev) {
            op("px_event_destroy(&ev)");
            judge("px_event_destroy", px_event_destroy(&fz.ev[i].ev), EXP_OK, "");
        }
    while (fz.init_refs > 1) {
        op("px_finalize()");
        judge("px_finalize", px_finalize(), EXP_OK, "");
        fz.init_refs--;
    }
}

START_TEST(fuzz_api)
{
    const uint64_t seed = fuzz_seed(_i);
    const long long iters = fuzz_iters(ITERS_DEFAULT);
    fuzz_start(seed, iters);

    memset(&fz, 0, sizeof fz);
    fz.init_refs = 1;
    px_memory_stats ms;
    TK_OK(px_space_memory(px_host(), &ms));
    fz.base_bytes = ms.bytes_in_use;
    fz.avail[PX_SPACE_HOST] = px_space_available(px_host());
    fz.avail[PX_SPACE_HOST_PINNED] = px_space_available(px_host_pinned());
    fz.avail[PX_SPACE_DEVICE] = px_space_available(px_device(0));
    fz.cuda = px_exec_space_available(PX_EXEC_CUDA);
    fz.cuda_compiled = px_exec_space_check(PX_EXEC_CUDA) != PX_ERR_UNSUPPORTED;
    px_clear_error();

    TK_ASSERT(fuzz_choose(kinds, NKINDS), "PX_FUZZ_OPS='%s' names no kind of call",
              getenv("PX_FUZZ_OPS"));
    tk_watchdog_start(5);
    for (g_call = 0; g_call < (uint64_t)iters && !fuzz_stopped(); ++g_call) one_call();
    g_call = (uint64_t)iters;
    cleanup();
    tk_watchdog_stop();

    TK_OK(px_space_memory(px_host(), &ms));
    TK_ASSERT(ms.bytes_in_use == fz.base_bytes,
              "%zu bytes of HOST memory still in use after the cleanup",
              ms.bytes_in_use - fz.base_bytes);
    fuzz_report();
}
END_TEST

int main(void)
{
    TCase *tc = tk_case("fuzz", "api");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, fuzz_api, 0, fuzz_seeds(FUZZ_SEEDS));
    return tk_run();
}
