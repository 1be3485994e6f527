// Whether the MPI library can take device pointers, and how we know.
#pragma once

#include <string>

namespace stencil {

struct GpuAwareness {
    bool supported = false;
    std::string reason; // e.g. "MPIX_Query_cuda_support() = 1", "STENCIL_GPU_AWARE_MPI=0"
};

// In order: STENCIL_GPU_AWARE_MPI=1/0 forces the answer; on the HOST back-end
// fields live in host memory, so any MPI takes them; Cray MPICH's
// MPICH_GPU_SUPPORT_ENABLED; Open MPI's MPIX_Query_{cuda,rocm}_support();
// MPICH's MPIX_GPU_query_support(); otherwise not supported.
GpuAwareness detect_gpu_aware_mpi();

} // namespace stencil
