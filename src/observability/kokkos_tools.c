/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* A Kokkos Tools library, loaded and called as Kokkos loads and calls it
 * (Kokkos_Profiling_C_Interface.h: the entry points, their arguments and the order
 * init, request_tool_settings, provide_tool_programming_interface). The structures
 * below are that interface's ABI, declared here so that portex needs no Kokkos header.
 *
 * The library's entries are called with no portex lock held, from whatever thread made
 * the call (as Kokkos does): a library that keeps global state must be thread safe to be
 * used from several threads, which kokkos-tools' connectors mostly are not. */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"
#include "observability/kokkos_tools.h"
#include "observability/profiling.h"

/* The interface version portex implements (Kokkos 4's KOKKOSP_INTERFACE_VERSION). */
#define KP_INTERFACE_VERSION 20211015u
#define KP_TYPE_BITS 8u
#define KP_DEVICE_BITS 7u
#define KP_INSTANCE_BITS 17u
/* Kokkos gives the library at most 64 devices' ids; more are not listed. */
#define KP_MAX_DEVICES 64u

struct kp_device_info {
    size_t device_id;
};
struct kp_space_handle {
    char name[64];
};
struct kp_tool_settings {
    bool requires_global_fencing;
    bool padding[255];
};
struct kp_tool_interface {
    void (*fence)(uint32_t devid);
    void (*padding[31])(void);
};

typedef void (*kp_init_fn)(int, uint64_t, uint32_t, struct kp_device_info *);
typedef void (*kp_void_fn)(void);
typedef void (*kp_parse_args_fn)(int, char **);
typedef void (*kp_begin_fn)(const char *, uint32_t, uint64_t *);
typedef void (*kp_end_fn)(uint64_t);
typedef void (*kp_name_fn)(const char *);
typedef void (*kp_data_fn)(struct kp_space_handle, const char *, const void *, uint64_t);
typedef void (*kp_begin_copy_fn)(struct kp_space_handle, const char *, const void *,
                                 struct kp_space_handle, const char *, const void *, uint64_t);
typedef void (*kp_create_section_fn)(const char *, uint32_t *);
typedef void (*kp_section_fn)(uint32_t);
typedef void (*kp_metadata_fn)(const char *, const char *);
typedef void (*kp_settings_fn)(uint32_t, struct kp_tool_settings *);
typedef void (*kp_interface_fn)(uint32_t, struct kp_tool_interface);

static struct {
    void *handle;
    char *library;
    bool fences;
    kp_init_fn init;
    kp_void_fn finalize;
    kp_parse_args_fn parse_args;
    kp_begin_fn begin_kernel[PX_KERNEL_SCAN + 1]; /* by px_kernel_kind (from 1) */
    kp_end_fn end_kernel[PX_KERNEL_SCAN + 1];
    kp_begin_fn begin_fence;
    kp_end_fn end_fence;
    kp_name_fn push_region;
    kp_void_fn pop_region;
    kp_data_fn allocate, deallocate;
    kp_begin_copy_fn begin_copy;
    kp_void_fn end_copy;
    kp_create_section_fn create_section;
    kp_section_fn start_section, stop_section, destroy_section;
    kp_name_fn event;
    kp_metadata_fn metadata;
    kp_settings_fn settings;
    kp_interface_fn interface;
    /* kokkosp_parse_args may keep argv: it lives until the library is unloaded. */
    char *args;
    char **argv;
} kp;

uint32_t px__kp_device_id(int type, int device, uint32_t instance)
{
    return ((uint32_t)type << (KP_DEVICE_BITS + KP_INSTANCE_BITS)) |
           (((uint32_t)device & ((1u << KP_DEVICE_BITS) - 1)) << KP_INSTANCE_BITS) |
           (instance & ((1u << KP_INSTANCE_BITS) - 1));
}

/* dlsym's object pointer into a function pointer, the way POSIX allows; 1 if found. */
static int lookup(void *fn_ptr, const char *name)
{
    void *sym = dlsym(kp.handle, name);
    memcpy(fn_ptr, &sym, sizeof sym);
    return sym != NULL;
}

/* The number of entry points the library has. */
static int lookup_all(void)
{
    int found = 0;
    found += lookup(&kp.init, "kokkosp_init_library");
    found += lookup(&kp.finalize, "kokkosp_finalize_library");
    found += lookup(&kp.parse_args, "kokkosp_parse_args");
    found += lookup(&kp.begin_kernel[PX_KERNEL_FOR], "kokkosp_begin_parallel_for");
    found += lookup(&kp.end_kernel[PX_KERNEL_FOR], "kokkosp_end_parallel_for");
    found += lookup(&kp.begin_kernel[PX_KERNEL_REDUCE], "kokkosp_begin_parallel_reduce");
    found += lookup(&kp.end_kernel[PX_KERNEL_REDUCE], "kokkosp_end_parallel_reduce");
    found += lookup(&kp.begin_kernel[PX_KERNEL_SCAN], "kokkosp_begin_parallel_scan");
    found += lookup(&kp.end_kernel[PX_KERNEL_SCAN], "kokkosp_end_parallel_scan");
    found += lookup(&kp.begin_fence, "kokkosp_begin_fence");
    found += lookup(&kp.end_fence, "kokkosp_end_fence");
    found += lookup(&kp.push_region, "kokkosp_push_profile_region");
    found += lookup(&kp.pop_region, "kokkosp_pop_profile_region");
    found += lookup(&kp.allocate, "kokkosp_allocate_data");
    found += lookup(&kp.deallocate, "kokkosp_deallocate_data");
    found += lookup(&kp.begin_copy, "kokkosp_begin_deep_copy");
    found += lookup(&kp.end_copy, "kokkosp_end_deep_copy");
    found += lookup(&kp.create_section, "kokkosp_create_profile_section");
    found += lookup(&kp.start_section, "kokkosp_start_profile_section");
    found += lookup(&kp.stop_section, "kokkosp_stop_profile_section");
    found += lookup(&kp.destroy_section, "kokkosp_destroy_profile_section");
    found += lookup(&kp.event, "kokkosp_profile_event");
    found += lookup(&kp.metadata, "kokkosp_declare_metadata");
    found += lookup(&kp.settings, "kokkosp_request_tool_settings");
    found += lookup(&kp.interface, "kokkosp_provide_tool_programming_interface");
    return found;
}

/* args split at blanks into kp.argv, argv[0] the library (as a program name). */
static px_status split_args(const char *args)
{
    const size_t n = strlen(args);
    kp.args = px__malloc(n + 1);
    kp.argv = px__calloc(n / 2 + 3, sizeof *kp.argv);
    if (!kp.args || !kp.argv)
        return px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory for the tool's arguments");
    memcpy(kp.args, args, n + 1);
    int argc = 0;
    kp.argv[argc++] = kp.library;
    for (char *save = NULL, *tok = strtok_r(kp.args, " \t", &save); tok;
         tok = strtok_r(NULL, " \t", &save))
        kp.argv[argc++] = tok;
    kp.parse_args(argc, kp.argv);
    return PX_OK;
}

static void forget(void)
{
    if (kp.handle) dlclose(kp.handle);
    free(kp.library);
    free(kp.args);
    free(kp.argv);
    memset(&kp, 0, sizeof kp);
    px__prof_mask &= ~(unsigned)PX__PROF_KOKKOS;
}

px_status px__kp_load(const char *libs, const char *args, uint32_t devices,
                      void (*fence)(uint32_t devid))
{
    /* The first of the list, as Kokkos loads it (chaining more is the tool's business). */
    const size_t len = strcspn(libs, ";");
    kp.library = px__malloc(len + 1);
    if (!kp.library) return px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory");
    memcpy(kp.library, libs, len);
    kp.library[len] = '\0';
    dlerror();
    kp.handle = dlopen(kp.library, RTLD_NOW | RTLD_GLOBAL);
    if (!kp.handle) {
        const char *why = dlerror();
        const px_status st = px__error(PX_ERR_SYSTEM, "cannot load the tool library '%s': %s",
                                       kp.library, why ? why : "unknown reason");
        forget();
        return st;
    }
    if (lookup_all() == 0) {
        const px_status st = px__error(
            PX_ERR_INVALID_ARGUMENT,
            "'%s' exports no kokkosp_* entry point: it is not a Kokkos Tools library", kp.library);
        forget();
        return st;
    }
    struct kp_device_info info[KP_MAX_DEVICES];
    if (devices > KP_MAX_DEVICES) devices = KP_MAX_DEVICES;
    for (uint32_t d = 0; d < devices; ++d) info[d].device_id = d;
    if (kp.init) kp.init(0, KP_INTERFACE_VERSION, devices, info);
    /* Kokkos' default: fences after every operation, unless the library says it needs none. */
    struct kp_tool_settings settings;
    memset(&settings, 0, sizeof settings);
    settings.requires_global_fencing = true;
    if (kp.settings) kp.settings(1, &settings);
    kp.fences = settings.requires_global_fencing;
    if (kp.interface) {
        struct kp_tool_interface tpi;
        memset(&tpi, 0, sizeof tpi);
        tpi.fence = fence;
        kp.interface(1, tpi);
    }
    if (args && args[0] && kp.parse_args) {
        const px_status st = split_args(args);
        if (st != PX_OK) {
            px__kp_unload();
            return st;
        }
    }
    px__prof_mask |= PX__PROF_KOKKOS;
    return PX_OK;
}

void px__kp_unload(void)
{
    if (!kp.handle) return;
    if (kp.finalize) kp.finalize();
    forget();
}

const char *px__kp_library(void) { return kp.library ? kp.library : ""; }
bool px__kp_wants_fences(void) { return kp.handle && kp.fences; }

void px__kp_begin_kernel(px_kernel_kind kind, const char *label, uint32_t devid, uint64_t *id)
{
    *id = 0;
    if (kp.begin_kernel[kind]) kp.begin_kernel[kind](label, devid, id);
}

void px__kp_end_kernel(px_kernel_kind kind, uint64_t id)
{
    if (kp.end_kernel[kind]) kp.end_kernel[kind](id);
}

void px__kp_begin_fence(const char *name, uint32_t devid, uint64_t *id)
{
    *id = 0;
    if (kp.begin_fence) kp.begin_fence(name, devid, id);
}

void px__kp_end_fence(uint64_t id)
{
    if (kp.end_fence) kp.end_fence(id);
}

/* Kokkos' names for the memory spaces: tools compare them (space-time-stack accepts
   only "Host" and names starting "Cuda", and aborts on any other). */
static struct kp_space_handle space_handle(px_space s)
{
    struct kp_space_handle h;
    memset(&h, 0, sizeof h);
    const char *name = s.kind == PX_SPACE_DEVICE        ? "Cuda"
                       : s.kind == PX_SPACE_HOST_PINNED ? "CudaHostPinned"
                                                        : "Host";
    memcpy(h.name, name, strlen(name));
    return h;
}

void px__kp_begin_deep_copy(px_space dst, const char *dst_label, const void *dst_ptr, px_space src,
                            const char *src_label, const void *src_ptr, uint64_t bytes)
{
    if (kp.begin_copy)
        kp.begin_copy(space_handle(dst), dst_label, dst_ptr, space_handle(src), src_label, src_ptr,
                      bytes);
}

void px__kp_end_deep_copy(void)
{
    if (kp.end_copy) kp.end_copy();
}

void px__kp_allocate(px_space space, const char *label, const void *ptr, uint64_t bytes)
{
    if (kp.allocate) kp.allocate(space_handle(space), label, ptr, bytes);
}

void px__kp_deallocate(px_space space, const char *label, const void *ptr, uint64_t bytes)
{
    if (kp.deallocate) kp.deallocate(space_handle(space), label, ptr, bytes);
}

void px__kp_push_region(const char *name)
{
    if (kp.push_region) kp.push_region(name);
}

void px__kp_pop_region(void)
{
    if (kp.pop_region) kp.pop_region();
}

void px__kp_create_section(const char *name, uint32_t *id)
{
    *id = 0;
    if (kp.create_section) kp.create_section(name, id);
}

void px__kp_start_section(uint32_t id)
{
    if (kp.start_section) kp.start_section(id);
}

void px__kp_stop_section(uint32_t id)
{
    if (kp.stop_section) kp.stop_section(id);
}

void px__kp_destroy_section(uint32_t id)
{
    if (kp.destroy_section) kp.destroy_section(id);
}

void px__kp_event(const char *name)
{
    if (kp.event) kp.event(name);
}

void px__kp_metadata(const char *key, const char *value)
{
    if (kp.metadata) kp.metadata(key, value);
}
