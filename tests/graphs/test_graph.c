/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Graphs (portex/graph.h) and graph conditions (px_cond_set, portex/kernel.h) on the
 * backend under test: every node kind, orders that give wrong numbers when violated,
 * launching an executable graph many times, changing it between launches, updating it
 * from a graph of the same shape, conditionals, capture, lifetimes, and misuse.
 *
 * Kernel memory is tk_space(); the host sides of copy and fill nodes are HOST_PINNED on
 * CUDA (a graph refuses pageable memory there) and HOST on serial. Results are read after
 * a fence, through HOST copies (tk_readable). Every expected value depends on the work
 * having run, in order, the number of times it should.
 *
 * A file per suite (test_graph.h); this one runs them. */
#define _POSIX_C_SOURCE 200809L /* open_memstream (graph_util.h) */

#include "test_graph.h"

int main(void)
{
    graph_build_cases();
    graph_cond_cases();
    graph_exec_cases();
    graph_capture_cases();
    graph_errors_cases();
    return tk_run();
}
