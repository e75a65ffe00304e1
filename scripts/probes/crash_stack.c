/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* For a GPU pass: a library to LD_PRELOAD into a program that dies of a signal where no
 * debugger is at hand (under compute-sanitizer, say). On SIGSEGV, SIGBUS or SIGABRT it
 * writes the signal, the faulting address and the host stack to stderr, then lets the
 * signal end the process as it would have. Frames name exported functions; the offsets
 * of the others go to addr2line or nm (.ci/gpu-pass graph-sanitize does that).
 *   cc -shared -fPIC -o crash_stack.so scripts/probes/crash_stack.c
 *   LD_PRELOAD=$PWD/crash_stack.so program */
#define _GNU_SOURCE
#include <execinfo.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void report(int sig, siginfo_t *si, void *ctx)
{
    (void)ctx;
    char line[160];
    const int n = snprintf(line, sizeof line, "\n*** crash_stack: signal %d, address %p; stack:\n",
                           sig, si ? si->si_addr : NULL);
    if (n > 0) (void)!write(2, line, (size_t)n);
    void *frames[64];
    backtrace_symbols_fd(frames, backtrace(frames, 64), 2);
    raise(sig); /* SA_RESETHAND: the default action now */
}

__attribute__((constructor)) static void install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = report;
    sa.sa_flags = SA_SIGINFO | SA_RESETHAND | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
    sigaction(SIGABRT, &sa, NULL);
    /* backtrace loads libgcc on its first use, which a crashing process may not manage. */
    void *warm[1];
    (void)backtrace(warm, 1);
}
