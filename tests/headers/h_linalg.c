/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* portex/linalg.h (libportex_linalg, opt-in) compiles on its own as C. */
#include "portex/linalg.h"

int px_header_test_linalg(void);
int px_header_test_linalg(void)
{
    px_status (*create)(px_instance *, px_space, const px_csr_desc *, px_csr **) = px_csr_create;
    px_status (*spmv)(px_instance *, double, const px_csr *, px_view *, double, px_view *) =
        px_csr_spmv;
    px_status (*dot)(px_instance *, px_view *, px_view *, double *) = px_blas_dot;
    px_csr_desc d = {0, 0, 0, PX_F64, PX_I32, 0, 0, 0};
    return create != 0 && spmv != 0 && dot != 0 && d.value_type == PX_F64 && PX_SPMV_AUTO == 0 ? 0
                                                                                               : 1;
}
