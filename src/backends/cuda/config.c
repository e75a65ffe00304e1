/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The CUDA part of px_print_configuration: build, runtime, driver and every device. */
#include <string.h>

#include "px_config.h"

#include "backends/cuda/device.h"
#include "backends/cuda/hooks.h"
#include "backends/cuda/memory/pinned.h"

static void print_version(FILE *out, const char *what, int v)
{
    fprintf(out, "%s %d.%d", what, v / 1000, (v % 1000) / 10);
}

static int attr(enum cudaDeviceAttr a, int dev)
{
    int v = 0;
    if (cudaDeviceGetAttribute(&v, a, dev) != cudaSuccess) {
        (void)cudaGetLastError();
        return -1;
    }
    return v;
}

static void print_device(FILE *out, int dev, int count)
{
    struct cudaDeviceProp p;
    if (cudaGetDeviceProperties(&p, dev) != cudaSuccess) {
        const cudaError_t e = cudaGetLastError();
        fprintf(out, "  [%d] properties unavailable: %s\n", dev, cudaGetErrorString(e));
        return;
    }
    fprintf(out, "  [%d] %s, compute capability %d.%d, %d SMs, %.1f GiB, PCI %04x:%02x:%02x\n", dev,
            p.name, p.major, p.minor, p.multiProcessorCount,
            (double)p.totalGlobalMem / (1024.0 * 1024.0 * 1024.0), (unsigned)p.pciDomainID,
            (unsigned)p.pciBusID, (unsigned)p.pciDeviceID);
    fprintf(out,
            "      clocks: SM %d MHz, memory %d MHz; %d-bit memory bus; L2 %d MiB; %d threads/SM\n",
            attr(cudaDevAttrClockRate, dev) / 1000, attr(cudaDevAttrMemoryClockRate, dev) / 1000,
            p.memoryBusWidth, p.l2CacheSize / (1024 * 1024), p.maxThreadsPerMultiProcessor);
    int least = 0, greatest = 0;
    int saved = -1;
    if (cudaGetDevice(&saved) == cudaSuccess && cudaSetDevice(dev) == cudaSuccess &&
        cudaDeviceGetStreamPriorityRange(&least, &greatest) == cudaSuccess) {
        fprintf(out,
                "      copy engines %d; stream priorities %d (highest) to %d; memory pools %s; "
                "unified addressing %s\n",
                p.asyncEngineCount, greatest, least,
                attr(cudaDevAttrMemoryPoolsSupported, dev) ? "yes" : "no",
                p.unifiedAddressing ? "yes" : "no");
    } else {
        (void)cudaGetLastError();
        fprintf(out, "      copy engines %d\n", p.asyncEngineCount);
    }
    if (saved >= 0 && cudaSetDevice(saved) != cudaSuccess) (void)cudaGetLastError();
    if (count > 1) {
        fprintf(out, "      peer access to:");
        int any = 0;
        for (int q = 0; q < count; ++q) {
            int can = 0;
            if (q == dev) continue;
            if (cudaDeviceCanAccessPeer(&can, dev, q) != cudaSuccess) {
                (void)cudaGetLastError();
                continue;
            }
            if (can) {
                fprintf(out, " %d", q);
                any = 1;
            }
        }
        fprintf(out, "%s\n", any ? "" : " none");
    }
}

px_status px__cuda_print_configuration(FILE *out)
{
    fprintf(out, "CUDA backend\n  built with CUDA ");
    print_version(out, "runtime headers", CUDART_VERSION);
    fprintf(out, ", SM architectures %s\n", PX_CUDA_ARCH);
    int rt = 0, drv = 0;
    fprintf(out, "  ");
    if (cudaRuntimeGetVersion(&rt) == cudaSuccess)
        print_version(out, "runtime", rt);
    else
        fprintf(out, "runtime unknown");
    fprintf(out, ", ");
    if (cudaDriverGetVersion(&drv) == cudaSuccess && drv > 0)
        print_version(out, "driver supports CUDA", drv);
    else
        fprintf(out, "no driver");
    (void)cudaGetLastError();
    fprintf(out, "\n  pinned-memory cache: up to %zu MiB\n",
            px__cuda_pinned_cache_limit() / (1024 * 1024));

    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
        /* No GPU is a configuration to report, not an error of this call. */
        (void)cudaGetLastError();
        fprintf(out, "  devices: none (%s)\n",
                e != cudaSuccess ? cudaGetErrorString(e) : "cudaGetDeviceCount found none");
        return PX_OK;
    }
    fprintf(out, "  devices: %d\n", count);
    for (int d = 0; d < count && d < PX__MAX_DEVICES; ++d) print_device(out, d, count);
    return PX_OK;
}
