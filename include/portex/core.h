/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/** @file
 * portex — library lifetime, status codes, errors, version, configuration report. */
#ifndef PORTEX_CORE_H
#define PORTEX_CORE_H

#include <stdbool.h>
#include <stdio.h>

#include "portex/export.h"
#include "portex/version.h"

PX_EXTERN_C_BEGIN

/** Every status portex returns, generated from one list: X(NAME, value, message).
 * 0 is success, every error is negative. */
#define PX_STATUS_MAP(X)                                                            \
    X(OK, 0, "success")                                                             \
    X(ERR_INVALID_ARGUMENT, -1, "invalid argument")                                 \
    X(ERR_OUT_OF_MEMORY, -2, "out of memory")                                       \
    X(ERR_NOT_INITIALIZED, -3, "portex is not initialized (call px_init first)")    \
    X(ERR_UNSUPPORTED, -4, "operation not supported by this backend or build")      \
    X(ERR_NOT_COMPILED, -5, "kernel was not compiled for this backend")             \
    X(ERR_BACKEND, -6, "backend runtime error")                                     \
    X(ERR_EXTENTS_MISMATCH, -7, "view extents differ")                              \
    X(ERR_BUSY, -8, "objects are still alive")                                      \
    X(ERR_NO_DEVICE, -9, "no such device")                                          \
    X(ERR_TYPE_MISMATCH, -10, "element type differs")                               \
    X(ERR_OVERFLOW, -11, "size overflows")                                          \
    X(ERR_CAPTURE_PAGEABLE, -12,                                                    \
      "pageable host memory cannot take part in a stream capture; use HOST_PINNED") \
    X(ERR_SYSTEM, -13, "operating system error")                                    \
    X(ERR_LAUNCH, -14, "kernel launch or execution failed")                         \
    X(ERR_CAPTURING, -15,                                                           \
      "not allowed while the instance's stream is being captured into a graph")     \
    X(ERR_COMM, -16, "communication error (MPI)")

/** What every function returns: PX_OK (0) or a negative error, one value per entry of
 * PX_STATUS_MAP (PX_<NAME>); px_status_string gives its message. */
typedef enum px_status {
#define PX__STATUS_ENUM(name, value, msg) PX_##name = value,
    PX_STATUS_MAP(PX__STATUS_ENUM)
#undef PX__STATUS_ENUM
} px_status;
/** @var PX_OK
 * success */
/** @var PX_ERR_INVALID_ARGUMENT
 * invalid argument */
/** @var PX_ERR_OUT_OF_MEMORY
 * out of memory */
/** @var PX_ERR_NOT_INITIALIZED
 * portex is not initialized (call px_init first) */
/** @var PX_ERR_UNSUPPORTED
 * operation not supported by this backend or build */
/** @var PX_ERR_NOT_COMPILED
 * kernel was not compiled for this backend */
/** @var PX_ERR_BACKEND
 * backend runtime error */
/** @var PX_ERR_EXTENTS_MISMATCH
 * view extents differ */
/** @var PX_ERR_BUSY
 * objects are still alive */
/** @var PX_ERR_NO_DEVICE
 * no such device */
/** @var PX_ERR_TYPE_MISMATCH
 * element type differs */
/** @var PX_ERR_OVERFLOW
 * size overflows */
/** @var PX_ERR_CAPTURE_PAGEABLE
 * pageable host memory cannot take part in a stream capture; use HOST_PINNED */
/** @var PX_ERR_SYSTEM
 * operating system error */
/** @var PX_ERR_LAUNCH
 * kernel launch or execution failed */
/** @var PX_ERR_CAPTURING
 * not allowed while the instance's stream is being captured into a graph */
/** @var PX_ERR_COMM
 * communication error (MPI) */

/** "invalid argument" etc.; never NULL, "unknown status" for values outside the list. */
PX_API const char *px_status_string(px_status status);
/** "PX_ERR_INVALID_ARGUMENT" etc.; never NULL. */
PX_API const char *px_status_name(px_status status);

/** The message of the last error on this thread: the public function called, then what was
 * wrong, e.g. "px_deep_copy: extents differ: dst 'y'[0] = 100, src 'x'[0] = 99". Empty
 * when none. */
PX_API const char *px_last_error(void);
/** Forget the last error on this thread. */
PX_API void px_clear_error(void);

/** For add-on modules built on portex's public API (portex/mpi.h's libportex_mpi): records
 * "func: message" as this thread's last error, the message formatted from fmt as printf
 * does, so that px_last_error reports a module's failures as it reports portex's own.
 * func NULL gives "portex"; fmt NULL gives px_status_string(status). The message is cut
 * at 1023 bytes. Returns status, so that `return px_set_error(PX_ERR_..., __func__,
 * "...", ...);` fails a function. */
PX_API px_status px_set_error(px_status status, const char *func, const char *fmt, ...)
    PX_PRINTF(3, 4);

/** What px_init is told; zero-initialise it and set what you need (or pass NULL). */
typedef struct px_init_options {
    /** true: do not load the machine's topology with hwloc. Loading takes a few
       milliseconds (more on large machines); without it px_print_configuration shows no
       topology and portex's host threads (CUDA staging) are not placed near the GPU.
       For short-lived tools and tests. Default false. */
    bool skip_topology;
    /** OpenMP and threads backends: the threads of their default instances. 0 (the
       default): the environment's PX_NUM_THREADS, else (OpenMP) OMP_NUM_THREADS, else one
       per core. */
    int num_threads;
    /** OpenMP and threads backends: leave their threads where the operating system puts
       them. By default portex binds them with hwloc, one per core, unless (OpenMP)
       OMP_PROC_BIND or OMP_PLACES says how (then OpenMP's places are used). The
       environment's PX_OPENMP_BIND=none, and PX_THREADS_BIND=none for the threads
       backend, do the same. px_print_configuration shows the choice. */
    bool no_thread_binding;
    /** The default execution space: "serial", "openmp", "threads" or "cuda" (any case);
       NULL (the default): the environment's PX_DEFAULT_EXEC, else CUDA when a GPU is
       there, else OpenMP when it is compiled in, else threads when it is, else serial.
       An unknown or unavailable name makes px_init fail (no fall back). px_default_exec_space, px_default_space and
       px_default_instance (portex/instance.h) give the choice. */
    const char *default_exec;
    /** Profiling (portex/tools.h, docs/tools.md). A Kokkos Tools library to load: NULL (the
       default): the environment's PX_TOOLS_LIBS, else KOKKOS_TOOLS_LIBS; "" loads none
       whatever the environment says. A library that cannot be loaded makes px_init fail. */
    const char *tools_libs;
    /** A timeline of every operation, written as Chrome/Perfetto trace JSON to this path
       at the last px_finalize: NULL (the default): the environment's PX_TIMELINE; ""
       records none. */
    const char *timeline;
    /** NVTX ranges and names for Nsight (CUDA builds): true, or the environment's
       PX_NVTX=1. Off by default: then portex makes no NVTX call. */
    bool nvtx;
    /** true: the default space and instance (portex/instance.h) are on device `device`
       of the default execution space, whatever the environment says. false (the
       default): the environment's PX_DEVICE (a decimal ordinal), else device 0. A device
       the default execution space does not have makes px_init fail (no fall back):
       serial, OpenMP and threads have device 0 alone. */
    bool use_device;
    /** The device ordinal use_device asks for (a GPU's, from 0); read only when
       use_device is true. */
    int device;
} px_init_options;

/** Initialise portex: backends compiled in, the machine topology.
 * Reference counted: every px_init needs one px_finalize; a second px_init is cheap.
 * opts may be NULL. The first px_init reads the options; a later one refuses a
 * default_exec other than the space in effect, and a use_device for another device than
 * the one in effect (PX_ERR_INVALID_ARGUMENT). CUDA is touched lazily, at the first CUDA
 * instance or allocation (a default_exec of "cuda", or a device asked for by use_device or
 * PX_DEVICE, asks cudaGetDeviceCount here, and no more).
 * portex itself never aborts or prints; hwloc, which loads the topology here, aborts the
 * process if memory runs out while it does (skip_topology avoids it). */
PX_API px_status px_init(const px_init_options *opts);

/** Drop one reference; the last one tears portex down. The last one refuses, portex
 * staying initialised, while
 * - views, instances, events, graphs or executable graphs are alive (PX_ERR_BUSY; the
 *   message counts them per kind and names the first few by label), so that nothing
 *   leaks silently: release them and call again;
 * - a default instance is being captured (PX_ERR_CAPTURING): px_graph_capture_end, then
 *   call again (the other default instances may be gone already; they are made again on
 *   first use).
 * It tears down all the same, and says so, when a queue met an error while it drained
 * (that error) or the timeline could not be written (PX_ERR_SYSTEM). What the program
 * left open goes with it: profile sections, and the regions of every thread (after the
 * next px_init none is open). Calling it when not initialised returns
 * PX_ERR_NOT_INITIALIZED and is otherwise harmless. */
PX_API px_status px_finalize(void);

/** true between a px_init and its last px_finalize. */
PX_API bool px_is_initialized(void);

/** @{ */
/** Version of the library actually linked (compare with PX_VERSION_* of the headers). */
PX_API px_status px_version(int *major, int *minor, int *patch);
PX_API const char *px_version_string(void);
/** @} */

/** Version, build options, backends, machine topology (packages, NUMA nodes, cores) and,
 * with CUDA, every device. Works before px_init too (then without topology). */
PX_API px_status px_print_configuration(FILE *out);

PX_EXTERN_C_END

#endif /* PORTEX_CORE_H */
