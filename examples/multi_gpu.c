/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* multi_gpu: a copy chain across every visible GPU, host -> GPU 0 -> GPU 1 -> ... -> host,
 * with a kernel on each GPU that changes the data on its way through; the result is
 * checked against the same steps done on the host.
 *
 * Nothing between the steps waits. Each copy between two GPUs is issued on the receiving
 * GPU's instance right after the kernel on the previous GPU was queued, with no event and
 * no fence: px_deep_copy_async orders a copy between GPUs after the work pending on both
 * of them (path CUDA_PEER), so it cannot read the data before that kernel has written it.
 * The host waits once, for the copy back.
 *
 * With one GPU the chain is host -> GPU 0 -> host; without a GPU it runs on the serial
 * backend in HOST memory. It says which. */
#include <stdbool.h>
#include <stdlib.h>
#include <time.h>

#include "example.h"
#include "multi_gpu_kernels.h"

#define MAX_STAGES 64

static const uint64_t MUL = 6364136223846793005u; /* Knuth's MMIX LCG */
static const uint64_t ADD = 1442695040888963407u;

static double now_ms(void)
{
    struct timespec t;
    timespec_get(&t, TIME_UTC);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

int main(void)
{
    const int64_t n = (int64_t)1 << 22; /* 4 Mi elements, 32 MiB */

    CHECK(px_init(NULL));
    int gpus = 0;
    if (px_exec_space_available(PX_EXEC_CUDA))
        CHECK(px_exec_space_device_count(PX_EXEC_CUDA, &gpus));
    const bool cuda = gpus > 0;
    const int stages = cuda ? (gpus < MAX_STAGES ? gpus : MAX_STAGES) : 1;
    if (!cuda)
        printf("multi_gpu: no GPU here: the chain runs on the serial backend, in HOST memory\n");
    else if (gpus == 1)
        printf("multi_gpu: one GPU: the chain runs on GPU 0 alone, host -> GPU 0 -> host "
               "(no copy between GPUs)\n");
    else
        printf("multi_gpu: %d GPUs: host -> GPU 0 -> ... -> GPU %d -> host\n", stages, stages - 1);

    /* The ends of the chain: pinned host memory with CUDA (DMA), plain HOST otherwise. */
    const px_space host = cuda ? px_host_pinned() : px_host();
    px_view *hin, *hout;
    CHECK(px_view_create_1d_ex(&hin, "in", host, PX_U64, n, PX_VIEW_NO_INIT));
    CHECK(px_view_create_1d_ex(&hout, "out", host, PX_U64, n, PX_VIEW_NO_INIT));
    px_span_u64_1d in, out;
    CHECK(px_view_get_span(hin, &in));
    CHECK(px_view_get_span(hout, &out));
    uint64_t *expect = malloc((size_t)n * sizeof *expect);
    if (!expect) return 1;
    uint64_t seed = 42;
    for (int64_t i = 0; i < n; ++i) {
        uint64_t z = (seed += 0x9e3779b97f4a7c15u); /* splitmix64 */
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
        in.data[i] = expect[i] = z ^ (z >> 31);
    }

    /* One view and the default instance per stage. */
    px_view *x[MAX_STAGES];
    px_instance *inst[MAX_STAGES];
    char where[MAX_STAGES][16];
    for (int g = 0; g < stages; ++g) {
        CHECK(px_instance_default(cuda ? PX_EXEC_CUDA : PX_EXEC_SERIAL, cuda ? g : 0, &inst[g]));
        if (cuda)
            snprintf(where[g], sizeof where[g], "GPU %d", g);
        else
            snprintf(where[g], sizeof where[g], "serial");
        CHECK(px_view_create(&x[g], &(px_view_desc){.label = where[g],
                                                    .space = cuda ? px_device(g) : px_host(),
                                                    .dtype = PX_U64,
                                                    .rank = 1,
                                                    .extent = {n},
                                                    .flags = PX_VIEW_NO_INIT}));
    }

    const double t0 = now_ms();
    px_copy_path path;
    CHECK(px_deep_copy_async(inst[0], x[0], hin, &path));
    printf("  host -> %s: %s\n", where[0], px_copy_path_string(path));
    for (int g = 0; g < stages; ++g) {
        if (g > 0) {
            /* No event, no fence: the copy waits for the kernel on GPU g - 1 by itself. */
            CHECK(px_deep_copy_async(inst[g], x[g], x[g - 1], &path));
            printf("  %s -> %s: %s, issued on %s's instance while %s's kernel may still run\n",
                   where[g - 1], where[g], px_copy_path_string(path), where[g], where[g - 1]);
        }
        lcg_args a = {.mul = MUL, .add = ADD + 2 * (uint64_t)g};
        CHECK(px_view_get_span(x[g], &a.x));
        CHECK(px_parallel_for(inst[g], "lcg_step", px_range(0, n), PX_KERNEL(lcg_step), &a));
        printf("  kernel on %s: x = x * mul + add_%d\n", where[g], g);
        for (int64_t i = 0; i < n; ++i) expect[i] = expect[i] * a.mul + a.add;
    }
    CHECK(px_deep_copy_async(inst[stages - 1], hout, x[stages - 1], &path));
    printf("  %s -> host: %s\n", where[stages - 1], px_copy_path_string(path));
    /* The copy back follows everything before it on this instance, which followed the
       previous GPUs' work: one wait covers the chain. */
    CHECK(px_instance_fence(inst[stages - 1]));
    const double ms = now_ms() - t0;

    int64_t bad = 0;
    for (int64_t i = 0; i < n; ++i) bad += out.data[i] != expect[i];
    printf("multi_gpu: %lld elements through %d stage%s in %.1f ms: %s", (long long)n, stages,
           stages == 1 ? "" : "s", ms, bad == 0 ? "OK\n" : "MISMATCH");
    if (bad) printf(" (%lld elements differ from the same steps on the host)\n", (long long)bad);

    free(expect);
    for (int g = 0; g < stages; ++g) CHECK(px_view_release(&x[g]));
    CHECK(px_view_release(&hin));
    CHECK(px_view_release(&hout));
    CHECK(px_finalize());
    return bad == 0 ? 0 : 1;
}
