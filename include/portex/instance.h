/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/** @file
 * portex — execution spaces, instances (ordered queues of work) and events between them.
 *
 * An instance is one in-order queue in one execution space: on the serial backend work
 * runs at once on the calling thread; on OpenMP and threads it runs at once on a team of
 * host threads (the calling thread among them) and has finished when the call returns; on
 * CUDA an instance is one non-blocking stream.
 * Work on one instance runs in the order it was issued; work on different instances is
 * unordered unless an event orders it. */
#ifndef PORTEX_INSTANCE_H
#define PORTEX_INSTANCE_H

#include <stdbool.h>

#include "portex/core.h"
#include "portex/space.h"

PX_EXTERN_C_BEGIN

/** Where kernels run: the execution spaces (backends). */
typedef enum px_exec_space {
    PX_EXEC_SERIAL = 0, /**< the calling thread: the reference backend */
    PX_EXEC_CUDA,       /**< an NVIDIA GPU through CUDA */
    PX_EXEC_OPENMP,     /**< the host's cores through OpenMP threads */
    PX_EXEC_THREADS,    /**< the host's cores through portex's own POSIX threads */
    PX_EXEC_COUNT       /**< the number of execution spaces (not one); grows as spaces are added */
} px_exec_space;

/** "SERIAL", "CUDA", "OPENMP", "THREADS"; "UNKNOWN" for values outside px_exec_space; never
 * NULL. */
PX_API const char *px_exec_space_string(px_exec_space exec);

/** true when the execution space is compiled in and has at least one device here; false
 * otherwise, and for a value outside px_exec_space. A question, not a check: it leaves
 * px_last_error as it was. */
PX_API bool px_exec_space_available(px_exec_space exec);
/** The same as a status, with the reason when it is not available: PX_OK, or
 * PX_ERR_UNSUPPORTED (not compiled into this build), PX_ERR_NO_DEVICE (no device here, e.g.
 * CUDA without a GPU), PX_ERR_INVALID_ARGUMENT (not an execution space). */
PX_API px_status px_exec_space_check(px_exec_space exec);
/** Devices of the execution space (1 for SERIAL, OPENMP and THREADS; 0 for CUDA on a machine
 * without a GPU). */
PX_API px_status px_exec_space_device_count(px_exec_space exec, int *count);

/** An instance: one in-order queue of work in one execution space (opaque handle). */
typedef struct px_instance px_instance;

/* ---- The default execution space ----------------------------------------------------- */

/** The execution space a program runs on unless it names one: the first px_init's
 * px_init_options.default_exec, else the environment's PX_DEFAULT_EXEC at that px_init
 * ("serial", "openmp", "threads" or "cuda", in any case), else CUDA when it is compiled in
 * and a GPU is there, else OpenMP when it is compiled in, else threads when it is, else
 * serial. An unknown name, or a named space that is not available here ("cuda" without a
 * GPU), makes px_init fail with the
 * reason; it never falls back to another space. CUDA stays untouched at px_init unless
 * "cuda" is named or a device is asked for (then cudaGetDeviceCount only, no context);
 * when neither is, the first of these calls makes the choice (a CUDA build asks
 * cudaGetDeviceCount then) and the choice holds until the last px_finalize.
 *
 * The default device: px_init_options.device (with use_device), else the environment's
 * PX_DEVICE at the first px_init, else 0. It must be one of the default execution space's
 * devices, or px_init fails (PX_ERR_NO_DEVICE); serial, OpenMP and threads have device 0
 * alone, so PX_DEVICE=1 is refused on them rather than ignored.
 *
 * @code
 *   px_instance *inst;
 *   px_space where;
 *   px_default_instance(&inst);   // the default space's instance on the default device
 *   px_default_space(&where);     // where its data lives: DEVICE(n) on CUDA, else HOST
 * @endcode
 *
 * Each returns PX_ERR_NOT_INITIALIZED before px_init. */
PX_API px_status px_default_exec_space(px_exec_space *out);
/** The memory space that goes with it: px_device(n) for CUDA, n the default device
 * (PX_DEVICE, px_init_options.device; 0 unless one was asked for), px_host() otherwise. */
PX_API px_status px_default_space(px_space *out);
/** Its default instance on the default device (px_instance_default(exec, n, out), n as
 * px_default_space says; 0 on the host backends): belongs to portex, never destroy it. On
 * CUDA the stream is made here, at the first call. */
PX_API px_status px_default_instance(px_instance **out);

/** What px_instance_create makes. */
typedef struct px_instance_desc {
    px_exec_space exec; /**< the execution space */
    int device;         /**< device ordinal (CUDA); 0 otherwise */
    int priority;       /**< CUDA stream priority: 0 default, negative is higher priority,
                            clamped to what the device allows */
    const char *label;  /**< copied; NULL gives "<exec>:<device>" */
} px_instance_desc;

/** The instance every execution space has per device. It belongs to portex: never destroy
 * it. On CUDA it is a non-blocking stream of its own, never the legacy default stream. */
PX_API px_status px_instance_default(px_exec_space exec, int device, px_instance **out);

/** A new instance of desc's execution space and device (on CUDA a non-blocking stream of
 * its own), destroyed with px_instance_destroy. */
PX_API px_status px_instance_create(px_instance **out, const px_instance_desc *desc);
/** Waits for the instance's work, frees it and sets *inst to NULL. */
PX_API px_status px_instance_destroy(px_instance **inst);

/** Blocks until all work issued to the instance so far has finished. */
PX_API px_status px_instance_fence(px_instance *inst);
/** Blocks until all work of every instance of every execution space has finished. */
PX_API px_status px_fence_all(void);

/** The instance's execution space. */
PX_API px_status px_instance_exec_space(const px_instance *inst, px_exec_space *out);
/** The instance's device ordinal (0 on the host backends). */
PX_API px_status px_instance_device(const px_instance *inst, int *out);
/** The memory space the instance's kernels use by default, the one to create their views
 * in: px_device(n) for an instance of CUDA device n (a stream, a wrapped stream or an SM
 * partition alike), px_host() for serial, OpenMP and threads instances. Code that is handed an
 * instance allocates where it runs without asking which backend it is:
 * @code
 *   px_space where;
 *   px_instance_space(inst, &where);
 *   px_view_create_1d(&x, "x", where, PX_F64, n);
 * @endcode */
PX_API px_status px_instance_space(const px_instance *inst, px_space *out);
/** The instance's label, valid while the instance lives. */
PX_API px_status px_instance_label(const px_instance *inst, const char **out);

/* ---- Partitions -------------------------------------------------------------------- */

/** What px_partition_ex is told besides the weights; zero-initialise it. */
typedef struct px_partition_options {
    /** CUDA: give each instance its own set of SMs (a CUDA green context), sized by the
       weights. Without it (the default) every instance is a stream that may use the whole
       GPU and the weights only label the instances. */
    bool sm_partition;
    /** n stream priorities (see px_instance_desc.priority), or NULL for the default. */
    const int *priorities;
} px_partition_options;

/** n new instances in parent's execution space and device, each its own in-order queue
 * (on CUDA a non-blocking stream), usable concurrently from different host threads.
 * weights: n positive numbers, or NULL for equal shares. Each out[i] is destroyed with
 * px_instance_destroy. Partitioning a serial instance gives serial instances; an OpenMP or
 * threads instance gives instances with shares of its threads by weight (disjoint while it
 * has a thread per partition; docs/openmp.md), each to be driven from a host thread of its
 * own. */
PX_API px_status px_partition(px_instance *parent, int n, const double *weights, px_instance **out);
/** px_partition with options (px_partition_options: SM partitions, priorities); options
 * may be NULL. */
PX_API px_status px_partition_ex(px_instance *parent, int n, const double *weights,
                                 const px_partition_options *options, px_instance **out);

/** The multiprocessors an instance's kernels may use (all of the GPU's unless it is an SM
 * partition; 1 on the host backends). */
PX_API px_status px_instance_sm_count(const px_instance *inst, int *out);
/** How many threads the instance's kernels run on at once: its team's threads on OpenMP and
 * threads (a partition's share), 1 on serial, the resident threads of its SMs on CUDA. */
PX_API px_status px_instance_concurrency(const px_instance *inst, int *out);

/* ---- Events ------------------------------------------------------------------------ */

/** An event: a point in an instance's work that other work, or the host, can wait for
 * (opaque handle). */
typedef struct px_event px_event;

/** Flags of px_event_create. */
enum {
    PX_EVENT_TIMING = 1u << 0 /**< the event can be used with px_event_elapsed_ms */
};

/** An event of inst's execution space and device. */
PX_API px_status px_event_create(px_event **out, px_instance *inst, unsigned flags);
/** Frees the event and sets *ev to NULL. */
PX_API px_status px_event_destroy(px_event **ev);
/** Captures the work issued to inst so far; the event completes when it has run.
 * inst must be of the event's execution space and device. */
PX_API px_status px_event_record(px_event *ev, px_instance *inst);
/** Work issued to inst from now on waits for ev. Within one execution space the host does
 * not block (CUDA: cudaStreamWaitEvent). Across execution spaces the call itself waits on
 * the host until ev has completed (a host backend's instance waiting for a CUDA event; a
 * CUDA instance waiting for a host backend's event returns at once: their events complete
 * when recorded). */
PX_API px_status px_instance_wait_event(px_instance *inst, px_event *ev);
/** *done is true when the work captured by ev has run (or ev was never recorded). */
PX_API px_status px_event_query(px_event *ev, bool *done);
/** Blocks until the work captured by ev has run (at once if ev was never recorded). */
PX_API px_status px_event_synchronize(px_event *ev);
/** Milliseconds between two recorded, completed events created with PX_EVENT_TIMING. */
PX_API px_status px_event_elapsed_ms(px_event *start, px_event *end, float *ms);

PX_EXTERN_C_END

#endif /* PORTEX_INSTANCE_H */
