/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The program of the NVTX test (check_nvtx.py): one of each operation portex names, on
 * the default instance of the default execution space (PX_DEFAULT_EXEC), in this order:
 *
 *   fill 'nvtx_src', fill 'nvtx_dst'
 *   region "nvtx_region" {
 *     parallel_for "nvtx_for"         nvtx_dst += 2 * nvtx_src
 *     parallel_reduce "nvtx_reduce"   the sum of nvtx_dst
 *     deep_copy 'nvtx_dst' <- 'nvtx_src'
 *     px_instance_fence
 *   }
 *   event "nvtx_event"
 *
 * It prints what the checker cannot know beforehand, one "key=value" a line: whether NVTX
 * is on (nvtx=0|1), the default instance's label (instance=...) and the copy's path
 * (copy_path=...). Exit 0, 1 on a failure, 77 where the execution space asked for has no
 * device (PX_DEFAULT_EXEC=cuda without a GPU). */
#include <stdio.h>
#include <stdlib.h>

#include <portex.h>

#include "../../../common/px_check.h"
#include "kernels.h"


int main(void)
{
    const int64_t n = 1000;
    const px_status init = px_init(NULL);
    if (init == PX_ERR_NO_DEVICE) {
        printf("skip: %s\n", px_last_error());
        return 77;
    }
    CHECK(init);

    px_tools_info tools;
    CHECK(px_tools_info_get(&tools));
    px_instance *inst;
    const char *label;
    px_space where;
    CHECK(px_default_instance(&inst));
    CHECK(px_instance_label(inst, &label));
    CHECK(px_default_space(&where));
    printf("nvtx=%d\ninstance=%s\n", tools.nvtx ? 1 : 0, label);

    px_view *src, *dst;
    CHECK(px_view_create_1d(&src, "nvtx_src", where, PX_F64, n));
    CHECK(px_view_create_1d(&dst, "nvtx_dst", where, PX_F64, n));
    const double one = 1.0, zero = 0.0;
    CHECK(px_fill(src, &one, NULL));
    CHECK(px_fill(dst, &zero, NULL));
    axpy_args a = {.a = 2.0};
    CHECK(px_view_get_span(src, &a.x));
    CHECK(px_view_get_span(dst, &a.y));
    red_args_double r;
    CHECK(px_view_get_span(dst, &r.x));

    double sum = 0.0;
    px_copy_path path;
    CHECK(px_region_push("nvtx_region"));
    CHECK(px_parallel_for(inst, "nvtx_for", px_range(0, n), PX_KERNEL(axpy), &a));
    CHECK(px_parallel_reduce(inst, "nvtx_reduce", px_range(0, n), PX_KERNEL(red_sum_double), &r,
                             &sum));
    CHECK(px_deep_copy(dst, src, &path));
    CHECK(px_instance_fence(inst));
    CHECK(px_region_pop());
    CHECK(px_profile_event("nvtx_event"));
    printf("copy_path=%s\n", px_copy_path_string(path));

    CHECK(px_view_release(&src));
    CHECK(px_view_release(&dst));
    CHECK(px_finalize());
    if (sum != 2.0 * (double)n) {
        fprintf(stderr, "nvtx_program: the sum is %g, expected %g\n", sum, 2.0 * (double)n);
        return 1;
    }
    return 0;
}
