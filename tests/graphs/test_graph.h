/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The parts of test_graph, a file per suite (graph_build.c: graph, graph_cond.c:
 * graph_cond, graph_exec.c: graph_exec, graph_capture.c: graph_capture, graph_errors.c:
 * graph_errors). Each registers its suite's test cases; test_graph.c's main runs them.
 * What more than one part uses is declared here, the rest is graph_util.h. */
#ifndef PX_TESTS_TEST_GRAPH_H
#define PX_TESTS_TEST_GRAPH_H

#include "graph_util.h"

void graph_build_cases(void);
void graph_cond_cases(void);
void graph_exec_cases(void);
void graph_capture_cases(void);
void graph_errors_cases(void);

/* A host node's data: host_probe_fn appends `tag` to log (16 entries at most) and notes
   *watch in `seen` when watch is not NULL (graph_build.c). */
typedef struct host_probe {
    int *log, *nlog;
    int tag;
    const double *watch; /* NULL, or a value to note */
    double seen;
} host_probe;
void host_probe_fn(void *data);

/* fill(counter, 0) -> WHILE(initial) { counter += 1; cond = counter < limit }, then a node
   after the loop that copies the counter to `after`. Returns the exec of *gout
   (graph_cond.c). */
px_graph_exec *counting_loop(px_view *counter, px_view *after, unsigned initial, int64_t limit,
                             px_graph **gout);

#endif /* PX_TESTS_TEST_GRAPH_H */
