/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* A Kokkos Tools library for the tests: it writes one line per callback into the file the
 * environment's KP_RECORDER_LOG names, so that test_tools can check what portex told it.
 * KP_RECORDER_FENCES=1 asks for global fences; a profile event named "call-fence" makes
 * it call the fence portex gave it. Written to the Kokkos Tools C interface alone. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    void (*fence)(uint32_t);
    void (*padding[31])(void);
};

#define KP_EXPORT __attribute__((visibility("default")))

static FILE *out;
static uint64_t next_id = 1;
static void (*tool_fence)(uint32_t);

static void line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void line(const char *fmt, ...)
{
    if (!out) return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(out, fmt, ap);
    va_end(ap);
    fputc('\n', out);
    fflush(out);
}

KP_EXPORT void kokkosp_init_library(int seq, uint64_t version, uint32_t ndevices,
                                    struct kp_device_info *info)
{
    const char *path = getenv("KP_RECORDER_LOG");
    out = path ? fopen(path, "w") : NULL;
    line("init %d %" PRIu64 " %u %zu", seq, version, ndevices,
         ndevices ? info[ndevices - 1].device_id : (size_t)0);
}

KP_EXPORT void kokkosp_finalize_library(void)
{
    line("finalize");
    if (out) fclose(out);
    out = NULL;
}

KP_EXPORT void kokkosp_parse_args(int argc, char **argv)
{
    char all[512] = "";
    for (int i = 1; i < argc; ++i) {
        strncat(all, " ", sizeof all - strlen(all) - 1);
        strncat(all, argv[i], sizeof all - strlen(all) - 1);
    }
    line("parse_args %d%s", argc, all);
}

KP_EXPORT void kokkosp_request_tool_settings(uint32_t n, struct kp_tool_settings *s)
{
    const char *f = getenv("KP_RECORDER_FENCES");
    line("request_tool_settings %u %d", n, (int)s->requires_global_fencing);
    s->requires_global_fencing = f && strcmp(f, "1") == 0;
}

KP_EXPORT void kokkosp_provide_tool_programming_interface(uint32_t n, struct kp_tool_interface tpi)
{
    tool_fence = tpi.fence;
    line("provide_tool_programming_interface %u %d", n, tpi.fence != NULL);
}

static void begin(const char *what, const char *name, uint32_t devid, uint64_t *id)
{
    *id = next_id++;
    line("begin_%s %s type=%u device=%u instance=%u id=%" PRIu64, what, name, devid >> 24,
         (devid >> 17) & 0x7fu, devid & 0x1ffffu, *id);
}

KP_EXPORT void kokkosp_begin_parallel_for(const char *n, uint32_t d, uint64_t *id)
{
    begin("parallel_for", n, d, id);
}
KP_EXPORT void kokkosp_begin_parallel_reduce(const char *n, uint32_t d, uint64_t *id)
{
    begin("parallel_reduce", n, d, id);
}
KP_EXPORT void kokkosp_begin_parallel_scan(const char *n, uint32_t d, uint64_t *id)
{
    begin("parallel_scan", n, d, id);
}
KP_EXPORT void kokkosp_begin_fence(const char *n, uint32_t d, uint64_t *id)
{
    begin("fence", n, d, id);
}
KP_EXPORT void kokkosp_end_parallel_for(uint64_t id) { line("end_parallel_for id=%" PRIu64, id); }
KP_EXPORT void kokkosp_end_parallel_reduce(uint64_t id)
{
    line("end_parallel_reduce id=%" PRIu64, id);
}
KP_EXPORT void kokkosp_end_parallel_scan(uint64_t id) { line("end_parallel_scan id=%" PRIu64, id); }
KP_EXPORT void kokkosp_end_fence(uint64_t id) { line("end_fence id=%" PRIu64, id); }

KP_EXPORT void kokkosp_push_profile_region(const char *n) { line("push_region %s", n); }
KP_EXPORT void kokkosp_pop_profile_region(void) { line("pop_region"); }

KP_EXPORT void kokkosp_allocate_data(struct kp_space_handle s, const char *label, const void *p,
                                     uint64_t bytes)
{
    line("allocate %s %s %d %" PRIu64, s.name, label, p != NULL, bytes);
}

KP_EXPORT void kokkosp_deallocate_data(struct kp_space_handle s, const char *label, const void *p,
                                       uint64_t bytes)
{
    line("deallocate %s %s %d %" PRIu64, s.name, label, p != NULL, bytes);
}

KP_EXPORT void kokkosp_begin_deep_copy(struct kp_space_handle ds, const char *dl, const void *dp,
                                       struct kp_space_handle ss, const char *sl, const void *sp,
                                       uint64_t bytes)
{
    line("begin_deep_copy %s %s %d <- %s %s %d %" PRIu64, ds.name, dl, dp != NULL, ss.name, sl,
         sp != NULL, bytes);
}

KP_EXPORT void kokkosp_end_deep_copy(void) { line("end_deep_copy"); }

KP_EXPORT void kokkosp_create_profile_section(const char *n, uint32_t *id)
{
    *id = (uint32_t)(next_id++ + 1000);
    line("create_section %s %u", n, *id);
}

KP_EXPORT void kokkosp_start_profile_section(uint32_t id) { line("start_section %u", id); }
KP_EXPORT void kokkosp_stop_profile_section(uint32_t id) { line("stop_section %u", id); }
KP_EXPORT void kokkosp_destroy_profile_section(uint32_t id) { line("destroy_section %u", id); }

KP_EXPORT void kokkosp_profile_event(const char *n)
{
    line("event %s", n);
    if (strcmp(n, "call-fence") == 0 && tool_fence) {
        tool_fence(0);
        line("fence-returned");
    }
}

KP_EXPORT void kokkosp_declare_metadata(const char *k, const char *v)
{
    line("metadata %s=%s", k, v);
}
