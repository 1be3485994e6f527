// FTZ and DAZ for the HOST back-end's threads: MXCSR on x86-64, FPCR.FZ on
// AArch64 (which flushes both inputs and results of FP32 and FP64).
#include "host_denormals.hpp"

#include <mutex>

#if defined(__x86_64__) || defined(_M_X64)
#include <pmmintrin.h>
#include <xmmintrin.h>
#define STENCIL_FLUSH_X86 1
#elif defined(__aarch64__)
#include <cstdint>
#define STENCIL_FLUSH_AARCH64 1
#endif

namespace stencil {
namespace {

#if defined(STENCIL_FLUSH_AARCH64)
constexpr std::uint64_t kFpcrFlushToZero = std::uint64_t(1) << 24;

std::uint64_t read_fpcr() {
    std::uint64_t fpcr;
    asm volatile("mrs %0, fpcr" : "=r"(fpcr));
    return fpcr;
}
#endif

void flush_on_this_thread() {
#if defined(STENCIL_FLUSH_X86)
    _MM_SET_FLUSH_ZERO_MODE(_MM_FLUSH_ZERO_ON);
    _MM_SET_DENORMALS_ZERO_MODE(_MM_DENORMALS_ZERO_ON);
#elif defined(STENCIL_FLUSH_AARCH64)
    asm volatile("msr fpcr, %0" ::"r"(read_fpcr() | kFpcrFlushToZero));
#endif
}

} // namespace

void flush_denormals_on_host_threads() {
    static std::once_flag once;
    std::call_once(once, [] {
        flush_on_this_thread();
#pragma omp parallel
        flush_on_this_thread();
    });
}

bool host_thread_flushes_denormals() {
#if defined(STENCIL_FLUSH_X86)
    return _MM_GET_FLUSH_ZERO_MODE() == _MM_FLUSH_ZERO_ON &&
           _MM_GET_DENORMALS_ZERO_MODE() == _MM_DENORMALS_ZERO_ON;
#elif defined(STENCIL_FLUSH_AARCH64)
    return (read_fpcr() & kFpcrFlushToZero) != 0;
#else
    return false;
#endif
}

const char* host_denormal_mode() {
#if defined(STENCIL_FLUSH_X86) || defined(STENCIL_FLUSH_AARCH64)
    return "subnormals flushed to zero (FTZ, DAZ)";
#else
    return "subnormals kept (no flush mode for this CPU in this build)";
#endif
}

} // namespace stencil
