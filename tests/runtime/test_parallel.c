/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* px_parallel_for / _reduce / _reduce_view / _scan on the backend under test.
 * Suites: "for", "reduce", "scan", "dispatch" (errors of every dispatch function).
 *
 * A file per suite (test_parallel.h); this one runs them. */
#include "test_parallel.h"

int main(void)
{
    parallel_for_cases();
    parallel_reduce_cases();
    parallel_scan_cases();
    parallel_dispatch_cases();
    return tk_run();
}
