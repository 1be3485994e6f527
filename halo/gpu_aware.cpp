#include "gpu_aware.hpp"

#include "gpu_runtime.hpp"

#include <mpi.h>
#if defined(OPEN_MPI) && __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif

#include <cstdlib>
#include <string>

namespace stencil {

namespace {
// Open MPI configured without --with-cuda/--with-rocm (Debian's and Ubuntu's
// packages, for one) says 0 at compile time, yet its pml ucx hands device
// buffers to UCX, which moves them if UCX itself was built with that GPU's
// support. Not proof either way, so staged stays the default; the preflight
// checks the contents when the user overrides.
[[maybe_unused]] std::string built_without(const char* gpu, const char* macro) {
    return std::string("Open MPI was built without ") + gpu + " (" + macro +
           " = 0); if it runs pml ucx and `ucx_info -v` shows UCX built with " + gpu +
           ", STENCIL_GPU_AWARE_MPI=1 with --preflight checks device buffers";
}
} // namespace

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
#elif defined(STENCIL_BACKEND_CUDA) && defined(OMPI_HAVE_MPI_EXT_CUDA) && OMPI_HAVE_MPI_EXT_CUDA
    return {false, built_without("CUDA", "MPIX_CUDA_AWARE_SUPPORT")};
#elif defined(STENCIL_BACKEND_HIP) && defined(OMPI_HAVE_MPI_EXT_ROCM) && OMPI_HAVE_MPI_EXT_ROCM
    return {false, built_without("ROCm", "MPIX_ROCM_AWARE_SUPPORT")};
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
