/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The parts of test_fuzz, the seeded random sequence of public API calls (test_fuzz.c says
 * what it checks and how to run it): the model of what the test made (fuzz_api_model.c),
 * and the calls on views (fuzz_api_views.c), copies and fills (fuzz_api_copies.c), and
 * instances, partitions, events and dispatches (fuzz_api_runtime.c); test_fuzz.c has the
 * lifetime calls, the small queries and the test. Each op_* function makes one call of
 * its kind and judges it (fuzz.h). */
#ifndef PX_TESTS_FUZZ_API_H
#define PX_TESTS_FUZZ_API_H

#include "common.h"
#include "fuzz.h"
#include "k_fuzz.h"

enum { FUZZ_SEEDS = 4, NSLOTS = 24, NINST = 12, NEVENTS = 8, MAXPARTS = 1024 };

#define ITERS_DEFAULT 15000
#define REGION_MAX ((uint64_t)64 << 10) /* bytes of memory a view may span when it is made */
#define ELEMS_MAX 8192                  /* elements of a view that may be made */
#define INDICES_MAX 4096                /* indices a dispatch may run */

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

struct fuzz {
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
};
extern struct fuzz fz;

/* Something no handle is: the handle checks must refuse it without following it. */
extern _Alignas(64) unsigned char foreign[512];
#define FOREIGN ((void *)foreign)

/* ---- The model (fuzz_api_model.c) ---------------------------------------------------------- */

/* portex holds a reference to px_init; the HOST bytes the live views' regions hold; the
   test's live objects. */
bool initialized(void);
size_t model_bytes(void);
int live_objects(void);
/* A free region, view or slot, taken (NULL or -1 when there is none). */
region *region_new(void);
mview *mview_new(void);
int free_slot(void);
int slot_for_new(void);
/* A live view of the test (NULL when there is none); a view argument (mostly a live view,
   else NULL or a foreign pointer); a view's label for the trace. */
mview *pick_view(void);
px_view *view_arg(mview **m);
const char *view_name(const px_view *v);
/* Drops the reference of slot s. */
void release_slot(int s);
/* Element number `flat` (LAYOUT_RIGHT order); whether the elements fill their span exactly
   (and whether two indices reach one element); the strides of a dense view of `layout`. */
unsigned char *elem_at(const mview *m, int64_t flat);
bool contiguous_of(const mview *m, bool *aliased);
void dense_strides(int rank, const int64_t *extent, px_layout layout, int64_t *stride);
/* The view's information agrees with the model. */
void check_info(const char *func, const mview *m);

/* ---- Shapes (fuzz_api_model.c) ------------------------------------------------------------- */

/* A view's shape as judge_desc works it out from a descriptor. */
typedef struct shape {
    size_t es;
    bool empty;
    uint64_t span; /* elements the memory must span */
    uint64_t bytes;
    int64_t size;
    int64_t stride[PX_MAX_RANK];
} shape;

/* Whether a space is one portex knows, and usable here. */
bool space_valid(px_space s);
bool space_usable(px_space s);
/* What px_view_create must do with d (EXP_*), its shape, and why it must fail. */
int judge_desc(const px_view_desc *d, shape *s, const char **why);
/* Random labels, spaces and descriptors (wild: invalid ones too). */
const char *gen_label(char *buf, size_t n);
px_space gen_space(bool wild);
void gen_desc(px_view_desc *d, char *label, size_t label_size);
/* The model of a view made from d. */
void shape_to_model(mview *m, const px_view_desc *d, const shape *s);

/* ---- Calls (fuzz_api_views.c, fuzz_api_copies.c, fuzz_api_runtime.c, test_fuzz.c) ------ */

void op_view_create(void);
void op_view_wrap(void);
void op_subview(void);
void op_mirror(void);
void op_retain_release(void);
void op_info_span(void);
/* The alignment of a dtype's elements; the model of a subview (EXP_*, and why not). */
size_t align_of(px_dtype dt);
int sub_model(const mview *src, const px_slice *sl, mview *m, const char **why);
void op_copy(void);
void op_copy_overlap(void);
void op_fill(void);
/* A copy of a region's bytes (free it); an instance argument (*live: a live instance). */
unsigned char *snapshot(const region *g);
px_instance *inst_arg(bool *live);
void op_instance(void);
void op_partition(void);
void op_event(void);
void op_dispatch(void);
void op_lifetime(void);
void op_misc(void);
/* Destroys an instance of the test, judged. */
void destroy_inst(px_instance **in);

#endif /* PX_TESTS_FUZZ_API_H */
