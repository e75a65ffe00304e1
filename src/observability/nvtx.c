/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* NVTX ranges in portex's own domain (observability/nvtx.h). NVTX itself costs almost nothing
 * without a tool attached; portex still makes no call unless asked (px__prof_mask). */
#include <stddef.h>

#include "observability/nvtx.h"
#include "observability/profiling.h"
#include "px_config.h"

#if PX_HAVE_CUDA
/* NVTX's loader converts dlsym's pointer to a function pointer, which -Wpedantic flags. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpedantic"
#include <nvtx3/nvToolsExt.h>
#pragma GCC diagnostic pop

static nvtxDomainHandle_t domain;

/* ARGB: kernels green, copies blue, fences red, graphs purple, regions grey (the colours
   of docs/results/overlap_timeline.png). */
static const uint32_t colour[] = {
    [PX__NVTX_KERNEL] = 0xff2ca02cu, [PX__NVTX_COPY] = 0xff1f77b4u,
    [PX__NVTX_FENCE] = 0xffd62728u,  [PX__NVTX_GRAPH] = 0xff9467bdu,
    [PX__NVTX_REGION] = 0xff7f7f7fu,
};

bool px__nvtx_start(void)
{
    domain = nvtxDomainCreateA("portex");
    px__prof_mask |= PX__PROF_NVTX;
    return true;
}

void px__nvtx_stop(void)
{
    if (!(px__prof_mask & PX__PROF_NVTX)) return;
    px__prof_mask &= ~(unsigned)PX__PROF_NVTX;
    nvtxDomainDestroy(domain);
    domain = NULL;
}

void px__nvtx_push(px__nvtx_kind kind, const char *message)
{
    nvtxEventAttributes_t a = {0};
    a.version = NVTX_VERSION;
    a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    a.colorType = NVTX_COLOR_ARGB;
    a.color = colour[kind];
    a.messageType = NVTX_MESSAGE_TYPE_ASCII;
    a.message.ascii = message;
    nvtxDomainRangePushEx(domain, &a);
}

void px__nvtx_pop(void) { nvtxDomainRangePop(domain); }

void px__nvtx_mark(const char *message)
{
    nvtxEventAttributes_t a = {0};
    a.version = NVTX_VERSION;
    a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    a.messageType = NVTX_MESSAGE_TYPE_ASCII;
    a.message.ascii = message;
    nvtxDomainMarkEx(domain, &a);
}

#else

bool px__nvtx_start(void) { return false; }
void px__nvtx_stop(void) {}
void px__nvtx_push(px__nvtx_kind kind, const char *message)
{
    (void)kind;
    (void)message;
}
void px__nvtx_pop(void) {}
void px__nvtx_mark(const char *message) { (void)message; }

#endif
