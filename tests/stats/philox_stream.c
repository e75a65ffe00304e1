/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* philox_stream: portex's Philox4x32-10 stream as raw 32-bit words on stdout, for dieharder's
 * raw input (-g 200): output k of subsequence 0 of the seed is word k, little-endian, for as
 * long as the reader reads (or `words` of them).
 *
 *   philox_stream SEED [WORDS]
 *
 * The words are what px_rand_u32 draws in a kernel on any backend (tests/runtime/test_random
 * checks kernels' draws against the host's bit for bit), made here on the host. Exit status:
 * 0 when the reader closed the pipe or WORDS were written; 2 on a bad argument. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

#include <portex/random.h>

enum { chunk = 1 << 16 }; /* words a write */

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: %s SEED [WORDS]\n", argv[0]);
        return 2;
    }
    char *end = NULL;
    const unsigned long long seed = strtoull(argv[1], &end, 0);
    if (*end != '\0') return 2;
    unsigned long long left = argc == 3 ? strtoull(argv[2], &end, 0) : ~0ull;
    if (argc == 3 && *end != '\0') return 2;
    signal(SIGPIPE, SIG_IGN); /* a closed pipe is the reader saying it has enough */
    static uint32_t buf[chunk];
    px_philox g = px_philox_init(seed, 0, 0);
    while (left > 0) {
        const size_t n = left < chunk ? (size_t)left : chunk;
        for (size_t k = 0; k < n; ++k) buf[k] = px_rand_u32(&g);
        if (fwrite(buf, sizeof buf[0], n, stdout) != n) return errno == EPIPE ? 0 : 1;
        left -= n;
    }
    return fflush(stdout) == 0 || errno == EPIPE ? 0 : 1;
}
