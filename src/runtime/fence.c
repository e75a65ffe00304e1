/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Fences, the public ones and the core's fence of every instance, told to the observers
 * (observability/profile.h) as they wait. */
#include <stdio.h>

#include "base/error.h"
#include "observability/profile.h"
#include "runtime/instance.h"

px_status px_instance_fence(px_instance *inst)
{
    PX__ENTER;
    PX__TRY(px__instance_check(inst));
    PX__TRY(px__instance_refuse_capturing(inst, "a fence (it waits for the work)"));
    if (!px__prof_on()) return inst->be->fence(inst->queue);
    char name[160];
    snprintf(name, sizeof name, "px_instance_fence: '%s'", inst->label);
    px__prof p;
    const px__observed on = px__instance_observed(inst);
    px__prof_fence_begin(&p, &on, name);
    const px_status st = inst->be->fence(inst->queue);
    px__prof_fence_end(&p);
    return st;
}

px_status px__fence_all(void)
{
    if (!px__prof_on()) return px__fence_all_quiet();
    char name[160];
    snprintf(name, sizeof name, "%s: fence of every instance", px__caller());
    px__prof p;
    px__prof_fence_begin(&p, NULL, name);
    const px_status st = px__fence_all_quiet();
    px__prof_fence_end(&p);
    return st;
}

px_status px_fence_all(void)
{
    PX__ENTER;
    return px__fence_all();
}
