/* Internal: teardown steps px_finalize runs, in order. */
#ifndef PX_CORE_LIFETIME_H
#define PX_CORE_LIFETIME_H

#include "portex/core.h"

/* Destroys the default instances (waiting for their work). */
px_status px__instances_finalize(void);
/* Calls every compiled-in backend's finalize hook. */
void px__backends_finalize(void);

#endif /* PX_CORE_LIFETIME_H */
