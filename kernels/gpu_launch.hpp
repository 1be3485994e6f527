// Internal to kernels/: the per-technique launchers that launchers.cu
// dispatches to, and the launch-geometry helpers they share.
#pragma once

#include "device_vec.hpp"
#include "host_operators.hpp"
#include "stencil.hpp"

#include <cstddef>

namespace stencil::detail {

inline unsigned blocks_for(long long items, int per_block) {
    return unsigned((items + per_block - 1) / per_block);
}

// Launch geometry of the kernels that work in 4-cell vector groups: the
// box's groups along x, blocks of block_x x block_y threads (one group and
// one row each), and `planes` z planes per block.
struct GroupLaunch {
    device::XGroups groups;
    dim3 grid, block;

    GroupLaunch(const Layout& layout, const Box& box, const Tuning& t, int planes, int rows = 1)
        : groups(device::XGroups::of(layout, box.x0, box.x1)),
          grid(blocks_for(groups.count, t.block_x), blocks_for(box.ny(), rows * t.block_y),
               blocks_for(box.nz(), planes)),
          block(t.block_x, t.block_y) {}
};

// Blocks of `kernel` with this shape that the device runs at once, over all
// its SMs (CUs). Cached per kernel and shape, since launches ask every step;
// a process drives one device.
long long resident_blocks(const void* kernel, int threads, std::size_t lds_bytes);

template <int R>
void launch_baseline(Axis axis, FieldView<const float> in, FieldView<float> out, const Box& box,
                     const Coefficients<R, float>& c, Stream& stream);
template <int R>
void launch_vector_x(FieldView<const float> in, FieldView<float> out, const Box& box,
                     const Coefficients<R, float>& c, Stream& stream, const Tuning& t);
template <int R>
void launch_lds_y(FieldView<const float> in, FieldView<float> out, const Box& box,
                  const Coefficients<R, float>& c, Stream& stream, const Tuning& t);
template <int R>
void launch_window_z(FieldView<const float> in, FieldView<float> out, const Box& box,
                     const Coefficients<R, float>& c, Stream& stream, const Tuning& t);
template <int R>
void launch_fused_xy(FieldView<const float> in, FieldView<float> out, const Box& box,
                     const Coefficients<R, float>& c, Stream& stream, const Tuning& t);
template <int R>
void launch_fused_laplacian(FieldView<const float> in, FieldView<float> out, const Box& box,
                            const Coefficients<R, float>& c, Stream& stream, const Tuning& t);

} // namespace stencil::detail
