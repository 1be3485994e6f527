// The thin portability layer: the subset of the HIP / CUDA runtime this
// project uses, behind one set of names, with the error check inside.
//
// HIP's own NVIDIA headers (Debian's HIP 5.2) do not compile against CUDA 13,
// so instead of hip-on-cuda we map both runtimes ourselves. Nearly every call
// differs only in its prefix (hipMalloc / cudaMalloc); STENCIL_RT pastes it.
// The HOST back-end has no runtime; code that needs one is compiled only when
// STENCIL_HAS_GPU is 1.
#pragma once

#include "fatal.hpp"

#include <cstddef>

#if defined(STENCIL_BACKEND_HIP)
#include <hip/hip_runtime.h>
#define STENCIL_HAS_GPU 1
#define STENCIL_RT(name) hip##name
#elif defined(STENCIL_BACKEND_CUDA)
#include <cuda_runtime.h>
#define STENCIL_HAS_GPU 1
#define STENCIL_RT(name) cuda##name
#else
#define STENCIL_HAS_GPU 0
#endif

// Graphs of captured stream work (graph.hpp). A captured step records its
// timing events as graph nodes of their own ("external" event records),
// which HIP offers from ROCm 6.2 (hipEventRecordWithFlags; 5.x lacks it) and
// CUDA from 11.1. Without them the mini-app runs its steps as plain launches.
#if defined(STENCIL_BACKEND_CUDA) || (defined(STENCIL_BACKEND_HIP) && HIP_VERSION >= 60200000)
#define STENCIL_HAVE_GRAPHS 1
#else
#define STENCIL_HAVE_GRAPHS 0
#endif

#if STENCIL_HAS_GPU

namespace stencil::gpu {

using Error = STENCIL_RT(Error_t);
using StreamHandle = STENCIL_RT(Stream_t);
using EventHandle = STENCIL_RT(Event_t);
inline constexpr Error kSuccess = STENCIL_RT(Success);

inline const char* error_string(Error e) {
    return STENCIL_RT(GetErrorString)(e);
}

// The calls whose names differ beyond the prefix.
#if defined(STENCIL_BACKEND_HIP)
using DeviceProperties = hipDeviceProp_t;
inline constexpr auto kMultiprocessorCount = hipDeviceAttributeMultiprocessorCount;
inline Error malloc_pinned(void** p, std::size_t bytes) {
    return hipHostMalloc(p, bytes, 0);
}
inline Error free_pinned(void* p) {
    return hipHostFree(p);
}
#else
using DeviceProperties = cudaDeviceProp;
inline constexpr auto kMultiprocessorCount = cudaDevAttrMultiProcessorCount;
inline Error malloc_pinned(void** p, std::size_t bytes) {
    return cudaMallocHost(p, bytes);
}
inline Error free_pinned(void* p) {
    return cudaFreeHost(p);
}
#endif

} // namespace stencil::gpu

// Checks a runtime call; on failure names the expression, the place and the
// runtime's own message, then ends the job through stencil::fatal.
#define GPU_CHECK(expr)                                                                            \
    do {                                                                                           \
        const ::stencil::gpu::Error stencil_gpu_err_ = (expr);                                     \
        if (stencil_gpu_err_ != ::stencil::gpu::kSuccess)                                          \
            ::stencil::fatal_check(#expr, __FILE__, __LINE__,                                      \
                                   ::stencil::gpu::error_string(stencil_gpu_err_));                \
    } while (0)

// After every launch: catches bad launch configurations at once. With the
// STENCIL_SYNC_KERNELS build option it also waits, so a fault inside a kernel
// is reported at the launch that caused it rather than at a later call.
#if defined(STENCIL_SYNC_KERNELS)
#define GPU_CHECK_LAUNCH()                                                                         \
    do {                                                                                           \
        GPU_CHECK(STENCIL_RT(GetLastError)());                                                     \
        GPU_CHECK(STENCIL_RT(DeviceSynchronize)());                                                \
    } while (0)
#else
#define GPU_CHECK_LAUNCH() GPU_CHECK(STENCIL_RT(GetLastError)())
#endif

#endif // STENCIL_HAS_GPU
