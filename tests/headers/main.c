/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Links the header tests together; each file includes exactly one installed header (the
 * public ones, and those of portex/impl/ that kernel files compile). */
int px_header_test_export(void);
int px_header_test_core(void);
int px_header_test_space(void);
int px_header_test_view(void);
int px_header_test_instance(void);
int px_header_test_policy(void);
int px_header_test_kernel(void);
int px_header_test_parallel(void);
int px_header_test_team(void);
int px_header_test_copy(void);
int px_header_test_graph(void);
int px_header_test_portex(void);
int px_header_test_version(void);
int px_header_test_atomic(void);
int px_header_test_random(void);
int px_header_test_dual_view(void);
int px_header_test_scatter(void);
int px_header_test_prefix_sum(void);
int px_header_test_check(void);
int px_header_test_sort(void);
int px_header_test_subspan(void);
int px_header_test_dlpack(void);
int px_header_test_dlpack_official(void);
int px_header_test_impl_abi(void);
int px_header_test_impl_targets(void);
int px_header_test_impl_host(void);
int px_header_test_impl_cuda(void);
#ifdef PX_TEST_CUDA_HEADER
int px_header_test_cuda(void);
#endif
#ifdef PX_TEST_MPI_HEADER
int px_header_test_mpi(void);
#endif
#ifdef PX_TEST_LINALG_HEADER
int px_header_test_linalg(void);
#endif

int main(void)
{
    int r = px_header_test_export() + px_header_test_core() + px_header_test_space() +
            px_header_test_view() + px_header_test_instance() + px_header_test_policy() +
            px_header_test_kernel() + px_header_test_parallel() + px_header_test_team() +
            px_header_test_copy() + px_header_test_graph() + px_header_test_portex() +
            px_header_test_version() + px_header_test_atomic() + px_header_test_random() +
            px_header_test_dual_view() + px_header_test_scatter() + px_header_test_prefix_sum() +
            px_header_test_check() + px_header_test_sort() + px_header_test_dlpack() +
            px_header_test_dlpack_official() + px_header_test_impl_abi() +
            px_header_test_impl_targets() + px_header_test_impl_host() + px_header_test_impl_cuda();
#ifdef PX_TEST_CUDA_HEADER
    r += px_header_test_cuda();
#endif
#ifdef PX_TEST_MPI_HEADER
    r += px_header_test_mpi();
#endif
#ifdef PX_TEST_LINALG_HEADER
    r += px_header_test_linalg();
#endif
    return r;
}
