/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The raw-CUDA baselines of the overlap benchmark (raw_overlap.cu): plain C interface. */
#ifndef RAW_OVERLAP_H
#define RAW_OVERLAP_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The overlap pipeline written with CUDA streams: n floats in `chunks` chunks over k
   non-blocking streams, H2D, x = 2x + 1, D2H; host memory pinned or pageable (malloc).
   Runs `reps` times; *ms gets the last repetition's wall time. 0 on success and verified
   output, else a CUDA error code (or -1 for wrong output). */
int raw_overlap(int64_t n, int chunks, int k, bool pinned, int reps, double *ms);

/* The bidirectional copy limit: n floats host -> device and n floats device -> host, both
   pinned, at the same time on two streams; wall time in *ms (median of reps). */
int raw_bidirectional_limit(int64_t n, int reps, double *ms);

#ifdef __cplusplus
}
#endif

#endif
