/* What an MPI library says of GPU buffers, at compile time and at run time:
 * the question --comm auto asks (halo/gpu_aware.cpp), without a GPU build.
 *
 *   mpicc tools/mpi-gpu-probe.c -o mpi-gpu-probe && mpirun -np 1 ./mpi-gpu-probe
 *
 * Open MPI answers through its CUDA and ROCm extensions; MPICH through
 * MPIX_GPU_query_support. A 0 at compile time means the library was
 * configured without that GPU; its pml ucx may still move device buffers
 * when UCX was built with it (`ucx_info -v`), which only a transfer proves:
 * the mini-app's --preflight with STENCIL_GPU_AWARE_MPI=1. */
#include <mpi.h>
#include <stdio.h>
#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h>
#endif

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int length = 0;
    MPI_Get_library_version(version, &length);
    for (int i = 0; i < length; ++i)
        if (version[i] == '\n') version[i] = ' ';
    printf("library: %.*s\n", length, version);
#if defined(OMPI_HAVE_MPI_EXT_CUDA) && OMPI_HAVE_MPI_EXT_CUDA
    printf("MPIX_CUDA_AWARE_SUPPORT (compile time) = %d\n", (int)MPIX_CUDA_AWARE_SUPPORT);
    printf("MPIX_Query_cuda_support() = %d\n", MPIX_Query_cuda_support());
#endif
#if defined(OMPI_HAVE_MPI_EXT_ROCM) && OMPI_HAVE_MPI_EXT_ROCM
    printf("MPIX_ROCM_AWARE_SUPPORT (compile time) = %d\n", (int)MPIX_ROCM_AWARE_SUPPORT);
    printf("MPIX_Query_rocm_support() = %d\n", MPIX_Query_rocm_support());
#endif
#if defined(MPIX_GPU_SUPPORT_CUDA)
    int cuda = 0, hip = 0;
    MPIX_GPU_query_support(MPIX_GPU_SUPPORT_CUDA, &cuda);
    MPIX_GPU_query_support(MPIX_GPU_SUPPORT_HIP, &hip);
    printf("MPIX_GPU_query_support: CUDA %d, HIP %d\n", cuda, hip);
#endif
    MPI_Finalize();
    return 0;
}
