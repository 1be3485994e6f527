#include "gpu_aware.hpp"

#include "gpu_runtime.hpp"

#include <mpi.h>
#if defined(OPEN_MPI) && __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif

#include <cstdlib>
#include <string>

namespace stencil {

GpuAwareness detect_gpu_aware_mpi() {
    if (const char* forced = std::getenv("STENCIL_GPU_AWARE_MPI"); forced && *forced)
        return {std::string(forced) == "1", std::string("STENCIL_GPU_AWARE_MPI=") + forced};
#if !STENCIL_HAS_GPU
    return {true, "HOST back-end: fields are in host memory"};
#else
    if (const char* cray = std::getenv("MPICH_GPU_SUPPORT_ENABLED"); cray && *cray)
        return {std::string(cray) == "1", std::string("MPICH_GPU_SUPPORT_ENABLED=") + cray};
#if defined(STENCIL_BACKEND_CUDA) && defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
    {
        const int yes = MPIX_Query_cuda_support();
        return {yes == 1, "MPIX_Query_cuda_support() = " + std::to_string(yes)};
    }
#elif defined(STENCIL_BACKEND_HIP) && defined(MPIX_ROCM_AWARE_SUPPORT) && MPIX_ROCM_AWARE_SUPPORT
    {
        const int yes = MPIX_Query_rocm_support();
        return {yes == 1, "MPIX_Query_rocm_support() = " + std::to_string(yes)};
    }
#elif defined(MPIX_GPU_SUPPORT_CUDA)
    {
        int yes = 0;
#if defined(STENCIL_BACKEND_CUDA)
        MPIX_GPU_query_support(MPIX_GPU_SUPPORT_CUDA, &yes);
#else
        MPIX_GPU_query_support(MPIX_GPU_SUPPORT_HIP, &yes);
#endif
        return {yes == 1, "MPIX_GPU_query_support() = " + std::to_string(yes)};
    }
#endif
    return {false, "this MPI library reports no GPU support"};
#endif
}

} // namespace stencil
