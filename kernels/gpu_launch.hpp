// Internal to kernels/: the per-technique launchers that launchers.cu
// dispatches to, and the launch-geometry helpers they share.
#pragma once

#include "device_vec.hpp"
#include "host_operators.hpp"
#include "stencil.hpp"

#include <cstddef>
#include <string>

namespace stencil::detail {

inline unsigned blocks_for(long long items, int per_block) {
    return unsigned((items + per_block - 1) / per_block);
}

// Launch geometry of the kernels that work in 16-byte vector groups of T:
// the box's groups along x, blocks of block_x x block_y threads (one group
// and `rows` rows each), and `planes` z planes per block.
struct GroupLaunch {
    device::XGroups groups;
    dim3 grid, block;

    template <class T>
    static GroupLaunch of(const Layout& layout, const Box& box, const LaunchShape& t, int planes,
                          int rows = 1) {
        return GroupLaunch(device::XGroups::of(layout, box.x0, box.x1, device::kLanes<T>), box, t,
                           planes, rows);
    }

private:
    GroupLaunch(device::XGroups g, const Box& box, const LaunchShape& t, int planes, int rows)
        : groups(g), grid(blocks_for(groups.count, t.block_x),
                          blocks_for(box.ny(), rows * t.block_y), blocks_for(box.nz(), planes)),
          block(t.block_x, t.block_y) {}
};

// `requested` with its zero fields filled for R and T; a shape that cannot
// launch (fits() says why) ends the run: callers check user input first.
template <class T>
LaunchShape checked_shape(const LaunchShape& requested, int radius,
                          FusedKernel kernel = FusedKernel::Laplacian) {
    const LaunchShape t = resolve_shape(requested, radius, precision_of<T>(), kernel);
    if (const std::string why = fits(t, radius, precision_of<T>(), kernel); !why.empty())
        fatal("launch shape: " + why);
    return t;
}

// Blocks of `kernel` with this shape that the device runs at once, over all
// its SMs (CUs). Cached per kernel and shape, since launches ask every step;
// a process drives one device.
long long resident_blocks(const void* kernel, int threads, std::size_t lds_bytes);

template <int R, class T>
void launch_baseline(Axis axis, FieldView<const T> in, FieldView<T> out, const Box& box,
                     const Coefficients<R, T>& c, Stream& stream);
template <int R, class T>
void launch_vector_x(FieldView<const T> in, FieldView<T> out, const Box& box,
                     const Coefficients<R, T>& c, Stream& stream, const LaunchShape& t);
template <int R, class T>
void launch_lds_y(FieldView<const T> in, FieldView<T> out, const Box& box,
                  const Coefficients<R, T>& c, Stream& stream, const LaunchShape& t);
template <int R, class T>
void launch_window_z(FieldView<const T> in, FieldView<T> out, const Box& box,
                     const Coefficients<R, T>& c, Stream& stream, const LaunchShape& t);
template <int R, class T>
void launch_fused_xy(FieldView<const T> in, FieldView<T> out, const Box& box,
                     const Coefficients<R, T>& c, Stream& stream, const LaunchShape& t);
template <int R, class T>
void launch_fused_laplacian(FieldView<const T> in, FieldView<T> out, const Box& box,
                            const Coefficients<R, T>& c, Stream& stream, const LaunchShape& t);
// The wave update that also stores its faces (stored_wave_kernels.cu), and
// adds the source where `source` is not null.
template <int R, class T>
void launch_stored_wave(FieldView<const T> p, FieldView<T> p_prev, FieldView<const T> vel,
                        const Box& box, const Coefficients<R, T>& c, const Sponge& sponge,
                        Stream& stream, const LaunchShape& requested, const FaceSinks<T>* sinks,
                        SourceInLaunch<T> source);

} // namespace stencil::detail
