/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: NVTX, for Nsight. Ranges on the calling thread for every labelled dispatch,
 * copy and fence, in a domain named "portex", coloured by kind. Only in CUDA builds (the
 * header-only NVTX 3 of the CUDA toolkit); elsewhere, and until px__nvtx_start, no call
 * reaches NVTX. */
#ifndef PX_OBSERVABILITY_NVTX_H
#define PX_OBSERVABILITY_NVTX_H

#include <stdbool.h>
#include <stdint.h>

/* The kinds of range, each its own colour in Nsight. */
typedef enum px__nvtx_kind {
    PX__NVTX_KERNEL,
    PX__NVTX_COPY,
    PX__NVTX_FENCE,
    PX__NVTX_GRAPH,
    PX__NVTX_REGION,
} px__nvtx_kind;

/* false where portex was built without CUDA (there is no NVTX then). */
bool px__nvtx_start(void);
void px__nvtx_stop(void);

void px__nvtx_push(px__nvtx_kind kind, const char *message);
void px__nvtx_pop(void);
void px__nvtx_mark(const char *message);

#endif /* PX_OBSERVABILITY_NVTX_H */
