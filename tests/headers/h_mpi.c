/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* portex/mpi.h (libportex_mpi, opt-in) compiles on its own as C. */
#include "portex/mpi.h"

int px_header_test_mpi(void);
int px_header_test_mpi(void)
{
    px_status (*send)(px_view *, int, int, MPI_Comm) = px_mpi_send;
    px_status (*isend)(px_instance *, px_view *, int, int, MPI_Comm, px_mpi_request **) =
        px_mpi_isend;
    px_status (*wait)(px_mpi_request **) = px_mpi_wait;
    px_status (*halo)(px_mpi_halo **, px_view *, const int *, MPI_Comm) = px_mpi_halo_create;
    return send != 0 && isend != 0 && wait != 0 && halo != 0 && PX_MPI_HALO_TAG > 0 ? 0 : 1;
}
