/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Sleeping on a word: Linux futexes (private to the process), else one condition variable
 * for every word, whose wakers broadcast (a sleeper woken for another word checks its own
 * and sleeps again). */
#define _GNU_SOURCE /* syscall */
#include "backends/threads/wait.h"

#if defined(__linux__) && !defined(PX_THREADS_NO_FUTEX)

#include <limits.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

/* atomic_uint is a plain 32-bit unsigned on the compilers portex supports: the kernel reads
   the word itself. */
_Static_assert(sizeof(atomic_uint) == 4, "a futex is a 32-bit word");

const char *px__thr_wait_kind(void) { return "futex"; }

void px__thr_wait_after_fork(void) {}

void px__thr_wait(atomic_uint *word, unsigned value)
{
    /* EAGAIN (the word changed already) and EINTR are returns like any other. */
    (void)syscall(SYS_futex, (unsigned *)word, FUTEX_WAIT_PRIVATE, value, NULL, NULL, 0);
}

void px__thr_wake_all(atomic_uint *word)
{
    (void)syscall(SYS_futex, (unsigned *)word, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

#else

#include <pthread.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;

const char *px__thr_wait_kind(void) { return "condition variable"; }

/* The parent's threads may have held the lock, or waited on the condition, at the fork: a
   fresh pair, or the child's first wait or wake could block for good. */
void px__thr_wait_after_fork(void)
{
    pthread_mutex_init(&lock, NULL);
    pthread_cond_init(&changed, NULL);
}

void px__thr_wait(atomic_uint *word, unsigned value)
{
    pthread_mutex_lock(&lock);
    /* Checked under the lock that wakers take after changing the word: no wake is lost. */
    if (atomic_load(word) == value) pthread_cond_wait(&changed, &lock);
    pthread_mutex_unlock(&lock);
}

void px__thr_wake_all(atomic_uint *word)
{
    (void)word;
    pthread_mutex_lock(&lock);
    pthread_cond_broadcast(&changed);
    pthread_mutex_unlock(&lock);
}

#endif
