// The one-box kernels on the fused walk (fused_walk.hpp): the kernels, the
// choice of instantiation for a launch shape (rows per thread, the apron's
// staging, planes of loads in flight), and the one-box launcher. Device
// code: included only by .cu files.
#pragma once

#include "fused_walk.hpp"

namespace stencil::detail {

// A one-box kernel's place: its block and thread in the launch.
__device__ __forceinline__ BlockPlace launch_place() {
    return {int(blockDim.x), int(blockDim.y), int(threadIdx.x), int(threadIdx.y),
            int(blockIdx.x), int(blockIdx.y), int(blockIdx.z)};
}

template <int R, class T, bool Wave, int Rows, bool SyncApron>
__global__ void __launch_bounds__(256) STENCIL_MAX_REGISTERS((kRegisterCap<R, T, Wave, Rows>))
    fused_kernel(FieldView<const T> p, FieldView<T> out, FieldView<const T> vel, Box box,
                 Coefficients<R, T> c, Sponge sponge, XGroups groups, int window,
                 SourceInLaunch<T> source) {
    if constexpr (Wave) count_source_step(source); // the Laplacian alone adds no source
    fused_walk<R, T, Wave, Rows, SyncApron>(p, out, vel, box, c, sponge, groups, window,
                                            launch_place(), nullptr, source);
}

// The same with two planes of loads in flight (LaunchShape::ahead), under a
// name of its own, so that the one-plane kernels keep theirs in the
// resource tables. It adds no source: added inside the walk, as first
// tried, the addition spilled 32 bytes there at R = 4 in FP32 (sm_90);
// after the walk it has not been tried there. So launch_wave_step refuses a
// source for two planes ahead, and the step launches the source after it.
template <int R, class T, bool Wave, int Rows, bool SyncApron>
__global__ void __launch_bounds__(256) STENCIL_MAX_REGISTERS((kRegisterCap<R, T, Wave, Rows>))
    fused_kernel_2ahead(FieldView<const T> p, FieldView<T> out, FieldView<const T> vel, Box box,
                        Coefficients<R, T> c, Sponge sponge, XGroups groups, int window,
                        SourceInLaunch<T>) {
    fused_walk<R, T, Wave, Rows, SyncApron, SinkStores::None, 2>(p, out, vel, box, c, sponge,
                                                                 groups, window, launch_place());
}

// The one-box kernels by instantiation: `get` names the kernel a launch of
// `Rows` rows per thread and `Ahead` planes in flight runs
// (fused_kernel_for), for the plain update and for the wave update that
// stores its faces (stored_wave_kernels.cu).
struct PlainFusedKernels {
    template <int R, class T, bool Wave, int Rows, bool SyncApron, int Ahead>
    static auto get() {
        if constexpr (Ahead == 2)
            return fused_kernel_2ahead<R, T, Wave, Rows, SyncApron>;
        else
            return fused_kernel<R, T, Wave, Rows, SyncApron>;
    }
};

// The instantiation a launch shape runs: its rows per thread (only those
// max_fused_rows builds for R), whether its apron is staged synchronously,
// and its planes in flight (two only where two_planes_ahead_built, and
// fits() has refused them elsewhere). Blocks whose apron has more slots
// than kApronPrefetch per thread stage it in a variant of their own: in the
// prefetching kernel that loop kept a dozen uniform values live and, at
// R = 8 on gfx90a, spilled scalar registers.
template <int R, class T, bool Wave, int Rows, class Kernels>
auto fused_kernel_with_rows(const LaunchShape& t) {
    if (!apron_prefetched(t, R, precision_of<T>()))
        return Kernels::template get<R, T, Wave, Rows, true, 1>();
    if constexpr (Wave && two_planes_ahead_built(R, precision_of<T>(), Rows))
        if (t.ahead == 2) return Kernels::template get<R, T, Wave, Rows, false, 2>();
    return Kernels::template get<R, T, Wave, Rows, false, 1>();
}

// The device templates keep a bool for the kernel, so their names (and the
// resource tables that list them) stay as they were.
template <bool Wave>
inline constexpr FusedKernel kFusedKernel = Wave ? FusedKernel::Wave : FusedKernel::Laplacian;

template <int R, class T, bool Wave, class Kernels = PlainFusedKernels>
auto fused_kernel_for(const LaunchShape& t) {
    constexpr int max_rows = max_fused_rows(R, kFusedKernel<Wave>);
    switch (t.rows) {
    case 2:
        if constexpr (max_rows >= 2) return fused_kernel_with_rows<R, T, Wave, 2, Kernels>(t);
        break;
    case 4:
        if constexpr (max_rows >= 4) return fused_kernel_with_rows<R, T, Wave, 4, Kernels>(t);
        break;
    case 8:
        if constexpr (max_rows >= 8) return fused_kernel_with_rows<R, T, Wave, 8, Kernels>(t);
        break;
    default:
        break;
    }
    // rows 1; checked_shape refused the rest
    return fused_kernel_with_rows<R, T, Wave, 1, Kernels>(t);
}

// LDS bytes of a fused launch: two tiles (double-buffered).
template <int R, class T>
std::size_t fused_lds_bytes(const LaunchShape& t) {
    return 2 * fused_tile_bytes(t, R, t.rows, precision_of<T>());
}

template <int R, class T, bool Wave>
void launch_fused(FieldView<const T> p, FieldView<T> out, FieldView<const T> vel, const Box& box,
                  const Coefficients<R, T>& c, const Sponge& sponge, Stream& stream,
                  const LaunchShape& requested, SourceInLaunch<T> source = {}) {
    if (box.empty()) return;
    const LaunchShape t = Wave ? wave_shape<R, T>(requested.on_tile(), p.layout, box)
                               : checked_shape<T>(requested, R, kFusedKernel<Wave>);
    const auto g = GroupLaunch::of<T>(p.layout, box, t, t.window, t.rows);
    fused_kernel_for<R, T, Wave>(t)<<<g.grid, g.block, fused_lds_bytes<R, T>(t), stream.handle()>>>(
        p, out, vel, box, c, sponge, g.groups, t.window, source);
    GPU_CHECK_LAUNCH();
}

} // namespace stencil::detail
