/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* px_print_configuration: what this build is and what it found on this machine. */
#include <hwloc.h>

#include "portex.h"

#include "backends/backends.h"
#include "base/error.h"
#include "base/topology.h"
#include "px_config.h"

px_status px_print_configuration(FILE *out)
{
    PX__ENTER;
    PX__ARG(out, "out must not be NULL");
    fprintf(out, "portex %s\n", PX_VERSION_STRING);
    fprintf(out, "  build: %s, compiler %s, hwloc API 0x%x, bounds checking %s\n", PX_BUILD_TYPE,
            PX_CC_ID, (unsigned)HWLOC_API_VERSION, PX_BOUNDS_CHECK_BUILD ? "on" : "off");
    px__topology_print(out);
    for (int e = 0; e < PX_EXEC_COUNT; ++e) {
        const px__backend *be = px__backend_get((px_exec_space)e);
        const char *name = px_exec_space_string((px_exec_space)e);
        if (!be) {
            fprintf(out, "  backend %s: not compiled in\n", name);
            continue;
        }
        fprintf(out, "  backend %s: compiled in\n", name);
        if (be->print_configuration) {
            px_status st = be->print_configuration(out);
            if (st != PX_OK) fprintf(out, "    (unavailable: %s)\n", px_last_error());
        }
    }
    px_exec_space dflt;
    px_space where;
    if (px_is_initialized() && px_default_exec_space(&dflt) == PX_OK &&
        px_default_space(&where) == PX_OK) {
        /* The device too: PX_DEVICE may have moved it off GPU 0. */
        if (where.kind == PX_SPACE_DEVICE)
            fprintf(out, "  default execution space: %s, data in DEVICE(%d)\n",
                    px_exec_space_string(dflt), where.device);
        else
            fprintf(out, "  default execution space: %s, data in %s\n", px_exec_space_string(dflt),
                    px_space_kind_string(where.kind));
    }
    px_tools_info tools;
    if (px_is_initialized() && px_tools_info_get(&tools) == PX_OK)
        fprintf(out, "  profiling: tool library %s%s, NVTX %s, timeline %s\n",
                tools.library ? tools.library : "none",
                tools.library
                    ? (tools.library_fences ? " (fences after each operation)" : " (no fences)")
                    : "",
                tools.nvtx ? "on" : "off", tools.timeline ? tools.timeline : "off");
    return ferror(out) ? PX__FAIL(PX_ERR_SYSTEM, "writing to the stream failed") : PX_OK;
}
