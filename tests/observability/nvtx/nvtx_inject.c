/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* An NVTX injection library for the tests: what Nsight would hear, written as text.
 *
 * NVTX 3 is header-only: the first NVTX call of a program loads the library named by
 * NVTX_INJECTION64_PATH and calls its InitializeInjectionNvtx2, which may replace NVTX's
 * functions with its own (nvtx3/nvtxDetail/nvtxInit.h). This one replaces those portex
 * uses and writes one line per call to the file named by NVTX_LOG (stderr without it),
 * flushed at once so that a crash loses nothing:
 *
 *   domain_create <name>
 *   push <domain> <message> <colour>     colour: 8 hex digits (ARGB), or "none"
 *   pop <domain>
 *   mark <domain> <message> <colour>
 *   domain_destroy <name>
 *   name_stream <name>
 *
 * A message that is not ASCII is written as "<unicode>" or "<registered>". */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A tool's view of NVTX: the types and ids, none of NVTX's own implementation. */
#define NVTX_NO_IMPL
/* NVTX's headers convert between object and function pointers, which -Wpedantic flags. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpedantic"
#include <nvtx3/nvToolsExt.h> /* the CUDA runtime module's ids too (nvtxTypes.h) */
#pragma GCC diagnostic pop

/* The handle NVTX returns for a domain is ours to define. */
struct nvtxDomainRegistration_st {
    char *name;
};

static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static FILE *log_file;

static void log_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void log_line(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pthread_mutex_lock(&log_lock);
    vfprintf(log_file, fmt, ap);
    fputc('\n', log_file);
    fflush(log_file);
    pthread_mutex_unlock(&log_lock);
    va_end(ap);
}

static const char *domain_name(nvtxDomainHandle_t d)
{
    return d && d->name ? d->name : "<default>";
}

static const char *message_of(const nvtxEventAttributes_t *a)
{
    if (!a) return "<none>";
    switch (a->messageType) {
    case NVTX_MESSAGE_TYPE_ASCII: return a->message.ascii ? a->message.ascii : "<null>";
    case NVTX_MESSAGE_TYPE_UNICODE: return "<unicode>";
    case NVTX_MESSAGE_TYPE_REGISTERED: return "<registered>";
    default: return "<none>";
    }
}

/* "none", or the ARGB colour as 8 hex digits; buf holds 9 characters. */
static const char *colour_of(const nvtxEventAttributes_t *a, char *buf)
{
    if (!a || a->colorType != NVTX_COLOR_ARGB) return "none";
    snprintf(buf, 9, "%08x", (unsigned)a->color);
    return buf;
}

/* ---- The replacements ------------------------------------------------------------------ */

static _Thread_local int depth; /* the calling thread's open ranges, every domain */

static nvtxDomainHandle_t NVTX_API domain_create(const char *name)
{
    struct nvtxDomainRegistration_st *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->name = strdup(name ? name : "<null>");
    log_line("domain_create %s", domain_name(d));
    return d;
}

static void NVTX_API domain_destroy(nvtxDomainHandle_t d)
{
    log_line("domain_destroy %s", domain_name(d));
    if (d) {
        free(d->name);
        free(d);
    }
}

static int NVTX_API range_push(nvtxDomainHandle_t d, const nvtxEventAttributes_t *a)
{
    char colour[9];
    log_line("push %s %s %s", domain_name(d), message_of(a), colour_of(a, colour));
    return depth++; /* the level of the range just opened, from 0 */
}

static int NVTX_API range_pop(nvtxDomainHandle_t d)
{
    log_line("pop %s", domain_name(d));
    if (depth == 0) return -1; /* NVTX's answer for a pop with nothing open */
    return --depth;
}

static void NVTX_API mark(nvtxDomainHandle_t d, const nvtxEventAttributes_t *a)
{
    char colour[9];
    log_line("mark %s %s %s", domain_name(d), message_of(a), colour_of(a, colour));
}

static void NVTX_API name_stream(nvtx_cudaStream_t stream, const char *name)
{
    (void)stream;
    log_line("name_stream %s", name ? name : "<null>");
}

/* ---- Installing them ------------------------------------------------------------------- */

/* Puts fn in slot id of a module's table; false where NVTX has no such slot. */
static int install(const NvtxExportTableCallbacks *cb, NvtxCallbackModule module, unsigned id,
                   NvtxFunctionPointer fn)
{
    NvtxFunctionTable table = NULL;
    unsigned size = 0;
    if (!cb->GetModuleFunctionTable(module, &table, &size) || !table || id >= size || !table[id])
        return 0;
    *table[id] = fn;
    return 1;
}

/* Function pointers of one type to another: the table stores them untyped. */
#define FN(f) ((NvtxFunctionPointer)(void (*)(void))(f))

__attribute__((visibility("default"))) int InitializeInjectionNvtx2(
    NvtxGetExportTableFunc_t getExportTable);

int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t getExportTable)
{
    const char *path = getenv("NVTX_LOG");
    log_file = path && path[0] ? fopen(path, "w") : stderr;
    if (!log_file) {
        fprintf(stderr, "nvtx_inject: cannot open NVTX_LOG '%s'\n", path);
        return 0; /* NVTX then turns every call into a no-op */
    }
    const NvtxExportTableCallbacks *cb =
        getExportTable ? getExportTable(NVTX_ETID_CALLBACKS) : NULL;
    if (!cb || cb->struct_size < sizeof *cb) {
        fprintf(stderr, "nvtx_inject: NVTX gave no callbacks export table\n");
        return 0;
    }
    const int ok =
        install(cb, NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainCreateA, FN(domain_create)) &&
        install(cb, NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainDestroy, FN(domain_destroy)) &&
        install(cb, NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainRangePushEx, FN(range_push)) &&
        install(cb, NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainRangePop, FN(range_pop)) &&
        install(cb, NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainMarkEx, FN(mark)) &&
        install(cb, NVTX_CB_MODULE_CUDART, NVTX_CBID_CUDART_NameCudaStreamA, FN(name_stream));
    if (!ok)
        fprintf(stderr, "nvtx_inject: NVTX's function tables lack a slot this library fills\n");
    return ok;
}
