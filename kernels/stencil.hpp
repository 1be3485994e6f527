// Host-side launchers of the stencil kernels: the only way code outside
// kernels/ runs an operator. Each takes views, a Box in the padded index
// space and a stream; the radius R is a template parameter, chosen once at
// run time with dispatch_radius().
//
// The same declarations are implemented twice: by GPU kernels (one source,
// compiled as HIP or CUDA) and by the HOST back-end's OpenMP loops.
#pragma once

#include "box.hpp"
#include "coefficients.hpp"
#include "face_sinks.hpp"
#include "fatal.hpp"
#include "field.hpp"
#include "launch_shape.hpp"
#include "launch_table.hpp"
#include "precision.hpp"
#include "source.hpp"
#include "sponge.hpp"
#include "stream.hpp"

#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace stencil {

// What a kernel computes, and how. See docs/ARCHITECTURE.md for each technique.
enum class Variant {
    BaselineX,
    BaselineY,
    BaselineZ, // one thread per cell, one direction
    VectorX,   // 4 cells per thread, register window along x
    LdsY,      // y neighbours through LDS (shared memory)
    WindowZ,   // sliding register window along z
    FusedXY,   // d2/dx2 + d2/dy2 in one pass
    FusedXYZ,  // the full Laplacian in one pass
};

const char* variant_name(Variant v);
// The variants this back-end implements (the HOST back-end has no LDS or windows).
const std::vector<Variant>& available_variants();
// The direction(s) a variant differentiates: "x", "y", "z", "xy" or "xyz".
const char* variant_axes(Variant v);

// out = the variant's derivative(s) of `in` over `box`.
template <int R, class T>
void launch_derivative(Variant variant, FieldView<const T> in, FieldView<T> out, const Box& box,
                       const Coefficients<R, T>& c, Stream& stream, const LaunchShape& shape = {});

// The fused one-pass wave update over `box`, in place:
//   p_prev <- (2 p - (1 - eta) p_prev + vel * L(p)) / (1 + eta),  vel = dt^2 c^2.
// Each updated cell is also stored into the `sinks` that hold it: the faces
// a whole-box update hands to its own halos and to neighbours on the node.
// `sinks` is a table in device memory (DeviceArray), or null for none.
// The body is the shape's (wave_shape: by the box where it names none);
// `source`, where given (a table in device memory, as `sinks`), is added
// by the update, either body, as it computes the source's images, and its
// count advanced (source.hpp); with two planes of loads in flight it is
// refused.
template <int R, class T>
void launch_wave_step(FieldView<const T> p, FieldView<T> p_prev, FieldView<const T> vel,
                      const Box& box, const Coefficients<R, T>& c, const Sponge& sponge,
                      Stream& stream, const LaunchShape& shape = {},
                      const FaceSinks<T>* sinks = nullptr, SourceInLaunch<T> source = {});

// launch_wave_step over every box of `tables` (wave_tables of boxes with
// slab_shape's shapes), one launch a table on its kernel: bitwise the same
// cells and values as launch_wave_step on each box. Each updated cell is also stored
// into the `sinks` that hold it (the fused pack, face_sinks.hpp).
template <int R, class T>
void launch_wave_boxes(FieldView<const T> p, FieldView<T> p_prev, FieldView<const T> vel,
                       const std::vector<WaveTable>& tables, const Coefficients<R, T>& c,
                       const Sponge& sponge, Stream& stream,
                       const FaceSinks<T>& sinks = FaceSinks<T>{});

// The explicit instantiations of the API above, written once for each
// back-end's sources.
#define STENCIL_INSTANTIATE_DERIVATIVE(R, T)                                                       \
    template void launch_derivative<R, T>(Variant, FieldView<const T>, FieldView<T>, const Box&,   \
                                          const Coefficients<R, T>&, Stream&, const LaunchShape&);
#define STENCIL_INSTANTIATE_WAVE(R, T)                                                             \
    template LaunchShape wave_shape<R, T>(const LaunchShape&, const Layout&, const Box&);          \
    template LaunchShape slab_shape<R, T>(const Layout&, const Box&, SlabKernel, int);             \
    template void launch_wave_step<R, T>(FieldView<const T>, FieldView<T>, FieldView<const T>,     \
                                         const Box&, const Coefficients<R, T>&, const Sponge&,     \
                                         Stream&, const LaunchShape&, const FaceSinks<T>*,         \
                                         SourceInLaunch<T>);                                       \
    template void launch_wave_boxes<R, T>(                                                         \
        FieldView<const T>, FieldView<T>, FieldView<const T>, const std::vector<WaveTable>&,       \
        const Coefficients<R, T>&, const Sponge&, Stream&, const FaceSinks<T>&);

// dst[0..count) = src[0..count): the bandwidth yardstick.
template <class T>
void launch_copy(const T* src, T* dst, std::size_t count, Stream& stream);

// Calls f(std::integral_constant<int, R>{}) for the run-time radius; the one
// place where a run-time R becomes a compile-time one.
template <class F>
decltype(auto) dispatch_radius(int radius, F&& f) {
    switch (radius) {
    case 1:
        return f(std::integral_constant<int, 1>{});
    case 2:
        return f(std::integral_constant<int, 2>{});
    case 3:
        return f(std::integral_constant<int, 3>{});
    case 4:
        return f(std::integral_constant<int, 4>{});
    case 5:
        return f(std::integral_constant<int, 5>{});
    case 6:
        return f(std::integral_constant<int, 6>{});
    case 7:
        return f(std::integral_constant<int, 7>{});
    case 8:
        return f(std::integral_constant<int, 8>{});
    default:
        fatal("radius " + std::to_string(radius) + " is outside 1..8");
    }
}

// Expands M(R, T) for every radius and element type the kernels are built
// for: the explicit instantiations of every back-end use it.
#define STENCIL_FOR_EACH_RADIUS(M, T)                                                              \
    M(1, T) M(2, T) M(3, T) M(4, T) M(5, T) M(6, T) M(7, T) M(8, T)
#define STENCIL_FOR_EACH_RADIUS_AND_TYPE(M)                                                        \
    STENCIL_FOR_EACH_RADIUS(M, float) STENCIL_FOR_EACH_RADIUS(M, double)

} // namespace stencil
