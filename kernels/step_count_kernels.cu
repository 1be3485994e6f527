// GPU implementations of step_counts.hpp: a thread per link, one source for HIP
// and CUDA. The counts are read and written through volatile pointers, so
// every poll goes to memory, with __threadfence_system() between them and
// the faces: it orders the faces stored by the kernels before a raise
// (complete when this kernel starts, on the same stream) before the count
// that announces them, and the count seen by a wait before the loads of
// the kernel after.
#include "gpu_runtime.hpp"
#include "step_counts.hpp"

namespace stencil {
namespace {

// One thread per link (a warp), so that the stores to the neighbours and
// the polls of their slots go out together rather than one after another.
__global__ void raise_step_counts_kernel(StepCountLinks links) {
    const int s = int(threadIdx.x);
    const unsigned finished = *links.own + 1;
    // The faces the update stored, every one of them, before any count.
    __threadfence_system();
#pragma unroll
    for (int n = 0; n < kMaxCountLinks; ++n)
        if (n == s && n < links.count) *static_cast<volatile unsigned*>(links.raise[n]) = finished;
    __syncthreads(); // every thread has read the count before it moves on
    if (s == 0) *links.own = finished;
}

__global__ void await_step_counts_kernel(StepCountLinks links) {
    const int s = int(threadIdx.x);
    const unsigned finished = *links.own;
#pragma unroll
    for (int n = 0; n < kMaxCountLinks; ++n)
        if (n == s && n < links.count)
            while (*static_cast<const volatile unsigned*>(links.incoming[n]) < finished) {
            }
    // The neighbours' faces, seen after their counts, before the next
    // kernel's loads.
    __threadfence_system();
}

__global__ void delay_kernel(long long cycles) {
    const long long start = clock64();
    while (clock64() - start < cycles) {
    }
}

} // namespace

void launch_raise_step_counts(const StepCountLinks& links, Stream& stream) {
    if (links.count == 0) return;
    raise_step_counts_kernel<<<1, kMaxCountLinks, 0, stream.handle()>>>(links);
    GPU_CHECK_LAUNCH();
}

void launch_await_step_counts(const StepCountLinks& links, Stream& stream) {
    if (links.count == 0) return;
    await_step_counts_kernel<<<1, kMaxCountLinks, 0, stream.handle()>>>(links);
    GPU_CHECK_LAUNCH();
}

void launch_delay(int microseconds, Stream& stream) {
    // clock64 counts shader cycles; at most 3 GHz on any GPU this targets,
    // so the delay is at least as long as asked.
    delay_kernel<<<1, 1, 0, stream.handle()>>>(3000LL * microseconds);
    GPU_CHECK_LAUNCH();
}

} // namespace stencil
