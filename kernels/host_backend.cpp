// The HOST back-end's implementation of stencil.hpp: the host operators in
// the run's precision. It has one technique per operator (OpenMP loops), so it offers the
// baseline per-direction variants and the fused Laplacian only.
#include "field_ops.hpp"
#include "host_operators.hpp"
#include "stencil.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace stencil {

template <int R, class T>
void launch_derivative(Variant variant, FieldView<const T> in, FieldView<T> out, const Box& box,
                       const Coefficients<R, T>& c, Stream& stream, const Tuning& tuning) {
    (void)stream;
    (void)tuning;
    if (box.empty()) return;
    switch (variant) {
    case Variant::BaselineX:
        return host_second_derivative<R>(Axis::X, in, out, box, c.x);
    case Variant::BaselineY:
        return host_second_derivative<R>(Axis::Y, in, out, box, c.y);
    case Variant::BaselineZ:
        return host_second_derivative<R>(Axis::Z, in, out, box, c.z);
    case Variant::FusedXYZ:
        return host_laplacian<R>(in, out, box, c);
    default:
        fatal(std::string("variant ") + variant_name(variant) + " is not available on HOST");
    }
}

template <int R, class T>
void launch_wave_step(FieldView<const T> p, FieldView<T> p_prev, FieldView<const T> vel,
                      const Box& box, const Coefficients<R, T>& c, const Sponge& sponge,
                      Stream& stream, const Tuning& tuning) {
    (void)stream;
    (void)tuning;
    if (!box.empty()) host_wave_step<R>(p, p_prev, vel, box, c, sponge);
}

template <int R, class T>
Tuning wave_tuning(const Tuning& requested, const Layout& layout, const Box& box) {
    (void)layout;
    (void)box;
    // The host loops have no launch shape; this is what a GPU would default to.
    return resolve_tuning(requested, R, precision_of<T>(), true);
}

template <class T>
void launch_copy(const T* src, T* dst, std::size_t count, Stream& stream) {
    (void)stream;
    // Split across threads as the stencil loops are, so the ratio compares like with like.
#pragma omp parallel for schedule(static)
    for (std::size_t block = 0; block < (count + 4095) / 4096; ++block) {
        const std::size_t begin = block * 4096, n = std::min<std::size_t>(4096, count - begin);
        std::memcpy(dst + begin, src + begin, n * sizeof(T));
    }
}

#define STENCIL_INSTANTIATE_HOST(R, T)                                                             \
    template void launch_derivative<R, T>(Variant, FieldView<const T>, FieldView<T>, const Box&,   \
                                          const Coefficients<R, T>&, Stream&, const Tuning&);      \
    template Tuning wave_tuning<R, T>(const Tuning&, const Layout&, const Box&);                   \
    template void launch_wave_step<R, T>(FieldView<const T>, FieldView<T>, FieldView<const T>,     \
                                         const Box&, const Coefficients<R, T>&, const Sponge&,     \
                                         Stream&, const Tuning&);
STENCIL_FOR_EACH_RADIUS_AND_TYPE(STENCIL_INSTANTIATE_HOST)
template void launch_copy<float>(const float*, float*, std::size_t, Stream&);
template void launch_copy<double>(const double*, double*, std::size_t, Stream&);

} // namespace stencil

// ---- field_ops.hpp ---------------------------------------------------------

namespace stencil {
namespace {

// Visits the cells of `box` in x-fastest order with their flat index.
template <class F>
void for_each_cell(const Box& box, F&& f) {
    if (box.empty()) return;
    const long long nx = box.nx(), ny = box.ny();
#pragma omp parallel for collapse(2) schedule(static)
    for (int k = box.z0; k < box.z1; ++k)
        for (int j = box.y0; j < box.y1; ++j) {
            const long long row = ((k - box.z0) * ny + (j - box.y0)) * nx;
            for (int i = box.x0; i < box.x1; ++i)
                f(i, j, k, row + (i - box.x0));
        }
}

} // namespace

template <class T>
void launch_pack(FieldView<const T> field, const Box& face, T* buffer, Stream&) {
    for_each_cell(face, [&](int i, int j, int k, long long t) { buffer[t] = field(i, j, k); });
}

template <class T>
void launch_unpack(const T* buffer, FieldView<T> field, const Box& face, Stream&) {
    for_each_cell(face, [&](int i, int j, int k, long long t) { field(i, j, k) = buffer[t]; });
}

template <class T>
void launch_fill(FieldView<T> field, const Box& box, T value, Stream&) {
    for_each_cell(box, [&](int i, int j, int k, long long) { field(i, j, k) = value; });
}

template <class T>
void launch_add_at(FieldView<T> field, int i, int j, int k, T value, Stream&) {
    field(i, j, k) += value;
}

template <class T>
void launch_gather_cells(FieldView<const T> field, const std::size_t* offsets, int count,
                         double* out, Stream&) {
    for (int n = 0; n < count; ++n)
        out[n] = field.origin[offsets[n]];
}

template <class T>
std::size_t count_nonfinite(FieldView<const T> field, const Box& box, unsigned long long*,
                            Stream&) {
    std::size_t count = 0;
    if (box.empty()) return 0;
#pragma omp parallel for collapse(2) reduction(+ : count) schedule(static)
    for (int k = box.z0; k < box.z1; ++k)
        for (int j = box.y0; j < box.y1; ++j)
            for (int i = box.x0; i < box.x1; ++i)
                count += !std::isfinite(field(i, j, k));
    return count;
}

STENCIL_INSTANTIATE_FIELD_OPS(float)
STENCIL_INSTANTIATE_FIELD_OPS(double)

} // namespace stencil
