// The HOST back-end's implementation of stencil.hpp: the host operators in
// float. It has one technique per operator (OpenMP loops), so it offers the
// baseline per-direction variants and the fused Laplacian only.
#include "host_operators.hpp"
#include "stencil.hpp"

#include <algorithm>
#include <cstring>

namespace stencil {

template <int R>
void launch_derivative(Variant variant, FieldView<const float> in, FieldView<float> out,
                       const Box& box, const Coefficients<R, float>& c, Stream& stream,
                       const Tuning& tuning) {
    (void)stream;
    (void)tuning;
    if (box.empty()) return;
    switch (variant) {
    case Variant::BaselineX: return host_second_derivative<R>(Axis::X, in, out, box, c.x);
    case Variant::BaselineY: return host_second_derivative<R>(Axis::Y, in, out, box, c.y);
    case Variant::BaselineZ: return host_second_derivative<R>(Axis::Z, in, out, box, c.z);
    case Variant::FusedXYZ: return host_laplacian<R>(in, out, box, c);
    default: fatal(std::string("variant ") + variant_name(variant) + " is not available on HOST");
    }
}

template <int R>
void launch_wave_step(FieldView<const float> p, FieldView<float> p_prev, FieldView<const float> vel,
                      const Box& box, const Coefficients<R, float>& c, const Sponge& sponge,
                      Stream& stream, const Tuning& tuning) {
    (void)stream;
    (void)tuning;
    if (!box.empty()) host_wave_step<R>(p, p_prev, vel, box, c, sponge);
}

void launch_copy(const float* src, float* dst, std::size_t count, Stream& stream) {
    (void)stream;
    // Split across threads as the stencil loops are, so the ratio compares like with like.
#pragma omp parallel for schedule(static)
    for (std::size_t block = 0; block < (count + 4095) / 4096; ++block) {
        const std::size_t begin = block * 4096, n = std::min<std::size_t>(4096, count - begin);
        std::memcpy(dst + begin, src + begin, n * sizeof(float));
    }
}

#define STENCIL_INSTANTIATE_HOST(R)                                                                \
    template void launch_derivative<R>(Variant, FieldView<const float>, FieldView<float>,          \
                                       const Box&, const Coefficients<R, float>&, Stream&,         \
                                       const Tuning&);                                             \
    template void launch_wave_step<R>(FieldView<const float>, FieldView<float>,                    \
                                      FieldView<const float>, const Box&,                          \
                                      const Coefficients<R, float>&, const Sponge&, Stream&,       \
                                      const Tuning&);
STENCIL_INSTANTIATE_HOST(1)
STENCIL_INSTANTIATE_HOST(2)
STENCIL_INSTANTIATE_HOST(3)
STENCIL_INSTANTIATE_HOST(4)
STENCIL_INSTANTIATE_HOST(5)
STENCIL_INSTANTIATE_HOST(6)
STENCIL_INSTANTIATE_HOST(7)
STENCIL_INSTANTIATE_HOST(8)

} // namespace stencil
