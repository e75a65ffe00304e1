/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Names of the public enums that every layer prints: memory spaces, execution spaces,
 * copy paths. (Status names are in error.c, dtype and layout names with the views.) */
#include "portex.h"

const char *px_space_kind_string(px_space_kind kind)
{
    switch (kind) {
    case PX_SPACE_HOST: return "HOST";
    case PX_SPACE_HOST_PINNED: return "HOST_PINNED";
    case PX_SPACE_DEVICE: return "DEVICE";
    case PX_SPACE_KIND_COUNT: break;
    }
    return "UNKNOWN";
}

const char *px_exec_space_string(px_exec_space exec)
{
    switch (exec) {
    case PX_EXEC_SERIAL: return "SERIAL";
    case PX_EXEC_CUDA: return "CUDA";
    case PX_EXEC_OPENMP: return "OPENMP";
    case PX_EXEC_THREADS: return "THREADS";
    case PX_EXEC_COUNT: break;
    }
    return "UNKNOWN";
}

static const char *const path_names[PX_COPY_PATH_COUNT] = {
#define PX__COPY_PATH_NAME(name, desc) #name,
    PX_COPY_PATH_MAP(PX__COPY_PATH_NAME)
#undef PX__COPY_PATH_NAME
};

static const char *const path_descriptions[PX_COPY_PATH_COUNT] = {
#define PX__COPY_PATH_DESC(name, desc) desc,
    PX_COPY_PATH_MAP(PX__COPY_PATH_DESC)
#undef PX__COPY_PATH_DESC
};

const char *px_copy_path_string(px_copy_path path)
{
    if ((int)path < 0 || path >= PX_COPY_PATH_COUNT) return "UNKNOWN";
    return path_names[path];
}

const char *px_copy_path_description(px_copy_path path)
{
    if ((int)path < 0 || path >= PX_COPY_PATH_COUNT) return "unknown copy path";
    return path_descriptions[path];
}
