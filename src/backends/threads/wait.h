/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: sleeping on a 32-bit word until another thread changes it, the slow half of
 * the threads backend's hand-off (pool.c spins first): a futex on Linux, a condition
 * variable elsewhere. The word itself carries the news; these only put a thread to sleep
 * and wake it, so every check of the word is an atomic load by the caller. */
#ifndef PX_BACKENDS_THREADS_WAIT_H
#define PX_BACKENDS_THREADS_WAIT_H

#include <stdatomic.h>

/* Sleeps while *word holds value; returns at once when it does not. May return without a
   change (a signal, another waker): callers check the word again. */
void px__thr_wait(atomic_uint *word, unsigned value);
/* Wakes every thread sleeping on word (after the caller changed it). */
void px__thr_wake_all(atomic_uint *word);

/* In the child of a fork (a pthread_atfork handler): sleepers of the parent's are not
   there, and whatever they held is forgotten. */
void px__thr_wait_after_fork(void);
/* "futex" or "condition variable", for the configuration report. */
const char *px__thr_wait_kind(void);

/* One step of a spin: tells the core this thread is only polling. */
static inline void px__thr_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

#endif /* PX_BACKENDS_THREADS_WAIT_H */
