/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: a Kokkos Tools library (kokkos-tools' connectors, or any library exporting the
 * kokkosp_* entry points of Kokkos' C profiling interface), loaded with dlopen and called
 * as Kokkos calls it. Every call here is a no-op when no library is loaded. */
#ifndef PX_OBSERVABILITY_KOKKOS_TOOLS_H
#define PX_OBSERVABILITY_KOKKOS_TOOLS_H

#include <stdbool.h>
#include <stdint.h>

#include "portex/core.h"
#include "portex/parallel.h"
#include "portex/space.h"

/* Kokkos' device types, the top 8 bits of a device id (Kokkos::Tools::Experimental::DeviceType). */
enum {
    PX__KP_DEVICE_SERIAL = 0,
    PX__KP_DEVICE_OPENMP = 1,
    PX__KP_DEVICE_CUDA = 2,
    PX__KP_DEVICE_THREADS = 6
};

/* Kokkos' device id: type (8 bits), device (7 bits), instance (17 bits). Instance 0 is
   reserved for fences of every instance (Kokkos' global device synchronisation). */
uint32_t px__kp_device_id(int type, int device, uint32_t instance);

/* Loads the first library of `libs` (a ";" separated list, as KOKKOS_TOOLS_LIBS),
   asks its settings, gives it `fence` for its own fences, passes `args` (space separated,
   may be NULL) to its kokkosp_parse_args and initialises it with `devices` devices.
   Refused (PX_ERR_SYSTEM, dlerror's text) when the library cannot be loaded or exports
   none of the entry points. */
px_status px__kp_load(const char *libs, const char *args, uint32_t devices,
                      void (*fence)(uint32_t devid));
/* kokkosp_finalize_library, then dlclose. */
void px__kp_unload(void);

/* The library loaded ("" when none), and whether it asked for a fence after every
   operation (Kokkos' requires_global_fencing: true unless the library says otherwise). */
const char *px__kp_library(void);
bool px__kp_wants_fences(void);

void px__kp_begin_kernel(px_kernel_kind kind, const char *label, uint32_t devid, uint64_t *id);
void px__kp_end_kernel(px_kernel_kind kind, uint64_t id);
void px__kp_begin_fence(const char *name, uint32_t devid, uint64_t *id);
void px__kp_end_fence(uint64_t id);
/* A copy; a fill passes src_label "Scalar" and the value's address, in Host memory, as
   Kokkos does for deep_copy(view, value). */
void px__kp_begin_deep_copy(px_space dst, const char *dst_label, const void *dst_ptr, px_space src,
                            const char *src_label, const void *src_ptr, uint64_t bytes);
void px__kp_end_deep_copy(void);
void px__kp_allocate(px_space space, const char *label, const void *ptr, uint64_t bytes);
void px__kp_deallocate(px_space space, const char *label, const void *ptr, uint64_t bytes);
void px__kp_push_region(const char *name);
void px__kp_pop_region(void);
/* Sections: *id is the library's (0 when it has no create entry). */
void px__kp_create_section(const char *name, uint32_t *id);
void px__kp_start_section(uint32_t id);
void px__kp_stop_section(uint32_t id);
void px__kp_destroy_section(uint32_t id);
void px__kp_event(const char *name);
void px__kp_metadata(const char *key, const char *value);

#endif /* PX_OBSERVABILITY_KOKKOS_TOOLS_H */
