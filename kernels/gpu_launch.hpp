// Internal to kernels/: the per-technique launchers that launchers.cu
// dispatches to, and the launch-geometry helpers they share.
#pragma once

#include "host_operators.hpp"
#include "stencil.hpp"

#include <cstddef>

namespace stencil::detail {

inline unsigned blocks_for(long long items, int per_block) {
    return unsigned((items + per_block - 1) / per_block);
}

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
