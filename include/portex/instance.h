/* portex — execution spaces, instances (ordered queues of work) and events between them.
 *
 * An instance is one in-order queue in one execution space: on the serial backend work
 * runs at once on the calling thread; on CUDA an instance is one non-blocking stream.
 * Work on one instance runs in the order it was issued; work on different instances is
 * unordered unless an event orders it. */
#ifndef PORTEX_INSTANCE_H
#define PORTEX_INSTANCE_H

#include <stdbool.h>

#include "portex/core.h"

PX_EXTERN_C_BEGIN

typedef enum px_exec_space {
    PX_EXEC_SERIAL = 0,   /* the calling thread: the reference backend */
    PX_EXEC_CUDA,         /* an NVIDIA GPU through CUDA */
    PX_EXEC_OPENMP,       /* the host's cores through OpenMP threads */
    PX_EXEC_COUNT
} px_exec_space;

PX_API const char *px_exec_space_string(px_exec_space exec);

/* Whether the execution space is compiled in and has at least one device here. */
PX_API px_status px_exec_space_available(px_exec_space exec);
/* Devices of the execution space (1 for SERIAL; 0 for CUDA on a machine without a GPU). */
PX_API px_status px_exec_space_device_count(px_exec_space exec, int *count);

typedef struct px_instance px_instance;

typedef struct px_instance_desc {
    px_exec_space exec;
    int device;          /* device ordinal (CUDA); 0 otherwise */
    int priority;        /* CUDA stream priority: 0 default, negative is higher priority,
                            clamped to what the device allows */
    const char *label;   /* copied; NULL gives "<exec>:<device>" */
} px_instance_desc;

/* The instance every execution space has per device. It belongs to portex: never destroy
 * it. On CUDA it is a non-blocking stream of its own, never the legacy default stream. */
PX_API px_status px_instance_default(px_exec_space exec, int device, px_instance **out);

PX_API px_status px_instance_create(px_instance **out, const px_instance_desc *desc);
/* Waits for the instance's work, frees it and sets *inst to NULL. */
PX_API px_status px_instance_destroy(px_instance **inst);

/* Blocks until all work issued to the instance so far has finished. */
PX_API px_status px_instance_fence(px_instance *inst);
/* Blocks until all work of every instance of every execution space has finished. */
PX_API px_status px_fence_all(void);

PX_API px_status px_instance_exec_space(const px_instance *inst, px_exec_space *out);
PX_API px_status px_instance_device(const px_instance *inst, int *out);
PX_API px_status px_instance_label(const px_instance *inst, const char **out);

/* ---- Partitions -------------------------------------------------------------------- */

typedef struct px_partition_options {
    /* CUDA: give each instance its own set of SMs (a CUDA green context), sized by the
       weights. Without it (the default) every instance is a stream that may use the whole
       GPU and the weights only label the instances. */
    bool sm_partition;
    /* n stream priorities (see px_instance_desc.priority), or NULL for the default. */
    const int *priorities;
} px_partition_options;

/* n new instances in parent's execution space and device, each its own in-order queue
 * (on CUDA a non-blocking stream), usable concurrently from different host threads.
 * weights: n positive numbers, or NULL for equal shares. Each out[i] is destroyed with
 * px_instance_destroy. Partitioning a serial instance gives serial instances. */
PX_API px_status px_partition(px_instance *parent, int n, const double *weights,
                              px_instance **out);
PX_API px_status px_partition_ex(px_instance *parent, int n, const double *weights,
                                 const px_partition_options *options, px_instance **out);

/* The multiprocessors an instance's kernels may use (all of the GPU's unless it is an SM
 * partition; 1 for serial). */
PX_API px_status px_instance_sm_count(const px_instance *inst, int *out);

/* ---- Events ------------------------------------------------------------------------ */

typedef struct px_event px_event;

enum {
    PX_EVENT_TIMING = 1u << 0 /* the event can be used with px_event_elapsed_ms */
};

/* An event of inst's execution space and device. */
PX_API px_status px_event_create(px_event **out, px_instance *inst, unsigned flags);
PX_API px_status px_event_destroy(px_event **ev);
/* Captures the work issued to inst so far; the event completes when it has run.
 * inst must be of the event's execution space and device. */
PX_API px_status px_event_record(px_event *ev, px_instance *inst);
/* Work issued to inst from now on waits for ev. Within one execution space the host does
 * not block (CUDA: cudaStreamWaitEvent). Across execution spaces the call itself waits on
 * the host until ev has completed (a serial instance waiting for a CUDA event; a CUDA
 * instance waiting for a serial event returns at once: serial events complete when
 * recorded). */
PX_API px_status px_instance_wait_event(px_instance *inst, px_event *ev);
/* *done is true when the work captured by ev has run (or ev was never recorded). */
PX_API px_status px_event_query(px_event *ev, bool *done);
PX_API px_status px_event_synchronize(px_event *ev);
/* Milliseconds between two recorded, completed events created with PX_EVENT_TIMING. */
PX_API px_status px_event_elapsed_ms(px_event *start, px_event *end, float *ms);

PX_EXTERN_C_END

#endif /* PORTEX_INSTANCE_H */
