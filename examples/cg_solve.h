/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* cg_solve: the conjugate-gradient method for A x = b from libportex_linalg's pieces, two
 * ways: a host loop (each iteration's scalars come back to the host, which decides
 * whether to go on), and a graph whose WHILE node runs the iterations on the device, the
 * scalars in one-element views, the host waiting once. The same arithmetic in the same
 * order: the same iterations on every backend. Used by the cg example and bench_cg. */
#ifndef CG_SOLVE_H
#define CG_SOLVE_H

#include <portex/linalg.h>

typedef struct cg_result {
    int iterations;
    double residual;      /* |r| / |b| at the end */
    double seconds;       /* the iterations' time (the graph's: its launch until it is done) */
    double setup_seconds; /* before the iterations: the graph's build and instantiation */
} cg_result;

/* From x = 0 until |r| <= tol |b| or max_it iterations, on inst, whose memory is `space`
   (b and the solution x there too, of A's rows, f64). Returns PX_OK or the first failure. */
px_status cg_host_loop(px_instance *inst, px_space space, const px_csr *A, px_view *b, px_view *x,
                       double tol, int max_it, cg_result *out);
px_status cg_graph_loop(px_instance *inst, px_space space, const px_csr *A, px_view *b, px_view *x,
                        double tol, int max_it, cg_result *out);

#endif
