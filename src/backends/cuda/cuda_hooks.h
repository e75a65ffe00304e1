/* Internal: the hooks of px__backend_cuda, one file per concept, gathered into the table
 * in cuda_backend.c. */
#ifndef PX_CUDA_HOOKS_H
#define PX_CUDA_HOOKS_H

#include <stdbool.h>
#include <stdio.h>

#include "core/internal.h"

/* cuda_instance.c */
px_status px__cuda_instance_create(struct px_instance *inst);
px_status px__cuda_instance_wrap(struct px_instance *inst, void *native);
px_status px__cuda_instance_destroy(struct px_instance *inst);
px_status px__cuda_fence(struct px_instance *inst);
px_status px__cuda_fence_all(void);

/* cuda_event.c */
px_status px__cuda_event_create(struct px_event *ev);
void px__cuda_event_destroy(struct px_event *ev);
px_status px__cuda_event_record(struct px_event *ev, struct px_instance *inst);
px_status px__cuda_event_wait(struct px_instance *inst, struct px_event *ev);
px_status px__cuda_event_query(struct px_event *ev, bool *done);
px_status px__cuda_event_synchronize(struct px_event *ev);
px_status px__cuda_event_elapsed(struct px_event *start, struct px_event *end, float *ms);

/* cuda_launch.c */
px_status px__cuda_launch(struct px_instance *inst, const px__dispatch *d);

/* cuda_copy.c */
px_status px__cuda_copy(struct px_instance *inst, px__copy_op *op);
px_status px__cuda_fill(struct px_instance *inst, const px__copy_op *op);

/* cuda_capture.c */
px_status px__cuda_is_capturing(struct px_instance *inst, bool *capturing);

/* cuda_partition.c */
px_status px__cuda_partition(struct px_instance *parent, const px__partition_request *req,
                             struct px_instance **children);
px_status px__cuda_sm_count(struct px_instance *inst, int *count);

/* cuda_staging*.c: staged copies of pageable memory (path CUDA_STAGED), the pool's
   configuration, and the instance hook that waits for staged jobs (it calls
   px__cuda_instance_destroy). */
px_status px__cuda_staged_copy(struct px_instance *inst, px__copy_op *op);
px_status px__cuda_staging_get(px_staging_config *out);
px_status px__cuda_staging_set(const px_staging_config *config);
px_status px__cuda_staging_instance_destroy(struct px_instance *inst);
void px__cuda_staging_shutdown(void);

/* cuda_register.c */
px_status px__cuda_pointer_space(const void *ptr, px_space *out);
px_status px__cuda_host_register(void *ptr, size_t bytes);
px_status px__cuda_host_unregister(void *ptr);

/* cuda_config.c */
px_status px__cuda_print_configuration(FILE *out);

#endif /* PX_CUDA_HOOKS_H */
