/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* What every linalg call checks of its instance and views, in one place: each check names
 * the public call (`func`) and the argument in its message. */
#ifndef PX_LINALG_ARGS_H
#define PX_LINALG_ARGS_H

#include <stdbool.h>
#include <stdint.h>

#include "portex/linalg.h"

/* A vector argument once checked: its element type, length and first element. */
typedef struct la_vec {
    px_view *view;
    px_dtype dtype; /* PX_F32 or PX_F64 */
    int64_t n;
    void *data;
} la_vec;

/* inst is not NULL; *space receives the memory its kernels use. */
px_status la_instance(const char *func, px_instance *inst, px_space *space);

/* Whether an instance whose kernels use `inst_space` reaches memory of `space`: the same
   GPU's DEVICE memory or HOST_PINNED for a GPU; HOST or HOST_PINNED for the host. */
bool la_reaches(px_space inst_space, px_space space);

/* la_reaches, or an error naming `func` and the argument `name`. */
px_status la_reachable(const char *func, const char *name, px_space inst_space, px_space space);

/* `view` (the argument `name`) is a 1-D contiguous view of PX_F32 or PX_F64 in memory
   inst_space reaches. */
px_status la_vector(const char *func, const char *name, px_space inst_space, px_view *view,
                    la_vec *out);

/* `view` (the argument `name`) is a 2-D view of PX_F32 or PX_F64, of any layout, in memory
   inst_space reaches; *in receives what it is, and *whole the memory it spans as a vector
   (for la_distinct). */
px_status la_matrix(const char *func, const char *name, px_space inst_space, px_view *view,
                    px_view_info *in, la_vec *whole);

/* a and b have the same element type and, when `same_length`, the same length. */
px_status la_match(const char *func, const char *a_name, const la_vec *a, const char *b_name,
                   const la_vec *b, bool same_length);

/* a and b are not the same view and share no memory. */
px_status la_distinct(const char *func, const char *a_name, const la_vec *a, const char *b_name,
                      const la_vec *b);

/* A scalar argument is finite-or-not as the caller likes, but fits the element type: for
   PX_F32 views a finite double past FLT_MAX is refused rather than rounded to infinity. */
px_status la_scalar(const char *func, const char *name, double value, px_dtype dtype);

/* Whether a scalar is 0 once rounded to views of `dtype` (f32: 1e-50 is 0): where the BLAS
   rule drops a term, the kernels and front ends decide alike. */
static inline bool la_zero(double value, px_dtype dtype)
{
    return dtype == PX_F32 ? (float)value == 0 : value == 0;
}

/* st, with the last error named by `func` when it is not already: a failure reported by a
   portex call the module makes ("px_parallel_reduce: ...") becomes "func:
   px_parallel_reduce: ...", so that the message names what the user called. */
px_status la_named(const char *func, px_status st);

#endif
