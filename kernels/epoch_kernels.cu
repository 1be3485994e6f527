// GPU implementations of epochs.hpp: one thread each, one source for HIP
// and CUDA. The counts are read and written through volatile pointers, so
// every poll goes to memory, with __threadfence_system() around them: it
// orders the faces stored by the kernels before a raise (complete when
// this kernel starts, on the same stream) before the count that announces
// them, and the count seen by a wait before the loads of the kernel after.
#include "epochs.hpp"
#include "gpu_runtime.hpp"

namespace stencil {
namespace {

__global__ void raise_epochs_kernel(EpochLinks links) {
    __threadfence_system();
    const unsigned epoch = *links.own + 1;
    *links.own = epoch;
#pragma unroll
    for (int s = 0; s < kMaxEpochLinks; ++s)
        if (s < links.count) *static_cast<volatile unsigned*>(links.raise[s]) = epoch;
    __threadfence_system();
}

__global__ void await_epochs_kernel(EpochLinks links) {
    const unsigned epoch = *links.own;
#pragma unroll
    for (int s = 0; s < kMaxEpochLinks; ++s)
        if (s < links.count)
            while (*static_cast<const volatile unsigned*>(links.incoming[s]) < epoch) {
            }
    __threadfence_system();
}

__global__ void stall_kernel(long long cycles) {
    const long long start = clock64();
    while (clock64() - start < cycles) {
    }
}

} // namespace

void launch_raise_epochs(const EpochLinks& links, Stream& stream) {
    if (links.count == 0) return;
    raise_epochs_kernel<<<1, 1, 0, stream.handle()>>>(links);
    GPU_CHECK_LAUNCH();
}

void launch_await_epochs(const EpochLinks& links, Stream& stream) {
    if (links.count == 0) return;
    await_epochs_kernel<<<1, 1, 0, stream.handle()>>>(links);
    GPU_CHECK_LAUNCH();
}

void launch_stall(int microseconds, Stream& stream) {
    // clock64 counts shader cycles; at most 3 GHz on any GPU this targets,
    // so the stall is at least as long as asked.
    stall_kernel<<<1, 1, 0, stream.handle()>>>(3000LL * microseconds);
    GPU_CHECK_LAUNCH();
}

} // namespace stencil
