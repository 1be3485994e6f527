// The one-box wave update that also stores the face cells it computes into
// the sinks that hold them (kernels/face_sinks.hpp): the whole box of a
// step whose faces go to neighbours on the node or to the rank's own halos
// (halo/face_routes.hpp), or the interior beside the slabs. A kernel of its
// own, in a file of its own: the face stores held up to 30 more registers
// in the walk, which cost the plain update a block per SM at R = 1 and
// R = 6 and spilled R = 2 FP64 at four rows, so the plain update keeps
// the kernel it had. One source, compiled as HIP or CUDA.
#include "fused_launch.hpp"

#include <type_traits>

namespace stencil::detail {
namespace {

template <int R, class T, int Rows, bool SyncApron>
__global__ void __launch_bounds__(256) STENCIL_MAX_REGISTERS((kRegisterCap<R, T, true, Rows>))
    stored_wave_kernel(FieldView<const T> p, FieldView<T> out, FieldView<const T> vel, Box box,
                       Coefficients<R, T> c, Sponge sponge, XGroups groups, int window,
                       const FaceSinks<T>* sinks, SourceInLaunch<T> source) {
    count_source_step(source);
    fused_walk<R, T, true, Rows, SyncApron, SinkStores::InWalk>(
        p, out, vel, box, c, sponge, groups, window, launch_place(), sinks, source);
}

// With two planes of loads in flight (fused_walk.hpp, PlainFusedKernels),
// and no source (fused_kernel_2ahead says why).
template <int R, class T, int Rows, bool SyncApron>
__global__ void __launch_bounds__(256) STENCIL_MAX_REGISTERS((kRegisterCap<R, T, true, Rows>))
    stored_wave_kernel_2ahead(FieldView<const T> p, FieldView<T> out, FieldView<const T> vel,
                              Box box, Coefficients<R, T> c, Sponge sponge, XGroups groups,
                              int window, const FaceSinks<T>* sinks, SourceInLaunch<T>) {
    fused_walk<R, T, true, Rows, SyncApron, SinkStores::InWalk, 2>(
        p, out, vel, box, c, sponge, groups, window, launch_place(), sinks);
}

// Rows per thread the stored update runs with: R = 2 in FP64 at four rows
// holds 254 registers without the stores and spilled 16 bytes with them
// (sm_90), so two there; rows change no bit.
template <int R, class T>
constexpr int stored_rows(int rows) {
    return R == 2 && std::is_same_v<T, double> && rows > 2 ? 2 : rows;
}

struct StoredWaveKernels {
    template <int R, class T, bool Wave, int Rows, bool SyncApron, int Ahead>
    static auto get() {
        static_assert(Wave, "only the wave update stores faces");
        if constexpr (Ahead == 2)
            return stored_wave_kernel_2ahead<R, T, stored_rows<R, T>(Rows), SyncApron>;
        else
            return stored_wave_kernel<R, T, stored_rows<R, T>(Rows), SyncApron>;
    }
};

} // namespace

template <int R, class T>
void launch_stored_wave(FieldView<const T> p, FieldView<T> p_prev, FieldView<const T> vel,
                        const Box& box, const Coefficients<R, T>& c, const Sponge& sponge,
                        Stream& stream, const LaunchShape& requested, const FaceSinks<T>* sinks,
                        SourceInLaunch<T> source) {
    if (box.empty()) return;
    LaunchShape t = wave_shape<R, T>(requested.on_tile(), p.layout, box);
    t.rows = stored_rows<R, T>(t.rows);
    const auto g = GroupLaunch::of<T>(p.layout, box, t, t.window, t.rows);
    fused_kernel_for<R, T, true, StoredWaveKernels>(
        t)<<<g.grid, g.block, fused_lds_bytes<R, T>(t), stream.handle()>>>(
        p, p_prev, vel, box, c, sponge, g.groups, t.window, sinks, source);
    GPU_CHECK_LAUNCH();
}

#define STENCIL_INSTANTIATE_STORED_WAVE(R, T)                                                      \
    template void launch_stored_wave<R, T>(FieldView<const T>, FieldView<T>, FieldView<const T>,   \
                                           const Box&, const Coefficients<R, T>&, const Sponge&,   \
                                           Stream&, const LaunchShape&, const FaceSinks<T>*,       \
                                           SourceInLaunch<T>);
STENCIL_FOR_EACH_RADIUS_AND_TYPE(STENCIL_INSTANTIATE_STORED_WAVE)

} // namespace stencil::detail
