/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* portex — the kernel ABI: what the code portex's headers expand into a user's files
 * shares with the library, and what it calls there. Not API: users never name anything
 * here (px__ names); it is installed because kernel files compile it.
 *
 * Two kinds of agreement, each with its guard:
 *   - layouts read through a kernel's descriptor: the entry table below, px__team_run,
 *     and each family's launch record and entry signatures (portex/impl/<family>/). A
 *     change gives PX_KERNEL_MAGIC a new value (PX__KERNEL_ABI's character), and dispatch
 *     refuses the old descriptors with "recompile its kernel file". Only dispatch reaches
 *     these layouts, so the magic guards them all.
 *   - functions the expanded code calls by name (px__kabi_*): a change of what one takes
 *     or means gives it a new name, as for public functions, so that code compiled
 *     against the old one fails to link instead of misbehaving. They are exported by the
 *     library whatever its build (src/core/kernel_abi.c), and never validate more than
 *     their callers, the headers' own macros, can get wrong. */
#ifndef PORTEX_IMPL_ABI_H
#define PORTEX_IMPL_ABI_H

#include <stddef.h>
#include <stdint.h>

#include "portex/core.h"
#include "portex/export.h"

/* The kernel ABI's version: the last character of PX_KERNEL_MAGIC ("PXK6"). */
#define PX__KERNEL_ABI 6
/* The magic of descriptors of earlier versions, which dispatch refuses by name. */
#define PX__KERNEL_MAGIC_V1 0x50584b31u
#define PX__KERNEL_MAGIC_V2 0x50584b32u
#define PX__KERNEL_MAGIC_V3 0x50584b33u
#define PX__KERNEL_MAGIC_V4 0x50584b34u
#define PX__KERNEL_MAGIC_V5 0x50584b35u

PX_EXTERN_C_BEGIN

struct px_view;

/* ---- A kernel's entries -------------------------------------------------------------- */

/* What a backend needs from a kernel. Each family of device code (a target:
   portex/impl/targets.h) gives an entry of each kind it can run the kernel with, of the
   function type its header names for that kind. */
typedef enum px__entry_kind {
    PX__ENTRY_RANGE = 1,     /* runs a policy's index space, or the part of it it is given */
    PX__ENTRY_SCAN_PASS = 2, /* a scan's pass over part of its range, from a running value */
    PX__ENTRY_LEAGUE = 3     /* runs a team kernel's league, or the part of it it is given */
} px__entry_kind;

/* An entry's function, as the table keeps it: converted back to its family's type for
   (target, kind) before it is called. */
typedef void (*px__entry_fn)(void);

/* One row of a descriptor's table: `fn` runs the kernel as entry `kind` for `target`. */
typedef struct px__kernel_entry {
    uint16_t target; /* a px__kernel_target */
    uint16_t kind;   /* a px__entry_kind */
    px__entry_fn fn;
} px__kernel_entry;

/* ---- Team runs ----------------------------------------------------------------------- */

/* What the library hands a team kernel's LEAGUE entry for one run, on every target. */
typedef struct px__team_run {
    int64_t league_begin;     /* first team this call runs (host entries) */
    int64_t league_end;       /* one past the last (host entries) */
    int64_t league_size;      /* the league */
    int32_t team_size;        /* host: 1; CUDA: the request (0: auto), the size used on return */
    int32_t vector_length;    /* host: 1; CUDA: the request (0: auto), the length used on return */
    size_t scratch_team[2];   /* per-team bytes by level, rounded to 16 */
    size_t scratch_thread[2]; /* per-thread bytes by level, rounded to 16 */
    void *scratch[2];         /* host: the calling thread's buffers, one team's worth */
    size_t shared_limit;      /* CUDA: dynamic shared memory a block may have (opt-in) */
    int32_t refused;          /* CUDA, on return: PX__TEAM_REFUSED_* or 0 */
    int64_t refused_limit;    /* CUDA, on return: the limit that refused the launch */
    const void *rows;         /* the league's px__team_rows_run (NULL: none), in host memory
                                 (CUDA copies it into the launch's parameters) */
} px__team_run;

/* A league shaped by a px_team_rows (portex/team.h) as team kernels read it. League ranks
   [0, nlong) take one long row each, long_rows[rank], with every thread and lane of the
   team (first: they are the slowest); the ranks after take per_team consecutive rows each,
   a row per team thread (its lanes over the row's entries), skipping the long ones. */
typedef struct px__team_rows_run {
    const void *offsets;      /* nrows + 1 nondecreasing offsets: int64_t, or int32_t */
    const int64_t *long_rows; /* nlong row indices, increasing */
    int64_t nrows;
    int64_t per_team;   /* rows a team of the short part */
    int64_t long_after; /* a row of more entries than this is long */
    int64_t nlong;
    int32_t offsets_i64; /* 1: int64_t offsets */
    int32_t reserved;
} px__team_rows_run;

#define PX__TEAM_REFUSED_THREADS 1   /* team_size * vector_length above the kernel's limit */
#define PX__TEAM_REFUSED_SHARED 2    /* level 0 and reduction slots above the shared memory */
#define PX__TEAM_REFUSED_OCCUPANCY 3 /* no block of that shape fits an SM */

/* ---- Functions the headers' code calls -------------------------------------------------- */

/* px_cond_set on the host (portex/kernel.h): sets the condition `handle` (as
   px_graph_cond_value gives it) of the executable graph running on this thread; nothing
   outside a launch of its graph. */
PX_API void px__kabi_cond_set(uint64_t handle, unsigned value);

/* PX_AT* under PX_BOUNDS_CHECK on the host (portex/view.h): records `index` outside
   [0, extent) in dimension `dim`, for the dispatch running the kernel to report. */
PX_API void px__kabi_bounds_violation(int dim, int64_t index, int64_t extent);

/* px_view_get_span (portex/view.h): fills *out, a span of `layout` (PX__SPAN_STRIDED,
   _RIGHT, _LEFT, _1D: the span type's tag size) with elements of `dtype` (a px_dtype;
   PX_DTYPE_COUNT for px_span's void data), after checking the view against both; errors
   name px_view_get_span. */
PX_API px_status px__kabi_view_get_span(const struct px_view *view, int dtype, int layout,
                                        void *out);

/* px_scatter_add on the host (portex/scatter.h): the part of a dispatch the calling thread
   runs now (0 to the instance's threads - 1: the host backends cut a dispatch into as many
   parts as their team has threads, each run by one thread at a time), or -1 outside one.
   Declared const, though it reads the thread's state: a kernel's loop function runs within
   one part, so the compiler may call it once per loop rather than once per add; it must
   not be called across the start of another part in one function (no code of a user's
   does: parts start in the library). */
#if defined(__GNUC__) || defined(__clang__)
PX_API int px__kabi_host_part(void) __attribute__((const));
#else
PX_API int px__kabi_host_part(void);
#endif

/* A function of the CUDA driver, as a generic function pointer (C has no other). */
typedef void (*px__kabi_fn)(void);

/* The CUDA launch templates (portex/impl/cuda/kernel_cuda.h): the driver's cuLaunchKernel
   as the library found it once, or NULL (a library without CUDA, a driver without it);
   the templates then launch through the runtime. */
PX_API px__kabi_fn px__kabi_cuda_launch_entry(void);

PX_EXTERN_C_END

#endif /* PORTEX_IMPL_ABI_H */
